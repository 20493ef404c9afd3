"""A receiver's own pace (issue 36 part 3, v1.3): `rate_limit` on an endpoint, set on
create and update, read back, refused when it is not 1 to 10,000 or null (nothing
changes), left out and ignored while v1.3 is not live; the console's form sets it; and
the pace holds across workers through the shared Redis."""

import re
import threading
import time

import pytest

from app.limits import SharedPacer
from app.models import ApiKey, WebhookEndpoint
from tests.api.console import csrf, text
from tests.helpers import assert_problem, create_webhook


def test_set_on_create_changed_and_cleared_on_update_and_read_back(client, headers, loopback, receiver):
    made = client.post("/v1/webhooks", headers=headers,
                       json={"url": receiver.url, "events": ["employee.updated"], "rate_limit": 50})
    assert made.status_code == 201 and made.get_json()["rate_limit"] == 50
    endpoint_id = made.get_json()["id"]
    assert client.get(f"/v1/webhooks/{endpoint_id}", headers=headers).get_json()["rate_limit"] == 50
    assert client.patch(f"/v1/webhooks/{endpoint_id}", headers=headers,
                        json={"events": ["employee.left"]}).get_json()["rate_limit"] == 50  # left out: unchanged
    assert client.patch(f"/v1/webhooks/{endpoint_id}", headers=headers,
                        json={"rate_limit": 10_000}).get_json()["rate_limit"] == 10_000
    cleared = client.patch(f"/v1/webhooks/{endpoint_id}", headers=headers, json={"rate_limit": None})
    assert cleared.get_json()["rate_limit"] is None
    assert create_webhook(client, headers, receiver.url).get_json()["rate_limit"] is None  # none unless asked


@pytest.mark.parametrize("value", [0, -1, 10_001, 1.5, "5", True, [], {}])
def test_anything_but_1_to_10000_or_null_is_422_naming_rate_limit_and_changes_nothing(client, headers, loopback,
                                                                                      receiver, value):
    refused = client.post("/v1/webhooks", headers=headers,
                          json={"url": receiver.url, "events": ["employee.updated"], "rate_limit": value})
    assert_problem(refused, 422, "validation_failed")
    assert [e["path"] for e in refused.get_json()["errors"]] == ["rate_limit"]
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    answer = client.patch(f"/v1/webhooks/{endpoint['id']}", headers=headers,
                          json={"rate_limit": value, "events": ["employee.left"]})
    assert_problem(answer, 422, "validation_failed")
    stored = WebhookEndpoint.get_by_id(endpoint["id"])
    assert stored.rate_limit is None and stored.events == " ".join(endpoint["events"])


def test_while_v1_3_is_not_live_it_is_neither_shown_nor_taken(app, client, headers, loopback, receiver, monkeypatch,
                                                              live_releases):
    live_releases(["v1.0", "v1.1", "v1.2"])
    made = client.post("/v1/webhooks", headers=headers,
                       json={"url": receiver.url, "events": ["employee.updated"], "rate_limit": 5})
    assert made.status_code == 201 and "rate_limit" not in made.get_json()
    assert WebhookEndpoint.get_by_id(made.get_json()["id"]).rate_limit is None
    for unknown in (0, "fast", 10_001):  # a field this server does not know yet: ignored, like any other
        made = client.post("/v1/webhooks", headers=headers,
                           json={"url": receiver.url, "events": ["employee.updated"], "rate_limit": unknown})
        assert made.status_code == 201, made.get_json()
        changed = client.patch(f"/v1/webhooks/{made.get_json()['id']}", headers=headers, json={"rate_limit": unknown})
        assert changed.status_code == 200, changed.get_json()


def test_the_document_marks_it_v1_3(client):
    schemas = client.get("/v1/openapi.json").get_json()["components"]["schemas"]
    for name in ("WebhookEndpoint", "CreateWebhookEndpoint", "UpdateWebhookEndpoint"):
        field = schemas[name]["properties"]["rate_limit"]
        assert field["x-release"] == "v1.3" and field.get("nullable") is True, (name, field)
    assert schemas["CreateWebhookEndpoint"]["properties"]["rate_limit"]["maximum"] == 10_000


def test_the_console_form_sets_the_pace_and_the_page_shows_it(client, admin, live_company, make_key, loopback,
                                                               receiver):
    make_key(live_company, ["webhooks:manage"])
    key_id = ApiKey.select().where(ApiKey.company == live_company.id).order_by(ApiKey.created_at.desc()).first().id
    form = {"url": receiver.url, "events": "employee.updated", "key": key_id, "rate_limit": "25",
            "csrf_token": csrf(client, "/console/webhooks")}
    page = client.post("/console/webhooks", data=form, follow_redirects=True)
    assert page.status_code == 200 and "At most 25 deliveries a second" in text(page)
    refused = client.post("/console/webhooks", data={**form, "rate_limit": "0",
                                                     "csrf_token": csrf(client, "/console/webhooks")})
    assert refused.status_code == 422 and re.search(r"1 to 10,000", text(refused))


def test_the_console_changes_the_pace_of_an_endpoint_and_refuses_a_bad_one_changing_nothing(
        client, admin, live_company, make_key, loopback, receiver):
    make_key(live_company, ["webhooks:manage"])
    key_id = ApiKey.select().where(ApiKey.company == live_company.id).order_by(ApiKey.created_at.desc()).first().id
    client.post("/console/webhooks", data={"url": receiver.url, "events": "employee.updated", "key": key_id,
                                           "csrf_token": csrf(client, "/console/webhooks")})
    made = WebhookEndpoint.get(WebhookEndpoint.company == live_company.id)
    page = f"/console/webhooks/{made.id}"
    changed = client.post(f"{page}/pace", data={"rate_limit": "40", "csrf_token": csrf(client, page)},
                          follow_redirects=True)
    assert changed.status_code == 200 and "At most 40 deliveries a second" in text(changed)
    for bad in ("0", "10001", "fast", "2.5"):
        refused = client.post(f"{page}/pace", data={"rate_limit": bad, "csrf_token": csrf(client, page)})
        assert refused.status_code == 422, bad
        assert WebhookEndpoint.get_by_id(made.id).rate_limit == 40
    cleared = client.post(f"{page}/pace", data={"rate_limit": "", "csrf_token": csrf(client, page)},
                          follow_redirects=True)
    assert "No limit" in text(cleared) and WebhookEndpoint.get_by_id(made.id).rate_limit is None


def test_the_pace_holds_across_workers_sharing_redis(shared_redis):
    """Three workers' pacers on one Redis, asking as fast as they can for two seconds at
    100 a second: together they take a second's burst and then 100 a second, no more."""
    pacers = [SharedPacer(shared_redis) for _ in range(3)]
    key = f"whk_pace_{time.monotonic_ns()}"
    taken, stop = [], time.monotonic() + 2.0

    def work(pacer):
        while time.monotonic() < stop:
            if pacer.wait(key, 100) == 0.0:
                taken.append(time.monotonic())

    threads = [threading.Thread(target=work, args=(pacer,)) for pacer in pacers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert 180 <= len(taken) <= 300 + 10, len(taken)


def test_the_worker_sends_at_the_endpoints_pace_and_waiting_is_not_failing(app, client, headers, sandbox, loopback,
                                                                           receiver, runtime):
    """Six events to an endpoint paced at 2 a second, drained in one round: a second's
    burst (2), then one every half second, waited for in the lane; every delivery
    succeeds on its first attempt."""
    from app.domain.people import actions as hr
    from app.domain.people.employees import roster
    from app.jobs.webhooks import send_deliveries
    from app.models import WebhookDelivery
    from tests.helpers import pending_deliveries

    made = client.post("/v1/webhooks", headers=headers,
                       json={"url": receiver.url, "events": ["employee.updated"], "rate_limit": 2}).get_json()
    for n in range(6):
        hr.update_employee(sandbox.id, roster(sandbox.id)[0].id, {"job_title": f"Paced {n}"}, runtime)
    with app.app_context():
        assert send_deliveries(pending_deliveries(runtime.now())) == 6  # one job, one lane
    arrived = sorted(request["at"] for request in receiver.requests)
    assert len(arrived) == 6
    assert arrived[-1] - arrived[0] >= 1.9  # 4 turns after the burst, half a second apart
    logged = WebhookDelivery.select().where(WebhookDelivery.endpoint == made["id"])
    assert [(d.status, d.attempt) for d in logged] == [("succeeded", 1)] * 6


def test_a_turn_further_off_is_given_back_due_then_and_queued_then_not_slept_on(app, client, headers, sandbox,
                                                                              loopback, receiver, runtime, clock):
    """At 1 a second a second event's turn is a second away: its job gives it back due
    then (pending, attempt 1, no error) and queues it for then, on the app's clock: not
    before, and at once when the clock gets there."""
    from app.domain.people import actions as hr
    from app.domain.people.employees import roster
    from app.models import WebhookDelivery
    from tests.helpers import deliver_all, run_queued_jobs

    made = client.post("/v1/webhooks", headers=headers,
                       json={"url": receiver.url, "events": ["employee.updated"], "rate_limit": 1}).get_json()
    for n in range(2):
        hr.update_employee(sandbox.id, roster(sandbox.id)[0].id, {"job_title": f"Slow {n}"}, runtime)
    began = time.monotonic()
    deliver_all(app)
    assert time.monotonic() - began < 0.5  # nobody slept a second
    assert len(receiver.requests) == 1
    [waiting] = WebhookDelivery.select().where(WebhookDelivery.endpoint == made["id"],
                                               WebhookDelivery.status == "pending")
    assert waiting.attempt == 1 and waiting.error is None
    with app.app_context():  # as the worker command runs its jobs
        clock.advance(seconds=0.5)
        run_queued_jobs(app)
        assert len(receiver.requests) == 1  # not yet its turn
        clock.advance(seconds=1.5)  # past its turn, to the whole second after it (RQ's scheduler keeps whole seconds)
        run_queued_jobs(app)  # the job queued for then runs
    assert len(receiver.requests) == 2
