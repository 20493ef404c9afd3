"""The end-of-service benefit in payroll runs (issue 25 part 2), through the API on
whichever database the suite runs: in each of the six countries a run's journal carries
the opening provision (an entity's first run) and the month's change, the provision
equals what the law says was earned, leavers are settled in the run of their last month
(termination and resignation), corrections and deletions move the lines; and Bahrain's
SIO contribution for expatriates is an employer contribution owed to the SIO."""

from datetime import date
from decimal import Decimal

import pytest

from app.domain.access import companies
from app.domain.kernel.countries import COUNTRIES
from app.domain.kernel.money import minor_digits, percent_of
from app.domain.payroll import drafts, moves, posting
from app.domain.payroll.end_of_service import Service, liability, owed
from app.domain.payroll.rules import Pay, pay_of
from app.domain.people import actions as hr
from app.models import Company, Employee, EndOfServiceBalance, PayrollRun
from tests.conftest import bearer

OCTOBER_END, SEPTEMBER_END = date(2026, 10, 31), date(2026, 9, 30)


def service_of(person):
    return Service(person.country, person.hire_date, person.is_national, person.basic_salary_minor,
                   person.housing_allowance_minor + person.transport_allowance_minor + person.other_allowance_minor)


def leave_held(person, through):
    """The leave salary the provision carries for `person` at the end of `through` (their
    approved leave as stored; leave_provision.py's rules, tested by hand in
    tests/unit/domain/payroll/test_leave_provision.py)."""
    return drafts.leave_held(person, Company.get_by_id(person.company_id), pay_of(person),
                             drafts.annual_leave_rows([person.id]).get(person.id, []), through)[0]


def minor(amount, currency):
    return int(Decimal(amount).scaleb(minor_digits(currency)))


def read(client, headers, run_id):
    return client.get(f"/v1/payroll-runs/{run_id}", headers=headers).get_json()


def component(run, code):
    return next((c for c in run["components"] if c["code"] == code), None)


def balances(run):
    """{account code: debit minus credit} over every posted entry of a run, as partners read it."""
    totals: dict[str, Decimal] = {}
    for entry in run["journal_entries"]:
        for line in entry["lines"]:
            totals[line["account_code"]] = (totals.get(line["account_code"], Decimal(0))
                                            + Decimal(line["debit"]) - Decimal(line["credit"]))
    return totals


def test_bahrain_expatriates_cost_the_sio_contribution_and_it_moves_with_corrections_and_deletions(
        client, make_sandbox, make_key, runtime):
    company = make_sandbox("BH")
    headers = bearer(make_key(company))
    stored = PayrollRun.get(PayrollRun.company == company.id, PayrollRun.status == "finalized")
    month_start = date(int(stored.payroll_month[:4]), int(stored.payroll_month[5:]), 1)
    expatriates = list(Employee.select().where(Employee.company == company.id, Employee.is_national == False))  # noqa: E712

    def expected(person, basic):  # 4.2% of the wage in the first three years of service, 8.4% after
        wage = basic + person.housing_allowance_minor + person.transport_allowance_minor + person.other_allowance_minor
        return percent_of(wage, "8.4" if (month_start - person.hire_date).days >= 3 * 365 else "4.2")

    run = client.get(f"/v1/payroll-runs/{stored.id}", headers=headers).get_json()
    sio = component(run, "end_of_service_sio")
    assert sio["kind"] == "employer_contribution" and sio["employee_count"] == len(expatriates) == 7
    assert Decimal(sio["amount"]) * 1000 == sum(expected(p, p.basic_salary_minor) for p in expatriates)
    assert {(p.hire_date < date(2024, 3, 1)) for p in expatriates} == {True, False}  # both rates show
    assert balances(run)["5210"] == Decimal(sio["amount"])
    assert balances(run)["2125"] == -(Decimal(sio["amount"]) + Decimal(component(run, "social_insurance_employer")[
        "amount"]) + Decimal(component(run, "social_insurance_employee")["amount"]))

    raised = expatriates[0]
    moves.correct_run(stored, {raised.id: {"basic": raised.basic_salary_minor + 100_000}}, runtime)
    corrected = client.get(f"/v1/payroll-runs/{stored.id}", headers=headers).get_json()
    change = expected(raised, raised.basic_salary_minor + 100_000) - expected(raised, raised.basic_salary_minor)
    assert (Decimal(component(corrected, "end_of_service_sio")["amount"]) - Decimal(sio["amount"])) * 1000 == change
    assert balances(corrected)["5210"] == Decimal(component(corrected, "end_of_service_sio")["amount"])

    other = moves.finalize_run(drafts.build_draft_run(company.entities.get(), "2026-09", runtime.clock), runtime)
    moves.delete_run(other, runtime)
    stored_other = PayrollRun.get_by_id(other.id)
    assert stored_other.status == "deleted"
    reversed_lines = posting.posted_lines(stored_other)
    assert sum(line[2] - line[3] for entry in reversed_lines for line in entry if line[0] == "5210") == 0


def test_nowhere_else_and_never_for_nationals(client, make_sandbox, make_key):
    for country in ("SA", "AE", "KW", "QA", "OM"):
        company = make_sandbox(country)
        stored = PayrollRun.get(PayrollRun.company == company.id, PayrollRun.status == "finalized")
        run = client.get(f"/v1/payroll-runs/{stored.id}", headers=bearer(make_key(company))).get_json()
        assert component(run, "end_of_service_sio") is None, country


@pytest.mark.parametrize("country", sorted(COUNTRIES))
def test_a_first_run_posts_the_opening_provision_then_the_months_change_and_it_equals_what_was_earned(
        client, make_sandbox, make_key, country):
    company = make_sandbox(country)
    headers = bearer(make_key(company))
    stored = PayrollRun.get(PayrollRun.company == company.id, PayrollRun.status == "finalized")
    assert stored.payroll_month == "2026-10"
    run = read(client, headers, stored.id)
    currency = run["currency"]
    people = list(Employee.select().where(Employee.company == company.id))
    opening = sum(liability(service_of(p), SEPTEMBER_END) for p in people)
    earned = sum(liability(service_of(p), OCTOBER_END) for p in people)
    # long service everywhere; Bahrain's provision stopped growing in March 2024 (the SIO's since)
    assert (earned == opening if country == "BH" else earned > opening) and opening > 0

    # The leave salary held (annual leave earned and not taken) comes in the same way.
    leave_opening = sum(leave_held(p, SEPTEMBER_END) for p in people)
    leave_earned = sum(leave_held(p, OCTOBER_END) for p in people)
    assert leave_earned > leave_opening > 0

    entries = run["journal_entries"]
    assert [entry["kind"] for entry in entries] == ["opening", "opening", "accrual"]
    assert [[(line["account_code"], minor(line["debit"], currency), minor(line["credit"], currency))
             for line in entry["lines"]] for entry in entries[:2]] == [
        [("3100", opening, 0), ("2300", 0, opening)], [("3100", leave_opening, 0), ("2310", 0, leave_opening)]]
    for entry in entries:
        assert sum(Decimal(x["debit"]) for x in entry["lines"]) == sum(Decimal(x["credit"]) for x in entry["lines"])
    assert -minor(balances(run)["2300"], currency) == earned  # the books carry what the law says was earned
    assert -minor(balances(run)["2310"], currency) == leave_earned
    accrual = component(run, "end_of_service_accrual") or {"kind": "provision", "amount": "0"}
    assert accrual["kind"] == "provision" and minor(accrual["amount"], currency) == earned - opening
    assert minor(component(run, "leave_accrual")["amount"], currency) == leave_earned - leave_opening
    assert minor(run["totals"]["provisions"], currency) == earned - opening + leave_earned - leave_opening
    assert minor(balances(run).get("5300", 0), currency) == earned - opening  # the month's cost only
    assert minor(balances(run)["5310"], currency) == leave_earned - leave_opening
    rows = {row.employee_id: row for row in EndOfServiceBalance.select().where(EndOfServiceBalance.run == stored)}
    assert {p.id: rows[p.id].balance_minor for p in people} == {p.id: liability(service_of(p), OCTOBER_END)
                                                                for p in people}


def next_run(company, runtime, month="2026-11"):
    draft = drafts.build_draft_run(company.entities.get(), month, runtime.clock)
    return moves.finalize_run(draft, runtime)


@pytest.mark.parametrize("country, staff, resigned", [
    ("KW", "SBX-001", False),  # a Kuwaiti past ten years, let go: the whole indemnity
    ("KW", "SBX-005", True),  # past three years, resigning: half (art. 53)
    ("SA", "SBX-008", True),  # past five years, resigning: two thirds (art. 85)
    ("AE", "SBX-004", False),  # under a year: nothing vested, nothing owed
])
def test_a_leaver_is_paid_in_the_run_of_their_last_month_and_the_rest_released(
        client, make_sandbox, make_key, runtime, country, staff, resigned):
    company = make_sandbox(country)
    headers = bearer(make_key(company))
    person = Employee.get(Employee.company == company.id, Employee.staff_number == staff)
    last_day = date(2026, 11, 20)
    hr.end_employment(company.id, person.id, last_day, runtime, resigned=resigned)
    person = Employee.get_by_id(person.id)
    carried = liability(service_of(person), OCTOBER_END)
    earned_to_last_day = liability(service_of(person), last_day)
    due = owed(service_of(person), last_day, "resignation" if resigned else "termination")
    november = next_run(company, runtime)
    run = read(client, headers, november.id)
    currency = run["currency"]
    benefit = component(run, "end_of_service_benefit")
    if due:
        assert benefit["kind"] == "earning" and benefit["employee_count"] == 1
        assert minor(benefit["amount"], currency) == due
    else:
        assert benefit is None
    released = minor((component(run, "end_of_service_release") or {"amount": "0"})["amount"], currency)
    assert released == earned_to_last_day - due  # the unused part goes back through the expense
    if country == "AE":  # under a year: accrued from the first day (IAS 19), owed nothing, all released
        assert due == 0 and released == earned_to_last_day > 0
    assert EndOfServiceBalance.get(run=november, employee=person).balance_minor == 0
    assert [entry["kind"] for entry in run["journal_entries"]] == ["accrual"]  # no second opening
    stayed = [p for p in Employee.select().where(Employee.company == company.id, Employee.id != person.id)]
    october = PayrollRun.get(PayrollRun.company == company.id, PayrollRun.payroll_month == "2026-10")
    together = balances(read(client, headers, october.id))["2300"] + balances(run)["2300"]
    assert -minor(together, currency) == sum(liability(service_of(p), date(2026, 11, 30)) for p in stayed)
    assert carried <= earned_to_last_day
    payable = balances(run)["2110"]
    assert -minor(payable, currency) == minor(run["totals"]["net"], currency)  # paid with the salaries
    december = read(client, headers, next_run(company, runtime, "2026-12").id)
    assert component(december, "end_of_service_benefit") is None  # settled once, never again


def test_a_correction_moves_the_provision_and_a_deletion_reverses_it(client, make_sandbox, make_key, runtime):
    company = make_sandbox("SA")
    headers = bearer(make_key(company))
    november = next_run(company, runtime)
    person = Employee.get(Employee.company == company.id, Employee.staff_number == "SBX-006")  # 10.6 years
    before = read(client, headers, november.id)
    moves.correct_run(november, {person.id: {"basic": person.basic_salary_minor + 100_000}}, runtime)
    after = read(client, headers, november.id)
    raised = Service("SA", person.hire_date, person.is_national, person.basic_salary_minor + 100_000,
                     person.housing_allowance_minor + person.transport_allowance_minor + person.other_allowance_minor)
    growth = liability(raised, date(2026, 11, 30)) - liability(service_of(person), date(2026, 11, 30))
    assert growth > 0
    # The leave salary he holds is revalued at the raised wage too (leave_provision.py).
    rows = drafts.annual_leave_rows([person.id]).get(person.id, [])
    company_row = Company.get_by_id(company.id)
    raised_pay = Pay(person.basic_salary_minor + 100_000, person.housing_allowance_minor,
                     person.transport_allowance_minor, person.other_allowance_minor)
    leave_growth = (drafts.leave_held(person, company_row, raised_pay, rows, date(2026, 11, 30))[0]
                    - leave_held(person, date(2026, 11, 30)))
    assert leave_growth > 0
    assert (minor(after["totals"]["provisions"], "SAR") - minor(before["totals"]["provisions"], "SAR")
            == growth + leave_growth)
    correction = after["journal_entries"][-1]
    assert correction["kind"] == "correction"
    assert {line["account_code"] for line in correction["lines"]} >= {"5300", "2300"}
    assert EndOfServiceBalance.get(run=november, employee=person).balance_minor == liability(raised, date(2026, 11, 30))

    december = next_run(company, runtime, "2026-12")
    moves.delete_run(december, runtime)
    lines = posting.posted_lines(PayrollRun.get_by_id(december.id))
    for account in ("5300", "2300", "5310", "2310", "3100"):
        assert sum(line[2] - line[3] for entry in lines for line in entry if line[0] == account) == 0
    january = next_run(company, runtime, "2027-01")  # the deleted run's balances are not carried
    assert EndOfServiceBalance.get(run=january, employee=person).booked_minor == liability(raised, date(2026, 11, 30))


def test_a_resignation_is_recorded_as_such_only_when_said(client, sandbox, runtime, run):
    person = Employee.get(Employee.company == sandbox.id, Employee.staff_number == "SBX-009")
    result = run("employees", "end", person.id, "--date", "2026-11-20", "--resigned")
    assert result.exit_code == 0, result.output
    assert Employee.get_by_id(person.id).leaving_kind == "resignation"
    other = Employee.get(Employee.company == sandbox.id, Employee.staff_number == "SBX-010")
    assert run("employees", "end", other.id, "--date", "2026-11-20").exit_code == 0
    assert Employee.get_by_id(other.id).leaving_kind == "termination"


def test_without_v1_3_a_run_carries_no_end_of_service_line(make_sandbox, clock):
    company = make_sandbox("BH")
    draft = drafts.build_draft_run(company.entities.get(), "2026-11", clock, end_of_service=False)
    codes = {line.component_code for line in draft.lines}
    assert not {code for code in codes if code.startswith("end_of_service")}
    assert draft.eos_opening_minor == 0 and not EndOfServiceBalance.select().where(
        EndOfServiceBalance.run == draft).exists()


def test_a_uae_leaver_of_a_full_year_is_paid_21_days_in_the_final_settlement(client, transaction, runtime, make_key):
    """Issue 47 part 7: an expatriate hired 1 March 2025, last day 28 February 2026, basic
    AED 10,000.00. Both days are served: 365 days, a full year (Decree-Law 33/2021 art. 51),
    so February's run pays 21 days' basic: 21 x 10,000 x 12 / 365 = 6,904.109... -> 6,904.11."""
    company = companies.create_company("Full Year Co", "AE", runtime.clock)
    companies.enable_partner_api(company.id, runtime)
    headers = bearer(make_key(company))
    person = hr.hire(company, {"staff_number": "FY-1", "name_en": "FY-1", "employment_type": "full_time",
                               "hire_date": date(2025, 3, 1), "basic_salary_minor": 1_000_000, "nationality": "IN"},
                     runtime)
    hr.end_employment(company.id, person.id, date(2026, 2, 28), runtime)
    run = read(client, headers, next_run(company, runtime, "2026-02").id)
    benefit = component(run, "end_of_service_benefit")
    assert (benefit["kind"], benefit["amount"], benefit["employee_count"]) == ("earning", "6904.11", 1)
    assert component(run, "end_of_service_release") is None  # vested: none of the provision goes back
    # The entity's first run: its opening is what was earned 1 March 2025 to 31 January 2026,
    # 337 days: 21 x 10,000 x 12 / 365 x 337 / 365 = 6,374.479... -> 6,374.48, Dr 3100 / Cr 2300
    opening = next(entry for entry in run["journal_entries"] if entry["kind"] == "opening")
    assert [(line["account_code"], line["debit"], line["credit"]) for line in opening["lines"]] == [
        ("3100", "6374.48", "0.00"), ("2300", "0.00", "6374.48")]
    assert component(run, "end_of_service_accrual")["amount"] == "529.63"  # February's 28 days: 6,904.11 - 6,374.48
    assert balances(run)["2300"] == 0  # paid out whole: the books carry nothing for them after
    # And the annual leave not taken (art. 29(9), on the basic over 30): a full year served
    # earns the year's 30 days (art. 29(1); days.Accrual.earned), 30 x 10,000.00 / 30.
    assert component(run, "leave_encashment")["amount"] == "10000.00"
    assert balances(run)["2310"] == 0
    # The final settlement: February's whole basic, the benefit and the leave (no social
    # insurance for an expatriate in the UAE), payable with the salaries:
    # 10,000.00 + 6,904.11 + 10,000.00 = 26,904.11
    assert component(run, "basic")["amount"] == "10000.00"
    assert -balances(run)["2110"] == Decimal("26904.11") == Decimal(run["totals"]["net"])
