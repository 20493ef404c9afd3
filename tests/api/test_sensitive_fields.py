"""Contract, "Data never returned": seed sentinels into every sensitive column and
search every API response and every outbox event for them."""

import json
from datetime import date

from app.domain.attendance.days import due_for_pairing, settle
from app.domain.attendance.ingest import ingest
from app.domain.payroll import drafts, moves
from app.domain.people import actions as hr
from app.domain.people import bulk
from app.models import Employee, OutboxEvent, PayrollLine, PayrollRun
from tests.conftest import bearer

SENTINELS = {
    "basic_salary_minor": 987654321,
    "housing_allowance_minor": 876543219,
    "transport_allowance_minor": 765432198,
    "other_allowance_minor": 654321987,
    "bank_name": "SENTINEL-BANK-Qz7",
    "iban": "KW00SENTINELIBAN0000000000000",
    "civil_id": "SENTCIVIL77",
    "passport_number": "SENTPASS88",
    "date_of_birth": date(1901, 2, 3),
    "social_insurance_number": "SENTSIN999",
    "leaving_reason": "SENTINEL reason for leaving",
}


def needles(value):
    if isinstance(value, int):
        return {str(value), f"{value / 1000:.3f}", f"{value / 100:.2f}", f"{value // 1000}"}
    if isinstance(value, date):
        return {value.isoformat()}
    return {value}


def test_no_response_ever_carries_a_sensitive_value(client, sandbox, make_key, clock, runtime):
    Employee.update(**SENTINELS, status="left").where(Employee.company == sandbox).execute()
    line_amount = 111222333
    PayrollLine.update(amount_minor=line_amount).where(
        PayrollLine.run.in_(PayrollRun.select(PayrollRun.id).where(PayrollRun.company == sandbox))
    ).execute()
    headers = bearer(make_key(sandbox))
    employees = client.get("/v1/employees?limit=200", headers=headers).get_json()["data"]
    runs = client.get("/v1/payroll-runs", headers=headers).get_json()["data"]
    clock_events = [{"external_id": f"s-{e['staff_number']}-{kind}", "type": kind, "source": "pos",
                     "employee_ref": {"type": "employee_code", "value": e["staff_number"]},
                     "at": f"2026-11-20T{hour}:00:00+03:00"} for e in employees for kind, hour in
                    (("clock_in", "08"), ("clock_out", "16"))]
    ingested = client.post("/v1/attendance/events", headers=headers, json={"events": clock_events})
    for company_id, employee_ids in due_for_pairing(clock.now()).items():
        settle(company_id, employee_ids, runtime)
    urls = ["/v1/company", "/v1/employees?limit=200", "/v1/employees?status=left", "/v1/payroll-runs",
            "/v1/attendance?from=2026-11-01&to=2026-11-30&limit=200", "/v1/journal-entries?limit=200"]
    urls += [f"/v1/employees/{e['id']}" for e in employees] + [f"/v1/payroll-runs/{r['id']}" for r in runs]
    bodies = [client.get(url, headers=headers).get_data(as_text=True) for url in urls]
    urls.append("POST /v1/attendance/events")
    bodies.append(ingested.get_data(as_text=True))
    assert '"worked_minutes":480' in bodies[4]
    assert len(employees) == 10 and runs
    forbidden = set().union(*(needles(v) for v in SENTINELS.values()), needles(line_amount))
    for url, body in zip(urls, bodies, strict=True):
        hits = [n for n in forbidden if n in body]
        assert not hits, f"{url} leaks {hits}"
        for word in ("salary", "iban", "passport", "birth", "civil", "reason", "social_insurance_number"):
            assert f'"{word}' not in body.lower()


def test_no_outbox_event_ever_carries_a_sensitive_value(sandbox, clock, runtime):
    """Every kind of event the HR side writes, after sentinels were seeded."""
    Employee.update(**{k: v for k, v in SENTINELS.items() if k != "leaving_reason"}).where(
        Employee.company == sandbox).execute()
    first, second, third = Employee.select().where(Employee.company == sandbox).order_by(Employee.staff_number)[:3]
    hr.update_employee(sandbox.id, first.id, {"job_title": "Head of Sales"}, runtime)
    hr.end_employment(sandbox.id, second.id, date(2026, 11, 20), runtime, reason=SENTINELS["leaving_reason"])
    hr.hire(sandbox, {"staff_number": "N-1", "name_en": "New Hire", "employment_type": "full_time",
                      "hire_date": date(2026, 11, 1), "basic_salary_minor": SENTINELS["basic_salary_minor"],
                      "iban": "KW81CBKU0000000000001234560101", "civil_id": SENTINELS["civil_id"]}, runtime)
    Employee.update(job_title="Bulk-edited").where(Employee.id == third.id).execute()
    bulk.reconcile(runtime)
    entity = sandbox.entities.get()
    paid = moves.finalize_run(drafts.build_draft_run(entity, "2026-11", runtime), runtime)
    moves.mark_paid(paid, runtime)
    moves.correct_run(paid, {first.id: {"basic": 1_000_000}}, runtime)
    deleted = moves.finalize_run(drafts.build_draft_run(entity, "2026-12", runtime), runtime)
    moves.delete_run(deleted, runtime)

    ingest(sandbox, [{"external_id": "late-out", "type": "clock_out", "source": "pos", "at": "2026-11-20T17:00:00Z",
                      "employee_ref": {"type": "employee_code", "value": first.staff_number}}], runtime)
    clock.advance(hours=17)
    for company_id, employee_ids in due_for_pairing(clock.now()).items():
        settle(company_id, employee_ids, runtime)

    events = [row.payload for row in OutboxEvent.select().where(OutboxEvent.company == sandbox)]
    types = {json.loads(body)["type"] for body in events}
    assert types == {"employee.created", "employee.updated", "employee.left", "payroll_run.finalized",
                     "payroll_run.paid", "payroll_run.corrected", "payroll_run.deleted", "attendance.rejected"}
    forbidden = set().union(*(needles(v) for v in SENTINELS.values()))
    for body in events:
        hits = [n for n in forbidden if n in body]
        assert not hits, f"{json.loads(body)['type']} leaks {hits}"
