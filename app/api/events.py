"""The events feed (beyond the contract, v1.3): the company's events, pulled instead of
pushed. Each is the webhook envelope as stored in the outbox and delivered, byte for
byte, so a partner may mix webhooks and the feed and deduplicate on `id`.

A credential sees the events its scopes read (app/domain/access/readable_events.py);
the others are not in its feed, and 404 by id. Pages walk the order in which events
became visible (app/domain/kernel/events.py), so following `next_cursor` from the start
returns every event once while others are being written.
"""

import json
import re
from typing import Any

from flask import Response
from flask.views import MethodView
from marshmallow import ValidationError, fields, validate

from app.api import ApiBlueprint
from app.api.auth import current_company, current_principal, operation
from app.api.pagination import after_of, fingerprint, page_body
from app.api.schemas import PageArgsSchema, Rfc3339
from app.domain.access.readable_events import FEED_TYPES, READ_SCOPES, readable_types
from app.domain.kernel import events
from app.domain.kernel.clock import format_utc
from app.domain.kernel.errors import NotFound
from config import ADDITIONS

WHO_SEES = "; ".join(f"`{prefix}*` with {' or '.join(f'`{s}`' for s in scopes)}"
                     for prefix, scopes in READ_SCOPES.items())
blp = ApiBlueprint("events", __name__, url_prefix="/v1/events",
                   description="The company's events as webhooks deliver them, to pull (beyond the contract, "
                               f"v1.3), kept {events.EVENT_DAYS} days. Any valid credential; it sees the "
                               f"events its scopes read: {WHO_SEES}. `ping` is never in the feed.")
EXAMPLE = {
    "id": "evt_3JkLm9QwXr2TbN7vYc1PdZ", "type": "employee.updated", "created_at": "2026-11-21T09:00:00Z",
    "company_id": "cmp_7Yc2NbX4kQ9mLr1TzWv8Pd", "livemode": True,
    "data": {"employee": {"id": "emp_5hGk2LmQ9wXr3TbN7vYc1P", "job_title": "General Manager"}},
}


# The envelope and its page are the components app/api/event_types.py registers: `Event`
# is one of the event types' envelopes, chosen by `type`, so clients type each `data`.
EVENT, EVENT_PAGE = "Event", "EventPage"


def _event_types(text: str) -> None:
    unknown = [name for name in text.split(",") if name not in FEED_TYPES]
    if unknown:
        raise ValidationError(f"unknown event type(s) {', '.join(map(repr, unknown))}; the feed has "
                              f"{', '.join(FEED_TYPES)}")


_ONE_TYPE = "|".join(re.escape(name) for name in FEED_TYPES)


class EventQueryArgsSchema(PageArgsSchema):
    types = fields.String(validate=_event_types, metadata={
        "description": "Only these event types, comma-separated (`employee.created,employee.left`).",
        "pattern": f"^({_ONE_TYPE})(,({_ONE_TYPE}))*$", "example": "employee.created,employee.left"})
    since = Rfc3339(metadata={
        "type": "string", "format": "date-time",
        "description": "Only events created at or after this time (RFC 3339 with its offset)."})
    after = fields.String(validate=validate.Length(min=1, error="must not be empty: the id of the last event you "
                                                                 "handled"), metadata={
        "description": "Only events after this one (an event id) in the feed's order: keep the id of the last "
                       "event you handled, and ask again with it to get what came since, each event once. "
                       "Ignored beside a `cursor`. An id this feed does not hold (another company's, not of the "
                       f"types asked for, or older than its {events.EVENT_DAYS} days) is 400 `invalid_request`.",
        "example": "evt_3JkLm9QwXr2TbN7vYc1PdZ"})


def _readable() -> tuple[str, ...]:
    return readable_types(current_principal().scopes)


def _page_body(page: dict) -> str:
    """The page as JSON, each event's stored envelope copied in as it is (byte for byte
    what its webhook carried; and no parsing and encoding again on the way)."""
    return f'{{"data":[{",".join(page["data"])}],"next_cursor":{json.dumps(page["next_cursor"])}}}'


@blp.route("")
class Events(MethodView):
    @operation(blp, "listEvents", release=ADDITIONS, errors=(400, 401, 403, 429))
    @blp.arguments(EventQueryArgsSchema, location="query", error_status_code=400)
    @blp.response(200, EVENT_PAGE, example={"data": [EXAMPLE], "next_cursor": None})
    def get(self, args: dict[str, Any]) -> Response:
        """List the company's events, oldest first (beyond the contract, v1.3)"""
        company_id = current_company().id
        types = _readable()
        if "types" in args:
            types = tuple(t for t in types if t in args["types"].split(","))
        since = args.get("since")
        query = fingerprint("events", company_id, ",".join(types), since and format_utc(since))
        found = events.feed(company_id, types, since=since, after=after_of(args, query), limit=args["limit"],
                            after_event=args.get("after"))
        return Response(_page_body(page_body(found, query, str)), mimetype="application/json")


@blp.route("/<event_id>")
class EventById(MethodView):
    @operation(blp, "getEvent", release=ADDITIONS, errors=(401, 403, 404, 429))
    @blp.response(200, EVENT, example=EXAMPLE)
    def get(self, event_id: str) -> Response:
        """Read one event (beyond the contract, v1.3)"""
        text = events.envelope_text(current_company().id, event_id, _readable())
        if text is None:
            raise NotFound(f"no event {event_id} (or not one this credential's scopes read)")
        return Response(text, mimetype="application/json")
