"""Resetting a sandbox over the API (beyond the contract, v1.3): the key's sandbox company
back to its generated data, its keys, webhook endpoints and OAuth apps kept
(app/domain/sandbox_reset.py). A live key is 403 `sandbox_only`, as for triggers."""

from flask import Response
from flask.views import MethodView
from marshmallow import fields

from app.api import ApiBlueprint, json_response
from app.api.auth import current_company, operation
from app.api.problems import ApiProblem
from app.api.sandbox_events import SANDBOX_ONLY, SANDBOX_SCOPES
from app.api.schemas import OpenSchema
from app.domain.sandbox_reset import reset
from app.extensions import runtime
from config import ADDITIONS

blp = ApiBlueprint("sandbox_reset", __name__, url_prefix="/v1/sandbox/reset",
                   description="Reset a sandbox company to its generated data (beyond the contract, v1.3).")


class SandboxResetSchema(OpenSchema):
    company_id = fields.String(required=True)
    employees = fields.Integer(required=True, metadata={"description": "The staff made again (SBX-001 to SBX-010)."})
    payroll_runs = fields.Integer(required=True, metadata={"description": "Last month's run, finalized."})
    events = fields.Integer(required=True, metadata={
        "description": "The events the feed starts again with: each employee's `employee.created` and the run's "
                       "`payroll_run.finalized`."})


@blp.route("")
class SandboxReset(MethodView):
    @operation(blp, "resetSandbox", release=ADDITIONS, scope=SANDBOX_SCOPES, errors=(400, 401, 403, 429))
    @blp.response(200, SandboxResetSchema, example={"company_id": "cmp_3kTMd9Xq2LrVb7YwPz1NcA", "employees": 10,
                                                   "payroll_runs": 1, "events": 11})
    def post(self) -> Response:
        """Reset the key's sandbox company to its generated data (beyond the contract, v1.3): its employees,
        leave, attendance, runs, journals, settings and events are made again as a new sandbox's; its keys,
        webhook endpoints and OAuth apps are kept"""
        company = current_company()
        if not company.sandbox:
            raise ApiProblem("sandbox_only", SANDBOX_ONLY)
        made = reset(company, "partner api reset", runtime())
        return json_response({name: made[name] for name in ("company_id", "employees", "payroll_runs", "events")})
