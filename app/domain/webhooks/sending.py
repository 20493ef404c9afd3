"""How a job sends the attempts it holds: the rules, with no thread, socket or clock in
them. Each lane is a `Lane` that, asked what next, answers with a decision (`Send`,
`Wait`, `GiveBack`, `Skip`, or None when it is done); app/jobs/webhooks.py carries the
decisions out on threads with the real sender and records what they settle
(deliveries.record_many, claims.release).

- Lanes per endpoint: one, or for a burst (SPLIT_FROM attempts or more) up to
  PER_ENDPOINT, each taking every n-th attempt. A lane's attempts go one after the other
  over one kept-alive connection, while lanes run side by side, so a receiver that hangs
  holds up its own lanes only, and a burst to one receiver goes over a few connections
  at once (the contract allows delivery out of order). An attempt is in one lane only:
  never sent twice at once.
- An attempt that got no answer (timeout, refused, TLS) ends its lane for this job: the
  rest fail at once, saying why (`Skip`), and follow the retry schedule like any failure.
- A lane gives its unsent attempts back, due now, for the next round (`GiveBack`) when its
  claim (the attempts' `lease`) has less than `answer_within` seconds left (with the
  default claim, 12 s into it), or when it has run for LANE_SECONDS (after its first
  attempt, which it always tries; with a longer claim): an attempt is
  sent only while its answer can still come back and be recorded inside the claim, so a
  worker that took it over after the claim ran out never sends it while this one still
  may. A job whose sending raised (a fault of ours) gives the rest back (`Lane.rest`), due
  after a pause.
- An endpoint with a pace (`rate_limit`, v1.3) is asked for its turn before each attempt
  (`turn_in`: seconds to wait, 0 to go, counted across every worker). A lane waits for a
  turn up to PACE_WAIT away (`Wait`); one further off ends the lane: its attempts are
  given back due then, so a slow pace never holds a worker (or the drain of other
  companies' events). Waiting is never a failure.
- Each attempt is signed when it is sent, with its endpoint's secret (opened once a job)
  and, during a rotation's overlap, the secret it replaced.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from app.domain.kernel.sealing import Sealer
from app.domain.webhooks import signing
from app.domain.webhooks.deliveries import Attempt, Outcome

LANE_SECONDS = 20
PACE_WAIT = 0.5  # seconds a lane waits for an endpoint's turn; a turn further off ends it
PER_ENDPOINT = 4  # lanes (connections) to one endpoint at most
SPLIT_FROM = 8  # an endpoint with fewer attempts in a job keeps one lane

Post = Callable[[Attempt], Outcome]


@runtime_checkable
class Pacer(Protocol):
    """Endpoints' paces, counted wherever every worker counts them (app/limits.py's
    SharedPacer is the one create_app makes, on Redis or the host's limits file)."""

    def wait(self, key: str, per_second: int, now_us: int | None = None) -> float:
        """Seconds until `key` may go at `per_second`; 0.0 means now, and the turn is taken."""
        ...


@dataclass(frozen=True)
class Send:
    """Post this attempt now, then tell the lane what came back (`Lane.sent`)."""

    attempt: Attempt


@dataclass(frozen=True)
class Wait:
    """Wait this long for the endpoint's turn, then ask again."""

    seconds: float


@dataclass(frozen=True)
class GiveBack:
    """Hand these attempts back unsent and not failed, due in `due_in` seconds (0: now)."""

    attempts: list[Attempt]
    due_in: float = 0.0


@dataclass(frozen=True)
class Skip:
    """These attempts fail unsent, each with `outcome` (its error says why)."""

    attempts: list[Attempt]
    outcome: Outcome


Decision = Send | Wait | GiveBack | Skip


class Lane:
    """One lane's attempts and how far it has gone. `to_send` is the one the next
    decision may send (the job asks its endpoint's turn for it); `decide` says what to do; `sent`
    takes what a `Send` got back. Every attempt is decided exactly once: sent, skipped or
    given back (`rest()` gives back what is left after a fault)."""

    def __init__(self, attempts: list[Attempt], answer_within: float = 0.0) -> None:
        self.attempts, self.answer_within = attempts, answer_within
        self._done = 0  # attempts decided
        self._answerless: Outcome | None = None

    @property
    def next_attempt(self) -> Attempt | None:
        return self.attempts[self._done] if self._done < len(self.attempts) else None

    def to_send(self, elapsed: float = 0.0, now: float = 0.0) -> Attempt | None:
        """The attempt the next decision (with these `elapsed` and `now`) may send, whose
        endpoint's turn the job asks for; None when it will send none (so no turn is
        taken for nothing)."""
        attempt = self.next_attempt
        if attempt is None or self._answerless is not None or self._out_of_time(attempt, elapsed, now):
            return None
        return attempt

    def _lease_left(self, attempt: Attempt, now: float) -> float:
        return attempt.lease.timestamp() - now if attempt.lease is not None else float("inf")

    def _out_of_time(self, attempt: Attempt, elapsed: float, now: float) -> bool:
        return bool(self._done and elapsed > LANE_SECONDS) or self._lease_left(attempt, now) < self.answer_within

    def decide(self, turn_in: float = 0.0, elapsed: float = 0.0, now: float = 0.0) -> Decision | None:
        """What to do next, None when the lane is done. `turn_in`: seconds until the next
        attempt's endpoint has its turn (0: now, and the turn is taken); `elapsed`:
        seconds since the lane began; `now`: Unix seconds, against the attempts' lease."""
        attempt = self.next_attempt
        if attempt is None:
            return None
        if self._answerless is not None:
            return Skip(self._take_rest(), Outcome(None, error=f"not sent: the attempt before it to this endpoint "
                                                                f"got no answer ({self._answerless.error})"))
        if self._out_of_time(attempt, elapsed, now):
            return GiveBack(self._take_rest())  # out of time: due now, for the next round
        if turn_in > 0:
            if (turn_in > PACE_WAIT or elapsed + turn_in > LANE_SECONDS
                    or self._lease_left(attempt, now) - turn_in < self.answer_within):
                return GiveBack(self._take_rest(), due_in=turn_in)  # due at its turn: not sent, not failed
            return Wait(turn_in)
        self._done += 1
        return Send(attempt)

    def sent(self, outcome: Outcome) -> None:
        """What the attempt of the last `Send` got back; no answer ends the lane."""
        if outcome.status is None:
            self._answerless = outcome

    def rest(self) -> list[Attempt]:
        """The attempts not decided yet, now decided: given back (after a fault)."""
        return self._take_rest()

    def _take_rest(self) -> list[Attempt]:
        rest, self._done = self.attempts[self._done:], len(self.attempts)
        return rest


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
