"""The CSV import's reading of a row, and which event the reconciliation owes."""

import json
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from app.domain.people.actions import canonical, owed_event
from app.domain.people.bulk import CSV_COLUMNS, row_fields


def test_money_is_read_in_the_currencys_major_units_and_blank_money_is_zero():
    fields, errors = row_fields({"staff_number": "S-1", "basic_salary": "1250.500", "housing_allowance": ""}, "KWD")
    assert errors == [] and fields == {"staff_number": "S-1", "basic_salary_minor": 1250500,
                                       "housing_allowance_minor": 0}
    fields, errors = row_fields({"basic_salary": "1250.505"}, "SAR")
    assert errors == [("basic_salary", "an amount in SAR, like 1250.50")]  # SAR has two decimals


def test_dates_flags_and_blanks():
    fields, errors = row_fields({"hire_date": "2026-02-01", "date_of_birth": "", "is_national": "Yes",
                                 "job_title": "  "}, "KWD")
    assert errors == []
    assert fields == {"hire_date": date(2026, 2, 1), "date_of_birth": None, "is_national": True, "job_title": None}
    assert row_fields({"is_national": "no"}, "KWD")[0]["is_national"] is False


def test_every_bad_cell_of_a_row_is_named():
    _, errors = row_fields({"hire_date": "01/02/2026", "basic_salary": "lots", None: ["extra"]}, "OMR")
    assert sorted(path for path, _ in errors) == ["basic_salary", "hire_date", "row"]


@given(st.dictionaries(st.sampled_from(CSV_COLUMNS), st.text(max_size=30), max_size=8))
def test_any_row_gives_fields_or_named_problems_never_an_exception(row):
    fields, errors = row_fields(row, "BHD")
    assert all(path in CSV_COLUMNS or path == "row" for path, _ in errors)
    assert set(fields) <= {*CSV_COLUMNS, "basic_salary_minor", "housing_allowance_minor",
                           "transport_allowance_minor", "other_allowance_minor"}


def form(status="active", title="Accountant"):
    return {"id": "emp_1", "status": status, "job_title": title}


def test_an_employee_never_announced_is_owed_created_whatever_their_status():
    assert owed_event(None, form()) == "employee.created"
    assert owed_event(None, form("left")) == "employee.created"


def test_a_leaver_is_owed_left_once_and_then_updates():
    assert owed_event(canonical(form()), form("left")) == "employee.left"
    assert owed_event(canonical(form("left")), form("left", "Former accountant")) == "employee.updated"
    assert owed_event(canonical(form("on_leave")), form("suspended")) == "employee.updated"


def test_the_announced_form_is_compared_in_one_canonical_spelling():
    assert canonical({"b": 1, "a": "ع"}) == canonical(json.loads('{"a": "ع", "b": 1}')) == '{"a":"ع","b":1}'
