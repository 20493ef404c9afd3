from datetime import date

import phonenumbers
import pytest

from app.domain.kernel.countries import COUNTRIES
from app.domain.kernel.errors import Conflict
from app.domain.people.actions import valid_iban
from app.domain.sandbox import create_sandbox
from app.models import Employee, JournalLine, Membership, PayrollRun
from tests.conftest import bearer


@pytest.mark.parametrize("country", sorted(COUNTRIES))
def test_sandbox_composition_for_each_country(client, make_sandbox, make_key, country):
    company = make_sandbox(country)
    rules = COUNTRIES[country]
    headers = bearer(make_key(company))
    body = client.get("/v1/company", headers=headers).get_json()
    assert body["sandbox"] is True and body["country"] == country
    assert body["currency"] == rules.currency and body["timezone"] == rules.timezone
    assert len(body["entities"]) == 1 and body["entities"][0]["country"] == country

    employees = client.get("/v1/employees", headers=headers).get_json()["data"]
    assert [e["staff_number"] for e in employees] == [f"SBX-{i:03d}" for i in range(1, 11)]
    kinds = [e["employment_type"] for e in employees]
    assert (kinds.count("full_time"), kinds.count("part_time"), kinds.count("contract")) == (8, 1, 1)
    stored = list(Employee.select().where(Employee.company == company))
    assert sum(e.is_national for e in stored) == 3
    assert all(e.nationality == rules.nationality for e in stored if e.is_national)
    assert all(e.iban and e.civil_id and e.passport_number and e.date_of_birth for e in stored)
    assert all(e.contact_email.endswith(".example.com") for e in stored)  # never a real address
    assert all(valid_iban(e.iban) for e in stored)
    assert all(phonenumbers.is_valid_number(phonenumbers.parse(e.contact_phone)) for e in stored)
    assert all(phonenumbers.region_code_for_number(phonenumbers.parse(e.contact_phone)) == country for e in stored)

    [run] = client.get("/v1/payroll-runs", headers=headers).get_json()["data"]
    assert run["status"] == "finalized" and run["payroll_month"] == "2026-10"
    lines = JournalLine.select().join(JournalLine.entry.rel_model).where(
        JournalLine.entry.rel_model.run == run["id"])
    assert sum(x.debit_minor for x in lines) == sum(x.credit_minor for x in lines) > 0


@pytest.mark.parametrize("country", sorted(COUNTRIES))
def test_sandbox_service_spans_every_end_of_service_branch(make_sandbox, clock, country):
    """Under a year, past 3, 5 and 10 years, nationals with long and short service, and in
    Bahrain people hired before and after the SIO scheme (March 2024)."""
    stored = list(Employee.select().where(Employee.company == make_sandbox(country)))
    years = sorted((clock.now().date() - e.hire_date).days / 365 for e in stored)
    assert years[0] < 1 and any(3 < y < 5 for y in years) and any(5 < y < 10 for y in years) and years[-1] > 10
    nationals = [(clock.now().date() - e.hire_date).days / 365 for e in stored if e.is_national]
    assert min(nationals) < 1 and max(nationals) > 10
    assert {e.hire_date >= date(2024, 3, 1) for e in stored} == {True, False}


def test_creator_becomes_ceo_by_membership_only(make_sandbox):
    company = make_sandbox("SA", email="maha@example.com")
    [membership] = Membership.select().where(Membership.company == company)
    assert membership.role == "ceo" and membership.user.email == "maha@example.com"


def test_one_sandbox_per_user(make_sandbox, clock, runtime):
    company = make_sandbox("KW", email="once@example.com")
    with pytest.raises(Conflict):
        create_sandbox(company.sandbox_owner, "SA", runtime)


def test_sandbox_payroll_is_computed_from_the_employee_lines(make_sandbox):
    company = make_sandbox("SA")
    run = PayrollRun.get(PayrollRun.company == company)
    line_total = sum(line.amount_minor for line in run.lines if line.component_code in (
        "basic", "housing", "transport", "other_allowance"))
    assert run.gross_minor == line_total
    assert run.net_minor == run.gross_minor - run.deductions_minor
