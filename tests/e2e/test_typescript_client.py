"""The partner's TypeScript client (clients/typescript, issue 51 part 6): built, packed
with `npm pack` and installed from the tarball into a fresh project, as a partner installs
it; its own tests (`node --test`: every method against the service the README's command
serves, and the retry and signature rules) and its example scripts run there. Its types
are what openapi-typescript makes of the document the service publishes today.

Without `node` and `npm` these tests skip (tests/e2e/typescript.py)."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
import requests

from tests.e2e.processes import flask
from tests.e2e.test_python_client import approve
from tests.e2e.test_serve import serving
from tests.e2e.typescript import ROOT, build, install, run


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(tmp_path_factory.mktemp("typescript") / "partner-api-client")


@pytest.fixture(scope="module")
def installed(built):
    """The fresh project, the package's compiled tests and examples beside it (they import
    the package by its name, as a partner's code does)."""
    project = install(built, built.parent / "partner-app")
    shutil.copytree(built / "build", project / "build")
    return project


def test_the_types_are_what_the_published_document_makes(built):
    """`npm run check-types` in CI's checkout: openapi-typescript, run on the document
    `flask --app wsgi openapi print` makes now, gives src/schema.ts byte for byte."""
    out = run(["node", "scripts/generate.mjs", "--check"], built, PYTHON=sys.executable, PARTNER_API_CHECKOUT=str(ROOT))
    assert "matches" in out


def test_its_tests_pass_against_the_served_service(installed, tmp_path):
    with serving(tmp_path, WEBHOOK_ALLOW_PRIVATE_NETWORKS="127.0.0.0/8") as (base, key, _, _):
        out = run(["node", "--test", "build/test/"], installed, timeout=300,
                  PARTNER_API_BASE_URL=base, PARTNER_API_KEY=key)
    counts = dict(re.findall(r"^# (pass|fail|skipped|cancelled) (\d+)$", out, re.M))
    assert counts == {"pass": counts["pass"], "fail": "0", "skipped": "0", "cancelled": "0"}, out[-3000:]
    assert int(counts["pass"]) >= 22, out[-3000:]  # 17 rules and 5 against the served sandbox


def test_the_example_sync_balances_every_journal_in_minor_units_and_says_why_it_is_refused(installed, tmp_path):
    with serving(tmp_path) as (base, key, _, _):
        env = {"PARTNER_API_KEY": key, "PARTNER_API_BASE_URL": base}
        out = run(["node", "build/examples/payroll-sync.js"], installed, **env)
        assert re.match(r".+: 10 employees\n", out), out
        assert re.search(r"^\d{4}-\d{2} (finalized|paid): net \d+\.\d{3} KWD, journal \d+\.\d{3} balanced$", out,
                         re.M), out
        wrong = subprocess.run(["node", "build/examples/payroll-sync.js"], cwd=installed, capture_output=True,
                               text=True, timeout=60,
                               env={**os.environ, **env, "PARTNER_API_KEY": "svc_test_" + "0" * 40})
        assert wrong.returncode == 1 and re.fullmatch(r"refused: 401 unauthenticated: .+ \(request req_\w+\)\n",
                                                      wrong.stderr), wrong.stderr


def test_an_app_connects_through_the_consent_page_and_its_token_is_kept_and_refreshed(installed, tmp_path):
    """examples/connect-app.ts, as the Python client's connect_app.py: the consent URL
    printed, the customer approves (the console's own forms), the code exchanged and the
    token kept; run again after the token ran out, it refreshes and keeps the new one."""
    with serving(tmp_path) as (base, key, database, output):
        password = re.search(r"sign in as (\S+), password (\S+)\)", output)
        company = requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {key}"}, timeout=10).json()
        redirect = "http://127.0.0.1:8765/cb"
        made = json.loads(flask({**os.environ, "DATABASE_URL": f"sqlite:///{database}", "REDIS_URL": ""}, "oauth",
                                "apps", "create", "--company", company["id"], "--name", "Ledgerly",
                                "--redirect-uri", redirect, "--scopes", "employees:read", "--json"))
        argv = ["node", "build/examples/connect-app.js", made["client_id"], made["client_secret"], redirect,
                str(tmp_path / "token.json")]
        env = {**os.environ, "PARTNER_API_BASE_URL": base}
        script = subprocess.Popen(argv, cwd=installed, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        try:
            line = script.stdout.readline()
            url = line.removeprefix("open: ").strip()
            landed = approve(url, password.group(1), password.group(2))
            assert landed.startswith(redirect + "?code="), landed
            out, _ = script.communicate(landed + "\n", timeout=60)
        finally:
            script.kill()
        assert script.returncode == 0 and f"connected to {company['id']}: 10 employees" in out, line + out
        kept = json.loads((tmp_path / "token.json").read_text())
        assert kept["access_token"].startswith("svc_at_") and kept["refresh_token"].startswith("svc_rt_")
        kept["expires_at"] = 0  # as if an hour had passed: the next run refreshes and keeps the new one
        (tmp_path / "token.json").write_text(json.dumps(kept))
        again = subprocess.run(argv, cwd=installed, env=env, capture_output=True, text=True, timeout=60)
        assert again.returncode == 0 and "10 employees" in again.stdout, again.stdout + again.stderr
        fresh = json.loads((tmp_path / "token.json").read_text())
        assert fresh["refresh_token"] != kept["refresh_token"] and fresh["expires_at"] > 0
