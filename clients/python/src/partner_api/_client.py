"""The client: one `httpx.Client`, the credential on every request, refusals as
`ApiError`, 429 and 503 retried after `Retry-After`, a fresh Idempotency-Key on every POST
(which is what lets a POST be retried), ids escaped into their path segment, pages walked
for the caller."""

from __future__ import annotations

import builtins
import os
import re
import threading
import time
import uuid
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from datetime import date, datetime, timezone
from email.utils import parsedate_to_datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol
from urllib.parse import quote

import httpx

from partner_api._models import Model
from partner_api._version import VERSION
from partner_api.oauth import OAuthApp, Token

DEFAULT_BASE_URL = "http://127.0.0.1:8000"  # where `flask --app wsgi serve` listens
MAX_WAIT = 60.0  # seconds: the longest wait between two tries (a longer Retry-After is cut to it)
# The IETF draft "The Idempotency-Key HTTP Header Field", as the API takes it: 1 to 255
# printable ASCII characters, no space at either end.
IDEMPOTENCY_KEY = re.compile(r"[!-~]([ -~]{0,253}[!-~])?")


class ApiError(Exception):
    """An answer the API refused (`application/problem+json`): branch on `code`."""

    def __init__(self, status: int, code: str, title: str, detail: str | None, request_id: str | None,
                 errors: Sequence[Mapping[str, str]] = ()) -> None:
        super().__init__(f"{status} {code}: {detail or title} (request {request_id})")
        self.status, self.code, self.title, self.detail = status, code, title, detail
        self.request_id, self.errors = request_id, list(errors)


def _path(*parts: str) -> str:
    """`/v1/` and the parts, each one path segment whatever it holds: an id is escaped
    (`/`, `?`, `#`, `%` and the rest; a `.` or `..` segment, which httpx and servers would
    resolve, as %2E), so `employees.get("../company")` asks for that employee, not the
    company. An empty id would address the collection: ValueError."""
    segments = []
    for part in parts:
        if not part:
            raise ValueError("an id is empty: it would address the collection")
        segment = quote(part, safe="")
        segments.append(segment.replace(".", "%2E") if segment in (".", "..") else segment)
    return "/v1/" + "/".join(segments)


def _idempotency_key(given: str | None) -> str:
    """The caller's own key as it is, or a fresh one (a UUID 4); a key the API would
    refuse (400) is refused here, before anything is sent."""
    if given is None:
        return str(uuid.uuid4())
    if not IDEMPOTENCY_KEY.fullmatch(given):
        raise ValueError("idempotency_key must be 1 to 255 printable ASCII characters, with no space at either end")
    return given


def _query(params: Mapping[str, Any]) -> dict[str, str]:
    """Query parameters as the API spells them: `from_`/`to` for months and dates, times
    in RFC 3339, None left out."""
    out = {}
    for name, value in params.items():
        if value is None:
            continue
        key = name.rstrip("_")
        out[key] = value.isoformat() if isinstance(value, datetime) else str(value)
    return out


class _Credential:
    """The bearer token of every request: a key, or an OAuth token that is refreshed once
    it is (about to be) expired, or once when the API refuses it, the new one handed to
    `on_refresh` to be kept."""

    def __init__(self, token: str | Token, app: OAuthApp | None,
                 on_refresh: Callable[[Token], None] | None) -> None:
        self.token, self.app, self.on_refresh = token, app, on_refresh
        self.lock = threading.Lock()

    def current(self) -> str:
        token = self.token
        if isinstance(token, Token) and token.expired() and self.app is not None:
            self.refresh(token.access_token)
        return self.token.access_token if isinstance(self.token, Token) else self.token

    def refresh(self, refused: str) -> bool:
        """Refresh unless another thread already has (the token is no longer `refused`);
        False when there is nothing to refresh with."""
        with self.lock:
            token = self.token
            if not isinstance(token, Token) or self.app is None or not token.refresh_token:
                return False
            if token.access_token != refused:
                return True
            self.token = self.app.refresh(token)
        if self.on_refresh is not None:
            self.on_refresh(self.token)
        return True


class _Http:
    def __init__(self, credential: _Credential, base_url: str, timeout: float, max_retries: int,
                 transport: httpx.BaseTransport | None) -> None:
        self.max_retries, self.credential = max_retries, credential
        self.http = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout, transport=transport,
                                 headers={"User-Agent": f"partner-api-client/{VERSION}"})

    def request(self, method: str, path: str, *, params: Mapping[str, Any] | None = None,
                json: Any = None, idempotency_key: str | None = None) -> httpx.Response:
        """The answer to one call, tried again where that cannot do a thing twice: a read
        after a connection error, anything after 429 (refused before it was looked at),
        anything but a POST after 503, and a POST with an Idempotency-Key (kept across its
        tries: the API answers a repeat with the first answer) after a connection error, a
        503 or a 409 `idempotency_key_in_use` (its first try is still running). A POST
        without a key is never tried again: it may have been done."""
        headers = {} if idempotency_key is None else {"Idempotency-Key": idempotency_key}
        once = method == "POST" and idempotency_key is not None  # the API does it once, however often asked
        repeatable = method != "POST" or once  # after a 503
        attempt, refreshed = 0, False
        while True:
            bearer = self.credential.current()
            headers["Authorization"] = f"Bearer {bearer}"
            try:
                answer = self.http.request(method, path, params=_query(params or {}), json=json, headers=headers)
            except httpx.TransportError:
                if not (method == "GET" or once) or attempt >= self.max_retries:
                    raise  # a write is never repeated blind: it may have been done
                attempt += 1
                time.sleep(min(2 ** attempt * 0.25, MAX_WAIT))
                continue
            if answer.status_code == 401 and not refreshed and self.credential.refresh(bearer):
                refreshed = True  # revoked or expired early: one refresh, then the answer stands
                continue
            if attempt < self.max_retries and _retried(answer, repeatable, once):
                attempt += 1
                time.sleep(_wait(answer, attempt))
                continue
            if answer.status_code >= 400:
                raise _error(answer)
            return answer

    def json(self, method: str, path: str, **kwargs: Any) -> Any:
        answer = self.request(method, path, **kwargs)
        return answer.json() if answer.content else None

    def post(self, path: str, idempotency_key: str | None, json: Any = None) -> Any:
        """A POST with the caller's Idempotency-Key, or a fresh one."""
        return self.json("POST", path, json=json, idempotency_key=_idempotency_key(idempotency_key))


def _retried(answer: httpx.Response, repeatable: bool, once: bool) -> bool:
    """Whether to ask again after this answer: 429 always; 503 when asking again cannot do
    a thing twice (`repeatable`: not a POST, or a POST with a key); 409
    `idempotency_key_in_use` for a POST with a key (`once`)."""
    if answer.status_code == 429:
        return True
    if answer.status_code == 503:
        return repeatable
    return once and answer.status_code == 409 and _code(answer) == "idempotency_key_in_use"


def _code(answer: httpx.Response) -> str | None:
    try:
        body = answer.json()
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


def _wait(answer: httpx.Response, attempt: int) -> float:
    """Seconds before the next try: the answer's Retry-After (RFC 9110 10.2.3), else a
    backoff; at most MAX_WAIT."""
    seconds = _retry_after(answer.headers.get("Retry-After", ""), answer.headers.get("Date"))
    return min(seconds if seconds is not None else 2 ** attempt * 0.5, MAX_WAIT)


def _retry_after(text: str, date: str | None) -> float | None:
    """Retry-After in seconds, None when it says nothing usable. Either delay-seconds,
    1*DIGIT in ASCII (`str.isdigit()` also says yes to '²' and Arabic-Indic digits), or
    an HTTP-date, counted from the answer's Date (the server's clock against itself) or,
    without one, from this machine's clock."""
    text = text.strip()
    if re.fullmatch(r"[0-9]+", text):
        return float(text)  # float() takes any length (inf at worst), int() refuses over 4,300 digits
    at = _http_date(text)
    if at is None:
        return None
    sent = _http_date(date or "")
    return max(at - (sent if sent is not None else time.time()), 0.0)


def _http_date(text: str) -> float | None:
    """An HTTP-date (IMF-fixdate, or the obsolete RFC 850 and asctime forms a recipient
    must read) as Unix seconds; None if it is not one (digits are ASCII here too)."""
    if not text.isascii():
        return None
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).timestamp()


def _error(answer: httpx.Response) -> ApiError:
    try:
        body = answer.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    return ApiError(answer.status_code, body.get("code", "internal_error"), body.get("title", answer.reason_phrase),
                    body.get("detail"), body.get("request_id") or answer.headers.get("X-Request-Id"),
                    body.get("errors") or ())


class _Resource:
    def __init__(self, http: _Http) -> None:
        self._http = http

    def _get(self, path: str, **params: Any) -> Model:
        return Model(self._http.json("GET", path, params=params))

    def _pages(self, path: str, params: Mapping[str, Any]) -> Iterator[Model]:
        """Every item of every page, the cursor followed for the caller."""
        params = dict(params)
        while True:
            page = self._http.json("GET", path, params=params)
            yield from (Model(item) for item in page["data"])
            if not page.get("next_cursor"):
                return
            params["cursor"] = page["next_cursor"]


class Employees(_Resource):
    def list(self, *, status: str | None = None, entity_id: str | None = None, updated_since: datetime | None = None,
             limit: int | None = None) -> Iterator[Model]:
        """listEmployees: every employee, oldest first; `limit` is the page size."""
        return self._pages("/v1/employees", {"status": status, "entity_id": entity_id,
                                             "updated_since": updated_since, "limit": limit})

    def get(self, employee_id: str) -> Model:
        """getEmployee"""
        return self._get(_path("employees", employee_id))


class PayrollRuns(_Resource):
    def list(self, *, from_: str | None = None, to: str | None = None, status: str | None = None,
             updated_since: datetime | None = None, limit: int | None = None) -> Iterator[Model]:
        """listPayrollRuns: every closed run, newest month first (`from_`, `to`: YYYY-MM)."""
        return self._pages("/v1/payroll-runs", {"from_": from_, "to": to, "status": status,
                                                "updated_since": updated_since, "limit": limit})

    def get(self, payroll_run_id: str) -> Model:
        """getPayrollRun: the run with its components and journal."""
        return self._get(_path("payroll-runs", payroll_run_id))


class JournalEntries(_Resource):
    def list(self, *, entity_id: str | None = None, period: str | None = None, after: str | None = None,
             limit: int | None = None) -> Iterator[Model]:
        """listJournalEntries (v1.3): every journal entry the company posted, each once, in
        posting order, deleted runs' entries included; of one legal entity, of one
        accounting month (`period`: YYYY-MM), or posted after the entry `after` (the id of
        the last one handled)."""
        return self._pages("/v1/journal-entries", {"entity_id": entity_id, "period": period, "after": after,
                                                   "limit": limit})


class Leave(_Resource):
    def list(self, *, employee_id: str | None = None, status: str | None = None, from_: str | date | None = None,
             to: str | date | None = None, updated_since: datetime | None = None,
             limit: int | None = None) -> Iterator[Model]:
        """listLeave (v1.3, scope leave:read): every leave of the company, oldest recorded
        first; of one employee, in one `status`, touching the days `from_`..`to`
        (YYYY-MM-DD), or changed at or after `updated_since`. `type` is `annual`, `unpaid`
        or `other` (sick, maternity and every other kind are `other`)."""
        return self._pages("/v1/leave", {"employee_id": employee_id, "status": status, "from_": from_, "to": to,
                                         "updated_since": updated_since, "limit": limit})


class LeaveBalances(_Resource):
    def list(self, *, as_of: str | date | None = None, employee_id: str | None = None,
             limit: int | None = None) -> Iterator[Model]:
        """listLeaveBalances (v1.3, scope leave:read): each active employee's annual balance
        as of the end of `as_of` (default the company's today), by employee id; the days as
        `Decimal`."""
        return self._pages("/v1/leave-balances", {"as_of": as_of, "employee_id": employee_id, "limit": limit})


class Attendance(_Resource):
    def ingest(self, events: Sequence[Mapping[str, Any]], *, idempotency_key: str | None = None) -> list[Model]:
        """ingestAttendanceEvents: one result per event, in order. Every POST method takes
        `idempotency_key` (default: a fresh one), kept across the call's retries."""
        answer = self._http.post("/v1/attendance/events", idempotency_key, {"events": list(events)})
        return [Model(result) for result in answer["results"]]

    def days(self, *, from_: str, to: str, employee_id: str | None = None,
             limit: int | None = None) -> Iterator[Model]:
        """listAttendanceDays: every day from `from_` to `to` (YYYY-MM-DD, at most 62 days)."""
        return self._pages("/v1/attendance", {"from_": from_, "to": to, "employee_id": employee_id, "limit": limit})


class CursorStore(Protocol):
    """Where `events.follow` keeps its place: the id of the last event handled."""

    def get(self) -> str | None: ...

    def set(self, event_id: str) -> None: ...


class FileCursorStore:
    """A CursorStore in a file (written whole, then renamed: a crash leaves the old place)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def get(self) -> str | None:
        try:
            return self.path.read_text(encoding="utf-8").strip() or None
        except FileNotFoundError:
            return None

    def set(self, event_id: str) -> None:
        fresh = self.path.with_name(self.path.name + ".new")
        fresh.write_text(event_id, encoding="utf-8")
        fresh.replace(self.path)


class Events(_Resource):
    def list(self, *, types: Sequence[str] | None = None, since: datetime | None = None, after: str | None = None,
             limit: int | None = None) -> Iterator[Model]:
        """listEvents: the company's events, oldest first."""
        return self._pages("/v1/events", {"types": ",".join(types) if types else None, "since": since,
                                          "after": after, "limit": limit})

    def get(self, event_id: str) -> Model:
        """getEvent"""
        return self._get(_path("events", event_id))

    def follow(self, *, cursor_store: CursorStore | None = None, types: Sequence[str] | None = None,
               since: datetime | None = None, poll: float = 1.0, max_poll: float = 30.0,
               stop: Callable[[], bool] = lambda: False) -> EventFeed:
        """Every new event as it comes, oldest first, for ever (or until `stop()`): the feed
        is asked again after `poll` seconds while nothing comes, backing off to `max_poll`.
        An event counts as handled when the caller asks for the next one or leaves the
        loop; `cursor_store` then keeps its id, so a restart goes on after it: nothing
        lost, nothing repeated. Left by an exception, a bare `for` loop cannot tell it
        from a `break` (Python closes the feed the same way): inside
        `with client.events.follow(...) as events:` the event whose handling raised is
        not kept, and is handled again after the restart. Without a stored place, it
        starts from `since` (default: now)."""
        place = _Place(cursor_store)
        return EventFeed(self._follow(place, types, since, poll, max_poll, stop), place)

    def _follow(self, place: _Place, types: Sequence[str] | None, since: datetime | None, poll: float,
                max_poll: float, stop: Callable[[], bool]) -> Generator[Model, None, None]:
        after = place.store.get() if place.store is not None else None
        since = None if after else (since or datetime.now(timezone.utc))
        wait = poll
        while not stop():
            came = False
            for event in self.list(types=types, since=since if after is None else None, after=after, limit=200):
                place.handed = event.id
                try:
                    yield event
                except GeneratorExit:  # the loop was left (a `with` block decides in its __exit__)
                    if not place.managed:
                        place.keep()
                    raise
                place.keep()  # the caller asks for the next one: this one is handled
                after, came = event.id, True
                if stop():
                    return
            wait = poll if came else min(wait * 2, max_poll)
            if not came:
                time.sleep(wait)


class _Place:
    """Where a feed is: the event handed to the caller and not yet kept, the store that
    keeps it, and whether a `with` block decides about the last one. The generator holds
    this, never the EventFeed: a loop that drops the feed then closes the generator at
    once (a cycle would leave it to the garbage collector)."""

    def __init__(self, store: CursorStore | None) -> None:
        self.store = store
        self.handed: str | None = None
        self.managed = False

    def keep(self) -> None:
        if self.handed is not None and self.store is not None:
            self.store.set(self.handed)
        self.handed = None


class EventFeed(Iterator[Model]):
    """What `events.follow` returns: iterate over it, in a `with` block to keep an event
    whose handling raised for the restart. Leaving the loop, or `close()`, keeps the
    place of the last event as handled."""

    def __init__(self, events: Generator[Model, None, None], place: _Place) -> None:
        self._events, self._place = events, place

    def __iter__(self) -> EventFeed:
        return self

    def __next__(self) -> Model:
        return next(self._events)

    def close(self) -> None:
        """Done: the last event counts as handled."""
        self._place.keep()
        self._events.close()

    def __enter__(self) -> EventFeed:
        self._place.managed = True
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if kind is None:  # left by break or return: the last event was handled
            self._place.keep()
        self._place.handed = None  # left by an exception: its event is handled again after a restart
        self._events.close()


class Unset:
    """An argument not given (where None means something: `rate_limit=None` clears it)."""


UNSET = Unset()


class Webhooks(_Resource):
    def create(self, url: str, events: Sequence[str], *, rate_limit: int | None = None,
               idempotency_key: str | None = None) -> Model:
        """createWebhookEndpoint: the endpoint, with its `secret` (shown this once);
        `rate_limit`: at most so many deliveries a second (v1.3)."""
        body: dict[str, Any] = {"url": url, "events": list(events)}
        if rate_limit is not None:
            body["rate_limit"] = rate_limit
        return Model(self._http.post("/v1/webhooks", idempotency_key, body))

    def list(self) -> list[Model]:
        """listWebhookEndpoints: this credential's endpoints."""
        return [Model(item) for item in self._http.json("GET", "/v1/webhooks")["data"]]

    def get(self, webhook_id: str) -> Model:
        """getWebhookEndpoint"""
        return self._get(_path("webhooks", webhook_id))

    def update(self, webhook_id: str, *, url: str | None = None, events: Sequence[str] | None = None,
               active: bool | None = None, rate_limit: int | None | Unset = UNSET) -> Model:
        """updateWebhookEndpoint: only what is given changes (`rate_limit=None` removes
        the endpoint's pace, v1.3)."""
        given = (("url", url), ("events", list(events) if events is not None else None), ("active", active))
        body: dict[str, Any] = {name: value for name, value in given if value is not None}
        if not isinstance(rate_limit, Unset):
            body["rate_limit"] = rate_limit
        return Model(self._http.json("PATCH", _path("webhooks", webhook_id), json=body))

    def delete(self, webhook_id: str) -> None:
        """deleteWebhookEndpoint"""
        self._http.request("DELETE", _path("webhooks", webhook_id))

    def test(self, webhook_id: str, *, idempotency_key: str | None = None) -> None:
        """sendTestWebhook: a `ping` is on its way."""
        self._http.post(_path("webhooks", webhook_id, "test"), idempotency_key)

    def rotate_secret(self, webhook_id: str, *, expire_previous_in: int | None = None,
                      idempotency_key: str | None = None) -> Model:
        """rotateWebhookSecret: the endpoint with its new `secret`."""
        body = {} if expire_previous_in is None else {"expire_previous_in": expire_previous_in}
        return Model(self._http.post(_path("webhooks", webhook_id, "rotate-secret"), idempotency_key, body))

    def deliveries(self, webhook_id: str, *, status: str | None = None) -> builtins.list[Model]:
        """listWebhookDeliveries: at most 100, newest first."""
        answer = self._http.json("GET", _path("webhooks", webhook_id, "deliveries"), params={"status": status})
        return [Model(item) for item in answer["data"]]

    def redeliver(self, webhook_id: str, delivery_id: str, *, idempotency_key: str | None = None) -> Model:
        """redeliverWebhook: the new attempt."""
        path = _path("webhooks", webhook_id, "deliveries", delivery_id, "redeliver")
        return Model(self._http.post(path, idempotency_key))

    def replay(self, webhook_id: str, since: datetime, *, status: str | None = None,
               idempotency_key: str | None = None) -> Model:
        """replayWebhookEvents: `{queued}`."""
        body: dict[str, Any] = {"since": since.isoformat()}
        if status is not None:
            body["status"] = status
        return Model(self._http.post(_path("webhooks", webhook_id, "replay"), idempotency_key, body))


class Sandbox(_Resource):
    def trigger(self, event_type: str, *, employee_id: str | None = None, payroll_run_id: str | None = None,
                set: Mapping[str, Any] | None = None, idempotency_key: str | None = None) -> Model:
        """triggerSandboxEvent: makes the event happen (sandbox keys only) and returns it;
        on the employee or run given, and for employee.updated setting the fields given
        (`set={"job_title": "Cashier"}`)."""
        body: dict[str, Any] = {"type": event_type}
        chosen = {"employee_id": employee_id, "payroll_run_id": payroll_run_id,
                  "set": dict(set) if set is not None else None}
        body.update({name: value for name, value in chosen.items() if value is not None})
        return Model(self._http.post("/v1/sandbox/events", idempotency_key, body))

    def reset(self, *, idempotency_key: str | None = None) -> Model:
        """resetSandbox: the sandbox back to its generated staff, runs and journals, with a
        fresh event history; its keys, endpoints and apps kept (sandbox keys only)."""
        return Model(self._http.post("/v1/sandbox/reset", idempotency_key))


class Client:
    """The Partner API for one credential: `Client(api_key="svc_test_...", base_url=...)`,
    or `Client(oauth_token=token, oauth_app=app, on_token_refresh=save)` for a connected
    app (the token refreshed when it expires, each new one handed to `save`). Resources as
    attributes; lists walk every page."""

    def __init__(self, api_key: str | None = None, *, oauth_token: str | Token | None = None,
                 oauth_app: OAuthApp | None = None, on_token_refresh: Callable[[Token], None] | None = None,
                 base_url: str = DEFAULT_BASE_URL, timeout: float = 30.0, max_retries: int = 3,
                 transport: httpx.BaseTransport | None = None) -> None:
        token = api_key or oauth_token
        if not token:
            raise ValueError("give api_key= or oauth_token=")
        self._http = _Http(_Credential(token, oauth_app, on_token_refresh), base_url, timeout, max_retries, transport)
        self.employees = Employees(self._http)
        self.payroll_runs = PayrollRuns(self._http)
        self.journal_entries = JournalEntries(self._http)
        self.leave = Leave(self._http)
        self.leave_balances = LeaveBalances(self._http)
        self.attendance = Attendance(self._http)
        self.events = Events(self._http)
        self.webhooks = Webhooks(self._http)
        self.sandbox = Sandbox(self._http)

    def company(self) -> Model:
        """getCompany: the company the credential belongs to."""
        return Model(self._http.json("GET", "/v1/company"))

    def credential(self) -> Model:
        """getCredential: what this client's own key or access token is and may do (its id,
        company, sandbox or live, scopes, and for a token its app and expiry)."""
        return Model(self._http.json("GET", "/v1/credential"))

    def event_types(self) -> list[Model]:
        """listEventTypes"""
        return [Model(item) for item in self._http.json("GET", "/v1/event-types")["data"]]

    def journal_accounts(self, *, entity_id: str | None = None) -> list[Model]:
        """listJournalAccounts: the chart of accounts as the company maps it now."""
        answer = self._http.json("GET", "/v1/journal-accounts", params={"entity_id": entity_id})
        return [Model(item) for item in answer["data"]]

    def close(self) -> None:
        self._http.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# The operation each method calls: a test of the service holds that every published
# operation has one.
OPERATIONS = {
    "getCompany": "company", "getCredential": "credential", "listEmployees": "employees.list",
    "getEmployee": "employees.get",
    "listPayrollRuns": "payroll_runs.list", "getPayrollRun": "payroll_runs.get",
    "ingestAttendanceEvents": "attendance.ingest", "listAttendanceDays": "attendance.days",
    "listWebhookEndpoints": "webhooks.list", "createWebhookEndpoint": "webhooks.create",
    "getWebhookEndpoint": "webhooks.get", "updateWebhookEndpoint": "webhooks.update",
    "deleteWebhookEndpoint": "webhooks.delete", "sendTestWebhook": "webhooks.test",
    "rotateWebhookSecret": "webhooks.rotate_secret", "listWebhookDeliveries": "webhooks.deliveries",
    "replayWebhookEvents": "webhooks.replay", "redeliverWebhook": "webhooks.redeliver",
    "listEventTypes": "event_types", "listEvents": "events.list", "getEvent": "events.get",
    "listJournalAccounts": "journal_accounts", "listJournalEntries": "journal_entries.list",
    "triggerSandboxEvent": "sandbox.trigger", "resetSandbox": "sandbox.reset", "listLeave": "leave.list",
    "listLeaveBalances": "leave_balances.list",
}
