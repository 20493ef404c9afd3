import json
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from flask import Response
from flask.views import MethodView
from marshmallow import ValidationError, fields, validate, validates_schema

from app.api import ApiBlueprint, json_response
from app.api.auth import current_company, operation
from app.api.pagination import after_of, fingerprint, page_body
from app.api.problems import ApiProblem
from app.api.schemas import OpenSchema, PageArgsSchema, page_schema
from app.domain.attendance.days import list_days
from app.domain.attendance.ingest import REF_TYPES, ingest
from app.domain.attendance.pairing import CHANNELS, EVENT_TYPES
from app.extensions import runtime

blp = ApiBlueprint("attendance", __name__, url_prefix="/v1/attendance",
                description="Push clock events; read back each employee's days as paired in the company timezone.")

MAX_EVENTS = 500  # Contract, Limits: events per ingest request
MAX_RANGE = timedelta(days=62)  # Contract, Limits: attendance range
CHANNEL_TEXT = f"One of {', '.join(f'`{c}`' for c in CHANNELS)}. Tolerate unknown values."

INGEST_EXAMPLE = {"events": [
    {"external_id": "pos-8812", "employee_ref": {"type": "employee_code", "value": "SBX-001"},
     "type": "clock_in", "at": "2026-11-21T08:02:11+03:00", "branch_ref": "salmiya-1", "source": "acme-pos"},
    {"external_id": "pos-8813", "employee_ref": {"type": "email", "value": "someone@example.com"},
     "type": "clock_out", "at": "2026-11-21T17:00:00+03:00", "source": "acme-pos"},
]}
RESULTS_EXAMPLE = {"results": [
    {"external_id": "pos-8812", "status": "accepted", "event_id": "aev_3kQ9LmZ2xWc7NbR1TyVp4D"},
    {"external_id": "pos-8813", "status": "unmatched_employee", "event_id": "aev_8HvT2MqX5LzNc1RbW7Yk0P"},
    {"external_id": "pos-8811", "status": "rejected",
     "reason": "at_in_future: `at` is more than 5 minutes in the future (check the device clock)"},
]}
DAY_EXAMPLE = {
    "employee_id": "emp_5hGk2LmQ9wXr3TbN7vYc1P", "date": "2026-11-20",
    "shifts": [{"clock_in": "2026-11-20T05:02:11Z", "clock_out": "2026-11-20T14:00:00Z", "break_minutes": 45,
                "worked_minutes": 492, "branch_ref": "salmiya-1", "source": "partner_api",
                "source_system": "acme-pos"}],
    "worked_minutes": 492, "break_minutes": 45, "open_shift": None, "sources": ["partner_api"],
}


class EmployeeRefSchema(OpenSchema):
    type = fields.String(required=True, validate=validate.OneOf(REF_TYPES), metadata={
        "description": "`employee_code` is the staff number, `email` the contact email (any case), `phone` "
                       "the contact phone (compared in E.164), `external_id` your own id for the person, "
                       "which HR links to an employee once."})
    value = fields.String(required=True)


class AttendanceEventInputSchema(OpenSchema):
    external_id = fields.String(required=True, metadata={
        "description": "Your id for the event: the idempotency key per company and `source`. At most 200 characters."})
    employee_ref = fields.Nested(EmployeeRefSchema, required=True)
    type = fields.String(required=True, validate=validate.OneOf(EVENT_TYPES))
    at = fields.String(required=True, metadata={
        "description": "RFC 3339 with an explicit UTC offset; at most 5 minutes ahead and 35 days back.",
        "example": "2026-11-21T08:02:11+03:00"})
    branch_ref = fields.String(metadata={"description": "Your location id. An unknown value never rejects an event."})
    source = fields.String(required=True, metadata={
        "description": "Name of the sending system. At most 100 characters.", "example": "acme-pos"})


class IngestEvents(fields.List):
    """An ingest's `events`: documented item by item, but loaded as sent, for the domain
    judges each event on its own (a bad one is a `rejected` result, not a 422). More
    than 500 is 413 (Contract, Errors), not a validation failure."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> list[Any]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        if len(value) > MAX_EVENTS:
            raise ApiProblem("payload_too_large", f"{len(value)} events; at most {MAX_EVENTS} per request.")
        return value


class IngestRequestSchema(OpenSchema):
    events = IngestEvents(
        fields.Nested(AttendanceEventInputSchema), required=True,
        validate=validate.Length(min=1, max=MAX_EVENTS, error="must hold 1 to 500 events"),
        error_messages={"required": "required: a list of 1 to 500 events",
                        "invalid": "must be a list of 1 to 500 events", "null": "must be a list of 1 to 500 events"})


class AttendanceEventResultSchema(OpenSchema):
    external_id = fields.String(required=True, allow_none=True, metadata={
        "description": "Echo of the input; null when it was not a string, or not one line of text (a control "
                       "or bidirectional control character, a NUL, a lone surrogate): that event is `rejected`."})
    status = fields.String(required=True, metadata={
        "description": "`accepted`, `duplicate`, `unmatched_employee` or `rejected`. Tolerate unknown values."})
    event_id = fields.String(metadata={"description": "Present for stored events, duplicates included."})
    reason = fields.String(metadata={
        "description": "Present when `rejected`: a code (`missing_field`, `unknown_type`, `invalid_at`, "
                       "`at_in_future`, `at_too_old`, `unknown_employee_ref_type`, `invalid_employee_ref`, "
                       "`invalid_text` naming the field and the character's code point, ...), "
                       "a colon, and what to fix."})


class IngestResponseSchema(OpenSchema):
    results = fields.List(fields.Nested(AttendanceEventResultSchema), required=True,
                          metadata={"description": "One per input event, in request order."})


class ShiftSchema(OpenSchema):
    clock_in = fields.DateTime(required=True)
    clock_out = fields.DateTime(required=True)
    break_minutes = fields.Integer(required=True)
    worked_minutes = fields.Integer(required=True, metadata={"description": "Clock-in to clock-out, less breaks."})
    branch_ref = fields.String(allow_none=True, required=True)
    source = fields.String(required=True, metadata={"description": CHANNEL_TEXT})
    source_system = fields.String(required=True, metadata={
        "description": "The sending system's name: the `source` of your events."})


class OpenShiftSchema(OpenSchema):
    clock_in = fields.DateTime(required=True)
    break_minutes = fields.Integer(required=True)
    branch_ref = fields.String(allow_none=True, required=True)
    source = fields.String(required=True, metadata={"description": CHANNEL_TEXT})
    source_system = fields.String(required=True)


class AttendanceDaySchema(OpenSchema):
    employee_id = fields.String(required=True)
    date = fields.Date(required=True, metadata={"description": "Local day in the company timezone on which "
                                                               "the shifts started."})
    shifts = fields.List(fields.Nested(ShiftSchema), required=True)
    worked_minutes = fields.Integer(required=True)
    break_minutes = fields.Integer(required=True)
    open_shift = fields.Nested(OpenShiftSchema, allow_none=True, required=True, metadata={
        "description": "A clock-in still waiting for its clock-out (for up to 16 hours)."})
    sources = fields.List(fields.String(), required=True, metadata={"description": CHANNEL_TEXT})


AttendanceDayPageSchema = page_schema(AttendanceDaySchema, "AttendanceDayPage")


class AttendanceQueryArgsSchema(PageArgsSchema):
    date_from = fields.Date(data_key="from", required=True, error_messages={"invalid": "must be a date, YYYY-MM-DD"},
                            metadata={"description": "First day, YYYY-MM-DD."})
    date_to = fields.Date(data_key="to", required=True, error_messages={"invalid": "must be a date, YYYY-MM-DD"},
                          metadata={"description": "Last day, inclusive: not before `from`, and at most 62 days "
                                                   "after it (else 400 `invalid_request`)."})
    employee_id = fields.String(metadata={"description": "Only this employee's days."})

    @validates_schema
    def range_is_bounded(self, data: dict[str, Any], **kwargs: Any) -> None:
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            raise ValidationError("must not be before `from`", "to")
        if start and end and end - start > MAX_RANGE:
            raise ValidationError(f"must be at most 62 days after `from` (here {start + MAX_RANGE})", "to")


@blp.route("/events")
class AttendanceEvents(MethodView):
    @operation(blp, "ingestAttendanceEvents", release="v1.1", scope="attendance:write",
               errors=(400, 401, 403, 413, 422, 429))
    @blp.arguments(IngestRequestSchema, example=INGEST_EXAMPLE)
    @blp.response(207, IngestResponseSchema, example=RESULTS_EXAMPLE, description=(
        "One result per event, in request order. Per-event failures are `rejected` results, not HTTP errors."))
    def post(self, body: dict[str, Any]) -> Response:
        """Push clock events (1 to 500); each is handled on its own"""
        results = ingest(current_company(), body["events"], runtime())
        return json_response({"results": [result.as_dict() for result in results]}, status=207)


@blp.route("")
class AttendanceDays(MethodView):
    @operation(blp, "listAttendanceDays", release="v1.1", scope="attendance:read", errors=(400, 401, 403, 429))
    @blp.arguments(AttendanceQueryArgsSchema, location="query", error_status_code=400)
    @blp.response(200, AttendanceDayPageSchema,
                  example={"data": [DAY_EXAMPLE], "next_cursor": None})
    def get(self, args: dict[str, Any]) -> Response:
        """List attendance days, one per employee per day, by date"""
        company_id = current_company().id
        start, end, employee_id = args["date_from"], args["date_to"], args.get("employee_id")
        query = fingerprint("attendance", company_id, start, end, employee_id)
        found = list_days(company_id, start, end, employee_id=employee_id, after=after_of(args, query),
                          limit=args["limit"])
        return json_response(page_body(found, query, json.loads))
