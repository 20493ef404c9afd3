"""Sandbox events over the API (issue 35 part 4, v1.3): triggerSandboxEvent makes the
event by the console trigger's own HR action and answers 201 with it as the feed has it;
a live key is 403 sandbox_only; an unknown type is 422 naming `type`."""

import pytest

from app.domain.sandbox import TRIGGERS
from app.models import OutboxEvent
from tests.conftest import bearer
from tests.helpers import assert_problem


@pytest.mark.parametrize("event_type", TRIGGERS)
def test_each_type_is_made_and_answered_as_the_feed_has_it(client, headers, sandbox, event_type):
    made = client.post("/v1/sandbox/events", headers=headers, json={"type": event_type})
    assert made.status_code == 201, made.get_data(as_text=True)
    event = made.get_json()
    assert event["type"] == event_type and event["livemode"] is False and event["company_id"] == sandbox.id
    assert made.get_data(as_text=True) == OutboxEvent.get_by_id(event["id"]).payload  # byte for byte
    fed = client.get(f"/v1/events/{event['id']}", headers=headers)
    assert fed.get_data() == made.get_data()


def test_a_live_key_is_sandbox_only_and_nothing_is_made(client, live_company, make_key):
    before = OutboxEvent.select().count()
    answer = client.post("/v1/sandbox/events", headers=bearer(make_key(live_company)),
                         json={"type": "employee.created"})
    assert_problem(answer, 403, "sandbox_only")
    assert OutboxEvent.select().count() == before
    assert "sandbox_only" in client.get("/errors").get_data(as_text=True)


@pytest.mark.parametrize("body, path", [({"type": "ping"}, "type"), ({"type": "employee.hired"}, "type"), ({}, "type"),
                                        ({"type": "employee.created", "typo": 1}, "typo")])
def test_an_unknown_type_or_field_is_422_naming_it(client, headers, body, path):
    answer = client.post("/v1/sandbox/events", headers=headers, json=body)
    assert_problem(answer, 422, "validation_failed")
    assert [e["path"] for e in answer.get_json()["errors"]] == [path]


def test_it_needs_webhooks_manage(client, sandbox, make_key):
    answer = client.post("/v1/sandbox/events", headers=bearer(make_key(sandbox, scopes=["employees:read"])),
                         json={"type": "employee.created"})
    assert_problem(answer, 403, "insufficient_scope")
