"""The catalog of webhook event types (beyond the contract, v1.3): for each, when it is
sent and the JSON Schema of the envelope's `data`.

The `data` schemas are the OpenAPI document's own components (`EmployeeEventData`, ...,
registered by `register_schemas`), so the catalog and the document cannot say two
things; the catalog hands each one out whole (references inlined, OpenAPI's `nullable`
written as JSON Schema's `"null"` type), for a receiver to validate with any JSON
Schema library. Like every response schema here, none forbids fields v1 may add.
"""

from collections.abc import Mapping
from typing import Any
from weakref import WeakKeyDictionary

from flask import Flask, Response, current_app
from flask.views import MethodView
from marshmallow import Schema, fields

from app.api import ApiBlueprint, json_response
from app.api.auth import operation
from app.api.employees import EmployeeSchema
from app.api.leave import LeaveSchema
from app.api.openapi import partner_api
from app.api.payroll import PayrollRunSummarySchema
from app.api.schemas import OpenSchema
from app.domain.kernel.events import EVENT_TYPES
from config import ADDITIONS

blp = ApiBlueprint("event_types", __name__, url_prefix="/v1/event-types",
                   description="What each webhook event's `data` holds (beyond the contract, v1.3).")


class EmployeeEventDataSchema(OpenSchema):
    employee = fields.Nested(EmployeeSchema, required=True)


class EmployeeUpdatedEventDataSchema(EmployeeEventDataSchema):
    previous_attributes = fields.Dict(metadata={
        "x-release": ADDITIONS,
        "example": {"job_title": "Sales Associate", "department": None},
        "description": "Beyond the contract (v1.3): each field of `employee` that changed since the form partners "
                       "were last sent, with its value then (a nested field, such as `name` or `branch`, whole). "
                       "`updated_at` is not listed. Absent for an employee whose earlier form was never sent."})


class PayrollRunEventDataSchema(OpenSchema):
    payroll_run = fields.Nested(PayrollRunSummarySchema, required=True)


class PayrollRunDeletedEventDataSchema(OpenSchema):
    payroll_run_id = fields.String(required=True)


class AttendanceRejectedEventDataSchema(OpenSchema):
    external_id = fields.String(required=True)
    event_id = fields.String(allow_none=True)
    reason = fields.String(required=True, metadata={
        "description": "`orphan_clock_out`, `orphan_clock_in`, `shift_too_long`, `overlapping_shift` or "
                       "`unmatched_employee_expired`. Tolerate unknown values."})
    detail = fields.String(allow_none=True)


class LeaveEventDataSchema(OpenSchema):
    leave = fields.Nested(LeaveSchema, required=True)


class PingEventDataSchema(OpenSchema):
    webhook_id = fields.String(required=True, metadata={"description": "The endpoint the test was sent to."})


# Event type -> (when it is sent, the release that brought it, the schema of its `data`).
CATALOG: dict[str, tuple[str, str, type[Schema]]] = {
    "employee.created": ("An employee was added.", "v1.2", EmployeeEventDataSchema),
    "employee.updated": ("Any field of the Employee schema changed; with v1.3, `previous_attributes` says which, "
                         "and what each was.", "v1.2", EmployeeUpdatedEventDataSchema),
    "employee.left": ("Employment ended.", "v1.2", EmployeeEventDataSchema),
    "payroll_run.finalized": ("A run was closed and its journal posted.", "v1.2", PayrollRunEventDataSchema),
    "payroll_run.paid": ("A run was marked paid and its payment journal posted; with v1.3, also when a paid run "
                         "pays what a correction left owing (another payment entry).", "v1.2",
                         PayrollRunEventDataSchema),
    "payroll_run.corrected": ("Amounts of a finalized or paid run changed: re-fetch the run.", "v1.2",
                              PayrollRunEventDataSchema),
    "payroll_run.deleted": ("A finalized run was deleted and its journal reversed.", "v1.2",
                            PayrollRunDeletedEventDataSchema),
    "attendance.rejected": ("A stored clock event could not become attendance.", "v1.2",
                            AttendanceRejectedEventDataSchema),
    "ping": ("Sent by the test operation.", "v1.2", PingEventDataSchema),
    "payroll_run.wps_updated": ("HR recorded where the run's salary file stands with the bank (Wage Protection "
                                "System): see `wps_status`.", "v1.3", PayrollRunEventDataSchema),
    "leave.approved": ("A leave was approved (asked and approved at once, or approved later): `listLeave`'s item. "
                       "Only to credentials with `leave:read`.", "v1.3", LeaveEventDataSchema),
    "leave.cancelled": ("A leave was cancelled, whether it was approved or still requested (`listLeave` shows "
                        "requested leave too): `listLeave`'s item. Only to credentials with `leave:read`.", "v1.3",
                        LeaveEventDataSchema),
}
assert set(CATALOG) == set(EVENT_TYPES), "every event type is in the catalog"


def component_name(schema: type[Schema]) -> str:
    return schema.__name__.removesuffix("Schema")


def register_schemas(spec: Any) -> None:
    """Put each `data` schema in the OpenAPI document's components, and the event
    envelope whole: one component per event type (`EmployeeCreatedEvent`, ...) whose
    `type` is that type and whose `data` is its schema, and `Event`, one of them chosen by
    `type` (a discriminator), so a generated client types each event's `data`."""
    for schema in dict.fromkeys(entry[2] for entry in CATALOG.values()):
        spec.components.schema(component_name(schema), schema=schema)
    mapping = {}
    for event_type, (description, release, schema) in CATALOG.items():
        name = envelope_name(event_type)
        spec.components.schema(name, component={
            "type": "object", "description": description, "x-release": release,
            "required": ["id", "type", "created_at", "company_id", "livemode", "data"],
            "properties": {
                "id": {"type": "string", "description": "Unique per event; a redelivery keeps it. Deduplicate on it."},
                "type": {"type": "string", "enum": [event_type]},
                "created_at": {"type": "string", "format": "date-time"},
                "company_id": {"type": "string"},
                "livemode": {"type": "boolean", "description": "`false` for sandbox companies."},
                "data": {"$ref": f"#/components/schemas/{component_name(schema)}"},
            }})
        mapping[event_type] = f"#/components/schemas/{name}"
    spec.components.schema("Event", component={
        "description": "The webhook envelope, as each webhook delivery and the events feed carry it: one of the "
                       "event types, chosen by `type`. Tolerate types added later.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping}})
    spec.components.schema("EventPage", component={
        "type": "object", "required": ["data", "next_cursor"],
        "properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}},
                       "next_cursor": {"type": "string", "nullable": True, "description": (
                           "Pass back as `cursor` for the next page; null on the last page.")}}})


def envelope_name(event_type: str) -> str:
    """`payroll_run.wps_updated` -> `PayrollRunWpsUpdatedEvent`."""
    return "".join(word.capitalize() for word in event_type.replace(".", "_").split("_")) + "Event"


class EventTypeSchema(OpenSchema):
    type = fields.String(required=True, metadata={"example": "employee.updated"})
    description = fields.String(required=True)
    release = fields.String(required=True, metadata={"description": "The release that brought this event type."})
    schema = fields.Dict(required=True, metadata={
        "description": "JSON Schema of the envelope's `data` for this type (self-contained)."})


class EventTypeListSchema(OpenSchema):
    data = fields.List(fields.Nested(EventTypeSchema), required=True)


def json_schema(name: str, components: Mapping[str, Any]) -> dict[str, Any]:
    """The component `name` as a self-contained JSON Schema."""

    def whole(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return whole(components[node["$ref"].rsplit("/", 1)[-1]])
            out = {key: whole(value) for key, value in node.items() if key != "nullable"}
            if node.get("nullable"):
                if "type" in out:
                    out["type"] = [out["type"], "null"]
                else:  # a nullable reference (`anyOf` / `allOf` of one schema)
                    out = {"anyOf": [out, {"type": "null"}]}
            return out
        if isinstance(node, list):
            return [whole(item) for item in node]
        return node

    return whole(components[name])


def catalog(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    components = document["components"]["schemas"]
    return [{"type": event_type, "description": description, "release": release,
             "schema": json_schema(component_name(schema), components)}
            for event_type, (description, release, schema) in CATALOG.items()]


@blp.route("")
class EventTypes(MethodView):
    @operation(blp, "listEventTypes", release=ADDITIONS, errors=(401, 429))
    @blp.response(200, EventTypeListSchema, example={"data": [{
        "type": "payroll_run.deleted", "description": "A finalized run was deleted and its journal reversed.",
        "release": "v1.2", "schema": {"type": "object", "properties": {"payroll_run_id": {"type": "string"}},
                                      "required": ["payroll_run_id"]}}]})
    def get(self) -> Response:
        """Every webhook event type, with the JSON Schema of its `data` (beyond the contract, v1.3)"""
        return json_response({"data": _catalog_of(current_app._get_current_object())})  # type: ignore[attr-defined]


# Each app's event types with their schemas, worked out on first use: its document is
# fixed once the app is built.
_CATALOGS: "WeakKeyDictionary[Flask, list[dict[str, Any]]]" = WeakKeyDictionary()


def _catalog_of(app: Flask) -> list[dict[str, Any]]:
    found = _CATALOGS.get(app)
    if found is None:
        found = _CATALOGS[app] = catalog(partner_api().spec.to_dict())
    return found
