"""007: OAuth apps (clients), their connections (one approval each, the token family),
authorization codes and tokens (hashes only)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class OAuthApp(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        organisation = pw.ForeignKeyField(column_name="organisation_id", field="id", model=migrator.orm["company"],
                                          on_delete="CASCADE")
        name = pw.CharField(max_length=100)
        redirect_uris = pw.TextField()
        scopes = pw.TextField()
        mode = pw.CharField(max_length=16)
        secret_hash = pw.CharField(max_length=64)
        created_by = pw.ForeignKeyField(column_name="created_by_id", field="id", model=migrator.orm["app_user"],
                                        null=True)
        created_at = pw.DateTimeField()
        secret_rotated_at = pw.DateTimeField(null=True)

        class Meta:
            table_name = "oauth_app"

    @migrator.create_model
    class OAuthConnection(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        app = pw.ForeignKeyField(column_name="app_id", field="id", model=migrator.orm["oauth_app"],
                                 on_delete="CASCADE")
        company = pw.ForeignKeyField(column_name="company_id", field="id", model=migrator.orm["company"],
                                     on_delete="CASCADE")
        granted_by = pw.ForeignKeyField(column_name="granted_by_id", field="id", model=migrator.orm["app_user"],
                                        null=True)
        scopes = pw.TextField()
        created_at = pw.DateTimeField()
        last_used_at = pw.DateTimeField(null=True)
        revoked_at = pw.DateTimeField(null=True)
        revoked_reason = pw.CharField(max_length=32, null=True)

        class Meta:
            table_name = "oauth_connection"

    @migrator.create_model
    class OAuthCode(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        code_hash = pw.CharField(max_length=64, unique=True)
        app = pw.ForeignKeyField(column_name="app_id", field="id", model=migrator.orm["oauth_app"],
                                 on_delete="CASCADE")
        company = pw.ForeignKeyField(column_name="company_id", field="id", model=migrator.orm["company"],
                                     on_delete="CASCADE")
        user = pw.ForeignKeyField(column_name="user_id", field="id", model=migrator.orm["app_user"],
                                  on_delete="CASCADE")
        redirect_uri = pw.TextField()
        scopes = pw.TextField()
        code_challenge = pw.CharField(max_length=128)
        created_at = pw.DateTimeField()
        expires_at = pw.DateTimeField()
        used_at = pw.DateTimeField(null=True)
        connection = pw.ForeignKeyField(column_name="connection_id", field="id",
                                        model=migrator.orm["oauth_connection"], null=True, on_delete="SET NULL")

        class Meta:
            table_name = "oauth_code"

    @migrator.create_model
    class OAuthToken(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        connection = pw.ForeignKeyField(column_name="connection_id", field="id",
                                        model=migrator.orm["oauth_connection"], on_delete="CASCADE")
        kind = pw.CharField(max_length=8)
        token_hash = pw.CharField(max_length=64, unique=True)
        scopes = pw.TextField()
        created_at = pw.DateTimeField()
        expires_at = pw.DateTimeField()
        used_at = pw.DateTimeField(null=True)
        revoked_at = pw.DateTimeField(null=True)

        class Meta:
            table_name = "oauth_token"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("oauth_token")
    migrator.remove_model("oauth_code")
    migrator.remove_model("oauth_connection")
    migrator.remove_model("oauth_app")
