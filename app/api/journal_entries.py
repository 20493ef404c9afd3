"""The ledger feed (beyond the contract, v1.3; issue 47): the company's journal entries,
each once, in the order they were posted, deleted runs' entries included, for an
accountant's ledger to be built from and kept up to date (app/domain/payroll/ledger.py).

An entry's lines are getPayrollRun's (app/domain/partner_safe.py): the same amounts, so
the feed shows nothing of anyone's pay that the runs did not. Pages follow the posting
order, which commits in order (every posting holds the company's lock): keeping the last
entry handled and asking `after` it gets each later entry once.
"""

import copy
from typing import Any

from flask import Response
from flask.views import MethodView
from marshmallow import fields, validate

from app.api import ApiBlueprint, json_response
from app.api.auth import current_company, operation
from app.api.pagination import after_of, fingerprint, page_body
from app.api.payroll import JournalEntrySchema
from app.api.problems import ApiProblem
from app.api.schemas import PageArgsSchema, page_schema
from app.domain.kernel.errors import ValidationFailed
from app.domain.partner_safe import ledger_entry_form
from app.domain.payroll import ledger
from config import ADDITIONS

blp = ApiBlueprint("journal_entries", __name__, url_prefix="/v1/journal-entries",
                   description="The company's journal entries as one ledger feed, each once in posting order, "
                               "deleted runs' entries included (beyond the contract, v1.3).")

# A month whose year is written 1000 to 9999: what a period can be (the digits 0-9 only,
# as every month of the API; a year 0000 has no days).
PERIOD = r"^[1-9][0-9]{3}-(0[1-9]|1[0-2])$"

EXAMPLE = {
    "id": "jrn_4TqP8vLm2XcN6bR9kZw1Yd", "kind": "true_up", "payroll_run_id": "prun_7Yc2NbX4kQ9mLr1TzWv8Pd",
    "payroll_month": "2026-10", "entity_id": "ent_8sQw2ZfLk4PnTr6YbVx0Md", "currency": "KWD",
    "posted_at": "2026-11-21T09:00:00Z", "accounting_date": "2026-10-31",
    "memo": "Payroll 2026-10, Gulf Trading, end-of-service provision true-up (after the correction of payroll "
            "2026-09, prun_2NcVb8XmQ4kLp7RtZw9Yd1)",
    "corrects": None, "reverses": None, "caused_by": "jrn_9XcN6bR4TqP8vLm2kZw1Yd",
    "lines": [{"account_key": "end_of_service_expense", "account_code": "5300",
               "account_name": "End-of-service benefits expense", "debit": "12.500", "credit": "0.000"},
              {"account_key": "end_of_service_provision", "account_code": "2300",
               "account_name": "End-of-service benefits provision", "debit": "0.000", "credit": "12.500"}],
}


def _always_sent(name: str) -> Any:  # Any: the class of getPayrollRun's field (Date, String)
    """getPayrollRun's field `name`, which this v1.3 operation always sends (null or not)."""
    field = copy.copy(JournalEntrySchema._declared_fields[name])
    field.required = True
    return field


class LedgerEntrySchema(JournalEntrySchema):
    """A journal entry as the ledger feed lists it: getPayrollRun's entry (the same lines)
    and what a ledger files it under."""

    accounting_date = _always_sent("accounting_date")
    memo = _always_sent("memo")
    reverses = _always_sent("reverses")
    corrects = _always_sent("corrects")
    payroll_run_id = fields.String(required=True, metadata={
        "description": "The run it was posted on. A deleted run's entries stay listed (its reversal among them); "
                       "getPayrollRun of that run is 404, as the contract has it."})
    payroll_month = fields.String(required=True, metadata={"example": "2026-10", "description": "The run's month."})
    entity_id = fields.String(required=True, metadata={"description": "The run's legal entity."})
    currency = fields.String(required=True, metadata={"example": "KWD", "description": "ISO 4217, of every amount."})
    caused_by = fields.String(allow_none=True, required=True, metadata={
        "description": "On a `true_up`, the id of the entry whose posting left the end-of-service provision off "
                       "(a correction, a reversal, an accrual), which its memo names; otherwise null."})


LedgerEntryPageSchema = page_schema(LedgerEntrySchema, "LedgerEntryPage")


class LedgerQueryArgsSchema(PageArgsSchema):
    entity_id = fields.String(metadata={
        "description": "Only the entries of this legal entity's runs. Not one of the company's: 404 `not_found`."})
    period = fields.String(validate=validate.Regexp(PERIOD, error="must be a month YYYY-MM (e.g. 2026-10)"),
                           metadata={"description": "Only the entries whose `accounting_date` falls in this month "
                                                    "(YYYY-MM): the entries of that period of the ledger.",
                                     "example": "2026-10"})
    after = fields.String(validate=validate.Length(min=1, error="must not be empty: the id of the last entry you "
                                                                 "handled"), metadata={
        "description": "Only the entries posted after this one (an entry id) in the feed's order: keep the id of the "
                       "last entry you handled, and ask again with it to get what was posted since, each entry "
                       "once. Ignored beside a `cursor`. An id that is not one of the company's entries is 400 "
                       "`invalid_request`.",
        "example": "jrn_4TqP8vLm2XcN6bR9kZw1Yd"})


@blp.route("")
class JournalEntries(MethodView):
    @operation(blp, "listJournalEntries", release=ADDITIONS, scope="payroll:read", errors=(400, 401, 403, 404, 429))
    @blp.arguments(LedgerQueryArgsSchema, location="query", error_status_code=400)
    @blp.response(200, LedgerEntryPageSchema, example={"data": [EXAMPLE], "next_cursor": None})
    def get(self, args: dict[str, Any]) -> Response:
        """List the company's journal entries in posting order (beyond the contract, v1.3)"""
        company_id = current_company().id
        entity_id, period = args.get("entity_id"), args.get("period")
        query = fingerprint("journal_entries", company_id, entity_id, period)
        try:
            found = ledger.entries(company_id, entity_id=entity_id, period=period, after=after_of(args, query),
                                   after_entry=args.get("after"), limit=args["limit"])
        except ValidationFailed as refused:  # as the events feed answers an `after` it does not hold
            raise ApiProblem("invalid_request", "; ".join(f"{path}: {message}" for path, message in refused.errors)
                             ) from None
        return json_response(page_body(found, query, lambda posted: ledger_entry_form(posted.entry, posted.run,
                                                                                      posted.lines)))
