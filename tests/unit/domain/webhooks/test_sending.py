"""The rules of sending a job's attempts (app/domain/webhooks/sending.py), with a made-up
`post` and clock: no thread, socket or database."""

import base64
import itertools
import time
from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st
from standardwebhooks import Webhook

from app.domain.kernel.sealing import Sealer
from app.domain.webhooks import sending, signing
from app.domain.webhooks.deliveries import Attempt, Outcome
from app.domain.webhooks.endpoints import new_secret

SEALER = Sealer(["a-secret-key-for-these-tests-only-0123456789"])
SEALED = SEALER.seal("whsec_test")


def attempt(n, endpoint="whk_a"):
    return Attempt(f"whd_{endpoint}_{n}", endpoint, f"https://{endpoint}.example/hook", SEALED, b'{"n":%d}' % n,
                   f"evt_{n}", 1, "employee.updated")


def carry_out(lane, post, elapsed=lambda: 0.0, turns=lambda attempt: 0.0, now=lambda: 0.0):
    """What a job does with a Lane's decisions, with made-up time: returns what became of
    each attempt, in order, as (delivery id, "sent" | "skipped" | "given back", outcome or
    due_in), and the seconds waited."""
    settled, waited = [], []
    while True:
        at, moment = elapsed(), now()
        upcoming = lane.to_send(at, moment)
        decision = lane.decide(turns(upcoming) if upcoming else 0.0, at, moment)
        match decision:
            case None:
                break
            case sending.Send(attempt):
                outcome = post(attempt)
                lane.sent(outcome)
                settled.append((attempt.delivery_id, "sent", outcome))
            case sending.Skip(attempts, outcome):
                settled += [(a.delivery_id, "skipped", outcome) for a in attempts]
            case sending.GiveBack(attempts, due_in):
                settled += [(a.delivery_id, "given back", due_in) for a in attempts]
            case sending.Wait(seconds):
                waited.append(seconds)
    return settled, waited


def run(attempts, answers, elapsed=lambda: 0.0, **lane):
    """Send `attempts` as one lane with a post answering from `answers` (a status, or None
    for no answer); returns what was settled, in order, and the attempts posted."""
    posted, replies = [], iter(answers)

    def post(sent):
        posted.append(sent)
        status = next(replies)
        return Outcome(status, error=None if status else "timeout: no answer in 10 s")

    settled, _ = carry_out(sending.Lane(attempts, **lane), post, elapsed)
    return settled, posted


def test_a_lane_sends_its_attempts_in_order():
    lane = [attempt(n) for n in range(3)]
    settled, posted = run(lane, [200, 500, 204])
    assert posted == lane
    assert [(d, w, o.status) for d, w, o in settled] == [(a.delivery_id, "sent", s) for a, s in
                                                         zip(lane, [200, 500, 204], strict=True)]


def test_after_an_attempt_with_no_answer_the_rest_fail_unsent_saying_why():
    lane = [attempt(n) for n in range(4)]
    settled, posted = run(lane, [200, None])
    assert posted == lane[:2]
    assert [w for _, w, _ in settled] == ["sent", "sent", "skipped", "skipped"]
    reason = settled[2][2].error
    assert settled[2][2].status is None and reason.startswith("not sent: ") and "timeout: no answer" in reason


def test_a_lane_out_of_time_gives_the_rest_back_unsent_due_now():
    ticks = itertools.count(0, 15)  # 15 s a send: over LANE_SECONDS after the second
    lane = [attempt(n) for n in range(4)]
    settled, posted = run(lane, [200, 200, 200], elapsed=lambda: next(ticks))
    assert posted == lane[:2]
    assert [(w, due_in) for _, w, due_in in settled[2:]] == [("given back", 0.0), ("given back", 0.0)]


def test_an_attempt_is_sent_only_while_its_answer_can_come_back_inside_its_claim():
    """A claim ending at 100.0, answers allowed 12 s: sent at 88.0, not at 88.5; the rest
    go back due now (another worker may take them once the claim has run out)."""
    lease = datetime.fromtimestamp(100, UTC)
    attempts = [replace(attempt(n), lease=lease) for n in range(3)]
    clock = iter([80.0, 88.0, 88.5, 90.0])  # the last is asked of a lane already done
    settled, _ = carry_out(sending.Lane(attempts, answer_within=12.0), lambda a: Outcome(200), now=lambda: next(clock))
    assert [w for _, w, _ in settled] == ["sent", "sent", "given back"]


def test_no_turn_is_taken_for_an_attempt_the_lane_will_not_send():
    """A paced endpoint's turn is asked only for an attempt the decision may send: none
    when the claim is nearly out, or after an attempt with no answer."""
    lease = datetime.fromtimestamp(100, UTC)
    lane = sending.Lane([replace(attempt(n), lease=lease) for n in range(3)], answer_within=12.0)
    assert lane.to_send(now=80.0) == lane.attempts[0]
    assert lane.to_send(now=89.0) is None
    assert isinstance(lane.decide(0.0, now=80.0), sending.Send)
    lane.sent(Outcome(None, error="timeout"))
    assert lane.to_send(now=80.0) is None and isinstance(lane.decide(now=80.0), sending.Skip)


def test_after_a_fault_the_lane_gives_back_what_it_has_not_decided():
    lane = sending.Lane([attempt(n) for n in range(3)])
    assert isinstance(lane.decide(), sending.Send)
    assert lane.rest() == lane.attempts[1:]
    assert lane.decide() is None and lane.rest() == []


@given(st.lists(st.one_of(st.none(), st.sampled_from([200, 204, 410, 500])), min_size=1, max_size=12),
       st.integers(min_value=0, max_value=12), st.lists(st.sampled_from([0.0, 0.2, 0.5, 0.7, 3.0]), max_size=30))
def test_every_attempt_is_decided_exactly_once(answers, budget, turns):
    """Whatever the answers, the turns and however long sending takes, each attempt of the
    lane is settled once, only attempts that were posted count as sent, and the lane
    never waits longer than PACE_WAIT for a turn."""
    lane = [attempt(n) for n in range(len(answers))]
    ticks, replies, posted, turn = itertools.count(), iter(answers), [], iter(turns)

    def post(sent):
        posted.append(sent)
        status = next(replies)
        return Outcome(status, error=None if status else "no answer")

    settled, waited = carry_out(sending.Lane(lane), post, lambda: next(ticks) * sending.LANE_SECONDS / max(budget, 1),
                                turns=lambda attempt: next(turn, 0.0))
    assert [d for d, _, _ in settled] == [a.delivery_id for a in lane]
    assert [d for d, w, _ in settled if w == "sent"] == [a.delivery_id for a in posted]
    assert all(0 < seconds <= sending.PACE_WAIT for seconds in waited)


def test_lanes_are_per_endpoint_in_the_order_given():
    a1, b1, a2 = attempt(1, "whk_a"), attempt(1, "whk_b"), attempt(2, "whk_a")
    assert sending.lanes([a1, b1, a2]) == [[a1, a2], [b1]]


def test_a_burst_to_one_endpoint_is_dealt_over_a_few_lanes_each_in_the_order_given():
    burst = [attempt(n, "whk_a") for n in range(10)]
    dealt = sending.lanes([*burst, attempt(1, "whk_b")])
    assert dealt == [burst[0::4], burst[1::4], burst[2::4], burst[3::4], [attempt(1, "whk_b")]]
    assert sending.lanes(burst[:sending.SPLIT_FROM - 1]) == [burst[:sending.SPLIT_FROM - 1]]  # no burst: one lane


@given(st.lists(st.sampled_from(["whk_a", "whk_b", "whk_c"]), max_size=60))
def test_lanes_hold_every_attempt_once_and_an_endpoint_at_most_per_endpoint_lanes(endpoints):
    attempts = [attempt(n, endpoint) for n, endpoint in enumerate(endpoints)]
    dealt = sending.lanes(attempts)
    assert sorted(a.delivery_id for lane in dealt for a in lane) == sorted(a.delivery_id for a in attempts)
    for endpoint in set(endpoints):
        mine = [lane for lane in dealt if lane[0].endpoint_id == endpoint]
        assert all(a.endpoint_id == endpoint for lane in mine for a in lane)
        assert len(mine) <= sending.PER_ENDPOINT
        assert all([attempts.index(a) for a in lane] == sorted(attempts.index(a) for a in lane) for lane in mine)


def test_each_attempt_is_signed_when_sent_with_its_endpoints_secret():
    sent = []
    post = sending.signed_post(lambda url, body, headers: sent.append((url, body, headers)) or Outcome(200),
                               SEALER, lambda: 1_790_000_000.7)
    one = attempt(1)
    assert post(one).status == 200
    [(url, body, headers)] = sent
    assert url == one.url and body == one.body
    assert headers["X-SVC-Signature"].startswith("t=1790000000,v1=")
    assert signing.verify(["whsec_test"], headers["X-SVC-Signature"], body, 1_790_000_000)


def test_a_secret_no_configured_key_opens_is_an_outcome_and_nothing_is_sent():
    sent = []
    other = Sealer(["another-secret-key-nobody-here-has-0123456789"])
    post = sending.signed_post(lambda *args: sent.append(args) or Outcome(200), other, lambda: 0.0)
    outcome = post(attempt(1))
    assert outcome.status is None and outcome.error.startswith("signing secret unreadable") and sent == []


def _standard_headers(secret, *, standard=True, now=None):
    sent = []
    sealer = Sealer(["a-secret-key-for-these-tests-only-0123456789"])
    one = Attempt("whd_1", "whk_a", "https://a.example/hook", sealer.seal(secret), b'{"id":"evt_1"}', "evt_1", 1,
                  "ping")
    post = sending.signed_post(lambda url, body, headers: sent.append(headers) or Outcome(200), sealer,
                               now or time.time, beyond_contract=standard)
    post(one)
    return one, sent[0]


def test_a_new_secret_signs_the_standard_webhooks_headers_its_package_verifies():
    secret = new_secret()
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) == 32
    attempt, headers = _standard_headers(secret)
    assert headers["webhook-id"] == "evt_1" and headers["webhook-timestamp"] == headers["X-SVC-Signature"][2:12]
    assert Webhook(secret).verify(attempt.body, headers) == {"id": "evt_1"}  # the package, clock and all
    assert signing.verify([secret], headers["X-SVC-Signature"], attempt.body, time.time())  # the contract's too


def test_an_older_url_safe_secret_gets_them_when_the_package_can_read_it_and_not_otherwise():
    readable = "whsec_" + base64.urlsafe_b64encode(b"\x00" * 31 + b"\x01").decode().rstrip("=")
    attempt, headers = _standard_headers(readable)
    assert Webhook(readable).verify(attempt.body, headers)
    unreadable = "whsec_a"  # one base64 character: no key
    assert signing.standard_key(unreadable) is None
    _, headers = _standard_headers(unreadable)
    assert set(headers) == {"X-SVC-Signature"}


def test_without_v1_3_only_the_contracts_header_is_sent():
    _, headers = _standard_headers(new_secret(), standard=False)
    assert set(headers) == {"X-SVC-Signature"}


def _overlap_headers(new, old, now, until, old_sealed=None):
    sent = []
    one = Attempt("whd_1", "whk_a", "https://a.example/hook", SEALER.seal(new), b'{"id":"evt_1"}', "evt_1", 1,
                  "ping", previous_sealed=old_sealed or SEALER.seal(old), previous_until=until)
    outcome = sending.signed_post(lambda url, body, headers: sent.append(headers) or Outcome(200), SEALER,
                                  lambda: now, beyond_contract=True)(one)
    return one, outcome, (sent[0] if sent else None)


def test_during_an_overlap_both_secrets_sign_newest_first_and_either_verifies():
    new, old = new_secret(), new_secret()
    now = time.time()
    one, _, headers = _overlap_headers(new, old, now, until=now + 1)
    header = headers["X-SVC-Signature"]
    assert header.count("v1=") == 2 and header == signing.signature(new, now, one.body, [old])
    assert header.split(",v1=")[1] == signing.signature(new, now, one.body).split("v1=")[1]  # newest first
    for secret in (new, old):
        assert signing.verify([secret], header, one.body, now)
        assert Webhook(secret).verify(one.body, headers) == {"id": "evt_1"}
    assert len(headers["webhook-signature"].split(" ")) == 2
    assert headers["webhook-signature"].split(" ")[0] == signing.standard_signature(
        signing.standard_key(new), "evt_1", now, one.body)


def test_once_the_overlap_is_over_only_the_new_secret_signs():
    new, old = new_secret(), new_secret()
    now = time.time()
    one, _, headers = _overlap_headers(new, old, now, until=int(now))  # it ended at this second
    assert headers["X-SVC-Signature"].count("v1=") == 1 and len(headers["webhook-signature"].split(" ")) == 1
    assert not signing.verify([old], headers["X-SVC-Signature"], one.body, now)


def test_a_replaced_secret_no_key_opens_is_an_outcome_and_nothing_is_sent():
    unreadable = Sealer(["another-secret-key-nobody-here-has-0123456789"]).seal(new_secret())
    now = time.time()
    _, outcome, headers = _overlap_headers(new_secret(), None, now, until=now + 60, old_sealed=unreadable)
    assert outcome.status is None and outcome.error.startswith("signing secret unreadable") and headers is None


def test_a_paced_lane_waits_for_a_near_turn_and_gives_the_rest_back_due_at_a_far_one():
    """An endpoint's pace (v1.3): a turn up to PACE_WAIT away is waited for in the lane; a
    turn further off gives the rest of the lane back due then, unsent and not failed: no
    outcome, no retry counted."""
    lane = [attempt(n) for n in range(5)]
    waits = iter([0.0, 0.5, 0.0, 0.0, 3.0])
    settled, waited = carry_out(sending.Lane(lane), lambda a: Outcome(200), turns=lambda a: next(waits))
    assert waited == [0.5]
    assert [what for _, what, _ in settled] == ["sent", "sent", "sent", "given back", "given back"]
    assert [due_in for _, what, due_in in settled if what == "given back"] == [3.0, 3.0]
