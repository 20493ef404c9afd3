"""The operator's OAuth app commands (app/cli/oauth.py), through Flask's CLI runner."""

import json

from app.domain.oauth import apps
from tests.helpers import ok, refused


def test_an_app_is_created_in_development_mode_rotated_and_moved_to_production(run, sandbox):
    made = json.loads(ok(run("oauth", "apps", "create", "--company", sandbox.id, "--name", "Ledgerly",
                             "--redirect-uri", "https://ledgerly.example/cb", "--redirect-uri",
                             "http://127.0.0.1:8765/cb", "--scopes", "employees:read,payroll:read", "--json")))
    assert set(made) == {"client_id", "client_secret", "mode"} and made["mode"] == "development"
    assert apps.authenticate(made["client_id"], made["client_secret"])
    app = apps.get_app(made["client_id"])
    assert apps.redirect_uris_of(app) == ["https://ledgerly.example/cb", "http://127.0.0.1:8765/cb"]
    assert app.scopes == "employees:read payroll:read" and app.organisation_id == sandbox.id

    rotated = json.loads(ok(run("oauth", "apps", "rotate-secret", made["client_id"], "--json")))
    assert apps.authenticate(made["client_id"], made["client_secret"]) is None
    assert apps.authenticate(made["client_id"], rotated["client_secret"])

    moved = json.loads(ok(run("oauth", "apps", "set-mode", made["client_id"], "production", "--json")))
    assert moved["mode"] == "production"


def test_bad_app_details_are_one_line_each(run, sandbox):
    refused(run("oauth", "apps", "create", "--company", sandbox.id, "--name", "X", "--redirect-uri",
                "http://ledgerly.example/cb", "--scopes", "employees:read"), "redirect_uris.0")
    refused(run("oauth", "apps", "create", "--company", sandbox.id, "--name", "X", "--redirect-uri",
                "https://ledgerly.example/cb#frag", "--scopes", "employees:write"), "unknown scope")
    refused(run("oauth", "apps", "create", "--company", "cmp_nope", "--name", "X", "--redirect-uri",
                "https://ledgerly.example/cb", "--scopes", "employees:read"), "cmp_nope")
    refused(run("oauth", "apps", "rotate-secret", "app_nope"), "no OAuth app app_nope")
    refused(run("oauth", "apps", "set-mode", "app_nope", "production"), "no OAuth app app_nope")
