"""Delivery rules: the logged response text, and the log's retention at its edges."""

import json
from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from app.domain.kernel.clock import from_db, to_db
from app.domain.kernel.ids import new_id
from app.domain.webhooks import claims, delivery_log
from app.domain.webhooks.deliveries import response_text
from app.domain.webhooks.outcomes import MAX_ATTEMPTS, RETRY_DELAYS
from app.models import OutboxEvent, WebhookDelivery, WebhookEndpoint


def test_the_schedule_is_the_contracts():
    assert [d.total_seconds() for d in RETRY_DELAYS] == [60, 300, 1800, 7200, 43200, 86400]
    assert MAX_ATTEMPTS == 7


def test_the_response_text_is_cut_at_1_kb_on_a_character_boundary():
    assert response_text("ا".encode() * 600) == "ا" * 512  # two bytes each
    assert response_text(b"x" * 1023 + "é".encode()) == "x" * 1023
    assert response_text(None) == ""


@given(st.text(max_size=1500))
def test_any_answer_is_kept_as_at_most_1_kb_of_its_own_text(text):
    kept = response_text(text.encode())
    assert len(kept.encode()) <= 1024 and "\x00" not in kept
    assert text.replace("\x00", "\ufffd").startswith(kept)  # NUL, which PostgreSQL's text refuses, shows as U+FFFD


@given(st.binary(max_size=1500))
def test_any_bytes_are_kept_as_text_every_database_holds(body):
    kept = response_text(body)
    assert len(kept.encode()) <= 1024 and "\x00" not in kept
    # Bytes that are not UTF-8 show as U+FFFD, as a browser shows them; nothing is
    # dropped but at the 1 KB cut (at most one character, and what follows it).
    shown = body.decode("utf-8", errors="replace").replace("\x00", "\ufffd")
    assert shown.startswith(kept) and (kept == shown or len(kept.encode()) > 1024 - 4)


def test_bytes_that_are_not_utf8_show_as_replacement_characters():
    assert response_text(b"a\xed\xa0\x80b") == "a\ufffd\ufffd\ufffdb"  # a surrogate's bytes: not dropped
    assert response_text(b"ok \xff") == "ok \ufffd"
    assert response_text(b"x" * 1023 + "é".encode()) == "x" * 1023  # cut in two by the limit: left out


def endpoint_with_deliveries(sandbox, clock, ages):
    """An endpoint with one succeeded delivery per age (timedelta before now)."""
    now = to_db(clock.now())
    endpoint = WebhookEndpoint.create(id=new_id("whk"), company=sandbox.id, credential_kind="api_key",
                                      credential_id="key_x", url="https://93.184.215.14/h", events="ping",
                                      secret_sealed="x", created_at=now, updated_at=now)
    event = OutboxEvent.create(id=new_id("evt"), company=sandbox.id, type="ping", payload="{}", created_at=now)
    for age in ages:
        WebhookDelivery.create(id=new_id("whd"), endpoint=endpoint, event=event, event_type="ping", attempt=1,
                               status="succeeded", due_at=now - age, created_at=now - age)
    return endpoint


def kept(endpoint):
    return WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint.id).count()


def test_nothing_older_than_30_days_is_kept(sandbox, clock):
    endpoint = endpoint_with_deliveries(sandbox, clock, [timedelta(days=30), timedelta(days=30, seconds=1)])
    delivery_log.prune(clock.now())
    assert kept(endpoint) == 1  # exactly 30 days old stays; a second more goes


def test_the_last_100_are_kept(sandbox, clock):
    endpoint = endpoint_with_deliveries(sandbox, clock, [timedelta(minutes=m) for m in range(101)])
    delivery_log.prune(clock.now())
    assert kept(endpoint) == 100
    oldest = WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint.id).order_by(
        WebhookDelivery.created_at).first()
    assert from_db(oldest.created_at) == clock.now() - timedelta(minutes=99)
    delivery_log.prune(clock.now())
    assert kept(endpoint) == 100


def test_a_fan_out_with_a_budget_takes_events_in_the_order_given_while_their_deliveries_fit(sandbox, clock):
    """Three endpoints hear `employee.updated`, one hears `ping` too: a budget of 4 takes
    the ping (1) and the first update (3), leaves the second update for the next round;
    an event that alone exceeds the budget is still taken when it comes first."""
    now = to_db(clock.now())
    OutboxEvent.update(dispatched_at=now).where(OutboxEvent.dispatched_at.is_null()).execute()
    hearing = [WebhookEndpoint.create(id=new_id("whk"), company=sandbox.id, credential_kind="api_key",
                                      credential_id="key_x", url=f"https://93.184.215.14/{n}",
                                      events="employee.updated", secret_sealed="x", created_at=now, updated_at=now)
               for n in range(3)]
    ping = OutboxEvent.create(id=new_id("evt"), company=sandbox.id, type="ping", created_at=now,
                              payload=json.dumps({"data": {"webhook_id": hearing[0].id}}))
    first, second = (OutboxEvent.create(id=new_id("evt"), company=sandbox.id, type="employee.updated",
                                        payload="{}", created_at=now) for _ in range(2))
    taken, attempts = claims.fan_out([ping.id, first.id, second.id], clock.now(), budget=4)
    assert taken == 2 and [a.event_id for a in attempts] == [ping.id, first.id, first.id, first.id]
    assert OutboxEvent.get_by_id(second.id).dispatched_at is None
    taken, attempts = claims.fan_out([second.id], clock.now(), budget=1)
    assert taken == 1 and len(attempts) == 3 and OutboxEvent.get_by_id(second.id).dispatched_at is not None
