"""005: console sessions held on the server (sign-out, a password change and an operator
end them at once) and single-use password-reset links."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class ConsoleSession(pw.Model):
        token_hash = pw.CharField(max_length=64, primary_key=True)
        user = pw.ForeignKeyField(column_name="user_id", field="id", model=migrator.orm["app_user"],
                                  on_delete="CASCADE")
        created_at = pw.DateTimeField()
        expires_at = pw.DateTimeField()
        ended_at = pw.DateTimeField(null=True)

        class Meta:
            table_name = "console_session"
            indexes = ((("user", "ended_at"), False),)

    @migrator.create_model
    class PasswordReset(pw.Model):
        token_hash = pw.CharField(max_length=64, primary_key=True)
        user = pw.ForeignKeyField(column_name="user_id", field="id", model=migrator.orm["app_user"],
                                  on_delete="CASCADE")
        created_at = pw.DateTimeField()
        expires_at = pw.DateTimeField()
        used_at = pw.DateTimeField(null=True)

        class Meta:
            table_name = "password_reset"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("password_reset")
    migrator.remove_model("console_session")
