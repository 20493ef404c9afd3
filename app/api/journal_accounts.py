"""The company's chart of accounts as its journals use it (beyond the contract, v1.3):
each account's stable key, the code and name the company maps it to now (for the
company, or one legal entity whose own mapping wins), its type and default code
(app/domain/payroll/accounts.py)."""

from flask import Response
from flask.views import MethodView
from marshmallow import fields

from app.api import ApiBlueprint, json_response
from app.api.auth import current_company, operation
from app.api.schemas import LocalizedNameSchema, OpenSchema
from app.domain.payroll.accounts import TYPES, chart
from config import ADDITIONS

blp = ApiBlueprint("journal_accounts", __name__, url_prefix="/v1/journal-accounts",
                   description="The accounts journal lines post to, as the company's chart names them "
                               "(beyond the contract, v1.3).")


class JournalAccountArgsSchema(OpenSchema):
    entity_id = fields.String(metadata={
        "description": "The accounts as this legal entity's journals use them (its own mapping wins over the "
                       "company's)."})


class JournalAccountSchema(OpenSchema):
    key = fields.String(required=True, metadata={
        "example": "end_of_service_provision",
        "description": "Stable, the same in every company; journal lines carry it as `account_key`."})
    code = fields.String(required=True, metadata={"example": "2300", "description": "The company's code now."})
    name = fields.Nested(LocalizedNameSchema, required=True)
    type = fields.String(required=True, metadata={
        "description": f"{', '.join(f'`{kind}`' for kind in TYPES)}. Tolerate unknown values."})
    default_code = fields.String(required=True, metadata={"example": "2300"})


class JournalAccountListSchema(OpenSchema):
    data = fields.List(fields.Nested(JournalAccountSchema), required=True)


@blp.route("")
class JournalAccounts(MethodView):
    @operation(blp, "listJournalAccounts", release=ADDITIONS, scope="payroll:read", errors=(400, 401, 403, 404, 429))
    @blp.arguments(JournalAccountArgsSchema, location="query", error_status_code=400)
    @blp.response(200, JournalAccountListSchema, example={"data": [{
        "key": "end_of_service_provision", "code": "2300", "name": {"en": "End-of-service benefits provision",
                                                                      "ar": "مخصص مكافأة نهاية الخدمة"},
        "type": "liability", "default_code": "2300"}]})
    def get(self, args: dict) -> Response:
        """The journal accounts as the company maps them now (beyond the contract, v1.3)"""
        return json_response({"data": [mapped.as_dict()
                                       for mapped in chart(current_company().id, args.get("entity_id"))]})
