"""The console's webhook pages: every endpoint of the company with its owning key, the
log, one delivery's request and answer; adding an endpoint for a key, Send test, Redeliver,
Disable, Re-enable, Delete, Roll secret (v1.3)."""

import re
from zoneinfo import ZoneInfo

import pytest

from app.domain import credentials
from app.domain.access import keys
from app.domain.people import actions as hr
from app.domain.webhooks.signing import verify
from app.egress import Sender
from app.models import WebhookEndpoint
from tests.api.console import csrf, member, post, sign_in, text
from tests.conftest import bearer
from tests.helpers import create_webhook, deliver_all
from tests.receivers import Receiver


def test_the_pages_show_endpoints_logs_and_deliveries_and_act_on_them(
        app, client, admin, live_company, sandbox, loopback, runtime, clock):
    secret = keys.create_key(live_company, keys.SCOPES, clock, name="ERP connector")[1]
    with Receiver(body=b'{"received": true}') as receiver:
        endpoint = create_webhook(client, bearer(secret), receiver.url).get_json()
        hr.hire(live_company, {"staff_number": "W-1", "name_en": "Noura Al Ali", "employment_type": "full_time",
                               "hire_date": clock.now().date(), "basic_salary_minor": 800_000}, runtime)
        deliver_all(app)
        listing = text(client.get("/console/webhooks"))
        assert receiver.url in listing and "ERP connector" in listing and "Active" in listing
        page = text(client.get(f"/console/webhooks/{endpoint['id']}"))
        assert "employee.created" in page and "succeeded" in page
        delivery_id = re.search(rf"/console/webhooks/{endpoint['id']}/deliveries/(whd_\w+)", page).group(1)
        detail = text(client.get(f"/console/webhooks/{endpoint['id']}/deliveries/{delivery_id}"))
        assert "Noura Al Ali" in detail and "HTTP 200" in detail and "{&#34;received&#34;: true}" in detail

        tested = post(client, f"/console/webhooks/{endpoint['id']}/test", page=f"/console/webhooks/{endpoint['id']}")
        assert "A ping is on its way" in text(tested)
        again = post(client, f"/console/webhooks/{endpoint['id']}/deliveries/{delivery_id}/redeliver",
                     page=f"/console/webhooks/{endpoint['id']}")
        assert "Sent again" in text(again)
        deliver_all(app)
        assert sorted(r["body"].count(b'"type":"ping"') for r in receiver.requests) == [0, 0, 1]

    key = keys.ApiKey.get(keys.ApiKey.secret_hash == keys.hash_secret(secret))
    credentials.revoke_key(key.id, runtime)
    page = text(client.get(f"/console/webhooks/{endpoint['id']}"))
    assert "key_revoked" in page and "Re-enable" in page
    enabled = post(client, f"/console/webhooks/{endpoint['id']}/enable", page=f"/console/webhooks/{endpoint['id']}")
    assert "Re-enabled" in text(enabled) and WebhookEndpoint.get_by_id(endpoint["id"]).active


def test_an_endpoint_of_every_event_says_so_in_words_and_a_named_type_as_the_api_spells_it(
        client, admin, live_company, loopback, clock):
    secret = keys.create_key(live_company, keys.SCOPES, clock, name="Ledger")[1]
    every = create_webhook(client, bearer(secret), "http://127.0.0.1:9/every", ["*"]).get_json()
    named = create_webhook(client, bearer(secret), "http://127.0.0.1:9/named", ["employee.left"]).get_json()
    listing = text(client.get("/console/webhooks"))
    assert listing.count("every event (*)") == 1 and '<span class="scope" dir="ltr" lang="en">employee.left' in listing
    assert "every event (*)" in text(client.get(f"/console/webhooks/{every['id']}"))
    assert "every event" not in text(client.get(f"/console/webhooks/{named['id']}"))


def test_another_companys_endpoint_is_not_found_and_others_may_not_look(
        app, client, live_company, sandbox, headers, loopback, clock):
    others = create_webhook(client, headers, "https://93.184.215.14/h").get_json()  # the sandbox's, by its key
    officer = member(live_company, "payroll_officer", clock)
    assert sign_in(client, officer.email).status_code == 302
    assert client.get("/console/webhooks").status_code in (302, 403)
    admin_user = member(live_company, "hr_admin", clock, email="admin2@example.com")
    client.get("/console/sign-out")
    sign_in(client, admin_user.email)
    assert client.get(f"/console/webhooks/{others['id']}").status_code == 404


def test_redelivering_another_companys_delivery_is_404_like_a_made_up_id(
        app, client, admin, live_company, sandbox, headers, loopback, clock):
    with Receiver() as receiver:
        theirs = create_webhook(client, headers, receiver.url).get_json()  # the sandbox's, by its key
        assert client.post(f"/v1/webhooks/{theirs['id']}/test", headers=headers).status_code == 202
        deliver_all(app)
        [their_delivery] = client.get(f"/v1/webhooks/{theirs['id']}/deliveries", headers=headers).get_json()["data"]
        secret = keys.create_key(live_company, keys.SCOPES, clock, name="ERP")[1]
        mine = create_webhook(client, bearer(secret), receiver.url).get_json()
        page = f"/console/webhooks/{mine['id']}"
        for delivery_id in (their_delivery["id"], "whd_madeup"):
            answer = client.post(f"{page}/deliveries/{delivery_id}/redeliver",
                                 data={"csrf_token": csrf(client, page)})
            assert answer.status_code == 404, text(answer)[:300]
        deliver_all(app)
        assert len(receiver.requests) == 1  # the ping only: nothing was sent again


def test_an_admin_adds_an_endpoint_for_a_key_and_its_integration_receives_signed_events(
        app, client, admin, live_company, loopback, clock):
    page = text(client.get("/console/webhooks"))
    assert "create one under Integrations" in page  # no key may own an endpoint yet
    secret_key = keys.create_key(live_company, ["webhooks:manage"], clock, name="ERP connector")[1]
    key = keys.ApiKey.get(keys.ApiKey.secret_hash == keys.hash_secret(secret_key))
    with Receiver() as receiver:
        shown = post(client, "/console/webhooks", {"url": receiver.url, "events": ["employee.created", "ping"],
                                                   "key": key.id}, page="/console/webhooks")
        signing_secret = re.search(r'id="new-secret" value="(whsec_[^"]+)"', text(shown)).group(1)
        [listed] = client.get("/v1/webhooks", headers=bearer(secret_key)).get_json()["data"]  # the key's own
        assert listed["url"] == receiver.url and listed["events"] == ["employee.created", "ping"]
        assert signing_secret not in text(client.get(f"/console/webhooks/{listed['id']}"))  # shown once
        assert client.post(f"/v1/webhooks/{listed['id']}/test", headers=bearer(secret_key)).status_code == 202
        deliver_all(app)
        [ping] = receiver.requests
        timestamp = int(ping["headers"]["X-SVC-Signature"].split(",")[0][2:])
        assert verify([signing_secret], ping["headers"]["X-SVC-Signature"], ping["body"], timestamp)


@pytest.mark.parametrize("changes, field_text", [
    ({"url": "https://10.0.0.1/hook"}, "private address"),
    ({"url": "https://93.184.215.14/\x7fx"}, "control characters"),
    ({"events": []}, "Choose at least one event type."),
    ({"key": "key_madeup"}, "an active key of this company with webhooks:manage"),
])
def test_a_refused_endpoint_says_why_on_its_field_and_stores_nothing(client, admin, live_company, clock, changes,
                                                                     field_text):
    key = keys.ApiKey.get_by_id(keys.create_key(live_company, ["webhooks:manage"], clock, name="ERP")[0].id)
    form = {"url": "https://93.184.215.14/hook", "events": ["employee.created"], "key": key.id, **changes}
    answer = client.post("/console/webhooks", data={**form, "csrf_token": csrf(client, "/console/webhooks")})
    assert answer.status_code == 422 and field_text in text(answer)
    assert WebhookEndpoint.select().count() == 0


def test_keys_that_may_not_own_an_endpoint_are_refused(client, admin, live_company, make_sandbox, clock, runtime):
    reader = keys.create_key(live_company, ["employees:read"], clock, name="Reader")[0]
    revoked = keys.create_key(live_company, ["webhooks:manage"], clock, name="Old")[0]
    credentials.revoke_key(revoked.id, runtime)
    theirs = keys.create_key(make_sandbox("QA"), ["webhooks:manage"], clock, name="Theirs")[0]
    keys.create_key(live_company, ["webhooks:manage"], clock, name="Current")
    page = text(client.get("/console/webhooks"))
    assert "Current (" in page and "Reader (" not in page and "Old (" not in page
    for key in (reader, revoked, theirs):
        answer = client.post("/console/webhooks", data={"url": "https://93.184.215.14/hook",
                                                        "events": ["employee.created"], "key": key.id,
                                                        "csrf_token": csrf(client, "/console/webhooks")})
        assert answer.status_code == 422
    assert WebhookEndpoint.select().count() == 0


def test_disable_then_delete_from_the_console(client, admin, live_company, clock):
    secret_key = keys.create_key(live_company, ["webhooks:manage"], clock, name="ERP")[1]
    made = create_webhook(client, bearer(secret_key), "https://93.184.215.14/hook").get_json()
    page = f"/console/webhooks/{made['id']}"
    assert "Disabled: nothing is delivered" in text(post(client, f"{page}/disable", page=page))
    seen = client.get(f"/v1/webhooks/{made['id']}", headers=bearer(secret_key)).get_json()
    assert seen["active"] is False and seen["disabled_reason"] == "manual"
    done = post(client, f"{page}/delete", page=page)
    assert "Deleted the endpoint https://93.184.215.14/hook" in text(done)
    assert client.get(f"/v1/webhooks/{made['id']}", headers=bearer(secret_key)).status_code == 404
    again = client.post(f"{page}/delete", data={"csrf_token": csrf(client, "/console/webhooks")})
    assert again.status_code == 404  # a second click finds nothing


def test_delivery_times_are_the_companys_and_a_delivery_never_sent_says_why_not_0_ms(
        app, client, admin, live_company, clock, monkeypatch):
    """The log and a delivery's page show times in the company's zone as other pages do;
    an attempt that never reached the receiver shows its reason and no duration."""
    secret = keys.create_key(live_company, keys.SCOPES, clock, name="ERP")[1]
    endpoint = create_webhook(client, bearer(secret), "https://93.184.215.14/hook").get_json()
    monkeypatch.setitem(app.extensions, "webhook_sender", Sender(()))  # may reach no private network
    WebhookEndpoint.update(url="http://127.0.0.1:9/hook").where(WebhookEndpoint.id == endpoint["id"]).execute()
    assert client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=bearer(secret)).status_code == 202
    deliver_all(app)
    zone = ZoneInfo(live_company.timezone)
    expected = clock.now().astimezone(zone).strftime("%Y-%m-%d %H:%M <bdi dir=\"ltr\">%Z</bdi>")
    page = text(client.get(f"/console/webhooks/{endpoint['id']}"))
    assert expected in page and " 0 ms" not in page
    [failed] = [d for d in client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=bearer(secret))
                .get_json()["data"] if d["status"] == "failed"]
    detail = text(client.get(f"/console/webhooks/{endpoint['id']}/deliveries/{failed['id']}"))
    # A refusal takes the few ms a slower machine measures: shown as measured, never "0 ms".
    assert expected in detail and "none: refused: " in detail and " 0 ms" not in detail


def _roll(client, page, overlap, version=None):
    """Roll as the page's form does: naming the secret the page showed, or `version`."""
    seen = version or re.search(r'name="secret_version" type="hidden" value="([0-9a-f]+)"',
                                text(client.get(page))).group(1)
    return client.post(f"{page}/roll-secret", data={"secret_version": seen, "overlap": overlap,
                                                     "csrf_token": csrf(client, page)}, follow_redirects=True), seen


def test_an_admin_rolls_a_secret_and_both_sign_until_the_overlap_ends(app, client, admin, live_company, loopback,
                                                                      clock):
    secret_key = keys.create_key(live_company, ["webhooks:manage"], clock, name="ERP")[1]
    with Receiver() as receiver:
        made = create_webhook(client, bearer(secret_key), receiver.url).get_json()
        page = f"/console/webhooks/{made['id']}"
        rolled, seen = _roll(client, page, "3600")
        new = re.search(r'id="new-secret" value="(whsec_[^"]+)"', text(rolled)).group(1)
        assert new != made["secret"] and "still signs every delivery beside it until" in text(rolled)
        assert new not in text(client.get(page)) and "Rolled: the previous secret signs" in text(client.get(page))
        assert client.post(f"/v1/webhooks/{made['id']}/test", headers=bearer(secret_key)).status_code == 202
        deliver_all(app)
        [ping] = receiver.requests
        header, now = ping["headers"]["X-SVC-Signature"], int(clock.now().timestamp())
        assert verify([new], header, ping["body"], now) and verify([made["secret"]], header, ping["body"], now)

        # The same form sent again (a double click) names a secret replaced already: no second roll.
        again, _ = _roll(client, page, "3600", version=seen)
        assert "already replaced a moment ago" in text(again) and 'id="new-secret"' not in text(again)
        clock.advance(hours=1)
        assert "Rolled:" not in text(client.get(page))
        assert client.post(f"/v1/webhooks/{made['id']}/test", headers=bearer(secret_key)).status_code == 202
        deliver_all(app)
        header = receiver.requests[-1]["headers"]["X-SVC-Signature"]
        assert header.count("v1=") == 1 and verify([new], header, receiver.requests[-1]["body"],
                                                   int(clock.now().timestamp()))


def test_rolling_with_no_overlap_stops_the_old_secret_and_a_bad_choice_changes_nothing(client, admin, live_company,
                                                                                       clock):
    secret_key = keys.create_key(live_company, ["webhooks:manage"], clock, name="ERP")[1]
    made = create_webhook(client, bearer(secret_key), "https://93.184.215.14/hook").get_json()
    page = f"/console/webhooks/{made['id']}"
    before = WebhookEndpoint.get_by_id(made["id"]).secret_sealed
    refused, _ = _roll(client, page, "999999")
    assert refused.status_code == 400 and WebhookEndpoint.get_by_id(made["id"]).secret_sealed == before
    rolled, _ = _roll(client, page, "0")
    assert 'id="new-secret"' in text(rolled) and "still signs" not in text(rolled)
    row = WebhookEndpoint.get_by_id(made["id"])
    assert row.secret_sealed != before and row.previous_secret_sealed is None


def test_rolling_is_offered_only_while_the_api_offers_it(app, client, admin, live_company, clock, monkeypatch,
                                                         live_releases):
    secret_key = keys.create_key(live_company, ["webhooks:manage"], clock, name="ERP")[1]
    made = create_webhook(client, bearer(secret_key), "https://93.184.215.14/hook").get_json()
    page = f"/console/webhooks/{made['id']}"
    assert "Roll secret" in text(client.get(page))
    live_releases(["v1.0", "v1.1", "v1.2"])
    assert "Roll secret" not in text(client.get(page))
    assert _roll(client, page, "0", version="0" * 16)[0].status_code == 404
