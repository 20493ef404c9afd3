"""Contract, "Data never returned": seed sentinels into every sensitive column and
search every API response for them."""

from datetime import date

from app.models import Employee, PayrollLine, PayrollRun
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


def test_no_response_ever_carries_a_sensitive_value(client, sandbox, make_key):
    Employee.update(**SENTINELS, status="left").where(Employee.company == sandbox).execute()
    line_amount = 111222333
    PayrollLine.update(amount_minor=line_amount).where(
        PayrollLine.run.in_(PayrollRun.select(PayrollRun.id).where(PayrollRun.company == sandbox))
    ).execute()
    headers = bearer(make_key(sandbox))
    employees = client.get("/v1/employees?limit=200", headers=headers).get_json()["data"]
    runs = client.get("/v1/payroll-runs", headers=headers).get_json()["data"]
    urls = ["/v1/company", "/v1/employees?limit=200", "/v1/employees?status=left", "/v1/payroll-runs"]
    urls += [f"/v1/employees/{e['id']}" for e in employees] + [f"/v1/payroll-runs/{r['id']}" for r in runs]
    bodies = [client.get(url, headers=headers).get_data(as_text=True) for url in urls]
    assert len(employees) == 10 and runs
    forbidden = set().union(*(needles(v) for v in SENTINELS.values()), needles(line_amount))
    for url, body in zip(urls, bodies, strict=True):
        hits = [n for n in forbidden if n in body]
        assert not hits, f"{url} leaks {hits}"
        for word in ("salary", "iban", "passport", "birth", "civil", "reason", "social_insurance_number"):
            assert f'"{word}' not in body.lower()
