"""The end-of-service benefit in payroll runs (issue 25 part 2), through the API on
whichever database the suite runs: so far, Bahrain's SIO contribution for expatriates
(Edict 109 of 2023) as an employer contribution owed to the SIO."""

from datetime import date
from decimal import Decimal

from app.domain.kernel.money import percent_of
from app.domain.payroll import actions as payroll
from app.models import Employee, PayrollRun
from tests.conftest import bearer


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
    assert balances(run)["2120"] == -(Decimal(sio["amount"]) + Decimal(component(run, "social_insurance_employer")[
        "amount"]) + Decimal(component(run, "social_insurance_employee")["amount"]))

    raised = expatriates[0]
    payroll.correct_run(stored, {raised.id: {"basic": raised.basic_salary_minor + 100_000}}, runtime)
    corrected = client.get(f"/v1/payroll-runs/{stored.id}", headers=headers).get_json()
    change = expected(raised, raised.basic_salary_minor + 100_000) - expected(raised, raised.basic_salary_minor)
    assert (Decimal(component(corrected, "end_of_service_sio")["amount"]) - Decimal(sio["amount"])) * 1000 == change
    assert balances(corrected)["5210"] == Decimal(component(corrected, "end_of_service_sio")["amount"])

    other = payroll.finalize_run(payroll.build_draft_run(company.entities.get(), "2026-09", runtime.clock), runtime)
    payroll.delete_run(other, runtime)
    stored_other = PayrollRun.get_by_id(other.id)
    assert stored_other.status == "deleted"
    reversed_lines = payroll._posted_lines(stored_other)
    assert sum(debit - credit for entry in reversed_lines for code, _, debit, credit in entry if code == "5210") == 0


def test_nowhere_else_and_never_for_nationals(client, make_sandbox, make_key):
    for country in ("SA", "AE", "KW", "QA", "OM"):
        company = make_sandbox(country)
        stored = PayrollRun.get(PayrollRun.company == company.id, PayrollRun.status == "finalized")
        run = client.get(f"/v1/payroll-runs/{stored.id}", headers=bearer(make_key(company))).get_json()
        assert component(run, "end_of_service_sio") is None, country
