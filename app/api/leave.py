"""Leave for partners (beyond the contract, v1.3; issue 48 part 4; scope `leave:read`):
the company's leave, and each active employee's annual balance.

A leave's `type` is `annual`, `unpaid` or `other`: sick leave, maternity and every kind
that tells of someone's health or family is `other` (app/domain/partner_safe.py,
`leave_form`), and HR's note never leaves. Archived employees' leave and balances are
never shown (Contract, Employee: archived records are never returned).
"""

from typing import Any

from flask import Response
from flask.views import MethodView
from marshmallow import ValidationError, fields, validate, validates_schema

from app.api import ApiBlueprint, json_response
from app.api.auth import current_company, operation
from app.api.pagination import after_of, fingerprint, page_body
from app.api.schemas import UPDATED_SINCE, OpenSchema, PageArgsSchema, Rfc3339, page_schema
from app.domain.leave import partners
from app.domain.partner_safe import leave_balance_form, leave_form
from app.extensions import runtime
from config import ADDITIONS

blp = ApiBlueprint("leave", __name__, url_prefix="/v1/leave",
                   description="The company's leave: annual, unpaid or other, never what kind of other "
                               "(beyond the contract, v1.3).")
balances_blp = ApiBlueprint("leave_balances", __name__, url_prefix="/v1/leave-balances",
                            description="Each active employee's annual leave balance, in days (beyond the "
                                        "contract, v1.3).")

DATE_ERROR: dict[str, str | list[Any] | dict[Any, Any]] = {"invalid": "must be a date, YYYY-MM-DD"}
EXAMPLE = {"id": "leave_6TqP8vLm2XcN6bR9kZw1Yd", "employee_id": "emp_5hGk2LmQ9wXr3TbN7vYc1P", "type": "annual",
           "status": "approved", "start_date": "2026-12-06", "end_date": "2026-12-10", "days": 5,
           "updated_at": "2026-11-21T09:00:00Z"}
BALANCE_EXAMPLE = {"employee_id": "emp_5hGk2LmQ9wXr3TbN7vYc1P", "type": "annual", "accrued_days": 26.25,
                   "taken_days": 10, "balance_days": 16.25, "as_of": "2026-11-21"}


class LeaveSchema(OpenSchema):
    id = fields.String(required=True)
    employee_id = fields.String(required=True)
    type = fields.String(required=True, metadata={
        "example": "annual",
        "description": "`annual`, `unpaid` or `other`. Sick leave, maternity and paternity, Hajj, bereavement, "
                       "marriage and every other kind are all `other`: what kind is never sent (it can tell of "
                       "someone's health or family). Tolerate unknown values."})
    status = fields.String(required=True, metadata={
        "example": "approved", "description": "`requested`, `approved`, `declined` or `cancelled`. Only `approved` "
                                              "leave is time off. Tolerate unknown values."})
    start_date = fields.Date(required=True, metadata={"description": "First day off."})
    end_date = fields.Date(required=True, metadata={"description": "Last day off (inclusive)."})
    days = fields.Integer(required=True, metadata={
        "description": "The leave's days as the law counts them: annual leave in working or calendar days as the "
                       "country's law says (so a week may be 5 or 7), every other type in calendar days."})
    updated_at = fields.DateTime(required=True, metadata={"description": "Moves on every change of this form."})


LeavePageSchema = page_schema(LeaveSchema, "LeavePage")


class LeaveQueryArgsSchema(PageArgsSchema):
    employee_id = fields.String(metadata={
        "description": "Only this employee's leave (none for an id that is not one of the company's employees)."})
    status = fields.String(validate=validate.OneOf(partners.STATUSES), metadata={
        "description": "Only leave in this status: `requested`, `approved`, `declined` or `cancelled`."})
    date_from = fields.Date(data_key="from", error_messages=DATE_ERROR, metadata={
        "description": "Only leave that ends on or after this day (YYYY-MM-DD)."})
    date_to = fields.Date(data_key="to", error_messages=DATE_ERROR, metadata={
        "description": "Only leave that starts on or before this day (YYYY-MM-DD), not before `from` (else 400 "
                       "`invalid_request`). With `from`: the leave that touches that window."})
    updated_since = Rfc3339(metadata=UPDATED_SINCE)

    @validates_schema
    def window_is_ordered(self, data: dict[str, Any], **kwargs: Any) -> None:
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            raise ValidationError("must not be before `from`", "to")


@blp.route("")
class Leave(MethodView):
    @operation(blp, "listLeave", release=ADDITIONS, scope="leave:read", errors=(400, 401, 403, 429))
    @blp.arguments(LeaveQueryArgsSchema, location="query", error_status_code=400)
    @blp.response(200, LeavePageSchema, example={"data": [EXAMPLE], "next_cursor": None})
    def get(self, args: dict[str, Any]) -> Response:
        """List the company's leave, oldest recorded first (beyond the contract, v1.3)"""
        company_id = current_company().id
        since = args.get("updated_since")
        start, end = args.get("date_from"), args.get("date_to")
        query = fingerprint("leave", company_id, args.get("employee_id"), args.get("status"), start, end,
                            since and since.isoformat())
        found = partners.list_leave(company_id, employee_id=args.get("employee_id"), status=args.get("status"),
                                    start=start, end=end, updated_since=since, after=after_of(args, query),
                                    limit=args["limit"])
        return json_response(page_body(found, query, leave_form))


class LeaveBalanceSchema(OpenSchema):
    employee_id = fields.String(required=True)
    type = fields.String(required=True, metadata={"example": "annual",
                                                  "description": "`annual`. Tolerate other values later."})
    accrued_days = fields.Float(required=True, metadata={
        "description": "Annual leave earned by the end of `as_of` under the country's law (nothing before the "
                       "qualifying service), less what the company's carry-over cap forfeited; 2 decimals."})
    taken_days = fields.Integer(required=True, metadata={
        "description": "Approved annual leave days on or before `as_of`."})
    balance_days = fields.Float(required=True, metadata={
        "description": "`accrued_days` less `taken_days`; 2 decimals. Negative where the company allows it."})
    as_of = fields.Date(required=True)


LeaveBalancePageSchema = page_schema(LeaveBalanceSchema, "LeaveBalancePage")


class LeaveBalanceQueryArgsSchema(PageArgsSchema):
    as_of = fields.Date(error_messages=DATE_ERROR, metadata={
        "description": "The day the balances are at the end of (YYYY-MM-DD); default the company's today in its "
                       "timezone. A day ahead is projected: service to it, and the leave approved until then."})
    employee_id = fields.String(metadata={
        "description": "Only this employee's balance (none for an id that is not one of the company's active "
                       "employees)."})


@balances_blp.route("")
class LeaveBalances(MethodView):
    @operation(balances_blp, "listLeaveBalances", release=ADDITIONS, scope="leave:read",
               errors=(400, 401, 403, 429))
    @balances_blp.arguments(LeaveBalanceQueryArgsSchema, location="query", error_status_code=400)
    @balances_blp.response(200, LeaveBalancePageSchema, example={"data": [BALANCE_EXAMPLE], "next_cursor": None})
    def get(self, args: dict[str, Any]) -> Response:
        """List each active employee's annual leave balance, by employee id (beyond the contract, v1.3)"""
        company = current_company()
        query = fingerprint("leave_balances", company.id, args.get("as_of"), args.get("employee_id"))
        found = partners.list_balances(company, runtime().now(), as_of=args.get("as_of"),
                                       employee_id=args.get("employee_id"), after=after_of(args, query),
                                       limit=args["limit"])
        return json_response(page_body(found, query, lambda balance: leave_balance_form(balance.as_dict())))
