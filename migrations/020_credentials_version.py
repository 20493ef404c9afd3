"""020: the credentials version in the database (issue 46, part 3): one row whose counter
every change to a credential, its company or its legal entities moves in its own
transaction. It is what each web process checks, at least every half second, before it
trusts the principals it keeps in memory, so that a revocation holds within a second
whatever Redis did meanwhile (app/api/principal_cache.py)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class CredentialsVersion(pw.Model):
        id = pw.IntegerField(primary_key=True)
        version = pw.BigIntegerField()

        class Meta:
            table_name = "credentials_version"

    migrator.sql("INSERT INTO credentials_version (id, version) VALUES (1, 0)")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("credentials_version")
