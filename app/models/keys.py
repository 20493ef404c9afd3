import peewee as pw

from app.models.base import BaseModel, Prepared
from app.models.company import Company, User


class ApiKey(BaseModel):
    """A Partner API key. Only the SHA-256 of the secret is stored; it is shown once."""

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="api_keys", on_delete="CASCADE")
    company_id: str
    name = pw.CharField(max_length=100)
    environment = pw.CharField(max_length=4)  # live, test
    display_prefix = pw.CharField(max_length=24)  # e.g. "svc_test_Ab12", safe to show
    secret_hash = pw.CharField(max_length=64, unique=True)
    scopes = pw.TextField()  # space-separated
    created_by = pw.ForeignKeyField(User, null=True, backref="api_keys")
    created_by_id: str | None
    created_at = pw.DateTimeField()
    last_used_at = pw.DateTimeField(null=True)
    revoked_at = pw.DateTimeField(null=True)


class CredentialsVersion(BaseModel):
    """One row (id 1): a counter that every change to a credential, its company or its
    legal entities moves in the transaction that makes the change
    (`Runtime.credentials_changed`). Revocation's truth for the principals each web
    process keeps in memory (app/api/principal_cache.py)."""

    id = pw.IntegerField(primary_key=True)
    version = pw.BigIntegerField()

    class Meta:
        table_name = "credentials_version"


_CURRENT_VERSION = Prepared(lambda: CredentialsVersion.select(CredentialsVersion.version)
                            .where(CredentialsVersion.id == 1))


def credentials_version() -> int:
    """The current credentials version (0 if the row is missing): one primary-key read."""
    rows = _CURRENT_VERSION.rows(1)
    return rows[0][0] if rows else 0


def move_credentials_version() -> None:
    """Move the credentials version on, in the current transaction (the row is made if
    missing). The row stays locked until the transaction ends: call it last
    (`Runtime.credentials_changed` does, through `before_commit`)."""
    (CredentialsVersion.insert(id=1, version=1)
     .on_conflict(conflict_target=[CredentialsVersion.id],
                  update={CredentialsVersion.version: CredentialsVersion.version + 1})
     .execute())
