"""`payroll pay RUN_ID [--date]` pays what a run owes; `payroll books show|close|reopen`
(issue 47 parts 3 and 4), through the CLI runner.

One Kuwaiti company, one expatriate on 1,000.000 KWD a month hired in 2020: no PIFSS
share (Kuwaitis only), so the net pay is the basic. Today is 2026-11-21 in Kuwait.
"""

import json
from datetime import date

import pytest

from app.domain.access import companies
from app.domain.access import users as access
from app.domain.payroll import drafts, moves
from app.domain.people import actions as hr
from app.models import Entity, JournalEntry, JournalLine, PayrollRun
from tests.helpers import ok, refused

KWD = 1000


@pytest.fixture
def company(transaction, clock, runtime):
    made = companies.create_company("Closing Co", "KW", clock)
    entity = Entity.get(Entity.company == made.id)
    hr.hire(made, {"staff_number": "E-1", "name_en": "E-1", "employment_type": "full_time",
                   "hire_date": date(2020, 1, 1), "basic_salary_minor": 1_000 * KWD, "nationality": "IN",
                   "entity": entity.id}, runtime)
    return made


@pytest.fixture
def october(company, runtime):
    entity = Entity.get(Entity.company == company.id)
    return moves.finalize_run(drafts.build_draft_run(entity, "2026-10", runtime.clock), runtime)


def payments(run):
    return [(entry.accounting_date, sum(line.debit_minor for line in entry.lines.order_by(JournalLine.position)))
            for entry in JournalEntry.select().where(JournalEntry.run == run.id, JournalEntry.kind == "payment")
            .order_by(JournalEntry.sequence)]


def one_line(result):
    assert result.exit_code != 0 and len(result.output.strip().splitlines()) == 1, result.output
    return result.output


def test_pay_takes_the_banks_value_date(run, october):
    assert ok(run("payroll", "pay", october.id, "--date", "2026-10-31")).strip() == (
        f"paid 1000.000 KWD, of {october.id}, dated 2026-10-31")
    assert payments(october) == [(date(2026, 10, 31), 1_000 * KWD)]


def test_a_value_date_after_today_or_not_a_date_is_one_line_naming_date_and_posts_nothing(run, october):
    assert "--date: 2026-11-22 is in the future" in one_line(run("payroll", "pay", october.id, "--date", "2026-11-22"))
    assert "--date: a date (YYYY-MM-DD)" in one_line(run("payroll", "pay", october.id, "--date", "31/10/2026"))
    assert payments(october) == [] and PayrollRun.get_by_id(october.id).status == "finalized"


def test_pay_pays_what_a_correction_after_payment_left_owing_then_refuses(run, october, company):
    ok(run("payroll", "pay", october.id, "--date", "2026-10-31"))
    ok(run("payroll", "correct", october.id, "--employee", "E-1", "--basic", "1250"))
    # The correction credits 2110 with 1,250.000 - 1,000.000 = 250.000: paid today (2026-11-21).
    assert ok(run("payroll", "pay", october.id)).strip() == (
        f"paid what it still owed, 250.000 KWD, of {october.id}, dated 2026-11-21")
    assert payments(october) == [(date(2026, 10, 31), 1_000 * KWD), (date(2026, 11, 21), 250 * KWD)]
    assert "owes nothing: its salaries payable is settled" in one_line(run("payroll", "pay", october.id))
    ok(run("payroll", "correct", october.id, "--employee", "E-1", "--basic", "1200"))  # 50.000 over
    assert "paid 50.000 KWD more than it owes now, which is recovered outside payroll" in one_line(
        run("payroll", "pay", october.id))
    assert len(payments(october)) == 2


def test_books_close_show_and_reopen(run, company, october, clock):
    assert json.loads(ok(run("payroll", "books", "show", "--company", company.id, "--json"))) == {
        "company_id": company.id, "closed_through": None, "log": []}
    assert "--through: 2026-11-22 is in the future" in one_line(
        run("payroll", "books", "close", "--company", company.id, "--through", "2026-11-22"))
    # the end-of-service and leave-salary openings and the accrual: #3
    last = JournalEntry.select().where(JournalEntry.company == company.id).count()
    assert last == 3
    assert ok(run("payroll", "books", "close", "--company", company.id, "--through", "2026-10-31")).strip() == (
        "the books are closed through 2026-10-31 (before: open); the last entry posted before: #3; entries posted "
        "from now on are dated 2026-11-01 or later")
    refused(run("payroll", "books", "close", "--company", company.id, "--through", "2026-09-30"),
            "which only an owner does")
    refused(run("payroll", "pay", october.id, "--date", "2026-10-31"), "in a closed period")

    assert "--by: hr@closing.example.com is not an owner" in one_line(
        run("payroll", "books", "reopen", "--company", company.id, "--by", "hr@closing.example.com"))
    owner = access.get_or_create_user("ceo@closing.example.com", clock)
    access.add_membership(owner, company, "ceo", clock)
    assert ok(run("payroll", "books", "reopen", "--company", company.id, "--through", "2026-09-30",
                  "--by", "ceo@closing.example.com")).strip() == (
        "reopened by operator for ceo@closing.example.com: the books are closed through 2026-09-30 (before: closed "
        "through "
        "2026-10-31)")
    shown = json.loads(ok(run("payroll", "books", "show", "--company", company.id, "--json")))
    assert shown["closed_through"] == "2026-09-30"
    assert [(row["previous"], row["closed_through"], row["by"], row["at"]) for row in shown["log"]] == [
        (None, "2026-10-31", "operator", "2026-11-21T09:00:00Z"),
        ("2026-10-31", "2026-09-30", "operator for ceo@closing.example.com", "2026-11-21T09:00:00Z")]
    assert ok(run("payroll", "books", "show", "--company", company.id)).splitlines() == [
        "the books are closed through 2026-09-30",
        "2026-11-21T09:00:00Z  closed through 2026-10-31 (before: open)  by operator",
        "2026-11-21T09:00:00Z  closed through 2026-09-30 (before: 2026-10-31)  by operator for ceo@closing.example.com"]
    refused(run("payroll", "books", "show", "--company", "co_nobody"), "co_nobody")
