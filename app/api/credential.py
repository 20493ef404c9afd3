"""Which credential am I (beyond the contract, v1.3): what the caller's own credential is
and may do, for any valid key or OAuth access token. Nothing secret: no token, no hash,
no client secret (app/domain/credentials.py `describe`)."""

from flask import Response
from flask.views import MethodView
from marshmallow import fields

from app.api import ApiBlueprint, json_response
from app.api.auth import current_bearer, current_principal, operation
from app.api.schemas import OpenSchema
from app.domain.credentials import describe
from config import ADDITIONS

blp = ApiBlueprint("credential", __name__, url_prefix="/v1/credential",
                   description="The credential making the request (beyond the contract, v1.3).")

EXAMPLE = {"type": "oauth_access_token", "id": "tok_7Hq2LmXr9TbN3vYc1PdZkA", "name": None,
           "company_id": "cmp_3kTMd9Xq2LrVb7YwPz1NcA", "livemode": False,
           "scopes": ["employees:read", "payroll:read"], "created_at": "2026-11-21T09:00:00Z",
           "last_used_at": "2026-11-21T09:00:05Z", "expires_at": "2026-11-21T10:00:00Z",
           "app": {"client_id": "app_5RtYu8Io2PlKj4HgFd6SaQ", "name": "Ledger Sync"}}


class CredentialAppSchema(OpenSchema):
    client_id = fields.String(required=True)
    name = fields.String(required=True)


class CredentialSchema(OpenSchema):
    type = fields.String(required=True, metadata={
        "description": "`api_key` or `oauth_access_token`. Tolerate unknown values."})
    id = fields.String(required=True, metadata={
        "description": "The key's id, as the console lists it; or the access token's own id."})
    name = fields.String(allow_none=True, required=True, metadata={
        "description": "The key's name, as the company gave it; null for an access token (see `app`)."})
    company_id = fields.String(required=True)
    livemode = fields.Boolean(required=True, metadata={"description": "`false` for a sandbox company's credential."})
    scopes = fields.List(fields.String(), required=True, metadata={"description": "What it may do, sorted."})
    created_at = fields.DateTime(required=True, metadata={
        "description": "When the key was made, or the access token issued."})
    last_used_at = fields.DateTime(allow_none=True, required=True, metadata={
        "description": "The key's (or the connection's) last use, noted at most once a minute: this request may "
                       "not show."})
    expires_at = fields.DateTime(allow_none=True, required=True, metadata={
        "description": "When an access token stops working; null for a key (it works until revoked)."})
    app = fields.Nested(CredentialAppSchema, allow_none=True, required=True, metadata={
        "description": "The OAuth app an access token was issued to; null for a key."})


@blp.route("")
class Credential(MethodView):
    @operation(blp, "getCredential", release=ADDITIONS)
    @blp.response(200, CredentialSchema, example=EXAMPLE)
    def get(self) -> Response:
        """What the caller's own credential is and may do (beyond the contract, v1.3)"""
        return json_response(describe(current_bearer(), current_principal()))
