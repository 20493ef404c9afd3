
from typing import Any

from flask import Response
from flask.views import MethodView
from marshmallow import fields, validate

from app.api import ApiBlueprint, json_response
from app.api.auth import current_company, operation
from app.api.pagination import after_of, fingerprint, page_body
from app.api.schemas import UPDATED_SINCE, LocalizedNameSchema, OpenSchema, PageArgsSchema, Rfc3339, page_schema
from app.domain.partner_safe import employee_form
from app.domain.people.employees import STATUS_FILTERS, get_employee, list_employees

blp = ApiBlueprint("employees", __name__, url_prefix="/v1/employees",
                description="Partner-safe employee records. Archived records are never returned.")

EXAMPLE = {
    "id": "emp_5hGk2LmQ9wXr3TbN7vYc1P", "staff_number": "SBX-001",
    "name": {"en": "Fahad Al-Mutairi", "ar": "فهد المطيري"}, "job_title": "General Manager",
    "department": "Management", "status": "active", "employment_type": "full_time", "country": "KW",
    "entity_id": "ent_8sQw2ZfLk4PnTr6YbVx0Md",
    "branch": {"id": "br_2NcVb8XmQ4kLp7RtZw9Yd1", "name": "Head Office"}, "manager_id": None,
    "contact_email": "fahad.almutairi@kw-sandbox.example.com", "contact_phone": "+96551234567",
    "hire_date": "2021-03-14", "termination_date": None,
    "created_at": "2026-11-21T09:00:00Z", "updated_at": "2026-11-21T09:00:00Z",
}


class BranchSchema(OpenSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)


class EmployeeSchema(OpenSchema):
    id = fields.String(required=True)
    staff_number = fields.String(required=True)
    name = fields.Nested(LocalizedNameSchema, required=True)
    job_title = fields.String(allow_none=True, required=True)
    department = fields.String(allow_none=True, required=True)
    status = fields.String(required=True, metadata={
        "description": "`active`, `on_leave`, `suspended` or `left`. Tolerate unknown values.",
        "example": "active"})
    employment_type = fields.String(required=True, metadata={
        "description": "`full_time`, `part_time` or `contract`. Tolerate unknown values."})
    country = fields.String(required=True)
    entity_id = fields.String(required=True)
    branch = fields.Nested(BranchSchema, allow_none=True, required=True)
    manager_id = fields.String(allow_none=True, required=True)
    contact_email = fields.String(allow_none=True, required=True)
    contact_phone = fields.String(allow_none=True, required=True, metadata={"description": "E.164."})
    hire_date = fields.Date(required=True)
    termination_date = fields.Date(allow_none=True, required=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


EmployeePageSchema = page_schema(EmployeeSchema, "EmployeePage")


class EmployeeQueryArgsSchema(PageArgsSchema):
    status = fields.String(validate=validate.OneOf(STATUS_FILTERS), metadata={
        "description": "`active` (every status but `left`) or `left`. Omit for both."})
    entity_id = fields.String(metadata={"description": "Only employees of this legal entity."})
    updated_since = Rfc3339(metadata=UPDATED_SINCE)


@blp.route("")
class Employees(MethodView):
    @operation(blp, "listEmployees", release="v1.0", scope="employees:read", errors=(400, 401, 403, 429))
    @blp.arguments(EmployeeQueryArgsSchema, location="query", error_status_code=400)
    @blp.response(200, EmployeePageSchema,
                  example={"data": [EXAMPLE], "next_cursor": None})
    def get(self, args: dict[str, Any]) -> Response:
        """List employees, oldest first"""
        company_id = current_company().id
        since = args.get("updated_since")
        query = fingerprint("employees", company_id, args.get("status"), args.get("entity_id"),
                            since and since.isoformat())
        found = list_employees(company_id, status=args.get("status"), entity_id=args.get("entity_id"),
                               updated_since=since, after=after_of(args, query), limit=args["limit"])
        return json_response(page_body(found, query, employee_form))


@blp.route("/<employee_id>")
class EmployeeById(MethodView):
    @operation(blp, "getEmployee", release="v1.0", scope="employees:read", errors=(401, 403, 404, 429))
    @blp.response(200, EmployeeSchema, example=EXAMPLE)
    def get(self, employee_id: str) -> Response:
        """Read one employee"""
        return json_response(employee_form(get_employee(current_company().id, employee_id)))
