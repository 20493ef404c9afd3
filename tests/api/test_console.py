"""The integrations console through the Flask client against the real database: signing
in, CSRF, throttling, who may see what, keys, sandboxes, triggers and every HR action
with the event it writes. (tests/e2e/test_console_browser.py drives the same pages in
Chromium.)"""

import re

import pytest

from app.console.scopes import SCOPE_WORDS
from app.domain.access import companies, keys, signin
from app.domain.access import users as access
from app.domain.payroll.rules import net_by_account
from app.domain.sandbox_triggers import TRIGGERS
from app.models import ApiKey, Company, Employee, JournalEntry, JournalLine, PayrollRun
from tests.api.console import PASSWORD, copied_cookie, csrf, member, post, sign_in, text, throttle
from tests.conftest import bearer
from tests.helpers import event_ids, new_events, staff

# ---- signing in -----------------------------------------------------------------


def test_sign_in_sets_a_hardened_session_cookie_and_lands_on_integrations(client, live_company, clock):
    user = member(live_company, "hr_admin", clock)
    response = sign_in(client, user.email.upper())
    assert response.status_code == 302 and response.headers["Location"] == "/console/"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("console_session=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get("/console/").headers["Location"] == "/console/integrations"
    page = client.get("/console/integrations")
    assert page.status_code == 200 and "Gulf Trading" in text(page)


def test_wrong_password_and_unknown_email_get_the_same_answer(client, live_company, clock):
    user = member(live_company, "hr_admin", clock)
    wrong = sign_in(client, user.email, "nope")
    unknown = sign_in(client, "nobody@example.com")
    assert wrong.status_code == unknown.status_code == 401
    refusals = [re.search(r'role="alert"[^>]*>(.*?)<', text(answer), re.S) for answer in (wrong, unknown)]
    assert refusals[0] and refusals[0].group(1).strip() == refusals[1].group(1).strip()
    assert refusals[0].group(1).strip().startswith("We could not sign you in")
    assert client.get("/console/integrations").status_code == 302  # still signed out


def test_sign_in_without_csrf_token_is_refused(client, live_company, clock):
    user = member(live_company, "hr_admin", clock)
    client.get("/console/sign-in")
    response = client.post("/console/sign-in", data={"email": user.email, "password": PASSWORD})
    assert response.status_code == 400 and "This form could not be checked" in text(response)
    assert client.get("/console/integrations").status_code == 302


def test_guessing_from_one_address_is_throttled_there_and_the_owner_still_signs_in(app, client, live_company,
                                                                                     clock):
    user = member(live_company, "hr_admin", clock)
    for _ in range(10):
        assert sign_in(client, user.email, "guess", address="203.0.113.9").status_code == 401
    throttled = sign_in(client, user.email, address="203.0.113.9")  # even the right password, from there
    assert throttled.status_code == 429 and "Too many sign-in attempts" in text(throttled)
    owner = app.test_client()
    assert sign_in(owner, user.email, address="198.51.100.4").status_code == 302  # from elsewhere: in
    clock.advance(minutes=2)  # one attempt back every 90 seconds
    assert sign_in(client, user.email, address="203.0.113.9").status_code == 302


def test_guessing_from_many_addresses_meets_the_email_ceiling_but_the_right_password_passes(app, client,
                                                                                          live_company, clock):
    app.extensions["sign_in_throttle"] = throttle(email=5)  # as 50 per hour, sooner
    user = member(live_company, "hr_admin", clock)
    for n in range(5):
        assert sign_in(client, user.email, "guess", address=f"203.0.113.{n}").status_code == 401
    assert sign_in(client, user.email, "guess", address="203.0.113.77").status_code == 429
    assert sign_in(app.test_client(), user.email, address="198.51.100.4").status_code == 302


def test_one_address_trying_many_emails_is_throttled(app, client, live_company, clock):
    app.extensions["sign_in_throttle"] = throttle(address=5)  # as 100 per 15 minutes, sooner
    for n in range(5):
        assert sign_in(client, f"nobody{n}@example.com", "guess", address="203.0.113.5").status_code == 401
    assert sign_in(client, "nobody-else@example.com", "guess", address="203.0.113.5").status_code == 429


def test_sign_in_throttle_is_shared_through_redis(app, client, live_company, clock, shared_redis):
    prefix = f"login-test:{live_company.id}:"
    app.extensions["sign_in_throttle"] = throttle(shared_redis, prefix, pair=3)
    user = member(live_company, "hr_admin", clock)
    for _ in range(3):
        sign_in(client, user.email, "guess")
    # Another worker process, same Redis: the count carries over.
    app.extensions["sign_in_throttle"] = throttle(shared_redis, prefix, pair=3)
    assert sign_in(client, user.email).status_code == 429
    shared_redis.delete(*shared_redis.keys(prefix + "*"))


def test_next_only_leads_back_into_the_console(client, live_company, clock):
    user = member(live_company, "hr_admin", clock)
    assert client.get("/console/payroll").headers["Location"] == "/console/sign-in?next=/console/payroll"
    for target, landing in (("/console/payroll", "/console/payroll"), ("https://evil.example/", "/console/"),
                            ("//evil.example/x", "/console/"), ("/v1/company", "/console/")):
        client.post("/console/sign-out", data={"csrf_token": csrf(client)})
        token = csrf(client)
        response = client.post(f"/console/sign-in?next={target}",
                                data={"email": user.email, "password": PASSWORD, "csrf_token": token})
        assert response.headers["Location"] == landing


def test_the_sign_in_page_sends_a_signed_in_user_on(client, admin):
    assert client.get("/console/sign-in").headers["Location"] == "/console/"


def test_sign_out_ends_the_session_even_for_a_copy_of_its_cookie(app, client, admin):
    thief = copied_cookie(app, client)
    response = post(client, "/console/sign-out")
    assert "You are signed out." in text(response)
    assert client.get("/console/integrations").status_code == 302
    assert thief.get("/console/integrations").status_code == 302


def test_a_new_password_ends_every_session_of_the_user(app, client, admin, clock):
    thief = copied_cookie(app, client)
    signin.set_password(admin.email, "a new password entirely", clock)
    assert client.get("/console/integrations").status_code == 302
    assert thief.get("/console/integrations").status_code == 302


def test_an_operator_ends_all_sessions_of_a_user(app, client, admin):
    thief = copied_cookie(app, client)
    ended = app.test_cli_runner().invoke(args=["users", "end-sessions", "--email", admin.email])
    assert ended.exit_code == 0 and "ended 2 console session(s)" not in ended.output  # one browser, one session
    assert "ended 1 console session(s)" in ended.output
    assert thief.get("/console/integrations").status_code == 302


def test_a_session_ends_after_12_hours(client, admin, clock):
    clock.advance(hours=11, minutes=59)
    assert client.get("/console/integrations").status_code == 200
    clock.advance(minutes=2)
    assert client.get("/console/integrations").status_code == 302


def test_console_pages_carry_security_headers(client, admin):
    headers = client.get("/console/integrations").headers
    assert "script-src" not in headers["Content-Security-Policy"]  # default-src 'self' covers it: no inline
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-store" and headers["X-Frame-Options"] == "DENY"


def test_api_requests_never_read_the_console_cookie(client, admin):
    response = client.get("/v1/company")
    assert response.status_code == 401 and "Set-Cookie" not in response.headers


# ---- who may see what ----------------------------------------------------------


@pytest.mark.parametrize("role, allowed", [
    ("ceo", {"integrations", "employees", "payroll", "attendance"}),
    ("hr_admin", {"integrations", "employees", "payroll", "attendance"}),
    ("payroll_officer", {"payroll"}),
    ("employee", set()),
])
def test_pages_follow_the_role(client, live_company, clock, role, allowed):
    user = member(live_company, role, clock)
    sign_in(client, user.email)
    for page in ("integrations", "employees", "payroll", "attendance"):
        status = client.get(f"/console/{page}").status_code
        assert status == (200 if page in allowed else 403), (role, page)
    # Forms are refused too, not only pages.
    response = client.post("/console/integrations/keys",
                           data={"name": "x", "csrf_token": csrf(client, "/console/sandbox")})
    assert response.status_code == (302 if "integrations" in allowed else 403)


def test_the_company_switcher_only_offers_the_users_companies(client, admin, clock, make_sandbox):
    other = companies.create_company("Someone Else", "SA", clock)
    response = client.post("/console/company", data={"company_id": other.id, "csrf_token": csrf(client, "/console/")})
    assert response.status_code == 404
    sandbox = make_sandbox("BH")
    access.add_membership(admin, sandbox, "ceo", clock)
    page = post(client, "/console/company", {"company_id": sandbox.id})
    assert "holds generated data only" in text(page) and "svc_test_" in text(page)


# ---- keys --------------------------------------------------------------------------


def test_create_a_key_shown_once_that_works_then_revoke_it(client, app, admin, live_company):
    page = post(client, "/console/integrations/keys",
                {"name": "Ledger sync", "scopes": ["employees:read", "payroll:read"]}, page="/console/integrations")
    secret = re.search(r'value="(svc_live_[A-Za-z0-9]{32})"', text(page)).group(1)
    assert page.headers["Cache-Control"] == "no-store"
    key = ApiKey.get(ApiKey.company == live_company.id)
    assert key.name == "Ledger sync" and key.scopes == "employees:read payroll:read" and key.created_by_id == admin.id
    assert secret not in text(client.get("/console/integrations"))  # once only
    api = app.test_client()
    assert api.get("/v1/company", headers=bearer(secret)).status_code == 200
    assert api.get("/v1/employees", headers=bearer(secret)).status_code == 200
    revoked = post(client, f"/console/integrations/keys/{key.id}/revoke", page="/console/integrations")
    assert "Revoked" in text(revoked)
    assert api.get("/v1/company", headers=bearer(secret)).status_code == 401


def test_the_key_form_says_what_each_scope_gives_webhooks_manage_included(client, admin):
    page = text(client.get("/console/integrations"))
    for scope, words in SCOPE_WORDS.items():
        assert scope in page and words.replace("'", "&#39;") in page, scope
    assert "full data of every event they subscribe to" in page


def test_a_sandbox_gets_svc_test_keys(client, admin, clock):
    post(client, "/console/sandbox", {"country": "OM"}, page="/console/sandbox")
    sandbox = access.sandbox_of(admin)
    post(client, "/console/company", {"company_id": sandbox.id})
    page = post(client, "/console/integrations/keys", {"name": "Dev", "scopes": list(keys.SCOPES)},
                page="/console/integrations")
    assert re.search(r'value="svc_test_[A-Za-z0-9]{32}"', text(page))


def test_bad_key_forms_are_refused_with_the_reason(client, admin, live_company):
    no_name = post(client, "/console/integrations/keys", {"name": "  "}, page="/console/integrations")
    assert no_name.status_code == 422 and "This field is required." in text(no_name)
    bad_scope = post(client, "/console/integrations/keys", {"name": "x", "scopes": ["admin:all"]},
                     page="/console/integrations")
    assert bad_scope.status_code == 422 and "is not a valid choice" in text(bad_scope)
    assert not ApiKey.select().where(ApiKey.company == live_company.id).exists()


def test_another_companys_key_cannot_be_revoked(client, admin, make_sandbox, make_key):
    other = make_sandbox("QA")
    secret = make_key(other)
    key = ApiKey.get(ApiKey.company == other.id)
    response = client.post(f"/console/integrations/keys/{key.id}/revoke",
                           data={"csrf_token": csrf(client, "/console/integrations")})
    assert response.status_code == 404
    assert ApiKey.get_by_id(key.id).revoked_at is None and secret


# ---- sandbox -------------------------------------------------------------------------


def test_create_a_sandbox_from_the_console_once(client, admin, live_company):
    page = post(client, "/console/sandbox", {"country": "AE"}, page="/console/sandbox")
    assert "Created United Arab Emirates Sandbox Trading Co. Switch to it" in text(page)  # one full stop
    sandbox = access.sandbox_of(admin)
    assert sandbox.sandbox and sandbox.country == "AE" and sandbox.api_enabled
    assert Employee.select().where(Employee.company == sandbox.id).count() == 10
    # The current company is unchanged, and a second sandbox is not offered.
    assert "Integrations · Gulf Trading" in text(client.get("/console/integrations"))
    again = post(client, "/console/sandbox", {"country": "KW"}, page="/console/sandbox")
    assert "Switch to the sandbox" in text(again)
    assert Company.select().where(Company.sandbox_owner == admin.id).count() == 1


def test_unknown_country_is_refused(client, admin):
    page = post(client, "/console/sandbox", {"country": "US"}, page="/console/sandbox")
    assert "Not a valid choice" in text(page) and access.sandbox_of(admin) is None


@pytest.mark.parametrize("event_type", TRIGGERS)
def test_the_trigger_panel_makes_each_event_happen(client, in_sandbox, event_type):
    seen = event_ids(in_sandbox)
    page = post(client, "/console/integrations/trigger", {"event_type": event_type}, page="/console/integrations")
    assert f"{event_type}:" in text(page)
    assert event_type in [event["type"] for event in new_events(in_sandbox, seen)]


def test_no_trigger_panel_or_trigger_in_a_live_company(client, admin, live_company):
    assert "Trigger an event" not in text(client.get("/console/integrations"))
    seen = event_ids(live_company)
    page = post(client, "/console/integrations/trigger", {"event_type": "employee.created"},
                page="/console/integrations")
    assert "sandbox companies only" in text(page) and not new_events(live_company, seen)


# ---- employees -----------------------------------------------------------------------


HIRE_FORM = {"staff_number": "N-200", "name_en": "Omar Saleh", "employment_type": "full_time",
             "entity": None, "branch": "", "hire_date": "2026-11-01", "nationality": "EG",
             "contact_phone": "+965 5551 2345", "basic_salary_minor": "850.500", "housing_allowance_minor": "100",
             "transport_allowance_minor": "0", "other_allowance_minor": "0", "iban": ""}


def hire_form(company, **changes):
    return {**HIRE_FORM, "entity": company.entities.get().id, **changes}


def test_hire_edit_end_and_archive_from_the_console(client, in_sandbox):
    seen = event_ids(in_sandbox)
    page = post(client, "/console/employees/new", hire_form(in_sandbox), page="/console/employees/new")
    assert "Hired N-200 Omar Saleh" in text(page)
    hired = Employee.get(Employee.company == in_sandbox.id, Employee.staff_number == "N-200")
    assert hired.basic_salary_minor == 850_500 and hired.contact_phone == "+96555512345"
    assert [e["type"] for e in new_events(in_sandbox, seen)] == ["employee.created"]

    path = f"/console/employees/{hired.id}"
    form = hire_form(in_sandbox, status="active", contact_phone="+96555512345")
    seen = event_ids(in_sandbox)
    post(client, path, {**form, "basic_salary_minor": "900", "iban": "KW81CBKU0000000000001234560101"}, page=path)
    assert Employee.get_by_id(hired.id).basic_salary_minor == 900_000
    assert not new_events(in_sandbox, seen)  # internal fields only: no event
    post(client, path, {**form, "basic_salary_minor": "900", "iban": "KW81CBKU0000000000001234560101",
                        "job_title": "Buyer"}, page=path)
    [updated] = new_events(in_sandbox, seen)
    assert updated["type"] == "employee.updated" and updated["data"]["employee"]["job_title"] == "Buyer"

    seen = event_ids(in_sandbox)
    page = post(client, f"{path}/end", {"termination_date": "2026-11-20", "reason": "Resigned"}, page=path)
    assert "has left as of 2026-11-20" in text(page)
    [left] = new_events(in_sandbox, seen)
    assert left["type"] == "employee.left" and "Resigned" not in str(left)
    assert Employee.get_by_id(hired.id).leaving_reason == "Resigned"

    seen = event_ids(in_sandbox)
    post(client, f"{path}/archive", page=path)
    assert Employee.get_by_id(hired.id).archived and not new_events(in_sandbox, seen)


def test_bad_employee_input_is_shown_beside_its_field_and_nothing_is_stored(client, in_sandbox):
    seen = event_ids(in_sandbox)
    page = post(client, "/console/employees/new",
                hire_form(in_sandbox, staff_number="SBX-001", basic_salary_minor="12.3456",
                          iban="KW00NOTANIBAN", contact_phone="12"),
                page="/console/employees/new")
    assert page.status_code == 422
    body = text(page)
    assert "an amount in KWD" in body
    page = post(client, "/console/employees/new", hire_form(in_sandbox, staff_number="SBX-001", iban="KW00NOTANIBAN",
                                                            contact_phone="12"), page="/console/employees/new")
    body = text(page)
    assert "SBX-001 is already taken" in body and "not a valid IBAN" in body and "not a valid phone number" in body
    assert not new_events(in_sandbox, seen)
    assert Employee.select().where(Employee.company == in_sandbox.id).count() == 10


def test_employees_list_searches_and_shows_leavers(client, in_sandbox, clock):
    page = text(client.get("/console/employees?q=SBX-00"))
    assert page.count("/console/employees/emp_") == 9  # SBX-001..009; SBX-010 does not match "SBX-00"
    assert "No employee matches" in text(client.get("/console/employees?q=nobody-at-all"))


def test_another_companys_employee_is_not_found(client, in_sandbox, make_sandbox):
    stranger = staff(make_sandbox("SA"), "SBX-001")
    assert client.get(f"/console/employees/{stranger.id}").status_code == 404
    response = client.post(f"/console/employees/{stranger.id}/end",
                           data={"termination_date": "2026-11-20", "csrf_token": csrf(client, "/console/employees")})
    assert response.status_code == 404 and Employee.get_by_id(stranger.id).status == "active"


# ---- payroll -------------------------------------------------------------------------


def balances(run):
    """{account code: debit minus credit} over everything posted for the run."""
    entries = [[(line.account_code, line.account_name, line.debit_minor, line.credit_minor)
                for line in JournalLine.select().join(JournalEntry).where(JournalEntry.run == run.id)]]
    return {code: amount for (code, _), amount in net_by_account(entries).items()}


def test_every_payroll_transition_from_the_console(client, in_sandbox):
    entity = in_sandbox.entities.get()
    seen = event_ids(in_sandbox)
    page = post(client, "/console/payroll", {"entity": entity.id, "month": "2026-11"}, page="/console/payroll")
    assert "Draft for 2026-11 built" in text(page) and not new_events(in_sandbox, seen)
    run = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.payroll_month == "2026-11")
    path = f"/console/payroll/{run.id}"

    refused = post(client, f"{path}/pay", page=path)
    assert "finalize it before marking it paid" in text(refused) and PayrollRun.get_by_id(run.id).status == "draft"

    post(client, f"{path}/finalize", page=path)
    [finalized] = new_events(in_sandbox, seen)
    assert finalized["type"] == "payroll_run.finalized" and PayrollRun.get_by_id(run.id).status == "finalized"

    first = staff(in_sandbox, "SBX-001")
    seen = event_ids(in_sandbox)
    page = post(client, f"{path}/correct", {f"{first.id}.basic": "99999.999"}, page=path)
    assert "Corrected 1 employee(s)" in text(page)
    [corrected] = new_events(in_sandbox, seen)
    assert corrected["type"] == "payroll_run.corrected"
    corrected_run = PayrollRun.get_by_id(run.id)
    assert corrected_run.gross_minor > run.gross_minor
    assert balances(run)["2110"] == -corrected_run.net_minor  # salaries payable now owes the corrected net
    assert sum(balances(run).values()) == 0

    seen = event_ids(in_sandbox)
    post(client, f"{path}/pay", page=path)
    assert [e["type"] for e in new_events(in_sandbox, seen)] == ["payroll_run.paid"]
    refused = post(client, f"{path}/delete", page=path)
    assert "a paid run cannot be deleted" in text(refused) and PayrollRun.get_by_id(run.id).status == "paid"


def test_delete_a_finalized_run_and_discard_a_draft(client, in_sandbox):
    run = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.status == "finalized")
    seen = event_ids(in_sandbox)
    page = post(client, f"/console/payroll/{run.id}/delete", page=f"/console/payroll/{run.id}")
    assert "Deleted" in text(page)
    [deleted] = new_events(in_sandbox, seen)
    assert deleted["type"] == "payroll_run.deleted" and deleted["data"] == {"payroll_run_id": run.id}
    assert all(amount == 0 for amount in balances(run).values())
    assert client.get(f"/console/payroll/{run.id}").status_code == 404

    entity = in_sandbox.entities.get()
    post(client, "/console/payroll", {"entity": entity.id, "month": "2026-12"}, page="/console/payroll")
    draft = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.payroll_month == "2026-12")
    seen = event_ids(in_sandbox)
    post(client, f"/console/payroll/{draft.id}/discard", page=f"/console/payroll/{draft.id}")
    assert PayrollRun.get_or_none(PayrollRun.id == draft.id) is None and not new_events(in_sandbox, seen)


def test_a_correction_that_changes_nothing_or_is_not_an_amount_is_refused(client, in_sandbox):
    run = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.status == "finalized")
    first = staff(in_sandbox, "SBX-001")
    path = f"/console/payroll/{run.id}"
    seen = event_ids(in_sandbox)
    assert "nothing to correct" in text(post(client, f"{path}/correct", {}, page=path))
    assert "is not an amount in KWD" in text(post(client, f"{path}/correct", {f"{first.id}.basic": "lots"}, page=path))
    assert not new_events(in_sandbox, seen)


def test_a_second_run_for_the_same_month_is_refused_clearly(client, in_sandbox):
    run = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.status == "finalized")
    page = post(client, "/console/payroll", {"entity": run.entity_id, "month": run.payroll_month},
                page="/console/payroll")
    assert f"already has a finalized run for {run.payroll_month}" in text(page)


def test_pages_render_for_a_run_in_each_state(client, in_sandbox):
    run = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.status == "finalized")
    page = text(client.get(f"/console/payroll/{run.id}"))
    assert "Mark paid" in page and "Post correction" in page and "Accrual" in page
    assert "Build draft" in text(client.get("/console/payroll"))
