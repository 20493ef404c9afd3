"""An endpoint subscribed to `["*"]` (issue 51 part 3, v1.3): every type the company's
events have, now and later, but `ping`; a type a scope gates (leave) only while the
owning credential holds that scope; `*` stands alone; refused while v1.3 is not live.
Deliveries to a real receiver on loopback."""

import json
from datetime import date

from app.domain.leave import requests as leave_requests
from app.domain.people import actions as hr
from app.domain.webhooks import endpoints
from app.models import ApiKey, WebhookEndpoint
from tests.conftest import bearer
from tests.helpers import assert_problem, create_webhook, deliver_all, staff

WITHOUT_LEAVE = ["employees:read", "payroll:read", "webhooks:manage"]


def delivered_types(receiver):
    return [json.loads(request["body"])["type"] for request in receiver.requests]


def make_things_happen(app, client, headers, sandbox, runtime, webhook_id):
    person = staff(sandbox)
    hr.update_employee(sandbox.id, person.id, {"job_title": "Auditor"}, runtime)
    day = date(2026, 11, 23)
    leave_requests.request_leave(sandbox.id, person.id, "annual", day, day, "hr", runtime, approve=True)
    client.post(f"/v1/webhooks/{webhook_id}/test", headers=headers)  # its ping is sent, subscribed or not
    deliver_all(app)


def test_every_type_is_delivered_with_leave_only_to_a_credential_that_reads_it(app, client, sandbox, make_key,
                                                                               loopback, receiver, runtime):
    everything = bearer(make_key(sandbox))
    endpoint = create_webhook(client, everything, receiver.url, ["*"])
    assert endpoint.status_code == 201 and endpoint.get_json()["events"] == ["*"]
    make_things_happen(app, client, everything, sandbox, runtime, endpoint.get_json()["id"])
    assert sorted(delivered_types(receiver)) == ["employee.updated", "leave.approved", "ping"]
    assert client.get(f"/v1/webhooks/{endpoint.get_json()['id']}", headers=everything).get_json()["events"] == ["*"]


def test_without_leave_read_every_type_but_leave(app, client, sandbox, make_key, loopback, receiver, runtime):
    no_leave = bearer(make_key(sandbox, scopes=WITHOUT_LEAVE))
    endpoint = create_webhook(client, no_leave, receiver.url, ["*"]).get_json()
    make_things_happen(app, client, no_leave, sandbox, runtime, endpoint["id"])
    assert sorted(delivered_types(receiver)) == ["employee.updated", "ping"]


def test_what_it_receives_follows_the_owners_scopes_and_every_type_there_is(sandbox, make_key, client, loopback,
                                                                           receiver):
    key = make_key(sandbox)
    made = create_webhook(client, bearer(key), receiver.url, ["*"]).get_json()
    row = WebhookEndpoint.get_by_id(made["id"])
    received = endpoints.types_received(row.events, row.credential_kind, row.credential_id)
    assert received == set(endpoints.SUBSCRIBABLE) - {"ping"}
    ApiKey.update(scopes=" ".join(WITHOUT_LEAVE)).where(ApiKey.id == row.credential_id).execute()
    assert endpoints.types_received(row.events, row.credential_kind, row.credential_id) == {
        event_type for event_type in received if not event_type.startswith("leave.")}


def test_star_stands_alone_and_needs_v13(client, headers, loopback, receiver, live_releases):
    answer = create_webhook(client, headers, receiver.url, ["*", "employee.created"])
    assert_problem(answer, 422, "validation_failed")
    assert [error["path"] for error in answer.get_json()["errors"]] == ["events[0]"]
    made = create_webhook(client, headers, receiver.url, ["employee.created"]).get_json()
    changed = client.patch(f"/v1/webhooks/{made['id']}", headers=headers, json={"events": ["*"]})
    assert changed.status_code == 200 and changed.get_json()["events"] == ["*"]
    live_releases(["v1.0", "v1.1", "v1.2"])
    answer = create_webhook(client, headers, receiver.url, ["*"])
    assert_problem(answer, 422, "validation_failed")
    assert "unknown event type '*'" in answer.get_json()["errors"][0]["message"]
    assert WebhookEndpoint.select().count() == 1


def test_replay_sends_again_every_type_an_every_event_endpoint_receives(app, client, headers, sandbox, loopback,
                                                                       receiver, runtime, clock):
    made = create_webhook(client, headers, receiver.url, ["*"]).get_json()
    clock.advance(minutes=1)  # past the sandbox's own events
    since = clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    hr.update_employee(sandbox.id, staff(sandbox).id, {"job_title": "Auditor"}, runtime)
    hr.end_employment(sandbox.id, staff(sandbox, "SBX-005").id, sandbox.created_at.date(), runtime)
    deliver_all(app)
    replayed = client.post(f"/v1/webhooks/{made['id']}/replay", headers=headers, json={"since": since})
    assert replayed.status_code == 202 and replayed.get_json()["queued"] == 2
