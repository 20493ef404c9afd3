"""Schemathesis against `/oauth/token` and `/oauth/revoke`, described here in OpenAPI
(they are not partner operations, so the partner document leaves them out): generated
valid and invalid form bodies, with every check but `positive_data_acceptance` (a
well-formed code or token still names nothing). Every answer is RFC 6749 JSON, never a
server error. Runs on both databases."""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode, checks
from schemathesis.specs.openapi.checks import positive_data_acceptance

from app.domain.oauth import apps

checks.load_all_checks()
EXAMPLES = 60
TEXT = {"type": "string"}
ERROR = {"description": "RFC 6749, 5.2", "content": {"application/json": {"schema": {
    "type": "object", "required": ["error", "error_description"],
    "properties": {"error": {"type": "string", "enum": [
        "invalid_request", "invalid_client", "invalid_grant", "invalid_scope", "unauthorized_client",
        "unsupported_grant_type", "server_error"]}, "error_description": TEXT}}}}}
TOKENS = {"description": "Tokens", "content": {"application/json": {"schema": {
    "type": "object", "required": ["access_token", "token_type", "expires_in", "refresh_token", "scope"],
    "properties": {"access_token": TEXT, "token_type": {"enum": ["Bearer"]}, "expires_in": {"type": "integer"},
                   "refresh_token": TEXT, "scope": TEXT}}}}}
SECURITY_SCHEMES = {"basic": {"type": "http", "scheme": "basic"}}  # described; the form carries the secret here


def form(properties, required):
    return {"required": True, "content": {"application/x-www-form-urlencoded": {"schema": {
        "type": "object", "properties": properties, "required": required}}}}


def document(client_id, client_secret):
    """The two endpoints; valid requests carry a real client's credentials, so that they
    reach the grants (negative ones break them too)."""
    client = {"client_id": {"type": "string", "enum": [client_id]},
              "client_secret": {"type": "string", "enum": [client_secret]}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "OAuth endpoints (preview)", "version": "1"},
        "components": {"securitySchemes": SECURITY_SCHEMES},
        "paths": {
            "/oauth/token": {"post": {
                "operationId": "oauthToken",
                "requestBody": form({
                    "grant_type": {"type": "string", "enum": ["authorization_code", "refresh_token"]},
                    "code": TEXT, "redirect_uri": TEXT, "code_verifier": TEXT, "refresh_token": TEXT,
                    "scope": TEXT, **client}, ["grant_type", "client_id", "client_secret"]),
                "responses": {"200": TOKENS, "400": ERROR, "401": ERROR, "413": ERROR}}},
            "/oauth/revoke": {"post": {
                "operationId": "oauthRevoke",
                "requestBody": form({"token": TEXT, "token_type_hint": TEXT, **client},
                                    ["token", "client_id", "client_secret"]),
                "responses": {"200": {"description": "Revoked, or nothing to revoke",
                                      "content": {"application/json": {"schema": {"type": "object"}}}},
                              "400": ERROR, "401": ERROR, "413": ERROR}}},
        },
    }


@pytest.fixture
def operations(app, transaction, sandbox, clock):
    made, secret = apps.create_app(sandbox, "Generated", ["https://partner.example/cb"], ["employees:read"], clock)
    schema = schemathesis.openapi.from_dict(document(made.id, secret))
    schema.app = app
    return {result.ok().definition.raw["operationId"]: result.ok() for result in schema.get_all_operations()}


@pytest.mark.parametrize("mode", list(GenerationMode), ids=lambda mode: mode.value)
@pytest.mark.parametrize("operation_id", ["oauthToken", "oauthRevoke"])
def test_the_oauth_endpoints_hold_under_generated_forms(operations, operation_id, mode):
    used = [check for check in checks.CHECKS.get_all() if check is not positive_data_acceptance]

    @given(case=operations[operation_id].as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def holds(case):
        response = case.call_and_validate(checks=used)
        assert response.status_code < 500 and response.headers["content-type"] == ["application/json"]
        assert response.headers["cache-control"] == ["no-store"]

    holds()
