"""Console sign-in state kept on the server, so that ending it takes effect at once."""

import peewee as pw

from app.models.base import BaseModel
from app.models.company import User


class ConsoleSession(BaseModel):
    """One signed-in browser. Its cookie carries a random token; this row holds the
    token's SHA-256, so a stolen database lets no one in. A session holds while it is
    neither ended (sign-out, password change, an operator) nor expired."""

    token_hash = pw.CharField(primary_key=True, max_length=64)
    user = pw.ForeignKeyField(User, backref="console_sessions", on_delete="CASCADE")
    user_id: str
    created_at = pw.DateTimeField()
    expires_at = pw.DateTimeField()
    ended_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "console_session"
        indexes = ((("user", "ended_at"), False),)


class PasswordReset(BaseModel):
    """A "forgot password" link: single use, valid 30 minutes; only its hash is kept."""

    token_hash = pw.CharField(primary_key=True, max_length=64)
    user = pw.ForeignKeyField(User, backref="password_resets", on_delete="CASCADE")
    user_id: str
    created_at = pw.DateTimeField()
    expires_at = pw.DateTimeField()
    used_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "password_reset"
