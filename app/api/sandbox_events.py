"""Sandbox events on demand (beyond the contract, v1.3): a partner with a sandbox key makes
any event type happen, by the same HR action the console's trigger does
(app/domain/sandbox.py), and gets the event as the events feed returns it. What the
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
from app.domain.sandbox import TRIGGERS, trigger_event
from app.extensions import runtime
from config import ADDITIONS

blp = ApiBlueprint("sandbox_events", __name__, url_prefix="/v1/sandbox/events",
                   description="Make a webhook event happen in a sandbox company (beyond the contract, v1.3).")


CANNOT = ("The sandbox cannot make this event now (`conflict`); the detail says why and what to trigger first: "
          "for example no active employee left to update or end (trigger `employee.created`), or no closed run to "
          "correct (trigger `payroll_run.finalized`).")


class TriggerSandboxEventSchema(StrictSchema):
    type = fields.String(required=True, validate=validate.OneOf(TRIGGERS, error=f"one of {', '.join(TRIGGERS)}"),
                         metadata={"example": "employee.updated", "description": "The event type to make happen."})


@blp.route("")
class SandboxEvents(MethodView):
    @operation(blp, "triggerSandboxEvent", release=ADDITIONS, scope="webhooks:manage",
               errors=(400, 401, 403, 409, 422, 429))
    @blp.doc(responses={409: {"description": CANNOT}})
    @blp.arguments(TriggerSandboxEventSchema)
    @blp.response(201, EVENT, example=EXAMPLE)
    def post(self, body: dict) -> Response:
        """Make an event happen in the key's sandbox company (beyond the contract, v1.3)"""
        company = current_company()
        if not company.sandbox:
            raise ApiProblem("sandbox_only", "Events are made on demand in sandbox companies only; use a "
                                             "svc_test_ key.")
        event_id = trigger_event(company, body["type"], runtime())
        text = events.envelope_text(company.id, event_id, (body["type"],))
        return Response(text, status=201, mimetype="application/json")
