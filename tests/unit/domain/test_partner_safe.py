"""What partners see: exactly the contract's fields, and never an internal one, whatever
the stored row holds."""

from datetime import UTC, date, datetime

from hypothesis import given
from hypothesis import strategies as st

from app.domain import partner_safe
from app.models import Company, Entity, PayrollRun

INTERNAL = ("nationality", "is_national", "basic_salary_minor", "housing_allowance_minor",
            "transport_allowance_minor", "other_allowance_minor", "bank_name", "iban", "civil_id",
            "passport_number", "date_of_birth", "social_insurance_number", "leaving_reason", "archived")
EMPLOYEE_FIELDS = {"id", "staff_number", "name", "job_title", "department", "status", "employment_type", "country",
                   "entity_id", "branch", "manager_id", "contact_email", "contact_phone", "hire_date",
                   "termination_date", "created_at", "updated_at"}
AT = datetime(2026, 11, 21, 9, 30, 15)


def employee_row(**internal):
    return {"id": "emp_1", "staff_number": "S-1", "name_en": "Aisha", "name_ar": "عائشة", "job_title": None,
            "department": "Finance", "status": "left", "employment_type": "full_time", "country": "KW",
            "entity": "ent_1", "branch": "br_1", "branch_name": "Salmiya", "manager": None,
            "contact_email": "aisha@example.com", "contact_phone": "+96555952568", "hire_date": date(2020, 1, 5),
            "termination_date": date(2026, 11, 30), "created_at": AT, "updated_at": AT, **internal}


def test_an_employee_has_exactly_the_contracts_fields():
    form = partner_safe.employee_form(employee_row())
    assert set(form) == EMPLOYEE_FIELDS
    assert form["name"] == {"en": "Aisha", "ar": "عائشة"} and form["branch"] == {"id": "br_1", "name": "Salmiya"}
    assert (form["hire_date"], form["termination_date"], form["updated_at"]) == (
        "2020-01-05", "2026-11-30", "2026-11-21T09:30:15Z")
    assert partner_safe.employee_form(employee_row(branch=None))["branch"] is None


@given(st.fixed_dictionaries({name: st.text(min_size=8, alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ") for name in INTERNAL}))
def test_no_internal_value_ever_reaches_the_partner_form(internal):
    rendered = repr(partner_safe.employee_form(employee_row(**internal)))
    assert not [name for name, value in internal.items() if value in rendered]


def test_a_company_lists_its_entities_as_given_with_plain_booleans():
    company = Company(id="cmp_1", name_en="Gulf", name_ar=None, country="SA", currency="SAR",
                      timezone="Asia/Riyadh", sandbox=1)
    entities = [Entity(id="ent_1", country="SA", name_en="Gulf KSA", name_ar=None, currency="SAR", primary=1),
                Entity(id="ent_2", country="AE", name_en="Gulf UAE", name_ar="الخليج", currency="AED", primary=0)]
    form = partner_safe.company_form(company, entities)
    assert form["sandbox"] is True and [e["primary"] for e in form["entities"]] == [True, False]
    assert [e["id"] for e in form["entities"]] == ["ent_1", "ent_2"] and form["name"] == {"en": "Gulf", "ar": None}


def test_run_totals_are_exact_strings_in_the_runs_currency():
    run = PayrollRun(id="run_1", entity_id="ent_1", country="OM", payroll_month="2026-10", status="paid",
                     currency="OMR", employee_count=3, gross_minor=1_234_567, deductions_minor=5,
                     net_minor=1_234_562, employer_contributions_minor=0, total_cost_minor=1_234_567,
                     finalized_at=AT, paid_at=None, updated_at=datetime(2026, 11, 1, tzinfo=UTC))
    form = partner_safe.payroll_run_summary(run)
    assert form["totals"] == {"gross": "1234.567", "deductions": "0.005", "net": "1234.562",
                              "employer_contributions": "0.000", "total_cost": "1234.567",
                              "provisions": "0.000"}  # v1.3
    assert "provisions" not in partner_safe.payroll_run_summary(run, beyond_contract=False)["totals"]
    assert form["paid_at"] is None and form["finalized_at"] == "2026-11-21T09:30:15Z"
