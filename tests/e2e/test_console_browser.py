"""The console in headless Chromium (Debian's `chromium`, driven by Playwright) against
the service started as a process, as an HR admin would use it. A screenshot of each page
is saved under tests/output/console/.

Without /usr/bin/chromium these tests skip, unless CONSOLE_BROWSER_REQUIRED=1 (set by
.ci/run, which installs Chromium), where they fail instead.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

import pytest
import requests

from app.domain.webhooks.signing import verify
from tests.e2e.processes import ROOT, flask, wait_for, wait_until_serving
from tests.helpers import free_port
from tests.receivers import Receiver

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = ROOT / "tests" / "output" / "console"
PASSWORD = "a long sign-in password for tests"
ADMIN, STAFF = "admin@gulf-trading.example.com", "staff@gulf-trading.example.com"
ARABIC_ADMIN = "arabic@gulf-trading.example.com"  # signs in apart: the throttle counts per email

if not os.path.exists(CHROMIUM):
    if os.environ.get("CONSOLE_BROWSER_REQUIRED") == "1":
        raise RuntimeError(f"Chromium is required for the console browser tests and is not at {CHROMIUM}")
    pytest.skip("no Chromium here (apt-get install chromium); .ci/run installs it", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402 (only with Chromium)

SERVICE_ENV = {}


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """gunicorn (the Procfile's web process) on a fresh SQLite file, with a live company,
    its HR admin and a user whose role has no console pages."""
    folder = tmp_path_factory.mktemp("console")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/console.db", "REDIS_URL": "",
           "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "127.0.0.0/8"}
    flask(env, "db", "upgrade")
    company = json.loads(flask(env, "companies", "create", "--name", "Gulf Trading", "--country", "KW", "--json"))
    flask(env, "partner-api", "enable", company["company_id"])
    SERVICE_ENV.update(env=env, company=company["company_id"])
    for email, role in ((ADMIN, "hr_admin"), (STAFF, "employee"), (ARABIC_ADMIN, "hr_admin")):
        flask(env, "users", "create", "--email", email, "--password", PASSWORD, "--company", company["company_id"],
              "--role", role)
    port = free_port()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    log = open(SCREENSHOTS / "gunicorn.log", "w")  # the service's own log, for when a page breaks
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "2", "wsgi:app"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, service):
    context = browser.new_context(base_url=service, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the console's "are you sure?" prompts
    yield page
    context.close()


def shot(page, name):
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def sign_in(page, email):
    page.goto("/console/")
    expect(page).to_have_url(re.compile(r"/console/sign-in"))
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def choose_language(page, language):
    """The switch in the page's header: a form posted with the session's CSRF token, which
    keeps the choice and shows the same page in it."""
    at = page.url
    page.locator(f".languages button[value={language}]").click()
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page).to_have_url(at)


def nav(page, tab):
    page.locator("nav.tabs").get_by_role("link", name=tab).click()


def flash(page):
    return page.locator("p.flash").first


def test_sign_in_make_a_sandbox_and_a_key_use_it_and_revoke_it(page, service):
    page.goto("/console/sign-in")
    shot(page, "01-sign-in")
    sign_in(page, ADMIN)
    expect(page).to_have_url(f"{service}/console/integrations")
    expect(page.get_by_role("heading", name="Integrations · Gulf Trading")).to_be_visible()
    cookie = next(c for c in page.context.cookies() if c["name"] == "console_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    shot(page, "02-integrations-live")

    nav(page, "Sandbox")
    page.get_by_label("Country").select_option(label="Bahrain")
    shot(page, "03-sandbox-create")
    page.get_by_role("button", name="Create sandbox company").click()
    expect(flash(page)).to_contain_text("Created Bahrain Sandbox Trading Co.")
    page.get_by_role("button", name="Switch to the sandbox").click()
    expect(page.locator(".banner")).to_contain_text("Sandbox")
    expect(page.get_by_role("heading", name="Integrations · Bahrain Sandbox Trading Co.")).to_be_visible()

    page.get_by_label("Name").fill("Browser test key")
    page.get_by_label("employees:read").check()
    page.get_by_role("button", name="Create sandbox key").click()
    secret = page.locator("#new-secret").input_value()
    assert re.fullmatch(r"svc_test_[A-Za-z0-9]{32}", secret)
    page.get_by_role("button", name="Copy").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    shot(page, "04-key-created")

    bearer = {"Authorization": f"Bearer {secret}"}
    company = requests.get(f"{service}/v1/company", headers=bearer, timeout=5)
    assert company.status_code == 200 and company.json()["sandbox"] is True
    assert company.json()["country"] == "BH"
    assert requests.get(f"{service}/v1/payroll-runs", headers=bearer, timeout=5).status_code == 403  # not its scope

    page.reload()  # shown once: a reload does not show it again
    expect(page.locator("#new-secret")).to_have_count(0)
    row = page.locator("tr", has_text="Browser test key")
    expect(row).to_contain_text("employees:read")
    row.get_by_role("button", name="Revoke").click()
    expect(flash(page)).to_contain_text("Revoked")
    after = requests.get(f"{service}/v1/company", headers=bearer, timeout=5)
    assert after.status_code == 401 and after.json()["code"] == "unauthenticated"
    shot(page, "05-key-revoked")

    page.get_by_label("Event").select_option("employee.created")
    page.get_by_role("button", name="Trigger").click()
    expect(flash(page)).to_contain_text("employee.created: hired SBX-011")

    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    shot(page, "06-integrations-phone")


def to_sandbox(page):
    nav(page, "Sandbox")
    if page.get_by_role("button", name="Create sandbox company").count():
        page.get_by_label("Country").select_option(label="Bahrain")
        page.get_by_role("button", name="Create sandbox company").click()
    page.get_by_role("button", name="Switch to the sandbox").click()


def test_hr_pages_drive_the_transitions(page, service):
    sign_in(page, ADMIN)
    to_sandbox(page)

    nav(page, "Employees")
    expect(page.locator("tbody tr").nth(9)).to_be_visible()  # ten generated (and any triggered)
    shot(page, "07-employees")
    page.get_by_role("link", name="SBX-004").click()
    shot(page, "08-employee")
    page.get_by_label("Job title").fill("Head of Sales")
    page.get_by_role("button", name="Save").click()
    expect(flash(page)).to_contain_text("Saved SBX-004")
    page.get_by_label("Last day").fill("2031-01-31")
    page.get_by_label("Reason (internal)").fill("Moved abroad")
    page.get_by_role("button", name="End employment").click()
    expect(flash(page)).to_contain_text("SBX-004 leaves on 2031-01-31: active until then")

    nav(page, "Employees")
    page.get_by_role("link", name="Hire an employee").click()
    page.get_by_label("Staff number").fill("N-300")
    page.get_by_label("Name (English)").fill("Huda Karim")
    page.get_by_label("Hire date").fill("2026-11-15")
    page.get_by_label("Basic salary").fill("not money")
    page.get_by_role("button", name="Hire").click()
    expect(page.locator(".field.invalid")).to_contain_text("an amount in BHD")
    shot(page, "09-hire-refused")
    page.get_by_label("Basic salary").fill("780.250")
    page.get_by_role("button", name="Hire").click()
    expect(flash(page)).to_contain_text("Hired N-300 Huda Karim")

    nav(page, "Payroll")
    # This month: clear of the sandbox's own run (last month's), and begun, so that it can
    # be paid on the value date the Pay form offers (today).
    month = datetime.now(ZoneInfo("Asia/Bahrain")).strftime("%Y-%m")
    page.get_by_label("Month").fill(month)
    shot(page, "10-payroll")
    page.get_by_role("button", name="Build draft").click()
    expect(flash(page)).to_contain_text(f"Draft for {month} built")
    page.get_by_role("button", name="Finalize").click()
    expect(flash(page)).to_contain_text("Finalized")
    first_basic = page.locator("input.amount").first
    first_basic.fill("9999.999")
    page.get_by_role("button", name="Post correction").click()
    expect(flash(page)).to_contain_text("Corrected 1 employee(s)")
    expect(page.get_by_role("heading", name=re.compile("Correction"))).to_be_visible()
    page.get_by_role("button", name="Mark paid").click()
    expect(flash(page)).to_contain_text("Marked paid")
    expect(page.get_by_role("button", name="Delete run")).to_have_count(0)
    expect(page.locator(".heading .actions")).to_contain_text("Paid runs cannot be deleted")
    page.get_by_role("button", name="Mark submitted").click()  # the salary file with the bank (v1.3)
    expect(flash(page)).to_contain_text("The salary file is submitted with the bank")
    page.get_by_role("button", name="Mark rejected").click()
    expect(flash(page)).to_contain_text("rejected with the bank")
    expect(page.get_by_role("button", name="Mark submitted")).to_be_visible()  # a rejected file goes again
    shot(page, "11-payroll-run")


def test_attendance_page_links_people_takes_punches_and_shows_the_days(page, service):
    sign_in(page, ADMIN)
    to_sandbox(page)
    page.get_by_label("Name").fill("Clock key")
    page.get_by_label("attendance:write").check()
    page.get_by_label("attendance:read").check()
    page.get_by_role("button", name="Create sandbox key").click()
    bearer = {"Authorization": f"Bearer {page.locator('#new-secret').input_value()}"}
    day = (datetime.now(ZoneInfo("Asia/Bahrain")) - timedelta(days=1)).date().isoformat()
    badge = {"type": "external_id", "value": "BADGE-42"}
    sent = requests.post(f"{service}/v1/attendance/events", headers=bearer, timeout=10, json={"events": [
        {"external_id": f"door-{day}-1", "employee_ref": badge, "type": "clock_in", "at": f"{day}T07:00:00+03:00",
         "source": "door-system"},
        {"external_id": f"door-{day}-2", "employee_ref": badge, "type": "clock_out", "at": f"{day}T15:00:00+03:00",
         "source": "door-system"},
    ]})
    assert sent.status_code == 207
    assert [r["status"] for r in sent.json()["results"]] == ["unmatched_employee"] * 2

    nav(page, "Attendance")
    row = page.locator("tr", has_text="BADGE-42")
    expect(row).to_contain_text("door-system")
    shot(page, "12-attendance-unmatched")
    choice = row.locator("option", has_text="SBX-002").get_attribute("value")
    row.locator("select").select_option(choice)
    row.get_by_role("button", name="Link").click()
    expect(flash(page)).to_contain_text("2 waiting event(s)")

    page.get_by_label("Employee", exact=True).select_option(
        page.locator("#employee option", has_text="SBX-003").get_attribute("value"))
    page.get_by_label("Punch", exact=True).select_option("clock_in")
    page.get_by_label("Date", exact=True).fill(day)
    page.get_by_label("Time", exact=True).fill("09:00")
    page.get_by_role("button", name="Record punch").click()
    expect(flash(page)).to_contain_text(f"Recorded clock in at {day} 09:00")
    page.get_by_label("Punch", exact=True).select_option("clock_out")
    page.get_by_label("Time", exact=True).fill("13:30")
    page.get_by_role("button", name="Record punch").click()
    expect(flash(page)).to_contain_text("Recorded clock out")

    # Pairing runs on the web process's job thread: wait for it, bounded.
    rows = page.locator("section", has_text="Days").locator("tbody tr")

    def paired():
        page.goto(f"/console/attendance?from={day}&to={day}")
        return rows.count() == 2

    wait_for(paired, 10)
    shot(page, "13-attendance-days")
    expect(rows.filter(has_text="SBX-002")).to_contain_text("07:00–15:00")
    expect(rows.filter(has_text="SBX-003")).to_contain_text("09:00–13:30")
    expect(rows.filter(has_text="SBX-003")).to_contain_text("manual")
    days = requests.get(f"{service}/v1/attendance", params={"from": day, "to": day}, headers=bearer, timeout=10)
    assert sorted((d["worked_minutes"], d["sources"]) for d in days.json()["data"]) == [
        (270, ["manual"]), (480, ["partner_api"])]


def test_hr_records_a_leave_approves_it_and_sees_it_on_the_calendar(page, service):
    sign_in(page, ADMIN)
    to_sandbox(page)
    nav(page, "Leave")
    expect(page.get_by_role("heading", name=re.compile("Who is away in"))).to_be_visible()
    # Next month, clear of any run the sandbox has finalized.
    today = datetime.now(ZoneInfo("Asia/Bahrain")).date()
    month = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
    first, last = month.replace(day=10), month.replace(day=12)
    person = page.locator("#employee option", has_text="SBX-006")
    page.get_by_label("Employee", exact=True).select_option(person.get_attribute("value"))
    page.get_by_label("Type", exact=True).select_option("sick")
    page.get_by_label("From", exact=True).fill(last.isoformat())
    page.get_by_label("To", exact=True).fill(first.isoformat())  # backwards: refused beside the field
    page.get_by_label("Note (internal)").fill("Knee surgery")
    page.get_by_role("button", name="Record leave").click()
    expect(page.locator(".field.invalid")).to_contain_text(f"on or after the first day ({last.isoformat()})")
    expect(page.get_by_label("Note (internal)")).to_have_value("Knee surgery")  # kept as typed
    page.get_by_label("From", exact=True).fill(first.isoformat())
    page.get_by_label("To", exact=True).fill(last.isoformat())
    page.get_by_role("button", name="Record leave").click()
    expect(flash(page)).to_contain_text(f"Recorded sick leave for SBX-006 from {first} to {last}: it waits for a "
                                        "decision.")
    day = page.locator(f'td[data-day="{month.replace(day=11).isoformat()}"]')
    expect(day).to_contain_text("SBX-006")
    expect(day).to_contain_text("waiting")
    shot(page, "14-leave-waiting")

    waiting = page.locator("section", has=page.get_by_role("heading", name="Waiting for a decision"))
    mine = waiting.locator("tr", has_text="SBX-006").filter(has_text=first.isoformat())  # the sandbox asks too
    mine.get_by_role("button", name="Approve").click()
    expect(flash(page)).to_contain_text(f"Approved sick leave for SBX-006 from {first} to {last}.")
    expect(page.get_by_role("heading", name=re.compile(f"Who is away in {month:%B %Y}"))).to_be_visible()
    expect(day).to_contain_text("SBX-006")
    expect(day).not_to_contain_text("waiting")
    expect(page.locator(f'td[data-day="{month.replace(day=13).isoformat()}"]')).not_to_contain_text("SBX-006")
    approved = page.locator("section", has=page.get_by_role("heading", name="Approved leave, now and to come"))
    expect(approved.locator("tr", has_text="SBX-006").filter(has_text=first.isoformat())).to_contain_text(
        "Knee surgery")
    shot(page, "15-leave-approved")

    page.locator("nav.pager a[rel=prev]").click()  # back a month, and forward again
    expect(page.locator(f'td[data-day="{month.replace(day=11).isoformat()}"]')).to_have_count(0)
    page.locator("nav.pager a[rel=next]").click()
    expect(day).to_contain_text("SBX-006")

    nav(page, "Employees")
    page.get_by_role("link", name="SBX-006").click()
    leave = page.locator("#leave")
    expect(leave.locator("tr", has_text=first.isoformat())).to_contain_text("approved")
    expect(leave).to_contain_text("Balance")
    leave.get_by_role("link", name=re.compile("Record leave for")).click()
    expect(page.get_by_label("Employee", exact=True)).to_have_value(person.get_attribute("value"))


def test_a_user_without_integrations_manage_is_refused(page):
    sign_in(page, STAFF)
    expect(page.get_by_role("heading", name=re.compile("Welcome"))).to_be_visible()
    expect(page.get_by_role("link", name="Integrations")).to_have_count(0)
    shot(page, "12-home-without-console-pages")
    response = page.goto("/console/integrations")
    assert response.status == 403
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    shot(page, "13-refused")


def test_a_form_posted_without_its_csrf_token_is_refused(page, service):
    sign_in(page, ADMIN)
    page.locator("form[action$='/keys'] input[name=csrf_token]").evaluate("input => input.remove()")
    page.get_by_label("Name").fill("Forged")
    page.get_by_role("button", name="Create live key").click()
    expect(page.get_by_role("heading", name="Not accepted")).to_be_visible()
    expect(page.locator("main")).to_contain_text("This form could not be checked")
    shot(page, "14-csrf-refused")
    page.goto("/console/integrations")
    expect(page.locator("tr", has_text="Forged")).to_have_count(0)
    # A cross-site style post with the session cookie but no token fares no better.
    forged = page.request.post(f"{service}/console/integrations/keys", form={"name": "Forged again"})
    assert forged.status == 400


def test_the_api_reference_and_errors_page_work_under_their_policy(page, service):
    refused = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text or "Refused" in message.text else None)
    response = page.goto("/v1/docs")
    assert response.headers["x-frame-options"] == "DENY" and response.headers["x-content-type-options"] == "nosniff"
    assert "script-src" not in response.headers["content-security-policy"]  # own scripts only, no inline
    expect(page.get_by_text("Read the company the key belongs to")).to_be_visible()
    page.get_by_text("Read the company the key belongs to").click()
    expect(page.get_by_text("getCompany").first).to_be_attached()
    shot(page, "15-api-reference")
    errors = page.goto("/errors")
    assert errors.headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in errors.headers[
        "content-security-policy"]
    expect(page.locator("#rate_limited")).to_be_attached()
    assert refused == []


def test_webhook_pages_list_test_and_show_a_delivery(page, service):
    made = json.loads(flask(SERVICE_ENV["env"], "keys", "create", "--company", SERVICE_ENV["company"], "--scopes",
                            "webhooks:manage", "--name", "Ledger sync", "--json"))
    with Receiver() as receiver:
        endpoint = requests.post(f"{service}/v1/webhooks", timeout=10, json={"url": receiver.url, "events": [
            "payroll_run.paid"]}, headers={"Authorization": f"Bearer {made['api_key']}"}).json()
        sign_in(page, ADMIN)
        nav(page, "Webhooks")
        expect(page.get_by_role("row").filter(has_text=receiver.url)).to_contain_text("Ledger sync")
        shot(page, "40-webhooks")
        page.get_by_role("link", name=receiver.url).click()
        page.get_by_role("button", name="Send test").click()
        expect(flash(page)).to_contain_text("A ping is on its way")
        wait_for(lambda: receiver.requests, 5)  # the web process's own job thread sends it (no Redis here)
        page.reload()
        page.get_by_role("link", name="ping").first.click()
        expect(page.locator("pre.body").first).to_contain_text(endpoint["id"])
        expect(page.get_by_text("HTTP 200")).to_be_visible()
        shot(page, "41-webhook-delivery")

        # An admin adds an endpoint for the key, copies its secret once, then deletes it.
        nav(page, "Webhooks")
        page.get_by_label("URL").fill(receiver.url + "/second")
        page.get_by_label("employee.updated").check()
        owner = page.get_by_label("Owning key")
        owner.select_option(owner.locator("option", has_text="Ledger sync").get_attribute("value"))
        page.get_by_role("button", name="Add endpoint").click()
        expect(page.get_by_role("heading", name="Signing secret", exact=True)).to_be_visible()
        assert page.locator("#new-secret").input_value().startswith("whsec_")
        shot(page, "42-webhook-added")
        # It rolls the secret with an hour's overlap: the next ping verifies with either.
        first_secret = page.locator("#new-secret").input_value()
        page.get_by_label("The current secret keeps signing for").select_option("3600")
        page.get_by_role("button", name="Roll secret").click()
        expect(page.get_by_text("still signs every delivery beside it until")).to_be_visible()
        rolled = page.locator("#new-secret").input_value()
        assert rolled.startswith("whsec_") and rolled != first_secret
        shot(page, "43-webhook-secret-rolled")
        page.get_by_role("button", name="Send test").click()
        wait_for(lambda: any(r["path"] == "/hook/second" for r in receiver.requests), 5)
        [ping] = [r for r in receiver.requests if r["path"] == "/hook/second"]
        for secret in (rolled, first_secret):
            assert verify([secret], ping["headers"]["X-SVC-Signature"], ping["body"], time.time())
        listed = requests.get(f"{service}/v1/webhooks", timeout=10,
                              headers={"Authorization": f"Bearer {made['api_key']}"}).json()["data"]
        assert [e["url"] for e in listed] == [receiver.url, receiver.url + "/second"]
        page.get_by_role("button", name="Delete").click()  # the confirm prompt is accepted
        expect(flash(page)).to_contain_text("Deleted the endpoint")


def test_an_admin_registers_an_oauth_app_and_rotates_its_secret(page, service):
    """OAuth apps tab: register, copy the client secret shown once, rotate it; the old
    secret stops at the token endpoint and the new one is accepted there."""
    sign_in(page, ADMIN)
    nav(page, "OAuth apps")
    page.get_by_label("Name").fill("Ledgerly Books")
    page.get_by_label("Redirect URIs").fill("https://ledgerly.example/cb\nhttp://127.0.0.1:8765/cb")
    page.get_by_role("checkbox", name="employees:read").check()
    page.get_by_role("button", name="Register app").click()
    first = page.get_by_label("New client secret").input_value()
    client_id = page.locator("section.secret code").first.inner_text()
    row = page.get_by_role("row").filter(has_text="Ledgerly Books")
    expect(row).to_contain_text("development")
    shot(page, "oauth-apps")

    def token_error(secret):
        answer = requests.post(f"{service}/oauth/token", timeout=10, data={
            "grant_type": "authorization_code", "code": "no-such-code", "redirect_uri": "https://ledgerly.example/cb",
            "code_verifier": "x" * 43, "client_id": client_id, "client_secret": secret})
        return answer.json()["error"]

    assert token_error(first) == "invalid_grant"  # the client is known; only the code is wrong
    row.get_by_role("button", name="Rotate secret").click()
    second = page.get_by_label("New client secret").input_value()
    assert second != first and second.startswith("svc_cs_")
    page.reload()
    expect(page.get_by_label("New client secret")).to_have_count(0)  # shown once
    assert token_error(first) == "invalid_client" and token_error(second) == "invalid_grant"


def test_an_oauth_client_that_is_not_authlib_connects_through_the_consent_page(page, service, monkeypatch):
    """requests-oauthlib (PKCE S256) asks; the HR admin signs in and approves in Chromium;
    the browser lands on the app's loopback redirect URI with a code; the client trades it
    for tokens, calls /v1/company, refreshes, and the admin then disconnects the app."""
    from requests_oauthlib import OAuth2Session

    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the test's service is plain http on loopback
    landed = []

    class Callback(BaseHTTPRequestHandler):
        def do_GET(self):
            landed.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"connected")

        def log_message(self, *args):
            pass

    callback = HTTPServer(("127.0.0.1", 0), Callback)
    threading.Thread(target=callback.serve_forever, daemon=True).start()
    redirect_uri = f"http://127.0.0.1:{callback.server_address[1]}/cb"
    env = SERVICE_ENV["env"]
    made = json.loads(flask(env, "oauth", "apps", "create", "--company", SERVICE_ENV["company"], "--name",
                            "Ledgerly Sync", "--redirect-uri", redirect_uri, "--scopes", "employees:read", "--json"))
    flask(env, "oauth", "apps", "set-mode", made["client_id"], "production")  # a live company
    try:
        client = OAuth2Session(made["client_id"], redirect_uri=redirect_uri, scope=["employees:read"], pkce="S256")
        url, state = client.authorization_url(f"{service}/oauth/authorize")
        page.goto(url)
        expect(page).to_have_url(re.compile(r"/console/sign-in\?next="))  # sign in first
        page.get_by_label("Email").fill(ADMIN)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("heading", name="Connect “Ledgerly Sync”?")).to_be_visible()
        expect(page.get_by_text("Read your employees")).to_be_visible()
        shot(page, "oauth-consent")
        page.get_by_role("button", name="Approve").click()
        expect(page).to_have_url(re.compile(re.escape(redirect_uri) + r"\?code="))
        assert landed and f"state={state}" in landed[0]
        token = client.fetch_token(f"{service}/oauth/token", authorization_response=redirect_uri + landed[0][3:],
                                   client_secret=made["client_secret"], include_client_id=True)
        assert token["token_type"] == "Bearer" and token["scope"] == ["employees:read"]
        company = client.get(f"{service}/v1/company")
        assert company.status_code == 200 and company.json()["id"] == SERVICE_ENV["company"]
        fresh = client.refresh_token(f"{service}/oauth/token", client_id=made["client_id"],
                                     client_secret=made["client_secret"])
        assert fresh["refresh_token"] != token["refresh_token"]

        page.goto("/console/integrations")
        connected = page.locator("#connected-apps")
        expect(connected.get_by_text("Ledgerly Sync")).to_be_visible()
        shot(page, "oauth-connected-apps")
        connected.get_by_role("button", name="Revoke").click()
        expect(page.get_by_text("Disconnected “Ledgerly Sync”")).to_be_visible()
        assert requests.get(f"{service}/v1/company", headers={"Authorization": f"Bearer {fresh['access_token']}"},
                            timeout=10).status_code == 401
    finally:
        callback.shutdown()


def test_every_page_fits_a_phone_and_wide_tables_scroll_in_place(page, service):
    """At 390 px nothing runs past the right edge: not the page, and not a table inside
    its box (its rows become cards, each cell labelled with its column)."""
    sign_in(page, ADMIN)
    page.set_viewport_size({"width": 390, "height": 844})
    paths = ["/console/integrations", "/console/webhooks", "/console/employees", "/console/payroll",
             "/console/payroll/books", "/console/attendance", "/console/leave", "/console/apps", "/console/sandbox"]
    page.goto("/console/webhooks")
    links = page.locator("a[href^='/console/webhooks/whk_']")
    if links.count():
        paths.append(links.first.get_attribute("href"))
    page.goto("/console/payroll")
    runs = page.locator("a[href^='/console/payroll/prun_']")
    if runs.count():
        paths.append(runs.first.get_attribute("href"))
    for path in paths:
        page.goto(path)
        overflow = page.evaluate("""() => {
            const width = document.documentElement.clientWidth;
            const past = [...document.querySelectorAll('main *')].filter(el => {
                const box = el.getBoundingClientRect();
                const hidden = el.matches('.scroll') && el.scrollWidth > el.clientWidth + 1;  // cut, to scroll
                return hidden || (box.width > 0 && box.right > width + 1 && !el.closest('thead'));
            }).map(el => el.tagName + '.' + el.className + ' ' + (el.textContent || '').trim().slice(0, 40));
            return {page: document.documentElement.scrollWidth - width, past: past.slice(0, 5)};
        }""")
        assert overflow["page"] <= 0 and not overflow["past"], (path, overflow)
        shot(page, "90-phone" + path.replace("/", "-"))


ARABIC_LETTERS = re.compile(r"[\u0600-\u06FF]")
# Latin words on an Arabic page outside what is marked as shown in English (lang="en"),
# code, the switch's own "English" and the names of technologies.
LATIN_LEFT = """() => {
    // Names of technologies, currencies' codes and products, in Latin letters in Arabic too.
    const TERMS = new Set(['API', 'APIs', 'OAuth', 'Webhook', 'Webhooks', 'JSON', 'URL', 'URLs', 'HTTP', 'HTTPS',
                           'CSV', 'IBAN', 'WPS', 'PKCE', 'UTC', 'http', 'https', 'URI', 'URIs',
                           'KWD', 'SAR', 'AED', 'QAR', 'BHD', 'OMR', 'QuickBooks', 'Xero']);
    const words = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode, parent = node.parentElement;
        // An ID inside a sentence is isolated left to right by markup (i18n.isolated).
        // An option cannot hold markup: one set left to right holds a staff number first.
        const kept = '[lang="en"], bdi[dir="ltr"], option[dir="ltr"], code, kbd, samp, script, style, .languages';
        if (!parent || parent.closest(kept)) continue;
        if (parent.closest('[hidden], .visually-hidden') && !parent.closest('label')) continue;
        const found = (node.textContent.match(/[A-Za-z]{3,}/g) || [])
            .filter(word => !TERMS.has(word));
        if (found.length) words.push(parent.tagName + ': ' + node.textContent.trim().slice(0, 60));
    }
    return words.slice(0, 40);
}"""
PAST_EITHER_EDGE = """() => {
    const width = document.documentElement.clientWidth;
    const past = [...document.querySelectorAll('body *')].filter(el => {
        const box = el.getBoundingClientRect();
        const hidden = el.matches('.scroll') && el.scrollWidth > el.clientWidth + 1;
        const outside = box.width > 0 && (box.right > width + 1 || box.left < -1);
        // A table's box and the tabs scroll in place.
        return hidden || (outside && !el.closest('thead, .visually-hidden, .scroll, nav.tabs'));
    }).map(el => el.tagName + '.' + el.className + ' ' + (el.textContent || '').trim().slice(0, 40));
    return {page: document.documentElement.scrollWidth - width, past: past.slice(0, 5)};
}"""


def record_pages(page, listings):
    """The first record's page of each listing that has one, in the current company."""
    found = []
    for listing, pattern in listings:
        page.goto(listing)
        links = page.locator(pattern)
        if links.count():
            found.append(links.first.get_attribute("href"))
    return found


def test_every_console_page_in_arabic_reads_right_to_left_mirrored_and_fits(page, service):
    """Every page an HR admin reaches, in Arabic, at a desk's width and a phone's: right to
    left, the navigation starting at the right, nothing past either edge, no English left
    but what is marked as shown in English; a screenshot of each. The live company's
    endpoint and its deliveries are the ones the tests above made; the staff and runs
    are those of the sandbox this user makes."""
    page.goto("/console/sign-in?lang=ar")  # that page in Arabic, and nothing kept: a GET changes nothing
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.goto("/console/sign-in")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    choose_language(page, "ar")
    check_arabic_pages(page, ["/console/sign-in", "/console/forgot-password", "/console/reset-password/no-such-link",
                              "/console/no-such-page"])  # a mistyped address: the console's own page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/console/sign-in")
    page.locator("#email").fill(ARABIC_ADMIN)
    page.locator("#password").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    [endpoint] = record_pages(page, [("/console/webhooks", "a[href^='/console/webhooks/whk_']")])
    delivery = record_pages(page, [(endpoint, "a[href*='/deliveries/']")])
    check_arabic_pages(page, ["/console/integrations", "/console/webhooks", endpoint, *delivery, consent_page()])
    page.goto("/console/sandbox")
    check_arabic_pages(page, ["/console/sandbox"])  # before it is made
    page.locator("select[name=country]").select_option("OM")
    page.locator("main form:has(select[name=country]) button[type=submit]").click()
    page.locator("main form[action$='/console/company'] button[type=submit]").click()
    records = record_pages(page, [("/console/employees", "a[href^='/console/employees/emp_']"),
                                  ("/console/payroll", "a[href^='/console/payroll/prun_']")])
    assert len(records) == 2 and delivery, (records, delivery)
    check_arabic_pages(page, ["/console/apps", "/console/employees", "/console/employees/new", "/console/payroll",
                              "/console/payroll/accounts", "/console/payroll/books", "/console/attendance",
                              "/console/leave", "/console/sandbox",
                              "/console/employees/emp_none", "/console/no-such-page", *records])


def consent_page():
    """The OAuth consent page of an app of the live company, as a client would send the
    customer to it."""
    made = json.loads(flask(SERVICE_ENV["env"], "oauth", "apps", "create", "--company", SERVICE_ENV["company"],
                            "--name", "Daftari", "--redirect-uri", "http://127.0.0.1:9/cb", "--scopes",
                            "employees:read,payroll:read", "--json"))
    flask(SERVICE_ENV["env"], "oauth", "apps", "set-mode", made["client_id"], "production")
    return "/oauth/authorize?" + urlencode({
        "response_type": "code", "client_id": made["client_id"], "redirect_uri": "http://127.0.0.1:9/cb",
        "scope": "employees:read payroll:read", "state": "st-1", "code_challenge": "A" * 43,
        "code_challenge_method": "S256"})


# The IDs on the page (i18n.as_id, or isolated inside a message) drawn on more than one line.
IDS_ON_TWO_LINES = """[...document.querySelectorAll('main bdi.id')]
  .filter((e) => e.getClientRects().length > 1).map((e) => e.textContent)"""


def check_arabic_pages(page, paths):
    english = {}
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        for path in paths:
            page.goto(path)
            html = page.locator("html")
            expect(html).to_have_attribute("lang", "ar")
            expect(html).to_have_attribute("dir", "rtl")
            tabs = page.locator("nav.tabs a")
            if tabs.count() > 1:  # signed in
                first, second = tabs.nth(0).bounding_box(), tabs.nth(1).bounding_box()
                assert first["x"] > second["x"], (path, "the first tab is not on the right")
            brand = page.locator(".top a.brand").bounding_box()
            assert brand["x"] + brand["width"] > width * 0.6, (path, "the brand is not on the right")
            overflow = page.evaluate(PAST_EITHER_EDGE)
            assert overflow["page"] <= 0 and not overflow["past"], (width, path, overflow)
            english.update({path: left} if (left := page.evaluate(LATIN_LEFT)) else {})
            assert ARABIC_LETTERS.search(page.locator("main").inner_text()), path
            # Issue 50's high items: an action that ends a credential or deletes a draft is
            # never worded as Cancel («إلغاء») or Ignore («تجاهل»).
            ending = [label.strip() for label in page.locator("button.danger").all_inner_texts()]
            assert not [label for label in ending if label == "إلغاء" or "تجاهل" in label], (path, ending)
            # Issue 50, right to left: the current tab is in view at a phone's width, an ID
            # never breaks across lines, and nothing invisible is copied with one.
            current = page.locator("nav.tabs a[aria-current=page]")
            if current.count():
                box = current.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= width, (path, "the current tab is out of view")
            broken = page.evaluate(IDS_ON_TWO_LINES)
            assert not broken, (path, "an ID breaks across lines", broken)
            assert not re.search("[\u2066-\u2069]", page.locator("main").inner_text()), (path, "isolate characters")
            kind = re.sub(r"_\w{20,}", "", path.split("?")[0]).replace("/", "-")
            shot(page, f"ar-{width}{kind}")  # one per kind of page
    assert not english, "English left on Arabic pages:\n" + "\n".join(
        f"{path}: " + " | ".join(words) for path, words in english.items())


def test_a_form_error_reads_in_arabic_and_the_choice_follows_the_user_to_another_browser(page, browser, service):
    """The user above chose Arabic before signing in; it follows them."""
    page.goto("/console/sign-in")
    choose_language(page, "ar")
    page.locator("main button[type=submit]").click()  # nothing filled in
    error = page.locator(".field.invalid .error").first
    expect(error).to_be_visible()
    assert ARABIC_LETTERS.search(error.inner_text())
    shot(page, "ar-sign-in-refused")
    page.locator("#email").fill(ARABIC_ADMIN)
    page.locator("#password").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    expect(page.locator("nav.tabs")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "ar")

    elsewhere = browser.new_context(base_url=service, locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    try:
        other = elsewhere.new_page()
        other.goto("/console/sign-in")
        expect(other.locator("html")).to_have_attribute("lang", "en")
        sign_in(other, ARABIC_ADMIN)
        expect(other.locator("nav.tabs")).to_be_visible()
        expect(other.locator("html")).to_have_attribute("lang", "ar")  # the choice was the user's
        choose_language(other, "en")
        nav(other, "Employees")
        expect(other.locator("html")).to_have_attribute("dir", "ltr")
    finally:
        elsewhere.close()
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the first browser follows the new choice
