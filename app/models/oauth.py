import peewee as pw

from app.models.base import BaseModel
from app.models.company import Company, User


class OAuthApp(BaseModel):
    """A partner's OAuth client, registered under an organisation (a company). Its id is
    the `client_id`; only the SHA-256 of the client secret is stored (shown once)."""

    id = pw.CharField(primary_key=True, max_length=40)
    organisation = pw.ForeignKeyField(Company, backref="oauth_apps", on_delete="CASCADE")
    organisation_id: str
    name = pw.CharField(max_length=100)
    redirect_uris = pw.TextField()  # one per line, exact strings
    scopes = pw.TextField()  # space-separated: the most the app may ask for
    mode = pw.CharField(max_length=16)  # development, production
    secret_hash = pw.CharField(max_length=64)
    created_by = pw.ForeignKeyField(User, null=True, backref="oauth_apps")
    created_by_id: str | None
    created_at = pw.DateTimeField()
    secret_rotated_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "oauth_app"


class OAuthConnection(BaseModel):
    """One approval: an app acting for a company with some scopes, granted by a user.
    Its tokens are one family: a reused refresh token, a reused code or the customer's
    Revoke ends the connection and every token of it. Webhook endpoints made with its
    tokens belong to it (credential kind `oauth`, id this row's)."""

    id = pw.CharField(primary_key=True, max_length=40)
    app = pw.ForeignKeyField(OAuthApp, backref="connections", on_delete="CASCADE")
    app_id: str
    company = pw.ForeignKeyField(Company, backref="oauth_connections", on_delete="CASCADE")
    company_id: str
    granted_by = pw.ForeignKeyField(User, null=True, backref="oauth_connections")
    granted_by_id: str | None
    scopes = pw.TextField()  # as now held (a refresh may narrow them)
    created_at = pw.DateTimeField()
    last_used_at = pw.DateTimeField(null=True)
    revoked_at = pw.DateTimeField(null=True)
    revoked_reason = pw.CharField(max_length=32, null=True)  # customer, refresh_token_reused, code_reused, ...

    class Meta:
        table_name = "oauth_connection"


class OAuthCode(BaseModel):
    """An authorization code: 60 seconds, single use, bound to everything it was given
    for. `connection` is the approval its redemption made (a second use ends it)."""

    id = pw.CharField(primary_key=True, max_length=40)
    code_hash = pw.CharField(max_length=64, unique=True)
    app = pw.ForeignKeyField(OAuthApp, backref="codes", on_delete="CASCADE")
    app_id: str
    company = pw.ForeignKeyField(Company, on_delete="CASCADE")
    company_id: str
    user = pw.ForeignKeyField(User, on_delete="CASCADE")
    user_id: str
    redirect_uri = pw.TextField()
    scopes = pw.TextField()
    code_challenge = pw.CharField(max_length=128)  # S256 only
    created_at = pw.DateTimeField()
    expires_at = pw.DateTimeField()
    used_at = pw.DateTimeField(null=True)
    connection = pw.ForeignKeyField(OAuthConnection, null=True, on_delete="SET NULL")
    connection_id: str | None

    class Meta:
        table_name = "oauth_code"


class OAuthToken(BaseModel):
    """An access or refresh token of a connection; only its SHA-256 is stored. A refresh
    token is used once (`used_at`): the refresh that uses it gets the next one."""

    id = pw.CharField(primary_key=True, max_length=40)
    connection = pw.ForeignKeyField(OAuthConnection, backref="tokens", on_delete="CASCADE")
    connection_id: str
    kind = pw.CharField(max_length=8)  # access, refresh
    token_hash = pw.CharField(max_length=64, unique=True)
    scopes = pw.TextField()
    created_at = pw.DateTimeField()
    expires_at = pw.DateTimeField()
    used_at = pw.DateTimeField(null=True)
    revoked_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "oauth_token"
