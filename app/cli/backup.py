"""Backups: `flask --app wsgi backup create PATH [--keep-days N]` and `backup restore PATH`
(app/ops/backup.py)."""

import click
from flask import current_app
from flask.cli import AppGroup

from app.cli.common import WholeNumber, reported
from app.ops.backup import BackupError, create, restore

backup_cli = AppGroup("backup", help="Back the database up, and restore it into an empty one.")


@backup_cli.command("create")
@click.argument("path")
@click.option("--keep-days", type=WholeNumber(min=1), default=None,
              help="PATH is a folder: also remove this tool's backups there older than this.")
@reported
def backup_create(path, keep_days):
    """Back up to PATH (a file; or a folder, where it is named by the UTC time)."""
    try:
        written = create(current_app.config["DATABASE_URL"], path, keep_days=keep_days)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"backup written: {written.path} ({written.size:,} bytes, {written.engine})")
    for name in written.pruned:
        click.echo(f"removed {name} (older than {keep_days} days)")


@backup_cli.command("restore")
@click.argument("path")
@reported
def backup_restore(path):
    """Restore PATH into the (empty) database DATABASE_URL names. Start the service with
    the SECRET_KEY it had when the backup was made."""
    try:
        restore(current_app.config["DATABASE_URL"], path)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"restored {path}; run `flask --app wsgi doctor`, then start the service")
