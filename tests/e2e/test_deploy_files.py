"""deploy/ checked by the tools made for each file (systemd-analyze, caddy, nginx), and
against the code: the .env template names every setting, the units run what the
Procfile runs. CI installs the tools and sets DEPLOY_TOOLS_REQUIRED=1."""

import os
import re
import shutil
import subprocess

import pytest

from tests.e2e.processes import ROOT

DEPLOY = ROOT / "deploy"
UNITS = sorted((DEPLOY / "systemd").iterdir())


def tool(name):
    found = shutil.which(name) or next((path for path in (f"/usr/sbin/{name}", f"/usr/bin/{name}")
                                        if os.path.exists(path)), None)
    if found is None:
        if os.environ.get("DEPLOY_TOOLS_REQUIRED"):
            pytest.fail(f"{name} is required (DEPLOY_TOOLS_REQUIRED): apt-get install {name}")
        pytest.skip(f"{name} is not installed")
    return found


def run(*command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, timeout=60, **kwargs)


def test_the_systemd_units_verify_clean(tmp_path):
    """As installed, with /opt/partner-api being this checkout (systemd-analyze checks
    that each command exists). Any warning (an unknown key, a bad value) fails."""
    analyze = tool("systemd-analyze")
    for unit in UNITS:
        text = unit.read_text().replace("/opt/partner-api", str(ROOT))
        text = text.replace("/etc/partner-api/partner-api.env", str(DEPLOY / "partner-api.env"))
        (tmp_path / unit.name).write_text(text)
    done = run(analyze, "verify", *sorted(str(path) for path in tmp_path.iterdir()))
    assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), done.stdout + done.stderr


def test_the_caddyfile_validates():
    done = run(tool("caddy"), "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile")
    assert done.returncode == 0, done.stderr
    assert "Valid configuration" in done.stdout + done.stderr and '"level":"warn"' not in done.stderr


def test_the_nginx_sample_passes_nginx_t(tmp_path):
    nginx = tool("nginx")
    key, cert = tmp_path / "privkey.pem", tmp_path / "fullchain.pem"
    made = run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
               "-subj", "/CN=api.example.com", "-days", "1")
    assert made.returncode == 0, made.stderr
    site = (DEPLOY / "nginx.conf").read_text().replace("/etc/letsencrypt/live/api.example.com/", f"{tmp_path}/")
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(f"events {{}}\nhttp {{\n  include {tmp_path}/site.conf;\n}}\n")
    done = run(nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
               "-g", f"pid {tmp_path}/nginx.pid; error_log stderr;")
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stderr
    assert "[warn]" not in done.stderr, done.stderr


def test_proxies_cap_bodies_at_the_contracts_1_mb_and_hide_metrics():
    caddy, nginx = (DEPLOY / "Caddyfile").read_text(), (DEPLOY / "nginx.conf").read_text()
    assert "max_size 1MiB" in caddy and "client_max_body_size 1m;" in nginx
    assert "@metrics path /metrics" in caddy and "location = /metrics" in nginx
    for header in ("X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host"):
        assert f"proxy_set_header {header}" in nginx


def test_the_env_template_names_every_setting_with_its_default():
    settings = set(re.findall(r'(?:environ\.get|_integer|_flag)\("([A-Z_]+)"', (ROOT / "config.py").read_text()))
    settings -= {"TEST_DATABASE_URL", "TEST_REDIS_URL"}
    template = (DEPLOY / "partner-api.env").read_text()
    named = set(re.findall(r"^#?([A-Z_]+)=", template, re.MULTILINE))
    assert settings - named == set(), "settings missing from deploy/partner-api.env"
    # Every variable a unit reads is in the template too.
    used = {name for unit in UNITS for name in re.findall(r"\$\{([A-Z_]+)\}", unit.read_text())}
    assert used <= named


def test_the_units_run_what_the_procfile_runs():
    procfile = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line)
    for name in ("web", "worker", "scheduler"):
        unit = (DEPLOY / "systemd" / f"partner-api-{name}.service").read_text().replace("\\\n", " ")
        [start] = re.findall(r"^ExecStart=(.*)$", unit, re.MULTILINE)
        words = [re.sub(r"\$\{(\w+)(:-[^}]*)?\}", r"<\1>", word).split("/")[-1] for word in start.split()]
        expected = [re.sub(r"\$\{(\w+)(:-[^}]*)?\}", r"<\1>", word) for word in procfile[name].split()]
        expected = expected[1:] if expected[0] == "exec" else expected
        assert words == expected, name
        assert "ExecStartPre=/opt/partner-api/.venv/bin/flask --app wsgi db check" in unit


def test_the_env_template_makes_live_what_the_contract_says_is_live_and_asks_for_smtp():
    """The contract's status table: only getCompany is live today. Production needs SMTP
    (doctor fails without it), so the template says so where SMTP_URL is."""
    template = (DEPLOY / "partner-api.env").read_text()
    assert re.search(r"^LIVE_RELEASES=$", template, re.MULTILINE)
    assert re.search(r"^LIVE_OPERATIONS=getCompany$", template, re.MULTILINE)
    smtp = template[template.index("# --- Email"):template.index("#SMTP_URL=")]
    assert "Required in production" in smtp
