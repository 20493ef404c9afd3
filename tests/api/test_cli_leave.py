"""`leave request|approve|decline|cancel|list|balance|settings` (issue 48 part 2), through
the CLI runner: what each prints, and every refusal in one line naming the option, with
nothing stored.

One Saudi company, E-1 hired on 2025-01-01: a year served earns 21 days (art. 109(1)),
and the 325 days of 2026 to today (2026-11-21 in Riyadh) 21 x 325 / 365 = 18.70 more,
39.70 in all.
"""

import json
from datetime import date

import pytest

from app.domain.access import companies
from app.domain.people import actions as hr
from app.models import Company, Employee, Entity, LeaveRequest
from tests.helpers import ok

SAR = 100


@pytest.fixture
def company(transaction, clock, runtime):
    made = companies.create_company("Leave Co", "SA", clock)
    entity = Entity.get(Entity.company == made.id)
    made.person = hr.hire(made, {"staff_number": "E-1", "name_en": "E-1", "employment_type": "full_time",
                                 "hire_date": date(2025, 1, 1), "basic_salary_minor": 10_000 * SAR,
                                 "nationality": "IN", "entity": entity.id}, runtime)
    return made


def one_line(result, words):
    """Refused with exit status 1, in one line holding `words`, and no traceback."""
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
    assert words in result.output and "Traceback" not in result.output, result.output
    return result.output


def request(run, company, *args):
    return run("leave", "request", "E-1", "--company", company.id, *args)


def stored(company):
    return LeaveRequest.select().where(LeaveRequest.company == company.id).count()


def test_a_leave_approved_at_once_is_planned_then_taken_in_the_balance(run, company, clock):
    made = json.loads(ok(request(run, company, "--type", "annual", "--from", "2026-12-06", "--to", "2026-12-15",
                                 "--approve", "--note", "family visit", "--json")))
    assert {key: made[key] for key in ("employee_id", "type", "status", "start_date", "end_date", "days", "note",
                                       "requested_by", "decided_by", "decided_at")} == {
        "employee_id": company.person.id, "type": "annual", "status": "approved", "start_date": "2026-12-06",
        "end_date": "2026-12-15", "days": 10, "note": "family visit", "requested_by": "operator",
        "decided_by": "operator", "decided_at": "2026-11-21T09:00:00Z"}
    assert json.loads(ok(run("leave", "balance", "E-1", "--company", company.id, "--json"))) == {
        "employee_id": company.person.id, "type": "annual", "as_of": "2026-11-21", "accrued_days": 39.7,
        "taken_days": 0, "planned_days": 10, "balance_days": 39.7, "forfeited_days": 0.0}
    # A day ahead is projected: 2026 to 2026-12-10 is 344 days (21 x 344 / 365 = 19.79), five of them taken.
    assert ok(run("leave", "balance", company.person.id, "--company", company.id, "--on", "2026-12-10")).strip() == (
        "E-1 on 2026-12-10: accrued 40.79, taken 5, planned 5, balance 35.79 days (forfeited 0.00)")


def test_request_approve_decline_cancel_and_list(run, company):
    line = ok(request(run, company, "--type", "sick", "--from", "2026-12-01", "--to", "2026-12-01")).strip()
    sick = LeaveRequest.get(LeaveRequest.company == company.id, LeaveRequest.type == "sick")
    assert line == f"{sick.id} requested: sick of E-1, 2026-12-01 to 2026-12-01, 1 day"
    assert ok(run("leave", "approve", sick.id)).strip() == (
        f"{sick.id} approved: sick of E-1, 2026-12-01 to 2026-12-01, 1 day")
    one_line(run("leave", "approve", sick.id), f"leave {sick.id} is approved; only a leave requested can be approved")
    unpaid = json.loads(ok(request(run, company, "--type", "unpaid", "--from", "2027-01-03", "--to", "2027-01-05",
                                   "--json")))
    assert json.loads(ok(run("leave", "decline", unpaid["id"], "--company", company.id, "--json")))["status"] == (
        "declined")
    one_line(run("leave", "cancel", unpaid["id"]), "only a leave requested or approved can be cancelled")
    assert "cancelled: sick" in ok(run("leave", "cancel", sick.id, "--company", company.id))

    listed = json.loads(ok(run("leave", "list", "--company", company.id, "--json")))["data"]
    assert [(row["type"], row["status"]) for row in listed] == [("sick", "cancelled"), ("unpaid", "declined")]
    assert [row["id"] for row in json.loads(ok(run("leave", "list", "--company", company.id, "--employee", "E-1",
                                                   "--status", "declined", "--json")))["data"]] == [unpaid["id"]]
    assert ok(run("leave", "list", "--company", company.id, "--from", "2027-01-06")).strip() == "no leave"
    assert ok(run("leave", "list", "--company", company.id, "--to", "2026-12-31")).splitlines() == [
        f"{sick.id} cancelled: sick of E-1, 2026-12-01 to 2026-12-01, 1 day"]


def test_every_refusal_of_a_request_is_one_line_naming_the_option_and_stores_nothing(run, company):
    one_line(request(run, company, "--type", "holiday", "--from", "2026-12-01", "--to", "2026-12-01"),
             "--type: one of annual, sick, unpaid, maternity, hajj, bereavement, marriage, other")
    one_line(request(run, company, "--type", "annual", "--from", "2026-02-30", "--to", "2026-03-01"),
             "--from: 2026-02-30 is not a date of the calendar (YYYY-MM-DD)")
    one_line(request(run, company, "--type", "annual", "--from", "2026-12-01", "--to", "1/12/2026"),
             "--to: 1/12/2026 is not a date of the calendar (YYYY-MM-DD)")
    one_line(request(run, company, "--type", "annual", "--from", "2026-12-05", "--to", "2026-12-01"),
             "--to: on or after the first day (2026-12-05)")
    one_line(request(run, company, "--type", "sick", "--from", "2024-12-30", "--to", "2025-01-02"),
             "--from: before the employment began (hired 2025-01-01)")
    one_line(request(run, company, "--type", "annual", "--from", "2026-01-01", "--to", "2026-02-28"),
             "--to: more annual leave than the balance allows")
    one_line(request(run, company, "--type", "sick", "--from", "2026-12-01", "--to", "2026-12-01", "--note",
                     "x" * 501), "--note: text of at most 500 characters")
    one_line(run("leave", "request", "E-9", "--company", company.id, "--type", "sick", "--from", "2026-12-01",
                 "--to", "2026-12-01"), "No employee 'E-9' in this company")
    one_line(run("leave", "request", "E-1", "--company", "co_nobody", "--type", "sick", "--from", "2026-12-01",
                 "--to", "2026-12-01"), "no company co_nobody")
    assert stored(company) == 0

    first = json.loads(ok(request(run, company, "--type", "sick", "--from", "2026-12-01", "--to", "2026-12-03",
                                  "--json")))
    one_line(request(run, company, "--type", "annual", "--from", "2026-12-03", "--to", "2026-12-04"),
             f"--from: overlaps leave {first['id']} (sick, 2026-12-01 to 2026-12-03, requested)")
    Employee.update(termination_date=date(2026, 12, 31)).where(Employee.id == company.person.id).execute()
    one_line(request(run, company, "--type", "unpaid", "--from", "2026-12-30", "--to", "2027-01-02"),
             "--to: after the employment ends (last day 2026-12-31)")
    assert stored(company) == 1


def test_a_company_that_allows_a_negative_balance_takes_leave_before_it_is_earned(run, company):
    assert ok(run("leave", "settings", "--company", company.id, "--allow-negative")).splitlines()[-1] == (
        "negative balances: allowed")
    assert "approved: annual" in ok(request(run, company, "--type", "annual", "--from", "2026-01-01", "--to",
                                            "2026-02-28", "--approve"))
    balance = json.loads(ok(run("leave", "balance", "E-1", "--company", company.id, "--on", "2026-02-28",
                                "--json")))
    assert balance["taken_days"] == 59 and balance["balance_days"] < 0


def test_decisions_refuse_in_one_line(run, company, clock):
    one_line(run("leave", "approve", "leave_nobody"), "no leave leave_nobody")
    leave = json.loads(ok(request(run, company, "--type", "annual", "--from", "2026-12-06", "--to", "2026-12-15",
                                  "--json")))
    other = companies.create_company("Other Co", "SA", clock)
    one_line(run("leave", "approve", leave["id"], "--company", other.id), f"no leave {leave['id']}")
    assert LeaveRequest.get_by_id(leave["id"]).status == "requested"
    # Approving checks again: the balance has been spent meanwhile by a leave approved with the company's leave.
    Company.update(leave_negative_allowed=True).where(Company.id == company.id).execute()
    ok(request(run, company, "--type", "annual", "--from", "2026-01-04", "--to", "2026-02-10", "--approve"))
    Company.update(leave_negative_allowed=False).where(Company.id == company.id).execute()
    one_line(run("leave", "approve", leave["id"]), "more annual leave than the balance allows")
    assert LeaveRequest.get_by_id(leave["id"]).status == "requested"


def test_list_and_balance_refuse_in_one_line(run, company):
    one_line(run("leave", "list", "--company", company.id, "--status", "pending"),
             "--status: one of requested, approved, declined, cancelled")
    one_line(run("leave", "list", "--company", company.id, "--from", "2026-13-01"),
             "--from: 2026-13-01 is not a date of the calendar")
    one_line(run("leave", "list", "--company", company.id, "--employee", "E-9"), "No employee 'E-9'")
    one_line(run("leave", "balance", "E-1", "--company", company.id, "--on", "2026-02-29"),
             "--on: 2026-02-29 is not a date of the calendar")
    one_line(run("leave", "balance", "E-1", "--company", company.id, "--on", "٢٠٢٦-١١-٢١"),
             "--on: ٢٠٢٦-١١-٢١ is not a date of the calendar")


def test_settings_show_set_and_go_back_to_the_law(run, company):
    assert json.loads(ok(run("leave", "settings", "--company", company.id, "--json"))) == {
        "company_id": company.id, "annual_days": None, "law_minimum_days": {"SA": 21}, "carry_over_days": None,
        "negative_allowed": False}
    assert ok(run("leave", "settings", "--company", company.id, "--annual-days", "25", "--carry-over", "10")
              ).splitlines() == ["annual days a year: 25 (the law's minimum: SA 21)",
                                 "carried into the next leave year: at most 10 days", "negative balances: not allowed"]
    assert (Company.get_by_id(company.id).leave_annual_days, Company.get_by_id(company.id).leave_carry_over_days) == (
        25, 10)
    # 25 days a year: 25 for 2025, 25 x 325 / 365 = 22.26 in 2026; 15 of 2025's days are beyond the cap of 10.
    assert json.loads(ok(run("leave", "balance", "E-1", "--company", company.id, "--json")))["accrued_days"] == 32.26
    back = json.loads(ok(run("leave", "settings", "--company", company.id, "--annual-days", "law", "--carry-over",
                             "none", "--no-negative", "--json")))
    assert (back["annual_days"], back["carry_over_days"], back["negative_allowed"]) == (None, None, False)


def test_settings_refuse_in_one_line_naming_the_option_and_change_nothing(run, company, clock):
    one_line(run("leave", "settings", "--company", company.id, "--annual-days", "20"),
             "--annual-days: 20 days a year is below the law of SA (21 days, art. 109(1)")
    one_line(run("leave", "settings", "--company", company.id, "--annual-days", "366"),
             "--annual-days: at most 365 days a year")
    one_line(run("leave", "settings", "--company", company.id, "--annual-days", "many"),
             "--annual-days: a whole number of days (digits 0-9), or law")
    one_line(run("leave", "settings", "--company", company.id, "--carry-over", "-1"),
             "--carry-over: a whole number of days (digits 0-9), or none")
    one_line(run("leave", "settings", "--company", company.id, "--carry-over", "3651"),
             "--carry-over: from 0 to 3650 days, or no cap at all")
    # A company employing in Kuwait too owes Kuwait's 30 days there: 25 is below it.
    Entity.create(id="ent_kw_leave", company=company.id, country="KW", name_en="Kuwait W.L.L.", currency="KWD",
                  primary=False, created_at=clock.now().replace(tzinfo=None))
    one_line(run("leave", "settings", "--company", company.id, "--annual-days", "25"),
             "--annual-days: 25 days a year is below the law of KW (30 days")
    one_line(run("leave", "settings", "--company", "co_nobody"), "no company co_nobody")
    found = Company.get_by_id(company.id)
    assert (found.leave_annual_days, found.leave_carry_over_days, found.leave_negative_allowed) == (None, None, False)


def test_a_balance_carried_from_another_system_goes_on_from_its_day(run, company):
    """E-1 came with 12.5 days on 2025-12-31 (leave before it is in that figure): on
    2026-03-31, 12.5 + 21 x 90 / 365 (5.18) = 17.68, less February's 5 days = 12.68."""
    for first, last in (("2025-12-20", "2025-12-24"), ("2026-02-01", "2026-02-05")):
        ok(request(run, company, "--type", "annual", "--from", first, "--to", last, "--approve"))
    assert ok(run("leave", "carried", "E-1", "--company", company.id, "--days", "12.5", "--as-of", "2025-12-31")
              ).strip() == "E-1: 12.5 days carried on 2025-12-31"
    found = json.loads(ok(run("leave", "balance", "E-1", "--company", company.id, "--on", "2026-03-31", "--json")))
    assert (found["accrued_days"], found["taken_days"], found["balance_days"]) == (17.68, 5, 12.68)
    one_line(run("leave", "carried", "E-1", "--company", company.id, "--days", "12.55555", "--as-of", "2025-12-31"),
             "--days: a number of days, at most four decimal places")
    one_line(run("leave", "carried", "E-1", "--company", company.id, "--days", "3", "--as-of", "2024-12-31"),
             "--as-of: a day of the employment (hired 2025-01-01)")
    one_line(run("leave", "carried", "E-1", "--company", company.id, "--days", "3"), "--as-of: the day the balance")
    assert "counted from the hire date" in ok(run("leave", "carried", "E-1", "--company", company.id, "--clear"))
    assert Employee.get_by_id(company.person.id).leave_carried_days is None
