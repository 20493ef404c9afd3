
from typing import Any

from flask import Response
from flask.views import MethodView
from marshmallow import ValidationError, fields, validate, validates_schema

from app.api import ApiBlueprint, json_response
from app.api.auth import additions_live, current_company, operation
from app.api.pagination import after_of, fingerprint, page_body
from app.api.schemas import UPDATED_SINCE, LocalizedNameSchema, OpenSchema, PageArgsSchema, Rfc3339, page_schema
from app.domain.partner_safe import payroll_run_full, payroll_run_summary
from app.domain.payroll.runs import VISIBLE_STATUSES, get_run, list_runs
from config import ADDITIONS

blp = ApiBlueprint("payroll", __name__, url_prefix="/v1/payroll-runs",
                description="Closed payroll runs: run-level totals, components and journal. "
                            "Draft runs are never exposed; no per-employee amount appears anywhere.")

MONTH = r"^[0-9]{4}-(0[1-9]|1[0-2])$"  # the digits 0-9 only: a regex's \d also takes "٢٠٢٦"
MONEY = {"description": "Decimal string in the currency's minor-unit precision.", "example": "1250.500"}

SUMMARY_EXAMPLE = {
    "id": "prun_7Yc2NbX4kQ9mLr1TzWv8Pd", "entity_id": "ent_8sQw2ZfLk4PnTr6YbVx0Md", "country": "KW",
    "payroll_month": "2026-10", "status": "finalized", "currency": "KWD", "employee_count": 10,
    "totals": {"gross": "12840.000", "deductions": "512.430", "net": "12327.570",
               "employer_contributions": "561.230", "total_cost": "13401.230"},
    "finalized_at": "2026-11-21T09:00:00Z", "paid_at": None, "updated_at": "2026-11-21T09:00:00Z",
    "wps_status": "submitted",
}
FULL_EXAMPLE = {
    **SUMMARY_EXAMPLE,
    "components": [{"code": "basic", "name": {"en": "Basic salary", "ar": "الراتب الأساسي"},
                    "kind": "earning", "amount": "9300.000", "employee_count": 10}],
    "journal_entries": [{"id": "jrn_4TqP8vLm2XcN6bR9kZw1Yd", "kind": "accrual",
                         "posted_at": "2026-11-21T09:00:00Z", "accounting_date": "2026-10-31",
                         "memo": "Payroll 2026-10, Gulf Trading, accrual", "reverses": None, "corrects": None,
                         "lines": [{"account_code": "5100", "account_name": "Basic salaries",
                                    "debit": "9300.000", "credit": "0.000"}]}],
}


class TotalsSchema(OpenSchema):
    gross = fields.String(required=True, metadata=MONEY)
    deductions = fields.String(required=True, metadata=MONEY)
    net = fields.String(required=True, metadata=MONEY)
    employer_contributions = fields.String(required=True, metadata=MONEY)
    total_cost = fields.String(required=True, metadata={**MONEY, "description": "gross + employer_contributions."})
    provisions = fields.String(metadata={
        **MONEY, "x-release": ADDITIONS,
        "description": "Beyond the contract (v1.3): the month's net change in the end-of-service and "
                       "leave-salary provisions, accruals less releases (components of kind `provision`); the "
                       "journal posts them to 5300 End-of-service benefits expense against 2300 End-of-service "
                       "benefits provision, and to 5310 Leave salary expense against 2310 Leave salary "
                       "provision (leave taken uses it). Not in total_cost, which is what the run pays; an "
                       "end-of-service benefit or a leave encashment paid to a leaver is in gross, out of its "
                       "provision."})


class PayrollRunSummarySchema(OpenSchema):
    id = fields.String(required=True)
    entity_id = fields.String(required=True)
    country = fields.String(required=True)
    payroll_month = fields.String(required=True, metadata={"example": "2026-10", "pattern": MONTH})
    status = fields.String(required=True, metadata={"description": "`finalized` or `paid`."})
    currency = fields.String(required=True)
    employee_count = fields.Integer(required=True)
    totals = fields.Nested(TotalsSchema, required=True)
    finalized_at = fields.DateTime(required=True)
    paid_at = fields.DateTime(allow_none=True, required=True)
    updated_at = fields.DateTime(required=True)
    wps_status = fields.String(metadata={
        "x-release": ADDITIONS,
        "description": "Beyond the contract (v1.3): where the run's salary file stands with the bank under the "
                       "Wage Protection System, as HR records it: `not_submitted`, `submitted`, `accepted` or "
                       "`rejected` (a rejected file is submitted again). The file itself is never shared. "
                       "Each change is announced by `payroll_run.wps_updated`. Tolerate unknown values.",
        "example": "submitted"})


class ComponentSchema(OpenSchema):
    code = fields.String(required=True, metadata={"example": "housing"})
    name = fields.Nested(LocalizedNameSchema, required=True)
    kind = fields.String(required=True, metadata={
        "description": "`earning`, `deduction` or `employer_contribution`; beyond the contract (v1.3), "
                       "`provision`: a month's change in the end-of-service or leave-salary provision. Tolerate "
                       "unknown values."})
    amount = fields.String(required=True, metadata=MONEY)
    employee_count = fields.Integer(required=True, metadata={"description": "Employees it applies to."})


class JournalLineSchema(OpenSchema):
    account_key = fields.String(metadata={
        "x-release": ADDITIONS, "example": "basic_salaries",
        "description": "Beyond the contract (v1.3): the account's stable key, the same in every company "
                       "(listJournalAccounts); `account_code` and `account_name` are the company's mapping of it "
                       "when the entry was posted. Two keys may share a code: their lines stay apart."})
    account_code = fields.String(required=True)
    account_name = fields.String(required=True)
    debit = fields.String(required=True, metadata=MONEY)
    credit = fields.String(required=True, metadata=MONEY)
    dimensions = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True), metadata={
        "x-release": ADDITIONS, "example": {"department": "Sales"},
        "description": "Beyond the contract (v1.3), only on an expense line split by the company's cost centres: "
                       "`{\"department\": <name or null>}` (or `branch`); null is the unassigned group. A split "
                       "line never stands for fewer than 3 employees: smaller groups are shown unassigned, and a "
                       "small unassigned group joins the smallest named one, shown unassigned too (only when "
                       "fewer than 3 share the account's amount at all is it one unassigned line for them). "
                       "The split lines of an account sum to what it would be whole."})
    employee_count = fields.Integer(metadata={
        "x-release": ADDITIONS, "description": "Beyond the contract (v1.3), only on a split line: the employees "
                                               "it stands for: 3 or more, unless fewer than 3 share the "
                                               "account's amount at all (then one unassigned line)."})


class JournalEntrySchema(OpenSchema):
    id = fields.String(required=True)
    kind = fields.String(required=True, metadata={
        "description": "`accrual`, `payment`, `correction` or `reversal`; beyond the contract (v1.3), `opening`: "
                       "a run brings in the end-of-service (Cr 2300) or leave-salary (Cr 2310) provision its "
                       "employees had earned before the books carried them (Dr 3100 Retained earnings), apart "
                       "from the month's cost, one entry each; and `true_up`: after a change to an earlier month "
                       "(a correction, a deletion), the latest run brings a provision back to what its staff "
                       "are owed at its month's end. Tolerate unknown values."})
    posted_at = fields.DateTime(required=True)
    accounting_date = fields.Date(allow_none=True, metadata={
        "x-release": ADDITIONS,
        "description": "Beyond the contract (v1.3): the date of the period the entry belongs to. An accrual "
                       "or opening: the payroll month's last day; a payment: the day it was paid; a "
                       "correction, reversal or true-up: the last day of the latest month posted for the "
                       "entity when it was posted (posted months are not reopened). Null on entries posted "
                       "before it was kept."})
    memo = fields.String(allow_none=True, metadata={
        "x-release": ADDITIONS, "example": "Payroll 2026-09, Gulf Trading, accrual",
        "description": "Beyond the contract (v1.3): what the entry is, for the ledger's narration."})
    reverses = fields.String(allow_none=True, metadata={
        "x-release": ADDITIONS,
        "description": "Beyond the contract (v1.3): on a `reversal`, the id of the run's accrual entry it "
                       "reverses (with everything posted on the run since); otherwise null."})
    corrects = fields.String(allow_none=True, metadata={
        "x-release": ADDITIONS,
        "description": "Beyond the contract (v1.3): on a `correction`, the id of the run's accrual entry it "
                       "corrects; otherwise null."})
    lines = fields.List(fields.Nested(JournalLineSchema), required=True,
                        metadata={"description": "Debits equal credits to the minor unit."})


class PayrollRunSchema(PayrollRunSummarySchema):
    components = fields.List(fields.Nested(ComponentSchema), required=True)
    journal_entries = fields.List(fields.Nested(JournalEntrySchema), required=True,
                                  metadata={"description": "Posted entries, oldest first; never edited."})


PayrollRunPageSchema = page_schema(PayrollRunSummarySchema, "PayrollRunPage")


class PayrollRunQueryArgsSchema(PageArgsSchema):
    month_from = fields.String(data_key="from", validate=validate.Regexp(MONTH, error="must be YYYY-MM"),
                               metadata={"description": "First payroll month (YYYY-MM), inclusive."})
    month_to = fields.String(data_key="to", validate=validate.Regexp(MONTH, error="must be YYYY-MM"),
                             metadata={"description": "Last payroll month (YYYY-MM), inclusive; not before "
                                                      "`from` (else 400 `invalid_request`)."})
    status = fields.String(validate=validate.OneOf(VISIBLE_STATUSES))
    updated_since = Rfc3339(metadata=UPDATED_SINCE)

    @validates_schema
    def months_in_order(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("month_from") and data.get("month_to") and data["month_from"] > data["month_to"]:
            raise ValidationError("must not be before `from`", "to")


@blp.route("")
class PayrollRuns(MethodView):
    @operation(blp, "listPayrollRuns", release="v1.0", scope="payroll:read", errors=(400, 401, 403, 429))
    @blp.arguments(PayrollRunQueryArgsSchema, location="query", error_status_code=400)
    @blp.response(200, PayrollRunPageSchema,
                  example={"data": [SUMMARY_EXAMPLE], "next_cursor": None})
    def get(self, args: dict[str, Any]) -> Response:
        """List closed payroll runs, newest month first"""
        company_id = current_company().id
        filters = {key: args.get(key) for key in ("month_from", "month_to", "status", "updated_since")}
        query = fingerprint("payroll_runs", company_id, *filters.values())
        live = additions_live()
        found = list_runs(company_id, after=after_of(args, query), limit=args["limit"], **filters)
        return json_response(page_body(found, query, lambda run: payroll_run_summary(run, beyond_contract=live)))


@blp.route("/<payroll_run_id>")
class PayrollRunById(MethodView):
    @operation(blp, "getPayrollRun", release="v1.0", scope="payroll:read", errors=(401, 403, 404, 429))
    @blp.response(200, PayrollRunSchema, example=FULL_EXAMPLE)
    def get(self, payroll_run_id: str) -> Response:
        """Read one closed payroll run with components and journal"""
        run, components, entries = get_run(current_company().id, payroll_run_id)
        return json_response(payroll_run_full(run, components, entries, beyond_contract=additions_live()))
