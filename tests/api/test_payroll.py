from decimal import Decimal

import pytest

from app.domain.kernel.clock import to_db
from app.domain.kernel.ids import new_id
from app.domain.payroll.drafts import build_draft_run
from app.domain.payroll.moves import finalize_run
from app.models import Entity, PayrollRun
from tests.conftest import bearer
from tests.helpers import assert_problem


def runs(client, headers, query=""):
    return client.get(f"/v1/payroll-runs{query}", headers=headers).get_json()["data"]


def test_sandbox_has_one_finalized_run_for_the_previous_month(client, headers):
    data = runs(client, headers)
    assert [(r["payroll_month"], r["status"]) for r in data] == [("2026-10", "finalized")]
    assert data[0]["employee_count"] == 10 and data[0]["currency"] == "KWD"


def test_full_run_has_components_and_a_balanced_journal(client, headers):
    summary = runs(client, headers)[0]
    run = client.get(f"/v1/payroll-runs/{summary['id']}", headers=headers).get_json()
    assert {k: v for k, v in run.items() if k not in ("components", "journal_entries")} == summary
    totals = {k: Decimal(v) for k, v in run["totals"].items()}
    assert totals["net"] == totals["gross"] - totals["deductions"]
    assert totals["total_cost"] == totals["gross"] + totals["employer_contributions"]
    by_kind = {}
    for component in run["components"]:
        by_kind[component["kind"]] = by_kind.get(component["kind"], 0) + Decimal(component["amount"])
    assert by_kind["earning"] == totals["gross"]
    assert by_kind["deduction"] == totals["deductions"]
    assert by_kind["employer_contribution"] == totals["employer_contributions"]
    # the sandbox's first run: the end-of-service provision earned before it and the leave
    # salary held before it (v1.3, an opening entry each), then the month
    assert [entry["kind"] for entry in run["journal_entries"]] == ["opening", "opening", "accrual"]
    assert [{line["account_code"] for line in entry["lines"]} for entry in run["journal_entries"][:2]] == [
        {"3100", "2300"}, {"3100", "2310"}]
    for entry in run["journal_entries"]:
        assert sum(Decimal(x["debit"]) for x in entry["lines"]) == sum(Decimal(x["credit"]) for x in entry["lines"])


def test_money_is_a_string_with_the_currency_minor_digits(client, make_sandbox, make_key):
    for country, digits in (("BH", 3), ("AE", 2)):
        headers = bearer(make_key(make_sandbox(country)))
        run_id = runs(client, headers)[0]["id"]
        run = client.get(f"/v1/payroll-runs/{run_id}", headers=headers).get_json()
        amounts = list(run["totals"].values()) + [c["amount"] for c in run["components"]] + [
            v for line in run["journal_entries"][0]["lines"] for v in (line["debit"], line["credit"])]
        assert all(isinstance(a, str) and len(a.split(".")[1]) == digits for a in amounts)


def make_run(company, month, runtime, *, finalize=True):
    entity = Entity.get(Entity.company == company)
    run = build_draft_run(entity, month, runtime.clock)
    return finalize_run(run, runtime) if finalize else run


def test_drafts_are_never_listed_and_404_by_id(client, headers, sandbox, clock, runtime):
    draft = make_run(sandbox, "2026-11", runtime, finalize=False)
    assert draft.id not in {r["id"] for r in runs(client, headers)}
    assert_problem(client.get(f"/v1/payroll-runs/{draft.id}", headers=headers), 404, "not_found")


def test_newest_month_first_with_month_and_status_filters(client, headers, sandbox, clock, runtime):
    for month in ("2026-07", "2026-08", "2026-09"):
        make_run(sandbox, month, runtime)
    PayrollRun.update(status="paid", paid_at=to_db(clock.now())).where(
        PayrollRun.payroll_month == "2026-08").execute()
    assert [r["payroll_month"] for r in runs(client, headers)] == ["2026-10", "2026-09", "2026-08", "2026-07"]
    assert [r["payroll_month"] for r in runs(client, headers, "?from=2026-08&to=2026-09")] == ["2026-09", "2026-08"]
    assert [r["payroll_month"] for r in runs(client, headers, "?status=paid")] == ["2026-08"]
    page = client.get("/v1/payroll-runs?limit=3", headers=headers).get_json()
    rest = client.get(f"/v1/payroll-runs?limit=3&cursor={page['next_cursor']}", headers=headers).get_json()
    assert [r["payroll_month"] for r in rest["data"]] == ["2026-07"] and rest["next_cursor"] is None


def test_two_entities_in_one_month_are_both_listed(client, headers, sandbox, clock, runtime):
    second = Entity.create(id=new_id("ent"), company=sandbox, country="KW", name_en="Second",
                           currency="KWD", primary=False, created_at=to_db(clock.now()))
    finalize_run(build_draft_run(second, "2026-10", runtime), runtime)
    assert len(runs(client, headers, "?from=2026-10&to=2026-10")) == 2


def test_bad_filters_are_400(client, headers):
    for query in ("?from=2026-13", "?to=26-01", "?status=draft", "?from=2026-09&to=2026-08", "?limit=500"):
        assert_problem(client.get(f"/v1/payroll-runs{query}", headers=headers), 400, "invalid_request")


def test_another_companys_run_is_404(client, headers, make_sandbox):
    other = make_sandbox("QA")
    theirs = PayrollRun.get(PayrollRun.company == other)
    assert_problem(client.get(f"/v1/payroll-runs/{theirs.id}", headers=headers), 404, "not_found")


@pytest.mark.parametrize("country, payable, expense", [
    ("SA", ("2121", "GOSI payable"), ("5201", "GOSI employer contributions")),
    ("KW", ("2122", "PIFSS payable"), ("5202", "PIFSS employer contributions")),
    ("AE", ("2123", "GPSSA payable"), ("5203", "GPSSA employer contributions")),
    ("QA", ("2124", "GRSIA payable"), ("5204", "GRSIA employer contributions")),
    ("BH", ("2125", "SIO payable"), ("5205", "SIO employer contributions")),
    ("OM", ("2126", "SPF payable"), ("5206", "SPF employer contributions")),
])
def test_social_insurance_is_owed_to_each_countrys_agency_on_its_own_accounts(client, make_sandbox, make_key,
                                                                               country, payable, expense):
    company = make_sandbox(country)
    headers = bearer(make_key(company))
    [summary] = client.get("/v1/payroll-runs", headers=headers).get_json()["data"]
    run = client.get(f"/v1/payroll-runs/{summary['id']}", headers=headers).get_json()
    amounts = {c["code"]: Decimal(c["amount"]) for c in run["components"]}
    lines = [line for entry in run["journal_entries"] for line in entry["lines"]]
    owed = sum(Decimal(line["credit"]) - Decimal(line["debit"]) for line in lines
               if (line["account_code"], line["account_name"]) == payable)
    assert owed == (amounts.get("social_insurance_employee", 0) + amounts.get("social_insurance_employer", 0)
                    + amounts.get("end_of_service_sio", 0))  # Bahrain's SIO collects its contribution too
    cost = sum(Decimal(line["debit"]) for line in lines if (line["account_code"], line["account_name"]) == expense)
    assert cost == amounts.get("social_insurance_employer", 0) and owed > 0
    assert not {line["account_code"] for line in lines} & {"2120", "5200"}
