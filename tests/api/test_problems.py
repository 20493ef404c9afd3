import logging

import pytest

from app.api import company as company_api
from app.api import employees as employees_api
from app.api.auth import check_live_settings
from app.domain.kernel.ids import new_id
from app.limits import make_limiter
from tests.conftest import bearer
from tests.helpers import assert_problem


def test_unknown_path_under_v1_is_a_problem_404(client, headers):
    assert_problem(client.get("/v1/nothing-here", headers=headers), 404, "not_found")
    assert_problem(client.get("/v1/employees/a/b", headers=headers), 404, "not_found")


def test_wrong_method_is_a_problem_405_with_allow(client, headers):
    response = client.delete("/v1/company", headers=headers)
    assert_problem(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]


def test_body_over_1_mb_is_413_before_it_is_read(client, headers):
    response = client.post("/v1/company", data=b"x" * (1024 * 1024 + 1), headers=headers,
                           content_type="application/json")
    assert_problem(response, 413, "payload_too_large")


def test_unexpected_fault_is_a_problem_500_without_traceback(app, client, headers, monkeypatch, caplog):
    def broken(*args):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(company_api, "company_form", broken)
    monkeypatch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)
    with caplog.at_level(logging.ERROR):
        response = client.get("/v1/company", headers=headers)
    body = assert_problem(response, 500, "internal_error")
    assert "secret internals" not in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)
    assert any(body["request_id"] in record.getMessage() for record in caplog.records)


def test_an_unexpected_fault_is_logged_once_with_its_traceback_and_no_raw_path(app, client, headers, sandbox,
                                                                             monkeypatch, caplog):
    def broken(*args):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(employees_api, "get_employee", broken)
    monkeypatch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)
    with caplog.at_level(logging.INFO):
        response = client.get("/v1/employees/emp_private42", headers=headers)
    body = assert_problem(response, 500, "internal_error")
    faults = [record for record in caplog.records if record.exc_info]
    assert len(faults) == 1 and faults[0].exc_info[0] is RuntimeError
    assert body["request_id"] in faults[0].getMessage() and "/v1/employees/<employee_id>" in faults[0].getMessage()
    assert not any("emp_private42" in record.getMessage() for record in caplog.records)


def test_safe_client_request_id_is_echoed_and_unsafe_one_replaced(client, headers):
    echoed = client.get("/v1/company", headers={**headers, "X-Request-Id": "abc-123-XYZ_9"})
    assert echoed.headers["X-Request-Id"] == "abc-123-XYZ_9"
    replaced = client.get("/v1/company", headers={**headers, "X-Request-Id": "<script>alert(1)</script>"})
    assert replaced.headers["X-Request-Id"].startswith("req_")
    assert client.get("/v1/nothing", headers=headers).headers["X-Request-Id"]
    assert client.get("/errors").headers["X-Request-Id"]


def test_every_request_gets_a_distinct_request_id(client, headers):
    ids = {client.get("/v1/company", headers=headers).headers["X-Request-Id"] for _ in range(5)}
    assert len(ids) == 5


def test_operation_of_a_release_not_live_is_404(app, client, headers, monkeypatch, live_releases):
    live_releases(("v1.1",))
    body = assert_problem(client.get("/v1/company", headers=headers), 404, "not_found")
    assert "not live" in body["detail"]
    live_releases(("v1.0",))
    assert_problem(client.post("/v1/attendance/events", headers=headers, json={"events": []}), 404, "not_found")
    assert_problem(client.get("/v1/attendance?from=2026-11-01&to=2026-11-02", headers=headers), 404, "not_found")


def test_rate_limit_answers_429_with_retry_after(app, client, sandbox, make_key, monkeypatch, clock):
    limiter = make_limiter(3, app.extensions["redis"])
    monkeypatch.setattr(app.extensions["authenticator"], "limiter", limiter)
    headers = bearer(make_key(sandbox))
    remaining = [client.get("/v1/company", headers=headers).headers["X-RateLimit-Remaining"] for _ in range(3)]
    assert remaining == ["2", "1", "0"]
    response = client.get("/v1/employees", headers=headers)
    assert_problem(response, 429, "rate_limited")
    assert response.headers["Retry-After"] == "20"
    assert response.headers["X-RateLimit-Limit"] == "3"
    assert response.headers["X-RateLimit-Remaining"] == "0"
    assert response.headers["X-RateLimit-Reset"] == "60"
    clock.advance(seconds=20)
    assert client.get("/v1/company", headers=headers).status_code == 200
    other_key = bearer(make_key(sandbox))
    assert client.get("/v1/company", headers=other_key).status_code == 200


def test_rate_limit_is_shared_across_workers_through_redis(shared_redis, clock):
    """Two limiters on one Redis (as two gunicorn workers) spend one allowance."""
    first, second = (make_limiter(2, shared_redis) for _ in range(2))
    now = int(clock.now().timestamp() * 1_000_000)
    key = f"shared-{new_id('t')}"  # unique: the state outlives the test run in Redis
    assert first.hit(key, now).allowed and second.hit(key, now).allowed
    assert not first.hit(key, now).allowed and not second.hit(key, now).allowed


def test_rate_limit_reloads_its_script_after_a_redis_restart(shared_redis, clock):
    limiter = make_limiter(5, shared_redis)
    now = int(clock.now().timestamp() * 1_000_000)
    key = f"flushed-{new_id('t')}"
    shared_redis.script_flush()  # as a restarted Redis has no scripts
    first = limiter.hit(key, now)
    assert first.allowed and first.remaining == 4 and first.version is None
    assert limiter.hit(key, now).remaining == 3


def test_an_unknown_query_parameter_is_named_in_a_400(client, headers):
    for url, name in (("/v1/employees?modified_after=2026-01-01T00:00:00Z", "modified_after"),
                      ("/v1/employees?stauts=left", "stauts"), ("/v1/company?expand=entities", "expand"),
                      ("/v1/payroll-runs?month=2026-10", "month"),
                      ("/v1/attendance?from=2026-11-01&to=2026-11-02&employee=x", "employee")):
        body = assert_problem(client.get(url, headers=headers), 400, "invalid_request")
        assert f"`{name}`" in body["detail"], url
    listed = assert_problem(client.get("/v1/employees?stauts=left", headers=headers), 400, "invalid_request")
    assert "`status`" in listed["detail"]  # says what the operation does take


def test_a_repeated_query_parameter_is_a_400(client, headers):
    body = assert_problem(client.get("/v1/employees?limit=1&limit=2", headers=headers), 400, "invalid_request")
    assert "`limit`" in body["detail"]


def test_single_operations_can_be_live_without_their_release(app, client, headers, monkeypatch, live_releases):
    """The contract's own status: only getCompany is live."""
    live_releases(())
    monkeypatch.setitem(app.config, "LIVE_OPERATIONS", ("getCompany",))
    assert client.get("/v1/company", headers=headers).status_code == 200
    for url in ("/v1/employees", "/v1/payroll-runs", "/v1/attendance?from=2026-11-01&to=2026-11-02"):
        assert_problem(client.get(url, headers=headers), 404, "not_found")


@pytest.mark.parametrize("setting, value", [("LIVE_OPERATIONS", ("getCompny",)), ("LIVE_RELEASES", ("v1.4",))])
def test_a_live_setting_naming_nothing_real_stops_the_start(app, monkeypatch, setting, value):
    monkeypatch.setitem(app.config, setting, value)
    with pytest.raises(RuntimeError, match=f"{setting} names {value[0]}, which do not exist"):
        check_live_settings(app)  # as create_app does, once the operations are registered


def test_problem_types_point_at_the_errors_page_of_the_address_used(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "ERRORS_URL", None)
    body = client.get("/v1/company", base_url="http://10.0.0.7:8123").get_json()
    assert body["type"] == "http://10.0.0.7:8123/errors#unauthenticated"
    assert client.get("/errors", base_url="http://10.0.0.7:8123").status_code == 200
    monkeypatch.setitem(app.config, "ERRORS_URL", "https://api.example.com/errors")
    assert client.get("/v1/company").get_json()["type"] == "https://api.example.com/errors#unauthenticated"
