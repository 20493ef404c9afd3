"""A revoked credential stops within a second across a Redis outage (issue 46, part 3), as
processes: `flask --app wsgi serve` (two gunicorn workers) on a `redis-server` of the
test's own that keeps its data in a file. Both workers hold the credentials' principals
in memory; Redis saves its data and stops; an API key is revoked through the command line,
an OAuth access token through /oauth/revoke and an app is disconnected in the console, each
while Redis is down; Redis starts again 0.5 s after the last of them returned, from the
file that still holds the credentials version from before. No request reaches the API
during the outage, so no worker learns of it from a failed Redis call (today's code then
kept serving the revoked credentials from memory for up to 30 s). Every request sent
more than a second after a revoke returned is refused."""

import base64
import contextlib
import hashlib
import json
import os
import re
import secrets
import subprocess
import sys
import threading
import time
from urllib.parse import parse_qsl, urlencode, urlsplit

import redis
import requests

from tests.e2e.databases import rows
from tests.e2e.processes import ROOT, flask, require_redis_server, stop, wait_for, wait_until_serving
from tests.helpers import free_port

REDIRECT = "http://127.0.0.1:9/callback"  # never followed: the code is read off the redirect


class SavingRedis:
    """A `redis-server` on `port` that keeps its data in `folder` (dump.rdb), written only
    when asked (SAVE) and read back at every start: a restart brings back what was saved."""

    def __init__(self, port, folder):
        self.port, self.folder, self.process = port, folder, None

    def start(self):
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--dir", str(self.folder), "--dbfilename", "dump.rdb", "--save", "",
                                         "--appendonly", "no"], stdout=subprocess.DEVNULL)
        assert wait_for(lambda: redis.Redis(port=self.port).ping(), 10, tolerate=redis.ConnectionError)

    def save_and_crash(self):
        """SAVE, then SIGKILL: nothing written after the save survives."""
        redis.Redis(port=self.port).save()
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            stop([self.process])


def test_a_credential_revoked_while_redis_is_down_is_refused_by_every_worker_within_a_second(databases, tmp_path):
    require_redis_server()
    store = SavingRedis(free_port(), tmp_path)
    url = databases.new("revocation")
    env = {"DATABASE_URL": url, "REDIS_URL": f"redis://127.0.0.1:{store.port}/0", "OAUTH_PREVIEW": "1",
           "RATE_LIMIT_PER_MINUTE": "100000"}
    store.start()
    try:
        with serving(tmp_path, env) as (base, printed):
            key = re.search(r"sandbox API key: (svc_test_\w+)", printed).group(1)
            email, password = re.search(r"sign in as (\S+), password (\S+)\)", printed).groups()
            [(key_id,)] = rows(url, "SELECT id FROM api_key WHERE revoked_at IS NULL")
            company = re.search(r"sandbox company: (cmp_\w+)", printed).group(1)
            console = signed_in(base, email, password)
            apps = oauth_apps(env, company, ("Ledgerly", "Payslips Plus"))
            token, disconnected = (connect(base, console, app) for app in apps)
            credentials = {"key": key, "token": token["access_token"],
                           "disconnected app": disconnected["access_token"]}
            # Both workers hold every principal (requests at once reach both processes).
            assert {status for _, _, status in hammer(base, credentials, seconds=1.0)} == {200}

            store.save_and_crash()  # Redis is gone; its file holds the version the workers hold
            returned = {}
            flask({**os.environ, **env}, "keys", "revoke", key_id)
            returned["key"] = time.monotonic()
            revoked = requests.post(f"{base}/oauth/revoke", timeout=10, data={
                "token": token["access_token"], "client_id": apps[0]["client_id"],
                "client_secret": apps[0]["client_secret"]})
            returned["token"] = time.monotonic()
            assert revoked.status_code == 200, revoked.text
            page = console.get(f"{base}/console/integrations", timeout=10)
            done = console.post(f"{base}/console/integrations/connected-apps/{apps[1]['client_id']}/revoke",
                                data={"csrf_token": csrf(page.text)}, timeout=10)
            returned["disconnected app"] = time.monotonic()
            assert done.status_code == 200 and "Disconnected" in done.text, done.text[:500]
            time.sleep(0.5)  # the outage is real time: Redis is down for half a second
            store.start()

            answers = hammer(base, credentials, seconds=max(returned.values()) + 2.0 - time.monotonic())
            late = {name: [status for credential, sent, status in answers if credential == name and sent > at + 1.0]
                    for name, at in returned.items()}
            assert all(late.values()) and all(set(statuses) == {401} for statuses in late.values()), {
                name: f"{len(statuses) - statuses.count(401)} of {len(statuses)} not refused"
                for name, statuses in late.items()}
    finally:
        store.stop()


@contextlib.contextmanager
def serving(folder, env):
    """`flask --app wsgi serve` with two gunicorn workers, its output in a file (every
    request logs a line: a pipe nobody reads would fill and stop the workers); yields the
    base URL and what it printed once both workers booted."""
    port, output = free_port(), folder / "serve.log"
    with open(output, "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "serve", "--port", str(port),
                                    "--workers", "2"], cwd=ROOT, env={**os.environ, **env}, stdout=log,
                                   stderr=subprocess.STDOUT)
        try:
            assert wait_for(lambda: output.read_text().count("Booting worker with pid") == 2, 60), output.read_text()
            base = f"http://127.0.0.1:{port}"
            wait_until_serving(base)
            yield base, output.read_text()
        finally:
            stop([process])


def oauth_apps(env, company, names):
    """OAuth apps registered under `company` by the command line, side by side."""
    made = [subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "oauth", "apps", "create", "--company",
                              company, "--name", name, "--redirect-uri", REDIRECT, "--scopes", "employees:read",
                              "--json"], cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.PIPE, text=True)
            for name in names]
    return [json.loads(process.communicate(timeout=60)[0]) for process in made]


def hammer(base, credentials, seconds):
    """Four threads calling GET /v1/company with each credential in turn for `seconds`:
    every answer as (credential, monotonic time sent, status)."""
    logged, deadline = [], time.monotonic() + seconds

    def call():
        with requests.Session() as session:
            while time.monotonic() < deadline:
                for name, secret in credentials.items():
                    sent = time.monotonic()
                    try:
                        status = session.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {secret}"},
                                             timeout=10).status_code
                    except requests.RequestException as exc:
                        status = type(exc).__name__  # counted as not refused
                    logged.append((name, sent, status))

    threads = [threading.Thread(target=call) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return logged


def signed_in(base, email, password):
    console = requests.Session()
    page = console.get(f"{base}/console/sign-in", timeout=10)
    answer = console.post(f"{base}/console/sign-in", timeout=10, data={
        "email": email, "password": password, "csrf_token": csrf(page.text)})
    assert answer.status_code == 200 and "/console/sign-in" not in answer.url, answer.text[:500]
    return console


def connect(base, console, app):
    """The app's first tokens, through the consent page (the signed-in customer approves)
    and the token endpoint with PKCE."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    url = f"{base}/oauth/authorize?" + urlencode({
        "response_type": "code", "client_id": app["client_id"], "redirect_uri": REDIRECT,
        "scope": "employees:read", "state": "s", "code_challenge": challenge, "code_challenge_method": "S256"})
    consent = console.get(url, timeout=10)
    company = re.search(r'<option value="(cmp_\w+)"', consent.text).group(1)
    answer = console.post(url, allow_redirects=False, timeout=10, data={
        "csrf_token": csrf(consent.text), "company_id": company, "decision": "approve"})
    code = dict(parse_qsl(urlsplit(answer.headers["Location"]).query))["code"]
    tokens = requests.post(f"{base}/oauth/token", timeout=10, data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT, "code_verifier": verifier,
        "client_id": app["client_id"], "client_secret": app["client_secret"]})
    assert tokens.status_code == 200, tokens.text
    return tokens.json()


def csrf(page):
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page).group(1)
