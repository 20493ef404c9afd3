"""`partner-api`: the service's events on a developer's machine.

    partner-api listen --forward-to http://127.0.0.1:8098/hook [--events T1,T2] [--since T]
    partner-api trigger employee.updated [--employee EMP] [--run RUN] [--set FIELD=VALUE ...]
    partner-api whoami
    partner-api sandbox reset

`listen` follows the events feed (from now, or from `--since`) and POSTs each event's body
to a local URL signed as the service signs a delivery (both header forms), with a secret
of its own printed at the start (`--secret` to keep one), so a receiver on localhost can
be built and tested without a public URL. `trigger` makes a sandbox event happen.
`whoami` prints what the credential is and may do; `sandbox reset` makes the sandbox
new again.
Credentials: `--api-key`/`--base-url`, or PARTNER_API_KEY/PARTNER_API_BASE_URL.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import TextIO

import httpx

from partner_api._client import DEFAULT_BASE_URL, ApiError, Client
from partner_api._models import Model
from partner_api.webhooks import new_secret, sign

FORWARD_TRIES = 4  # the first, then 3 retries
FORWARD_TIMEOUT = 10.0


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--api-key", default=os.environ.get("PARTNER_API_KEY"),
                        help="a key (svc_test_... or svc_live_...); default $PARTNER_API_KEY")
    common.add_argument("--base-url", default=os.environ.get("PARTNER_API_BASE_URL", DEFAULT_BASE_URL),
                        help=f"the service; default $PARTNER_API_BASE_URL or {DEFAULT_BASE_URL}")
    parser = argparse.ArgumentParser(prog="partner-api", description="The Partner API from the command line.")
    commands = parser.add_subparsers(dest="command", required=True)
    listen = commands.add_parser("listen", parents=[common], help="forward events to a local receiver, signed")
    listen.add_argument("--forward-to", required=True, metavar="URL", help="where each event's body is POSTed")
    listen.add_argument("--events", type=lambda text: [t.strip() for t in text.split(",") if t.strip()],
                        metavar="TYPES", help="comma-separated event types (default: every type the key may read)")
    listen.add_argument("--since", type=_moment, metavar="T",
                        help="start at this RFC 3339 time instead of now (events already made are sent too)")
    listen.add_argument("--secret", help="sign with this whsec_ secret instead of a new one")
    listen.add_argument("--poll", type=float, default=1.0, help=argparse.SUPPRESS)
    trigger = commands.add_parser("trigger", parents=[common], help="make a sandbox event happen; print its id")
    trigger.add_argument("type", help="an event type, e.g. employee.updated (GET /v1/event-types lists them)")
    trigger.add_argument("--employee", metavar="ID", help="the employee to act on (employee.updated, .left, "
                                                          "leave.approved)")
    trigger.add_argument("--run", metavar="ID", help="the closed payroll run to act on (payroll_run.paid, "
                                                     ".corrected, .deleted, .wps_updated)")
    trigger.add_argument("--set", action="append", type=_assignment, metavar="FIELD=VALUE",
                         help="for employee.updated: a field to change (repeat for more), e.g. job_title=Cashier")
    commands.add_parser("whoami", parents=[common], help="print what the credential is and may do")
    sandbox = commands.add_parser("sandbox", help="the key's sandbox company")
    sandbox.add_subparsers(dest="sandbox_command", required=True).add_parser(
        "reset", parents=[common], help="back to its generated data; keys, endpoints and apps kept")
    return parser


def whoami(credential: Model, out: TextIO) -> None:
    """The credential, one fact a line: what a developer checks when a call is refused."""
    facts = credential.to_dict()
    app = facts.get("app") or {}
    lines = [("type", facts.get("type")), ("id", facts.get("id")), ("name", facts.get("name")),
             ("company", facts.get("company_id")), ("mode", "live" if facts.get("livemode") else "sandbox"),
             ("scopes", " ".join(facts.get("scopes") or []) or "(none)"), ("app", app.get("name")),
             ("client_id", app.get("client_id")), ("expires_at", facts.get("expires_at")),
             ("last_used_at", facts.get("last_used_at"))]
    for label, value in lines:
        if value is not None:
            print(f"{label + ':':<14}{value}", file=out)


def _assignment(text: str) -> tuple[str, str]:
    field, equals, value = text.partition("=")
    if not equals or not field.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not FIELD=VALUE")
    return field.strip(), value


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an RFC 3339 time, e.g. 2026-11-25T09:00:00Z") from None
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{text!r} has no UTC offset: add Z or +03:00")
    return moment


def forward(http: httpx.Client, url: str, event: Model, secret: str) -> tuple[int | None, str]:
    """POST the event's body, signed, to `url`; tried again up to 3 times (after 0.5, 1
    and 2 seconds) while it fails. The last answer's status (None if none came) and, if
    it failed, why."""
    body = json.dumps(event.to_dict(), ensure_ascii=False, separators=(",", ":")).encode()
    status, error = None, ""
    for attempt in range(FORWARD_TRIES):
        if attempt:
            time.sleep(0.5 * 2 ** (attempt - 1))
        try:
            answer = http.post(url, content=body, headers=sign(body, secret, event.id))
        except httpx.HTTPError as exc:
            status, error = None, f"{type(exc).__name__}: {exc}"
            continue
        status = answer.status_code
        if answer.is_success:
            return status, ""
        error = f"answered {status}"
    return status, f"failed after {FORWARD_TRIES} tries: {error}"


def listen(client: Client, url: str, *, types: Sequence[str] | None, since: datetime | None, secret: str | None,
           poll: float = 1.0, out: TextIO = sys.stdout, stop: Callable[[], bool] = lambda: False) -> None:
    """Follow the feed and forward each event until `stop()` (or Ctrl-C): every event made
    from the moment "Ready" is printed (or from `since`)."""
    secret, since = secret or new_secret(), since or datetime.now(timezone.utc)
    print(f"Ready. Forwarding events to {url}; verify them with the signing secret {secret}", file=out, flush=True)
    with httpx.Client(timeout=FORWARD_TIMEOUT) as http:
        for event in client.events.follow(types=types, since=since, poll=poll, max_poll=max(poll, 2.0), stop=stop):
            started = time.monotonic()
            status, error = forward(http, url, event, secret)
            took = round((time.monotonic() - started) * 1000)
            made = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
            print(f"{made}  {event.type:<28} {event.id}  -> {status if status is not None else '---'} "
                  f"({took} ms){'  ' + error if error else ''}", file=out, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    if not arguments.api_key:
        print("partner-api: give --api-key or set PARTNER_API_KEY", file=sys.stderr)
        return 2
    client = Client(api_key=arguments.api_key, base_url=arguments.base_url)
    try:
        if arguments.command == "trigger":
            print(client.sandbox.trigger(arguments.type, employee_id=arguments.employee, payroll_run_id=arguments.run,
                                         set=dict(arguments.set) if arguments.set else None).id)
        elif arguments.command == "whoami":
            whoami(client.credential(), sys.stdout)
        elif arguments.command == "sandbox":
            made = client.sandbox.reset()
            print(f"{made.company_id} is reset: {made.employees} employees, {made.payroll_runs} closed run, "
                  f"{made.events} events")
        else:
            listen(client, arguments.forward_to, types=arguments.events, since=arguments.since,
                   secret=arguments.secret, poll=arguments.poll)
    except ApiError as refused:
        print(f"partner-api: {refused.status} {refused.code}: {refused.detail or refused.title} "
              f"(request {refused.request_id})", file=sys.stderr)
        for error in refused.errors:
            print(f"  {error.get('path')}: {error.get('message')}", file=sys.stderr)
        return 1
    except httpx.HTTPError as exc:
        print(f"partner-api: cannot reach {arguments.base_url}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
    finally:
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
