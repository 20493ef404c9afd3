"""A joiner's first month and a leaver's last paid for the days employed, and the
leaver's final settlement (last days' pay and the end-of-service benefit) in one run
(issue 33 part 2), as partners read the run."""

from datetime import date
from decimal import Decimal

from app.domain.payroll import moves
from app.domain.payroll.end_of_service import Service, owed
from app.domain.people import actions as hr
from app.models import Employee


def component(client, books, run, code):
    body = client.get(f"/v1/payroll-runs/{run.id}", headers=books.headers).get_json()
    found = next((c for c in body["components"] if c["code"] == code), None)
    return (int(Decimal(found["amount"]) * 1000), found["employee_count"]) if found else (0, 0)


def test_a_joiner_hired_on_the_16th_is_paid_half_of_september(client, books):
    books.hire("J-1", date(2026, 9, 16), 900_000)
    september = books.run("2026-09")
    assert component(client, books, september, "basic") == (450_000, 1)  # 900.000 -> 450.000
    assert component(client, books, books.run("2026-10"), "basic") == (900_000, 1)


def test_a_leavers_last_month_pays_their_days_and_the_benefit_together(client, books):
    person = books.hire("L-1", date(2015, 4, 1), 1_240_000)
    books.run("2026-09")
    hr.end_employment(books.company.id, person.id, date(2026, 10, 10), books.runtime)
    october = books.run("2026-10")
    assert component(client, books, october, "basic") == (400_000, 1)  # 10 of October's 31 days (Kuwait)
    benefit = owed(Service("KW", date(2015, 4, 1), True, 1_240_000), date(2026, 10, 10), "termination")
    assert component(client, books, october, "end_of_service_benefit") == (benefit, 1)
    body = client.get(f"/v1/payroll-runs/{october.id}", headers=books.headers).get_json()
    # No annual leave recorded in 11 years and 196 days (4,211 days) of service: Kuwait's 30
    # working days a year (art. 70), 330 + 30 x 196 / 365 = 346.1096 days, at the full wage
    # over 26: x 1,240.000 / 26 = 16,506.765 (half up), paid out of the leave provision.
    assert component(client, books, october, "leave_encashment") == (16_506_765, 1)
    assert Decimal(body["totals"]["gross"]) * 1000 == 400_000 + benefit + 16_506_765  # one final settlement
    assert component(client, books, books.run("2026-11"), "basic") == (0, 0)  # nothing after it


def test_a_part_months_correction_states_what_the_month_pays(client, books):
    """HR sees and edits the amounts paid: correcting a joiner's half month pays what was
    entered, not half of it again; the unchanged housing stays as paid."""
    person = books.hire("J-2", date(2026, 9, 16), 900_000)
    september = books.run("2026-09")
    moves.correct_run(september, {person.id: {"basic": 500_000}}, books.runtime)
    assert component(client, books, september, "basic") == (500_000, 1)


def test_someone_leaving_later_this_month_is_settled_in_its_run(client, books, clock):
    """HR runs November before its end: an employment ending on the 25th (recorded ahead,
    the employee not `left` yet) is paid its days and settled in the November run."""
    person = books.hire("L-2", date(2015, 4, 1), 1_240_000)
    books.run("2026-10")
    hr.end_employment(books.company.id, person.id, date(2026, 11, 25), books.runtime)  # today is the 21st
    assert Employee.get_by_id(person.id).status == "active"
    november = books.run("2026-11")
    assert component(client, books, november, "basic") == (1_033_333, 1)  # 25 of 30 days
    benefit = owed(Service("KW", date(2015, 4, 1), True, 1_240_000), date(2026, 11, 25), "termination")
    assert component(client, books, november, "end_of_service_benefit") == (benefit, 1)
