"""Sealed secrets open with the key they were sealed under, also after a rotation."""

import pytest

from app.domain.kernel.sealing import Sealer


def test_a_sealed_secret_opens_and_does_not_show():
    sealer = Sealer(["k" * 40])
    sealed = sealer.seal("whsec_abc")
    assert "whsec_abc" not in sealed and sealer.open(sealed) == "whsec_abc"
    assert sealer.seal("whsec_abc") != sealed  # fresh randomness every time


def test_after_a_rotation_old_seals_open_and_can_be_moved_to_the_new_key():
    old = Sealer(["old-key-" * 5])
    sealed = old.seal("whsec_abc")
    rotated = Sealer(["new-key-" * 5, "old-key-" * 5])  # SECRET_KEY, then SECRET_KEY_FALLBACKS
    assert rotated.open(sealed) == "whsec_abc"
    moved = rotated.reseal(sealed)
    assert Sealer(["new-key-" * 5]).open(moved) == "whsec_abc"


def test_without_the_key_nothing_opens():
    sealed = Sealer(["one-key-" * 5]).seal("whsec_abc")
    with pytest.raises(ValueError):
        Sealer(["another-" * 5]).open(sealed)
    with pytest.raises(ValueError):
        Sealer([""])
