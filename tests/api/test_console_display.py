"""How the console shows things to an HR admin: times in the company's zone (saying
which), money with thousands separators, journal totals, a month already chosen, revoked
keys out of the way, and refusals that do not blame the user for the server."""

import re

from app.domain.access import keys
from app.domain.attendance.ingest import ingest
from app.models import ApiKey, PayrollRun
from tests.api.console import PASSWORD, member, post, sign_in, text
from tests.helpers import punch

GROUPED_KWD = r"\d{1,3}(?:,\d{3})+\.\d{3} KWD"


def test_times_are_shown_in_the_companys_zone_and_say_which(client, in_sandbox, clock, runtime):
    ingest(in_sandbox, [{**punch(1, "clock_in", "2026-11-21T07:00:00+03:00"),
                         "employee_ref": {"type": "external_id", "value": "P-9"}}], runtime)
    attendance = text(client.get("/console/attendance"))
    # Sent at 04:00 UTC, arrived 09:00 UTC: shown as Kuwait's 07:00 and 12:00, not UTC.
    assert '<time datetime="2026-11-21T04:00:00Z" title="Asia/Kuwait · 2026-11-21 04:00 UTC">' \
           '2026-11-21 07:00 <bdi dir="ltr">+03</bdi></time>' in attendance
    keys.create_key(in_sandbox, [], clock, name="Till 4")
    integrations = text(client.get("/console/integrations"))
    assert '2026-11-21 12:00 <bdi dir="ltr">+03</bdi>' in integrations and " UTC</" not in integrations


def test_money_has_thousands_separators_and_each_journal_entry_a_total(client, in_sandbox):
    run = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.status == "finalized")
    assert run.gross_minor >= 1_000_000  # over 1,000 KWD, so there is a separator to see
    assert re.search(GROUPED_KWD, text(client.get("/console/payroll")))
    page = text(client.get(f"/console/payroll/{run.id}"))
    assert re.search(GROUPED_KWD, page)
    totals = re.findall(r'<tr class="total"><th scope="row">Total</th>\s*<td class="num">([\d,.]+)</td>\s*'
                        r'<td class="num">([\d,.]+)</td></tr>', page)
    assert totals and all(debit == credit for debit, credit in totals)
    # Amounts to edit stay plain numbers, which the form reads back.
    assert re.search(r'class="amount" name="emp_\w+\.basic" inputmode="decimal"\s+value="\d+\.\d{3}"', page)


def test_the_payroll_month_picker_starts_on_this_month(client, admin, in_sandbox, clock):
    clock.set(clock.now().replace(month=11, day=30, hour=22))  # already 1 December in Kuwait
    sign_in(client, admin.email)  # the session of nine days ago has expired
    assert re.search(r'<input[^>]*name="month"[^>]*value="2026-12"', text(client.get("/console/payroll")))


def test_revoked_keys_are_hidden_until_asked_for(client, admin, live_company, clock):
    kept, _ = keys.create_key(live_company, [], clock, name="Ledger sync")
    gone, _ = keys.create_key(live_company, [], clock, name="Old till")
    post(client, f"/console/integrations/keys/{gone.id}/revoke", page="/console/integrations")
    page = text(client.get("/console/integrations"))
    assert "Ledger sync" in page and "Old till" not in page and "Show revoked keys (1)" in page
    every = text(client.get("/console/integrations?revoked=1"))
    assert "Ledger sync" in every and "Old till" in every and "Hide revoked keys" in every
    assert ApiKey.get_by_id(kept.id).revoked_at is None


def test_refusals_say_what_to_do_without_blaming_the_user(client, app, live_company, clock, monkeypatch):
    user = member(live_company, "hr_admin", clock)
    wrong = text(sign_in(client, user.email, "not the password"))
    assert "We could not sign you in with this email and password" in wrong
    assert "ask your administrator to set one" in wrong and "wrong" not in wrong.lower()
    client.get("/console/sign-in")
    stale = client.post("/console/sign-in", data={"email": user.email, "password": PASSWORD})
    assert stale.status_code == 400 and "Nothing was changed" in text(stale) and "req_" in text(stale)

    assert sign_in(client, user.email).status_code == 302
    monkeypatch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)  # as in production

    def broken(*args):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(keys, "list_keys", broken)
    failed = client.get("/console/integrations")
    assert failed.status_code == 500 and "Something went wrong on our side" in text(failed)
    assert "database on fire" not in text(failed) and failed.headers["Cache-Control"] == "no-store"
