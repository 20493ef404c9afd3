"""Keys on a real database: the kind follows the company, and revoking one
(app/domain/credentials.py): one revocation, one "credentials changed", and the database's
credentials version moved once, last."""

import pytest

from app.domain import credentials
from app.domain.access import keys
from app.domain.kernel.errors import NotFound
from app.domain.kernel.runtime import Runtime
from app.models import CredentialsVersion
from app.models.base import write_transaction


def test_the_key_kind_follows_the_company(sandbox, clock):
    key, secret = keys.create_key(sandbox, ["employees:read"], clock, name="x" * 300)
    assert secret.startswith("svc_test_") and key.environment == "test" and len(key.name) == 100
    assert key.display_prefix == secret[:13] and key.scopes == "employees:read"


def test_a_revocation_tells_the_workers_once(sandbox, clock):
    told = []
    runtime = Runtime(clock, on_credentials_changed=lambda: told.append(1))
    key, _ = keys.create_key(sandbox, keys.SCOPES, clock)
    assert credentials.revoke_key(key.id, runtime).revoked_at is not None
    credentials.revoke_key(key.id, runtime)  # already revoked: nothing changes, nobody is told
    assert told == [1]


def test_another_companys_key_is_not_found_and_stays(sandbox, make_sandbox, clock):
    other = make_sandbox("SA")
    key, _ = keys.create_key(other, keys.SCOPES, clock)
    with pytest.raises(NotFound):
        credentials.revoke_key(key.id, Runtime(clock), company=sandbox.id)
    assert keys.ApiKey.get_by_id(key.id).revoked_at is None


def test_reissuing_revokes_only_the_working_keys_of_that_name(sandbox, clock):
    told = []
    runtime = Runtime(clock, on_credentials_changed=lambda: told.append(1))
    keep, _ = keys.create_key(sandbox, keys.SCOPES, clock, name="other")
    first, _, revoked = credentials.reissue_key(sandbox, "demo", keys.SCOPES, runtime)
    assert revoked == 0 and told == []
    second, _, revoked = credentials.reissue_key(sandbox, "demo", keys.SCOPES, runtime)
    assert revoked == 1 and told == [1]
    assert keys.ApiKey.get_by_id(first.id).revoked_at is not None
    assert keys.ApiKey.get_by_id(second.id).revoked_at is None and keys.ApiKey.get_by_id(keep.id).revoked_at is None


def test_every_credential_change_moves_the_database_version_as_its_last_write(sandbox, clock, runtime):
    """Runtime.credentials_changed moves it, once per transaction, at the end of the
    outermost write transaction (its row lock then lasts only as long as the commit)."""
    key, _ = keys.create_key(sandbox, keys.SCOPES, clock)
    before = CredentialsVersion.get_by_id(1).version
    moved_during = []
    with write_transaction():
        runtime.credentials_changed()
        runtime.credentials_changed()
        moved_during.append(CredentialsVersion.get_by_id(1).version)
    assert moved_during == [before] and CredentialsVersion.get_by_id(1).version == before + 1
    credentials.revoke_key(key.id, Runtime(clock))  # no hand-offs at all: the truth moves still
    assert CredentialsVersion.get_by_id(1).version == before + 2
