import peewee as pw

from app.models.base import BaseModel
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
