"""Webhook endpoints and their delivery logs (v1.2, scope `webhooks:manage`).

An endpoint belongs to the credential that created it: another key of the same company
neither lists it nor finds it (404). URLs are judged by the addresses they resolve to
(app/domain/webhooks/urls.py) at create and at change, and again at every delivery.
"""

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from flask import Response
from flask.views import MethodView
from marshmallow import fields, validate

from app.api import ApiBlueprint, empty_response, json_response
from app.api.auth import additions_live, current_principal, operation
from app.api.event_types import CATALOG
from app.api.schemas import OpenSchema, Rfc3339, StrictSchema
from app.domain.kernel.clock import format_utc
from app.domain.webhooks import delivery_log, endpoints
from app.domain.webhooks.urls import MAX_URL_LENGTH, Target, check_url
from app.extensions import runtime, webhook_sender
from app.models import WebhookEndpoint
from config import ADDITIONS

blp = ApiBlueprint("webhooks", __name__, url_prefix="/v1/webhooks",
                description="Register endpoints for events, test them, and read what was delivered.")

ENDPOINT_EXAMPLE = {
    "id": "whk_3kQ8mZr2LpX7vNc4TbW9yD", "url": "https://erp.example.com/hooks/svc",
    "events": ["employee.created", "employee.updated", "employee.left"], "active": True, "disabled_reason": None,
    "rate_limit": None,
    "created_at": "2026-11-21T09:00:00Z", "updated_at": "2026-11-21T09:00:00Z",
}
DELIVERY_EXAMPLE = {
    "id": "whd_7Hs2kLq9ZxW4mN8cVb3RtP", "event_id": "evt_2mXc8QkL5vRz9TnB4wYh7D", "event_type": "employee.created",
    "status": "failed", "attempt": 1, "sent_at": "2026-11-21T09:00:01Z",
    "request_body": '{"id":"evt_2mXc8QkL5vRz9TnB4wYh7D","type":"employee.created","...":"..."}',
    "response_status": 503, "response_body": "upstream unavailable", "duration_ms": 84,
    "next_retry_at": "2026-11-21T09:01:01Z",
}
EVENTS_TEXT = (f"Event types: {', '.join(endpoints.SUBSCRIBABLE)}. The test operation sends its `ping` whether or "
               "not `ping` is listed. Beyond the contract (v1.3): `[\"*\"]` alone subscribes to every type the "
               "company's events have, now and later, but `ping`; a type a scope gates (`leave.*`: `leave:read`) "
               "only while the owning credential holds that scope.")
# The values v1.3 brought to the event type enum (the others are the contract's).
ENUM_RELEASES = {endpoints.EVERY_TYPE: ADDITIONS, **{event_type: release for event_type, (_, release, _) in
                                                      CATALOG.items() if release == ADDITIONS}}
REASON_TEXT = ("Null while active; `delivery_failures` (7 days of failures), `key_revoked` (the owning key was "
               "revoked), `connection_revoked` (the owning OAuth connection ended: the customer revoked the app, "
               "or its tokens were revoked), `manual` (PATCH `active: false`), or beyond the contract (v1.3) "
               "`endpoint_gone` (the receiver answered 410 Gone). Tolerate unknown values.")


class StrictInteger(fields.Integer):
    """A JSON integer only: marshmallow's Integer also takes "60", and `true` as 1."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.make_error("invalid", input=value)
        return value


RATE_LIMIT_TEXT = (f"Beyond the contract (v1.3): at most this many deliveries a second to this endpoint, "
                   f"1 to {endpoints.RATE_LIMIT_MAX}, held across every worker; null for none. A delivery waiting "
                   f"for its turn is not a failure: it is neither retried early nor counted toward disabling.")


def _rate_limit(description: str) -> StrictInteger:
    return StrictInteger(
        allow_none=True, validate=validate.Range(min=1, max=endpoints.RATE_LIMIT_MAX,
                                                 error=f"1 to {endpoints.RATE_LIMIT_MAX}, or null for none"),
        error_messages={"invalid": "a whole number of deliveries a second, or null"},
        metadata={"x-release": ADDITIONS, "description": description, "example": 50})


class WebhookEndpointSchema(OpenSchema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True, metadata={"description": EVENTS_TEXT})
    active = fields.Boolean(required=True)
    disabled_reason = fields.String(allow_none=True, required=True, metadata={"description": REASON_TEXT})
    rate_limit = fields.Integer(allow_none=True, metadata={"x-release": ADDITIONS, "description": RATE_LIMIT_TEXT})
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class CreatedWebhookEndpointSchema(WebhookEndpointSchema):
    secret = fields.String(required=True, metadata={
        "description": "`whsec_...`: the signing secret, shown in this response only. Keep it. Beyond the "
                       "contract (v1.3) it is `whsec_` and standard base64, so Standard Webhooks libraries "
                       "verify the `webhook-signature` header with it as shown."})


class RotatedWebhookEndpointSchema(CreatedWebhookEndpointSchema):
    previous_secret_expires_at = fields.DateTime(allow_none=True, required=True, metadata={
        "description": "Until when the secret this rotation replaced still signs every attempt, beside the new "
                       "one; null when it stopped at once (`expire_previous_in: 0`)."})


class WebhookEndpointListSchema(OpenSchema):
    data = fields.List(fields.Nested(WebhookEndpointSchema), required=True)


class WebhookDeliverySchema(OpenSchema):
    id = fields.String(required=True)
    event_id = fields.String(required=True)
    event_type = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "`pending`, `succeeded` or `failed`."})
    attempt = fields.Integer(required=True, metadata={"description": "1 to 7; a redelivery is attempt 1."})
    sent_at = fields.DateTime(allow_none=True, required=True)
    request_body = fields.String(required=True, metadata={"description": "The envelope sent, byte for byte."})
    response_status = fields.Integer(allow_none=True, required=True, metadata={
        "description": "Null when no answer came (timeout, TLS or connection failure)."})
    response_body = fields.String(allow_none=True, required=True, metadata={
        "description": "The first 1 KB of the answer."})
    duration_ms = fields.Integer(allow_none=True, required=True)
    next_retry_at = fields.DateTime(allow_none=True, required=True, metadata={
        "description": "When the next attempt is planned: on a failed attempt that planned it, and on that "
                       "pending attempt until it is sent. Null otherwise."})
    error = fields.String(allow_none=True, metadata={
        "x-release": ADDITIONS,
        "description": "Why no answer was recorded (beyond the contract, v1.3): `refused: ...` (the URL's "
                       "addresses were not deliverable when sending: nothing was sent), `not sent: ...`, "
                       "`timeout: ...`, `TLS: ...`, `HTTP: ...`. Null when the receiver answered or nothing was "
                       "tried yet. Branch on the part before the colon, and tolerate new ones."})


class WebhookDeliveryListSchema(OpenSchema):
    data = fields.List(fields.Nested(WebhookDeliverySchema), required=True)


class StrictBoolean(fields.Boolean):
    """JSON `true` or `false` only: marshmallow's Boolean also takes "yes", 1 or "on"."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _url(description: str, *, required: bool = False) -> fields.String:
    # The lengths are the domain's (urls.check_url judges the rest), stated here so the
    # document says them; the words are the domain's too.
    return fields.String(
        required=required, metadata={"description": description},
        validate=[validate.Length(min=1, error="a URL is required"),
                  validate.Length(max=MAX_URL_LENGTH, error="at most {max} characters")],
        error_messages={"invalid": "must be a URL string", "null": "must be a URL string", "required": "required"})


def _events(*, required: bool = False) -> fields.List[str]:
    return fields.List(
        # Which values, and no repeats, is the domain's rule (endpoints.clean_events), the
        # console's too: every bad item is named in one answer.
        fields.String(metadata={"enum": [*endpoints.SUBSCRIBABLE, endpoints.EVERY_TYPE],
                                "x-enum-releases": ENUM_RELEASES},
                      error_messages={"invalid": "must be an event type, a string"}),
        required=required, validate=validate.Length(min=1, error="a non-empty list of event types"),
        error_messages={"invalid": "must be a list of event types", "null": "must be a list of event types",
                        "required": "required"},
        metadata={"description": EVENTS_TEXT, "uniqueItems": True})


class CreateWebhookEndpointSchema(OpenSchema):
    url = _url("`https://` on a public host, at most 2,048 characters, no user name or password, and no whitespace, "
               "control character (C0, C1) or bidirectional control (U+202A-U+202E, U+2066-U+2069): 422 naming "
               "`url` and the character's code point.", required=True)
    events = _events(required=True)
    rate_limit = _rate_limit(RATE_LIMIT_TEXT + " Left out: none.")


class UpdateWebhookEndpointSchema(OpenSchema):
    url = _url("As at create.")
    events = _events()
    active = StrictBoolean(metadata={"description": "`true` re-enables a disabled endpoint."},
                           error_messages={"invalid": "true or false", "null": "true or false"})
    rate_limit = _rate_limit(RATE_LIMIT_TEXT + " Left out: unchanged; null removes it.")


class RotateSecretSchema(StrictSchema):
    BODY_OPTIONAL = True  # no body: the defaults

    expire_previous_in = StrictInteger(
        load_default=int(endpoints.ROTATION_OVERLAP.total_seconds()),
        validate=validate.Range(min=0, max=int(endpoints.ROTATION_OVERLAP.total_seconds()),
                                error="0 to {max} seconds"),
        error_messages={"invalid": "a whole number of seconds", "null": "a whole number of seconds"},
        metadata={"description": "Seconds the replaced secret keeps signing beside the new one (both `v1` values, "
                                 "newest first): 0 to 86400, 86400 if left out. 0 stops it at once. A secret "
                                 "replaced before, still in its overlap, stops now."})


class ReplaySchema(StrictSchema):
    since = Rfc3339(required=True, metadata={
        "type": "string", "format": "date-time",
        "description": f"Send again the events of the endpoint's types created since this time and since the "
                       f"endpoint was created (at most {delivery_log.REPLAY_DAYS} days back)."},
        error_messages={"required": "required", "null": "an RFC 3339 time with its offset"})
    status = fields.String(validate=validate.OneOf(["failed"], error="`failed`, or leave it out"), metadata={
        "description": "`failed`: only the events whose latest delivery to this endpoint did not succeed "
                       "(it failed, or waits for a retry)."})


class ReplayQueuedSchema(OpenSchema):
    queued = fields.Integer(required=True, metadata={
        "description": "How many events will be sent now: one delivery each. An event already waiting for "
                       "this endpoint is not queued twice (a planned retry is brought forward to now; one "
                       "due or being sent is left), so a second replay right after the first queues 0."})


class DeliveryArgsSchema(OpenSchema):
    status = fields.String(validate=validate.OneOf(delivery_log.STATUSES), metadata={
        "description": "Only deliveries in this state."})


def _mine() -> endpoints.Query:
    """The calling credential's endpoints: no other exists for it."""
    return endpoints.owned_by(current_principal())


def _endpoint(webhook_id: str) -> WebhookEndpoint:
    return endpoints.get_endpoint(_mine(), webhook_id)


def _form(endpoint: WebhookEndpoint) -> dict[str, Any]:
    """An endpoint as this server sends it: v1.3's `rate_limit` only while v1.3 is live."""
    form = endpoints.form(endpoint)
    return form if additions_live() else {k: v for k, v in form.items() if k != "rate_limit"}


def _paced(body: dict[str, Any]) -> object:
    """The pace a create or update asks for, while v1.3 is live (otherwise the field is
    one the contract does not know, and is ignored like any other)."""
    return body["rate_limit"] if additions_live() and "rate_limit" in body else endpoints.UNCHANGED


def _delivery(form: dict[str, Any]) -> dict[str, Any]:
    """A delivery as this server sends it: v1.3's `error` only while v1.3 is live."""
    return form if additions_live() else {k: v for k, v in form.items() if k != "error"}


def _target(url: str) -> Target:
    sender = webhook_sender()
    return check_url(url, sender.resolver, sender.allowed)


@blp.route("")
class WebhookEndpoints(MethodView):
    @operation(blp, "listWebhookEndpoints", release="v1.2", scope="webhooks:manage")
    @blp.response(200, WebhookEndpointListSchema, example={"data": [ENDPOINT_EXAMPLE]})
    def get(self) -> Response:
        """List this credential's webhook endpoints"""
        return json_response({"data": [_form(e) for e in endpoints.list_endpoints(_mine())]})

    @operation(blp, "createWebhookEndpoint", release="v1.2", scope="webhooks:manage",
               errors=(400, 401, 403, 413, 422, 429))
    @blp.arguments(CreateWebhookEndpointSchema,
                   example={"url": ENDPOINT_EXAMPLE["url"], "events": ENDPOINT_EXAMPLE["events"]})
    @blp.response(201, CreatedWebhookEndpointSchema, example={**ENDPOINT_EXAMPLE, "secret": "whsec_..."})
    def post(self, body: dict[str, Any]) -> Response:
        """Register an endpoint; the signing secret is in this response only"""
        paced = _paced(body)
        endpoint, secret = endpoints.create_endpoint(current_principal(), _target(body["url"]), body["events"],
                                                     runtime(), rate_limit=None if paced is endpoints.UNCHANGED
                                                     else paced)
        return json_response({**_form(endpoint), "secret": secret}, status=201)


@blp.route("/<webhook_id>")
class WebhookEndpointById(MethodView):
    @operation(blp, "getWebhookEndpoint", release="v1.2", scope="webhooks:manage", errors=(401, 403, 404, 429))
    @blp.response(200, WebhookEndpointSchema, example=ENDPOINT_EXAMPLE)
    def get(self, webhook_id: str) -> Response:
        """Read one webhook endpoint"""
        return json_response(_form(_endpoint(webhook_id)))

    @operation(blp, "updateWebhookEndpoint", release="v1.2", scope="webhooks:manage",
               errors=(400, 401, 403, 404, 413, 422, 429))
    @blp.arguments(UpdateWebhookEndpointSchema, example={"active": True})
    @blp.response(200, WebhookEndpointSchema, example=ENDPOINT_EXAMPLE)
    def patch(self, body: dict[str, Any], webhook_id: str) -> Response:
        """Change the URL, the events, or re-enable (`active: true`)"""
        scope = _mine()
        endpoints.get_endpoint(scope, webhook_id)  # 404 before the URL is judged (a DNS lookup)
        target = _target(body["url"]) if "url" in body else None
        updated = endpoints.update_endpoint(scope, webhook_id, runtime(), target=target,
                                            chosen=body.get("events"), active=body.get("active"),
                                            rate_limit=_paced(body))
        return json_response(_form(updated))

    @operation(blp, "deleteWebhookEndpoint", release="v1.2", scope="webhooks:manage", errors=(401, 403, 404, 429))
    @blp.response(204, description="Removed; its pending deliveries are cancelled.")
    def delete(self, webhook_id: str) -> Response:
        """Remove an endpoint"""
        endpoints.delete_endpoint(_mine(), webhook_id)
        return empty_response(204)


@blp.route("/<webhook_id>/test")
class WebhookTest(MethodView):
    @operation(blp, "sendTestWebhook", release="v1.2", scope="webhooks:manage", errors=(401, 403, 404, 429))
    @blp.response(202, description="A `ping` event (data `{webhook_id}`) is queued for immediate delivery.")
    def post(self, webhook_id: str) -> Response:
        """Send a `ping` to this endpoint"""
        endpoints.send_test(_endpoint(webhook_id), runtime())
        return empty_response(202)


@blp.route("/<webhook_id>/rotate-secret")
class WebhookRotateSecret(MethodView):
    @operation(blp, "rotateWebhookSecret", release=ADDITIONS, scope="webhooks:manage",
               errors=(400, 401, 403, 404, 413, 422, 429))
    @blp.arguments(RotateSecretSchema, required=False, example={"expire_previous_in": 3600})
    @blp.response(200, RotatedWebhookEndpointSchema, example={
        **ENDPOINT_EXAMPLE, "secret": "whsec_...", "previous_secret_expires_at": "2026-11-22T09:00:00Z"})
    def post(self, body: dict[str, Any], webhook_id: str) -> Response:
        """A new signing secret, shown in this response only; the one it replaces keeps signing beside it
        until `previous_secret_expires_at` (beyond the contract, v1.3)"""
        current = runtime()
        endpoint, secret = endpoints.rotate_secret(
            _mine(), webhook_id, current, expire_previous_in=timedelta(seconds=body["expire_previous_in"]))
        until = endpoints.previous_secret_until(endpoint, current.now())
        return json_response({**_form(endpoint), "secret": secret,
                              "previous_secret_expires_at": format_utc(until)})


@blp.route("/<webhook_id>/deliveries")
class WebhookDeliveries(MethodView):
    @operation(blp, "listWebhookDeliveries", release="v1.2", scope="webhooks:manage",
               errors=(400, 401, 403, 404, 429))
    @blp.arguments(DeliveryArgsSchema, location="query", error_status_code=400)
    @blp.response(200, WebhookDeliveryListSchema, example={"data": [DELIVERY_EXAMPLE]})
    def get(self, args: dict[str, Any], webhook_id: str) -> Response:
        """The delivery log: newest first, at most 100, the last 30 days"""
        endpoint = _endpoint(webhook_id)
        return json_response({"data": [_delivery(d) for d in delivery_log.log(endpoint, args.get("status"))]})


@blp.route("/<webhook_id>/replay")
class WebhookReplay(MethodView):
    @operation(blp, "replayWebhookEvents", release=ADDITIONS, scope="webhooks:manage",
               errors=(400, 401, 403, 404, 409, 413, 422, 429))
    @blp.arguments(ReplaySchema, example={"since": "2026-11-20T00:00:00Z", "status": "failed"})
    @blp.response(202, ReplayQueuedSchema, example={"queued": 12})
    def post(self, body: dict[str, Any], webhook_id: str) -> Response:
        """Send again what this endpoint missed since a time: same event ids and bodies, new signatures
        (beyond the contract, v1.3)"""
        endpoint = _endpoint(webhook_id)
        created = delivery_log.replay(endpoint.id, body["since"], runtime(), only_failed=body.get("status") == "failed")
        return json_response({"queued": len(created)}, status=202)


@blp.route("/<webhook_id>/deliveries/<delivery_id>/redeliver")
class WebhookRedeliver(MethodView):
    @operation(blp, "redeliverWebhook", release="v1.2", scope="webhooks:manage",
               errors=(401, 403, 404, 409, 429))
    @blp.response(202, WebhookDeliverySchema, example={**DELIVERY_EXAMPLE, "status": "pending", "sent_at": None,
                                                       "response_status": None, "response_body": None,
                                                       "duration_ms": None, "next_retry_at": None})
    def post(self, webhook_id: str, delivery_id: str) -> Response:
        """Send a logged delivery's event again: same id and body, fresh signature"""
        endpoint = _endpoint(webhook_id)
        return json_response(_delivery(delivery_log.redeliver(endpoint, delivery_id, runtime())), status=202)
