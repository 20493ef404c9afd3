from flask import Response
from flask.views import MethodView
from marshmallow import fields

from app.api import ApiBlueprint, json_response
from app.api.auth import current_principal, operation
from app.api.schemas import LocalizedNameSchema, OpenSchema
from app.domain.partner_safe import company_form

blp = ApiBlueprint("company", __name__, url_prefix="/v1/company", description="The company the key belongs to.")

EXAMPLE = {
    "id": "cmp_3kTMd9Xq2LrVb7YwPz1NcA",
    "name": {"en": "Kuwait Sandbox Trading Co.", "ar": "شركة الكويت التجريبية للتجارة"},
    "country": "KW", "currency": "KWD", "timezone": "Asia/Kuwait", "sandbox": True,
    "entities": [{"id": "ent_8sQw2ZfLk4PnTr6YbVx0Md", "country": "KW",
                  "name": {"en": "Kuwait Sandbox Trading Co.", "ar": None}, "currency": "KWD", "primary": True}],
}


class EntitySchema(OpenSchema):
    id = fields.String(required=True, metadata={"description": "Use as the `entity_id` filter."})
    country = fields.String(required=True, metadata={"description": "ISO 3166-1 alpha-2 country code."})
    name = fields.Nested(LocalizedNameSchema, required=True)
    currency = fields.String(required=True, metadata={"description": "ISO 4217."})
    primary = fields.Boolean(required=True)


class CompanySchema(OpenSchema):
    id = fields.String(required=True)
    name = fields.Nested(LocalizedNameSchema, required=True)
    country = fields.String(required=True)
    currency = fields.String(required=True)
    timezone = fields.String(required=True, metadata={"description": "IANA name; clock events are paired in it."})
    sandbox = fields.Boolean(required=True)
    entities = fields.List(fields.Nested(EntitySchema), required=True)


@blp.route("")
class CompanyView(MethodView):
    @operation(blp, "getCompany", release="v1.0")
    @blp.response(200, CompanySchema, example=EXAMPLE)
    def get(self) -> Response:
        """Read the company the key belongs to"""
        principal = current_principal()
        return json_response(company_form(principal.company, principal.entities))
