"""Models, errors and retries of partner_api, against httpx's MockTransport (the network is
the boundary this package does not own; tests/e2e/test_python_client.py runs it against
the real service)."""

from datetime import date, datetime, timezone
from decimal import Decimal

import httpx
import pytest

from partner_api import ApiError, Client, Model

RUN = {"id": "prun_1", "payroll_month": "2026-10", "totals": {"net": "12327.570", "gross": "12840.000"},
       "finalized_at": "2026-11-21T09:00:00Z", "something_new": {"x": 1},
       "journal_entries": [{"accounting_date": "2026-10-31", "lines": [{"debit": "9300.000", "credit": "0.000"}]}]}


def test_an_update_event_says_what_each_changed_field_was_in_its_own_type():
    event = Model({"type": "employee.updated", "data": {
        "employee": {"job_title": "Head of Sales", "hire_date": "2026-02-01"},
        "previous_attributes": {"job_title": "Sales Executive", "hire_date": "2025-02-01", "branch": None}}})
    before = event.data.previous_attributes
    assert before.job_title == "Sales Executive" and before.hire_date == date(2025, 2, 1) and before.branch is None
    assert set(before) == {"job_title", "hire_date", "branch"}


def client_of(handler, **options):
    return Client(api_key="svc_test_x", base_url="http://api.test", transport=httpx.MockTransport(handler),
                  **options)


def test_money_is_decimal_times_and_dates_are_typed_and_new_fields_are_kept():
    run = Model(RUN)
    assert run.totals.net == Decimal("12327.570") and run.journal_entries[0].lines[0].debit == Decimal("9300.000")
    assert run.finalized_at == datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc)
    assert run.journal_entries[0].accounting_date == date(2026, 10, 31)
    assert run.payroll_month == "2026-10" and run.something_new.x == 1 and run["id"] == "prun_1"
    with pytest.raises(AttributeError):
        _ = run.nothing


def test_lists_walk_every_page_with_the_callers_page_size():
    seen = []

    def handler(request):
        seen.append(dict(request.url.params))
        cursor = request.url.params.get("cursor")
        page = {None: ({"id": "a"}, "c1"), "c1": ({"id": "b"}, "c2"), "c2": ({"id": "c"}, None)}[cursor]
        return httpx.Response(200, json={"data": [page[0]], "next_cursor": page[1]})

    assert [e.id for e in client_of(handler).employees.list(limit=1, status="active")] == ["a", "b", "c"]
    assert seen[0] == {"limit": "1", "status": "active"} and seen[2]["cursor"] == "c2"


ENTRY = {"id": "jrn_2", "kind": "true_up", "payroll_run_id": "prun_1", "payroll_month": "2026-10",
         "entity_id": "ent_1", "currency": "KWD", "posted_at": "2026-11-21T09:00:00Z", "accounting_date": "2026-10-31",
         "memo": "Payroll 2026-10, Gulf Trading, end-of-service provision true-up", "corrects": None,
         "reverses": None, "caused_by": "jrn_1",
         "lines": [{"account_key": "end_of_service_expense", "account_code": "5300", "account_name": "x",
                    "debit": "12.500", "credit": "0.000"},
                   {"account_key": "end_of_service_provision", "account_code": "2300", "account_name": "y",
                    "debit": "0.000", "credit": "12.500"}]}


def test_journal_entries_walk_every_page_with_their_filters_and_amounts_as_decimal():
    seen = []

    def handler(request):
        seen.append((request.url.path, dict(request.url.params)))
        cursor = request.url.params.get("cursor")
        page = {None: ({**ENTRY, "id": "jrn_2"}, "c1"), "c1": ({**ENTRY, "id": "jrn_3"}, None)}[cursor]
        return httpx.Response(200, json={"data": [page[0]], "next_cursor": page[1]})

    entries = list(client_of(handler).journal_entries.list(entity_id="ent_1", period="2026-10", after="jrn_1",
                                                           limit=1))
    assert [entry.id for entry in entries] == ["jrn_2", "jrn_3"]
    asked = {"entity_id": "ent_1", "period": "2026-10", "after": "jrn_1", "limit": "1"}
    assert seen == [("/v1/journal-entries", asked), ("/v1/journal-entries", {**asked, "cursor": "c1"})]
    entry = entries[0]
    assert entry.accounting_date == date(2026, 10, 31) and entry.caused_by == "jrn_1" and entry.corrects is None
    assert entry.posted_at == datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc)
    assert [line.debit - line.credit for line in entry.lines] == [Decimal("12.500"), Decimal("-12.500")]
    assert list(client_of(handler).journal_entries.list()) and seen[-2][1] == {}  # no filter: none sent


def test_a_refusal_is_an_api_error_with_the_problems_fields():
    problem = {"type": "x#validation_failed", "title": "The request body failed validation", "status": 422,
               "code": "validation_failed", "request_id": "req_1", "detail": "bad",
               "errors": [{"path": "url", "message": "must be https://"}]}

    def handler(request):
        return httpx.Response(422, json=problem, headers={"Content-Type": "application/problem+json"})

    with pytest.raises(ApiError) as refused:
        client_of(handler).webhooks.create("http://x", ["ping"])
    error = refused.value
    assert (error.status, error.code, error.request_id, error.errors[0]["path"]) == (
        422, "validation_failed", "req_1", "url")


def test_429_and_503_are_retried_after_retry_after_then_given_up(monkeypatch):
    slept, answers = [], iter([429, 503, 200])
    monkeypatch.setattr("partner_api._client.time.sleep", slept.append)

    def handler(request):
        status = next(answers)
        return httpx.Response(status, json={"id": "cmp_1"} if status == 200 else {"code": "rate_limited"},
                              headers={"Retry-After": "2"})

    assert client_of(handler).company().id == "cmp_1" and slept == [2.0, 2.0]
    with pytest.raises(ApiError) as gave_up:
        client_of(lambda request: httpx.Response(429, json={"code": "rate_limited"}, headers={"Retry-After": "1"}),
                  max_retries=1).company()
    assert gave_up.value.status == 429


def test_connection_errors_are_retried_for_reads_and_keyed_posts(monkeypatch):
    monkeypatch.setattr("partner_api._client.time.sleep", lambda seconds: None)
    calls = []

    def handler(request):
        calls.append((request.method, request.headers.get("Idempotency-Key")))
        if len(calls) == 1:
            raise httpx.ConnectError("refused")
        return httpx.Response(200, json={"id": "cmp_1"})

    assert client_of(handler).company().id == "cmp_1" and calls == [("GET", None), ("GET", None)]
    calls.clear()
    assert client_of(handler).sandbox.trigger("employee.created").id == "cmp_1"
    [(method, key), again] = calls
    assert method == "POST" and key and again == (method, key)  # the API does it once (Idempotency-Key)


def test_follow_stops_at_the_event_after_which_stop_says_so_and_keeps_its_place(tmp_path):
    """`stop()` is asked after each event, not after the backlog: a shutdown flag ends the
    loop at once, and the place kept is the last event handled."""
    from partner_api import FileCursorStore

    def handler(request):
        return httpx.Response(200, json={"data": [{"id": f"evt_{n}", "type": "employee.updated"} for n in range(3)],
                                         "next_cursor": None})

    store, seen = FileCursorStore(tmp_path / "place"), []
    for event in client_of(handler).events.follow(cursor_store=store, stop=lambda: len(seen) >= 1):
        seen.append(event.id)
    assert seen == ["evt_0"] and store.get() == "evt_0"


def feed(request):
    """The events feed of five events, honouring `after` (as the API does)."""
    ids = [f"evt_{n}" for n in range(5)]
    after = request.url.params.get("after")
    rest = ids[ids.index(after) + 1:] if after else ids
    return httpx.Response(200, json={"data": [{"id": i, "type": "employee.updated"} for i in rest],
                                     "next_cursor": None})


def test_follow_left_by_break_keeps_the_place_of_the_event_it_was_left_on(tmp_path, monkeypatch):
    """"Nothing repeated": the consumer handled evt_1 and broke out of the loop; a restart
    goes on with evt_2 (it began with evt_1 again)."""
    from partner_api import FileCursorStore

    monkeypatch.setattr("partner_api._client.time.sleep", lambda seconds: None)
    store, seen = FileCursorStore(tmp_path / "place"), []
    store.set("evt_0")
    for event in client_of(feed).events.follow(cursor_store=store):
        seen.append(event.id)
        if event.id == "evt_1":
            break
    assert store.get() == "evt_1"
    for event in client_of(feed).events.follow(cursor_store=store):
        seen.append(event.id)
        break
    assert seen == ["evt_1", "evt_2"] and store.get() == "evt_2"


def test_follow_in_a_with_block_keeps_the_place_on_break_and_not_on_an_exception(tmp_path, monkeypatch):
    """A loop body that raises leaves the loop as a break does (Python tells the generator
    nothing more); in `with ... as events:` the feed sees the difference: the event whose
    handling raised is handled again after the restart."""
    from partner_api import FileCursorStore

    monkeypatch.setattr("partner_api._client.time.sleep", lambda seconds: None)
    store = FileCursorStore(tmp_path / "place")
    store.set("evt_0")
    with pytest.raises(RuntimeError), client_of(feed).events.follow(cursor_store=store) as events:
        for event in events:
            if event.id == "evt_2":
                raise RuntimeError("the database is away")
    assert store.get() == "evt_1"  # evt_2 is not handled
    with client_of(feed).events.follow(cursor_store=store) as events:
        for event in events:
            assert event.id == "evt_2"  # handled again
            break
    assert store.get() == "evt_2"


def test_follow_without_with_counts_an_event_left_by_an_exception_as_handled(tmp_path, monkeypatch):
    """The documented other side of a bare loop: Python closes the generator the same way
    for a break and for an exception, so both keep the place (use `with` to tell them apart)."""
    from partner_api import FileCursorStore

    monkeypatch.setattr("partner_api._client.time.sleep", lambda seconds: None)
    store = FileCursorStore(tmp_path / "place")
    store.set("evt_0")
    with pytest.raises(RuntimeError):
        for event in client_of(feed).events.follow(cursor_store=store):
            if event.id == "evt_1":
                raise RuntimeError("boom")
    assert store.get() == "evt_1"


def test_leave_and_balances_walk_every_page_with_their_filters_and_days_exact():
    seen = []
    leave = {"id": "leave_1", "employee_id": "emp_1", "type": "other", "status": "approved",
             "start_date": "2026-12-06", "end_date": "2026-12-10", "days": 5, "updated_at": "2026-11-21T09:00:00Z"}
    balance = {"employee_id": "emp_1", "type": "annual", "accrued_days": 26.25, "taken_days": 10,
               "balance_days": 16.25, "as_of": "2026-11-21"}

    def handler(request):
        seen.append((request.url.path, dict(request.url.params)))
        item = leave if request.url.path == "/v1/leave" else balance
        cursor = request.url.params.get("cursor")
        return httpx.Response(200, json={"data": [item], "next_cursor": None if cursor else "c1"})

    client = client_of(handler)
    found = list(client.leave.list(employee_id="emp_1", status="approved", from_=date(2026, 12, 1), to="2026-12-31",
                                   limit=1))
    asked = {"employee_id": "emp_1", "status": "approved", "from": "2026-12-01", "to": "2026-12-31", "limit": "1"}
    assert seen == [("/v1/leave", asked), ("/v1/leave", {**asked, "cursor": "c1"})] and len(found) == 2
    assert found[0].start_date == date(2026, 12, 6) and found[0].type == "other" and found[0].days == 5
    [first, _] = list(client.leave_balances.list(as_of=date(2026, 11, 21)))
    assert seen[-2] == ("/v1/leave-balances", {"as_of": "2026-11-21"})
    assert first.accrued_days == Decimal("26.25") and first.balance_days - first.accrued_days == Decimal("-10.00")
    assert first.as_of == date(2026, 11, 21) and first.taken_days == Decimal(10)
