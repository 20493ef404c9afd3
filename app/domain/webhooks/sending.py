"""How a job sends the attempts it holds: the rules, with no thread or socket in them.
app/jobs/webhooks.py runs the lanes on threads with the real sender and records what
they settle (deliveries.record_many, deliveries.release).

- Lanes per endpoint: one, or for a burst (SPLIT_FROM attempts or more) up to
  PER_ENDPOINT, each taking every n-th attempt. A lane's attempts go one after the other
  over one kept-alive connection, while lanes run side by side, so a receiver that hangs
  holds up its own lanes only, and a burst to one receiver goes over a few connections
  at once (the contract allows delivery out of order). An attempt is in one lane only:
  never sent twice at once.
- An attempt that got no answer (timeout, refused, TLS) ends its lane for this job: the
  rest fail at once, saying why, and follow the retry schedule like any failure.
- A lane that has run for LANE_SECONDS gives its unsent attempts back, due now, for the
  next job (well within the claim that holds them); so does a lane whose `post` raised.
- An endpoint with a pace (`rate_limit`, v1.3) is asked for its turn before each attempt
  (`pace`: seconds to wait, 0 to go, counted across every worker). A lane waits for a
  turn up to PACE_WAIT away; one further off ends the lane: its attempts are handed to
  `paced` with the wait, to be given back due then, so a slow pace never holds a worker
  (or the drain of other companies' events). Waiting is never a failure.
- Each attempt is signed when it is sent, with its endpoint's secret (opened once a job)
  and, during a rotation's overlap, the secret it replaced.
"""

from collections.abc import Callable, Iterable
from typing import Literal, Protocol, runtime_checkable

from app.domain.kernel.sealing import Sealer
from app.domain.webhooks import signing
from app.domain.webhooks.deliveries import Attempt, Outcome

LANE_SECONDS = 20
PACE_WAIT = 0.5  # seconds a lane waits for an endpoint's turn; a turn further off ends it
PER_ENDPOINT = 4  # lanes (connections) to one endpoint at most
SPLIT_FROM = 8  # an endpoint with fewer attempts in a job keeps one lane

# What became of an attempt in a lane: sent (an Outcome came back), skipped (failed
# unsent, after its lane's answerless attempt), released (given back unsent, no Outcome).
Disposition = Literal["sent", "skipped", "released"]
Settle = Callable[[Attempt, Outcome | None, Disposition], None]
Post = Callable[[Attempt], Outcome]


@runtime_checkable
class Pacer(Protocol):
    """Endpoints' paces, counted wherever every worker counts them (app/limits.py's
    SharedPacer is the one create_app makes, on Redis or the host's limits file)."""

    def wait(self, key: str, per_second: int, now_us: int | None = None) -> float:
        """Seconds until `key` may go at `per_second`; 0.0 means now, and the turn is taken."""
        ...


def lanes(attempts: Iterable[Attempt], per_endpoint: int = PER_ENDPOINT) -> list[list[Attempt]]:
    """The attempts by endpoint, in the order given; an endpoint's burst dealt over up to
    `per_endpoint` lanes, round robin, so each lane keeps the order it was given."""
    by_endpoint: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        by_endpoint.setdefault(attempt.endpoint_id, []).append(attempt)
    dealt: list[list[Attempt]] = []
    for burst in by_endpoint.values():
        count = min(per_endpoint, len(burst)) if len(burst) >= SPLIT_FROM else 1
        dealt.extend(burst[start::count] for start in range(count))
    return dealt


def send_lane(lane: list[Attempt], post: Post, elapsed: Callable[[], float], settle: Settle,
              pace: Callable[[Attempt], float] = lambda attempt: 0.0,
              sleep: Callable[[float], None] = lambda seconds: None,
              paced: Callable[[list[Attempt], float], None] = lambda attempts, wait: None) -> None:
    """Send one lane's attempts with `post`, telling `settle` what became of each, every
    attempt exactly once, even when `post` raises (the rest are released, then the
    fault goes on up). `elapsed()`: seconds since the lane began; `pace(attempt)`:
    seconds until its endpoint's next turn (0: now, and the turn is taken), `sleep`
    waits that long; `paced(attempts, wait)` takes the rest of a lane whose next turn
    is further off than PACE_WAIT (or past its time)."""
    settled = 0
    try:
        for attempt in lane:
            while (wait := pace(attempt)) > 0:
                if wait > PACE_WAIT or elapsed() + wait > LANE_SECONDS:
                    waiting, settled = lane[settled:], len(lane)
                    paced(waiting, wait)  # given back due at its turn: not sent, not failed
                    return
                sleep(wait)
            outcome = post(attempt)
            settled += 1
            settle(attempt, outcome, "sent")
            if outcome.status is None:
                skipped = Outcome(None, error=f"not sent: the attempt before it to this endpoint got no answer "
                                              f"({outcome.error})")
                for rest in lane[settled:]:
                    settled += 1
                    settle(rest, skipped, "skipped")
                return
            if elapsed() > LANE_SECONDS:
                return
    finally:  # out of time, or a fault: what is left goes back for another job
        for rest in lane[settled:]:
            settle(rest, None, "released")


def signed_post(send: Callable[[str, bytes, dict[str, str]], Outcome], sealer: Sealer,
                now: Callable[[], float], *, beyond_contract: bool = False) -> Post:
    """The `post` of a job: each attempt's body, signed at the moment it is sent
    (`now()`: Unix seconds) with its endpoint's secret, and with the secret a rotation
    replaced while that is still in force (newest first), given to `send(url, body,
    headers)`; with `beyond_contract` (v1.3) the Standard Webhooks headers too, keyed with
    those secrets that give a key. A secret sealed under a key no longer configured is
    an Outcome with no answer, saying so; nothing is sent."""
    opened: dict[str, tuple[str, bytes | None]] = {}  # sealed -> (secret, its standard key)

    def open_secret(sealed: str) -> tuple[str, bytes | None]:
        if sealed not in opened:
            secret = sealer.open(sealed)
            opened[sealed] = (secret, signing.standard_key(secret))
        return opened[sealed]

    def post(attempt: Attempt) -> Outcome:
        timestamp = int(now())
        try:
            in_force = [open_secret(attempt.secret_sealed)]
            if attempt.previous_sealed is not None and timestamp < attempt.previous_until:
                in_force.append(open_secret(attempt.previous_sealed))
        except ValueError as exc:
            return Outcome(None, error=f"signing secret unreadable: {exc}")
        secrets = [secret for secret, _ in in_force]
        headers = {"X-SVC-Signature": signing.signature(secrets[0], timestamp, attempt.body, secrets[1:])}
        keys = [key for _, key in in_force if key is not None]
        if beyond_contract and keys:
            headers.update({"webhook-id": attempt.event_id, "webhook-timestamp": str(timestamp),
                            "webhook-signature": signing.standard_signature(keys[0], attempt.event_id, timestamp,
                                                                            attempt.body, keys[1:])})
        return send(attempt.url, attempt.body, headers)

    return post
