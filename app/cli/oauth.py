"""OAuth apps, for operators (the preview; the console registers them too).

    flask --app wsgi oauth apps create --company ID --name N --redirect-uri URI [--redirect-uri URI2 ...] \\
        --scopes a,b --json
    flask --app wsgi oauth apps rotate-secret CLIENT_ID --json
    flask --app wsgi oauth apps set-mode CLIENT_ID production

A new app is in development mode (it connects only to sandbox companies of its
organisation's members); its client secret is printed once.
"""

import click
from flask.cli import AppGroup

from app.cli.common import emit, json_option, one_line_errors
from app.domain.access import companies
from app.domain.access.keys import SCOPES
from app.domain.oauth import apps
from app.extensions import runtime

oauth_cli = AppGroup("oauth", help="OAuth 2.0 (preview).")
apps_cli = AppGroup("apps", help="OAuth apps (clients).")
oauth_cli.add_command(apps_cli)


@apps_cli.command("create")
@click.option("--company", "company_id", required=True, help="The organisation the app is registered under.")
@click.option("--name", required=True)
@click.option("--redirect-uri", "redirect_uris", multiple=True, required=True,
              help="Exact redirect URI (https://, or http:// on a loopback address); repeat for more.")
@click.option("--scopes", required=True, help=f"Comma-separated, any of {', '.join(SCOPES)}.")
@json_option
@one_line_errors
def apps_create(company_id, name, redirect_uris, scopes, as_json):
    """Register an app (development mode); its client secret is shown once."""
    organisation = companies.get_company(company_id)
    app, secret = apps.create_app(organisation, name, list(redirect_uris), scopes, runtime())
    emit(as_json, {"client_id": app.id, "client_secret": secret, "mode": app.mode},
         f"{app.id} ({app.mode} mode)\nclient secret (shown once): {secret}")


@apps_cli.command("rotate-secret")
@click.argument("client_id")
@json_option
@one_line_errors
def apps_rotate_secret(client_id, as_json):
    """A new client secret, shown once; the old one stops at once."""
    secret = apps.rotate_secret(client_id, runtime())
    emit(as_json, {"client_id": client_id, "client_secret": secret}, f"client secret (shown once): {secret}")


@apps_cli.command("set-mode")
@click.argument("client_id")
@click.argument("mode", type=click.Choice(apps.MODES))
@json_option
@one_line_errors
def apps_set_mode(client_id, mode, as_json):
    """Move an app between development and production mode."""
    app = apps.set_mode(client_id, mode)
    emit(as_json, apps.form(app), f"{app.id} is in {app.mode} mode")
