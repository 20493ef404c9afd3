"""Sandbox events on demand (beyond the contract, v1.3): a partner with a sandbox key makes
any event type happen, by the same HR action the console's trigger does
(app/domain/sandbox_triggers.py), and gets the event as the events feed returns it. What the
sandbox cannot do now (no employee left to end) is 409, as for the console."""

from flask import Response
from flask.views import MethodView
from marshmallow import fields, validate

from app.api import ApiBlueprint
from app.api.auth import current_company, operation
from app.api.events import EVENT, EXAMPLE
from app.api.problems import ApiProblem
from app.api.schemas import StrictSchema
from app.domain.kernel import events
from app.domain.people.actions import EDITABLE_STATUSES, EMPLOYMENT_TYPES
from app.domain.sandbox_triggers import ON_EMPLOYEE, ON_RUN, TRIGGERS, Overrides, trigger_event
from app.extensions import runtime
from config import ADDITIONS

blp = ApiBlueprint("sandbox_events", __name__, url_prefix="/v1/sandbox/events",
                   description="Make a webhook event happen in a sandbox company (beyond the contract, v1.3).")
SANDBOX_SCOPES = ("webhooks:manage", "sandbox:manage")  # either will do
SANDBOX_ONLY = "Only a sandbox company's data can be made or reset on demand; use a svc_test_ key."


CANNOT = ("The sandbox cannot make this event now (`conflict`); the detail says why and what to trigger first: "
          "for example no active employee left to update or end (trigger `employee.created`), or no closed run to "
          "correct (trigger `payroll_run.finalized`).")


CHANGES = ("For `employee.updated`: the fields to change, with their new values, as HR edits them (`name_en`, "
           "`name_ar` are the Employee's `name`), judged by HR's rules (a phone number, an email). By default the "
           "trigger changes the job title. A change that leaves everything partners see as it was is refused with "
           "422.")


class SandboxChangesSchema(StrictSchema):
    """The partner-visible fields a trigger sets (sandbox_triggers.SETTABLE), as HR's edit takes them."""

    name_en = fields.String(metadata={"example": "Noura Al-Sabah"})
    name_ar = fields.String(allow_none=True)
    job_title = fields.String(allow_none=True, metadata={"example": "Cashier"})
    department = fields.String(allow_none=True)
    employment_type = fields.String(validate=validate.OneOf(EMPLOYMENT_TYPES))
    status = fields.String(validate=validate.OneOf(EDITABLE_STATUSES))
    contact_email = fields.String(allow_none=True)
    contact_phone = fields.String(allow_none=True)


class TriggerSandboxEventSchema(StrictSchema):
    type = fields.String(required=True, validate=validate.OneOf(TRIGGERS, error=f"one of {', '.join(TRIGGERS)}"),
                         metadata={"example": "employee.updated", "description": "The event type to make happen."})
    employee_id = fields.String(metadata={
        "example": "emp_8sQw2ZfLk4PnTr6YbVx0Md",
        "description": f"The active employee to act on ({', '.join(ON_EMPLOYEE)}); by default the trigger "
                       "chooses one."})
    payroll_run_id = fields.String(metadata={
        "description": f"The closed run to act on ({', '.join(ON_RUN)}); by default the newest that can take "
                       "the move. A run that cannot (a paid run to delete) is refused with 409."})
    set = fields.Nested(SandboxChangesSchema, validate=validate.Length(min=1, error="at least one field to change"),
                        metadata={"minProperties": 1, "example": {"job_title": "Cashier"}, "description": CHANGES})


@blp.route("")
class SandboxEvents(MethodView):
    @operation(blp, "triggerSandboxEvent", release=ADDITIONS, scope=SANDBOX_SCOPES,
               errors=(400, 401, 403, 409, 422, 429))
    @blp.doc(responses={409: {"description": CANNOT}})
    @blp.arguments(TriggerSandboxEventSchema)
    @blp.response(201, EVENT, example=EXAMPLE)
    def post(self, body: dict) -> Response:
        """Make an event happen in the key's sandbox company (beyond the contract, v1.3)"""
        company = current_company()
        if not company.sandbox:
            raise ApiProblem("sandbox_only", SANDBOX_ONLY)
        overrides = Overrides(body.get("employee_id"), body.get("payroll_run_id"), body.get("set"))
        event_id = trigger_event(company, body["type"], runtime(), overrides)
        text = events.envelope_text(company.id, event_id, (body["type"],))
        return Response(text, status=201, mimetype="application/json")
