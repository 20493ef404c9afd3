"""rotateWebhookSecret (beyond the contract, v1.3): a new secret without downtime. The one
it replaces keeps signing beside it, newest first, in both header forms, until it
expires; a second rotation during an overlap ends the oldest."""

import hashlib
import hmac
from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks import Webhook

from app.domain.kernel.clock import format_utc
from app.domain.webhooks.signing import verify
from app.jobs.webhooks import prune_deliveries
from app.models import WebhookEndpoint
from tests.conftest import bearer
from tests.helpers import assert_problem, create_webhook, deliver_all

DAY = 86400


def rotate(client, headers, webhook_id, body=None, **kwargs):
    return client.post(f"/v1/webhooks/{webhook_id}/rotate-secret", headers=headers, json=body, **kwargs)


def ping(app, client, headers, receiver, webhook_id):
    """The headers and body of one ping, sent now."""
    before = len(receiver.requests)
    assert client.post(f"/v1/webhooks/{webhook_id}/test", headers=headers).status_code == 202
    deliver_all(app)
    [sent] = receiver.requests[before:]
    return sent["headers"], sent["body"]


def contract_values(header_value):
    """The `v1` values of X-SVC-Signature, in order."""
    return [part.split("=", 1)[1] for part in header_value.split(",") if part.startswith("v1=")]


def hex_mac(secret, timestamp, body):
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def signed_with(sent_headers, body, *secrets):
    """Whether the attempt is signed with exactly these secrets, in this order, in both
    header forms (the Standard Webhooks values as that package computes them)."""
    timestamp = int(sent_headers["webhook-timestamp"])
    moment = datetime.fromtimestamp(timestamp, UTC)
    standard = [Webhook(secret).sign(sent_headers["webhook-id"], moment, body.decode()) for secret in secrets]
    return (contract_values(sent_headers["X-SVC-Signature"]) == [hex_mac(s, timestamp, body) for s in secrets]
            and sent_headers["webhook-signature"].split(" ") == standard)


@pytest.fixture
def endpoint(client, headers, loopback, receiver):
    return create_webhook(client, headers, receiver.url).get_json()


def test_both_secrets_sign_newest_first_until_the_old_one_expires(app, client, headers, receiver, endpoint, clock):
    old = endpoint["secret"]
    answer = rotate(client, headers, endpoint["id"])
    assert answer.status_code == 200
    rotated = answer.get_json()
    new = rotated["secret"]
    assert new.startswith("whsec_") and new != old
    assert rotated["previous_secret_expires_at"] == format_utc(clock.now() + timedelta(seconds=DAY))
    assert {k: v for k, v in rotated.items() if k not in ("secret", "previous_secret_expires_at", "updated_at")} \
        == {k: v for k, v in endpoint.items() if k not in ("secret", "updated_at")}
    assert "secret" not in client.get(f"/v1/webhooks/{endpoint['id']}", headers=headers).get_json()

    sent, body = ping(app, client, headers, receiver, endpoint["id"])
    assert signed_with(sent, body, new, old)
    now = int(clock.now().timestamp())
    assert verify([old], sent["X-SVC-Signature"], body, now) and verify([new], sent["X-SVC-Signature"], body, now)

    clock.advance(seconds=DAY - 1)
    sent, body = ping(app, client, headers, receiver, endpoint["id"])
    assert signed_with(sent, body, new, old)
    clock.advance(seconds=1)  # the overlap is over
    sent, body = ping(app, client, headers, receiver, endpoint["id"])
    assert signed_with(sent, body, new)
    assert not verify([old], sent["X-SVC-Signature"], body, int(clock.now().timestamp()))


def test_expire_previous_in_0_ends_the_old_secret_at_once(app, client, headers, receiver, endpoint):
    answer = rotate(client, headers, endpoint["id"], {"expire_previous_in": 0})
    assert answer.status_code == 200 and answer.get_json()["previous_secret_expires_at"] is None
    sent, body = ping(app, client, headers, receiver, endpoint["id"])
    assert signed_with(sent, body, answer.get_json()["secret"])


def test_a_short_overlap_ends_when_asked(app, client, headers, receiver, endpoint, clock):
    new = rotate(client, headers, endpoint["id"], {"expire_previous_in": 60}).get_json()
    assert new["previous_secret_expires_at"] == format_utc(clock.now() + timedelta(seconds=60))
    clock.advance(seconds=59)
    assert signed_with(*ping(app, client, headers, receiver, endpoint["id"]), new["secret"], endpoint["secret"])
    clock.advance(seconds=1)
    assert signed_with(*ping(app, client, headers, receiver, endpoint["id"]), new["secret"])


def test_a_second_rotation_during_an_overlap_ends_the_oldest(app, client, headers, receiver, endpoint, clock):
    first = rotate(client, headers, endpoint["id"]).get_json()["secret"]
    clock.advance(hours=1)
    second = rotate(client, headers, endpoint["id"]).get_json()
    assert second["previous_secret_expires_at"] == format_utc(clock.now() + timedelta(seconds=DAY))
    assert signed_with(*ping(app, client, headers, receiver, endpoint["id"]), second["secret"], first)


def test_no_body_or_an_empty_object_is_the_default_overlap(client, headers, endpoint, clock):
    until = format_utc(clock.now() + timedelta(seconds=DAY))
    no_body = client.post(f"/v1/webhooks/{endpoint['id']}/rotate-secret", headers=headers)
    assert no_body.status_code == 200 and no_body.get_json()["previous_secret_expires_at"] == until
    assert rotate(client, headers, endpoint["id"], {}).get_json()["previous_secret_expires_at"] == until


@pytest.mark.parametrize("value", [-1, DAY + 1, "60", 1.5, True, None, [60]])
def test_a_bad_overlap_is_422_naming_it_and_changes_nothing(client, headers, endpoint, value):
    before = WebhookEndpoint.get_by_id(endpoint["id"])
    answer = rotate(client, headers, endpoint["id"], {"expire_previous_in": value})
    assert_problem(answer, 422, "validation_failed")
    assert [e["path"] for e in answer.get_json()["errors"]] == ["expire_previous_in"]
    after = WebhookEndpoint.get_by_id(endpoint["id"])
    assert (after.secret_sealed, after.previous_secret_sealed) == (before.secret_sealed, None)


@pytest.mark.parametrize("body, named", [({"expire_previous": 0}, ["expire_previous"]),
                                         ({"expire_previous_in": 0, "Expire_Previous_In": 0}, ["Expire_Previous_In"]),
                                         ({"expire_previous_in": 60, "x": 1, "y": 2}, ["x", "y"])])
def test_a_misspelt_field_is_422_naming_it_and_the_old_secret_is_not_kept(client, headers, endpoint, body, named):
    """The body of an operation this service adds is strict: `expire_previous` (for
    `expire_previous_in`) once kept the old secret signing for a day, unasked."""
    before = WebhookEndpoint.get_by_id(endpoint["id"]).secret_sealed
    answer = rotate(client, headers, endpoint["id"], body)
    assert_problem(answer, 422, "validation_failed")
    assert sorted(e["path"] for e in answer.get_json()["errors"]) == named
    assert all("unknown field" in e["message"].lower() for e in answer.get_json()["errors"])
    assert WebhookEndpoint.get_by_id(endpoint["id"]).secret_sealed == before


@pytest.mark.parametrize("raw", [b"{", b"[]", b'"x"', b" "])
def test_a_body_that_is_not_a_json_object_is_refused_and_changes_nothing(client, headers, endpoint, raw):
    before = WebhookEndpoint.get_by_id(endpoint["id"]).secret_sealed
    answer = client.post(f"/v1/webhooks/{endpoint['id']}/rotate-secret", headers=headers, data=raw,
                         content_type="application/json")
    assert answer.status_code in (400, 422) and answer.mimetype == "application/problem+json"
    assert WebhookEndpoint.get_by_id(endpoint["id"]).secret_sealed == before


def test_another_credentials_endpoint_or_a_made_up_one_is_404_and_unchanged(client, headers, sandbox, make_key,
                                                                             endpoint):
    before = WebhookEndpoint.get_by_id(endpoint["id"]).secret_sealed
    other = bearer(make_key(sandbox))
    assert_problem(rotate(client, other, endpoint["id"]), 404, "not_found")
    assert_problem(rotate(client, headers, "whk_madeup"), 404, "not_found")
    assert WebhookEndpoint.get_by_id(endpoint["id"]).secret_sealed == before
    reader = bearer(make_key(sandbox, ["employees:read"]))
    assert_problem(rotate(client, reader, endpoint["id"]), 403, "insufficient_scope")


def test_a_disabled_endpoint_may_roll_its_secret_before_it_is_re_enabled(app, client, headers, receiver, endpoint):
    client.patch(f"/v1/webhooks/{endpoint['id']}", headers=headers, json={"active": False})
    new = rotate(client, headers, endpoint["id"], {"expire_previous_in": 0}).get_json()
    assert new["active"] is False and new["disabled_reason"] == "manual"
    assert signed_with(*ping(app, client, headers, receiver, endpoint["id"]), new["secret"])  # a ping still goes


def test_the_daily_prune_forgets_replaced_secrets_past_their_overlap(app, client, headers, endpoint, clock):
    rotate(client, headers, endpoint["id"], {"expire_previous_in": 60})
    with app.app_context():
        prune_deliveries()
    assert WebhookEndpoint.get_by_id(endpoint["id"]).previous_secret_sealed is not None
    clock.advance(seconds=60)
    with app.app_context():
        prune_deliveries()
    row = WebhookEndpoint.get_by_id(endpoint["id"])
    assert (row.previous_secret_sealed, row.previous_secret_expires_at) == (None, None)


def test_it_is_v1_3_documented_and_answers_only_while_v1_3_is_live(app, client, headers, endpoint, monkeypatch,
                                                                   live_releases):
    document = client.get("/v1/openapi.json").get_json()
    operation = document["paths"]["/v1/webhooks/{webhook_id}/rotate-secret"]["post"]
    assert operation["operationId"] == "rotateWebhookSecret" and operation["x-release"] == "v1.3"
    assert operation["requestBody"].get("required") is not True
    assert set(operation["responses"]) >= {"200", "400", "401", "403", "404", "422", "429"}
    live_releases(["v1.0", "v1.1", "v1.2"])
    assert_problem(rotate(client, headers, endpoint["id"]), 404, "not_found")
    monkeypatch.setitem(app.config, "LIVE_OPERATIONS", ["rotateWebhookSecret"])
    assert rotate(client, headers, endpoint["id"]).status_code == 200
