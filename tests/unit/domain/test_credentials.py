"""Telling a bearer credential's kind from its token, and what a principal allows."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain import credentials
from app.domain.access import keys
from app.domain.access.principal import Principal, Unauthenticated, hash_secret
from app.domain.kernel.ids import ALPHABET, random_token
from app.models import Company

LIVE = "svc_live_" + "A" * 32
TEST = "svc_test_" + "b1" * 16


def test_a_key_is_identified_by_its_prefix_and_only_its_hash_is_kept():
    for token in (LIVE, TEST):
        bearer = credentials.identify(f"Bearer {token}", preview=True)
        assert (bearer.kind.name, bearer.secret_hash) == ("api_key", hash_secret(token))
        assert token not in bearer.secret_hash


def test_the_scheme_is_case_insensitive_and_spaces_around_the_token_do_not_matter():
    assert (credentials.identify(f"bearer   {LIVE}  ", preview=True)
            == credentials.identify(f"Bearer {LIVE}", preview=True))


@pytest.mark.parametrize("authorization", [
    None, "", "Bearer", "Bearer ", LIVE, f"Basic {LIVE}", f"Token {LIVE}",
    "Bearer svc_live_" + "A" * 31, "Bearer svc_live_" + "A" * 33, "Bearer svc_prod_" + "A" * 32,
    "Bearer svc_live_" + "A" * 31 + "-", "Bearer svc_live_" + "A" * 31 + "é",
    f"Bearer {LIVE} {LIVE}", "Bearer sk_live_" + "A" * 32,
])
def test_anything_else_is_unauthenticated(authorization):
    with pytest.raises(Unauthenticated):
        credentials.identify(authorization, preview=True)


@given(st.sampled_from(sorted(keys.PREFIXES.values())), st.text(ALPHABET, min_size=32, max_size=32))
def test_every_well_formed_key_is_an_api_key(prefix, body):
    assert credentials.identify(f"Bearer {prefix}{body}", preview=True).kind.name == "api_key"


@given(st.text(max_size=60))
def test_no_other_text_is_taken_for_a_key(text):
    if keys.KEY_PATTERN.match(text):
        return
    with pytest.raises(Unauthenticated):
        credentials.identify(f"Bearer {text}", preview=True)


def test_every_kind_has_its_own_prefixes():
    prefixes = [prefix for kind in credentials.KINDS for prefix in kind.prefixes]
    assert len(prefixes) == len(set(prefixes))
    assert all(kind.pattern.pattern.startswith("^") for kind in credentials.KINDS)


def principal(expires_at=None):
    return Principal(kind="api_key", credential_id="key_x", company=Company(id="cmp_x"), entities=(),
                     scopes=frozenset({"employees:read"}), expires_at=expires_at)


def test_a_key_never_expires_and_a_dated_credential_stops_at_its_expiry():
    now = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    assert not principal().expired(now + timedelta(days=3650))
    assert not principal(now + timedelta(seconds=1)).expired(now)
    assert principal(now).expired(now)


def test_key_secrets_are_random_and_of_the_contract_shape():
    made = {f"svc_test_{random_token(32)}" for _ in range(200)}
    assert len(made) == 200 and all(keys.KEY_PATTERN.match(secret) for secret in made)


def test_an_oauth_access_token_is_accepted_only_while_the_preview_is_on():
    token = "svc_at_" + "c" * 40
    assert credentials.identify(f"Bearer {token}", preview=True).kind.name == "oauth"
    with pytest.raises(Unauthenticated, match="preview is off"):
        credentials.identify(f"Bearer {token}", preview=False)
    assert credentials.identify(f"Bearer {LIVE}", preview=False).kind.name == "api_key"
