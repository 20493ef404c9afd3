"""What an action is handed besides its data: the clock, and where work goes once the
action's transaction commits.

`create_app` builds one Runtime per app (`app.extensions["runtime"]`) and names its
hand-offs there: an outbox event written -> queue its dispatch; clock events stored ->
queue their pairing; credentials changed -> retire every worker's cached principals at once
(the database's credentials version, which the change moves itself, bounds it anyway).
Actions that hand work on take a `runtime` argument where others take a `clock`, so a
reader of the domain sees which functions do. A Runtime tells the time too (`now()`), so
the console and the CLI, which hold one, pass it wherever a clock is asked for.

The database, not the hand-off, is the record of what is due: an event has no
`dispatched_at`, a clock event no `paired_at`. So a hand-off that fails (Redis down) is
logged and the periodic jobs (the drain, the sweeper) find the work later, and
`Runtime(clock)` with no hand-offs at all (unit tests, one-off scripts) loses nothing
either.

It also carries the app's `sealer` (app/domain/kernel/sealing.py), for the secrets an
action must store and read back (webhook signing secrets), and `beyond_contract`: whether
what v1.3 adds (fields in event payloads, event types) is written (LIVE_RELEASES).
"""

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.domain.kernel.clock import Clock
from app.domain.kernel.sealing import Sealer
from app.models import db
from app.models.base import before_commit
from app.models.keys import move_credentials_version

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Runtime:
    clock: Clock  # anything with now() -> aware UTC datetime
    on_event_written: Callable[[str], None] | None = None
    on_clock_events_stored: Callable[[str, list[str]], None] | None = None
    on_credentials_changed: Callable[[], None] | None = None
    on_deliveries_due: Callable[[list[str]], None] | None = None
    on_endpoint_notice: Callable[[str, str], None] | None = None
    sealer: Sealer | None = None
    beyond_contract: bool = True

    def now(self) -> datetime:
        return self.clock.now()

    def event_written(self, event_id: str) -> None:
        """Call inside the transaction that wrote the outbox event."""
        if self.on_event_written is not None:
            db.after_commit(lambda: _hand_off(f"the dispatch of event {event_id}", self.on_event_written, event_id))

    def clock_events_stored(self, company_id: str, employee_ids: Iterable[str]) -> None:
        """Call inside the transaction that stored new clock events of these employees."""
        if self.on_clock_events_stored is not None and employee_ids:
            employee_ids = sorted(employee_ids)
            what = f"the pairing of {len(employee_ids)} employee(s) of {company_id}"
            db.after_commit(lambda: _hand_off(what, self.on_clock_events_stored, company_id, employee_ids))

    def deliveries_due(self, delivery_ids: Iterable[str]) -> None:
        """Call inside the transaction that wrote webhook deliveries due now."""
        if self.on_deliveries_due is not None and delivery_ids:
            delivery_ids = list(delivery_ids)
            what = f"the sending of {len(delivery_ids)} webhook delivery(ies)"
            db.after_commit(lambda: _hand_off(what, self.on_deliveries_due, delivery_ids))

    def endpoint_notice(self, endpoint_id: str, notice: str) -> None:
        """Call inside the transaction that found a webhook endpoint `failing` for three
        days, `disabled` it, or found it `gone` (a 410): its company's owner is told after
        commit."""
        if self.on_endpoint_notice is not None:
            what = f"the {notice} notice of webhook endpoint {endpoint_id}"
            db.after_commit(lambda: _hand_off(what, self.on_endpoint_notice, endpoint_id, notice))

    def credentials_changed(self) -> None:
        """Call inside the transaction that changes a credential, its company or its
        legal entities (revocation, the Partner API switched, a rename). The database's
        credentials version moves as that transaction's last write, hand-offs or not: it
        is the truth every web process checks. The receiver (Redis's copy) acts at once
        and again after commit (app/api/principal_cache.py says why)."""
        before_commit(move_credentials_version)
        if self.on_credentials_changed is not None:
            self.on_credentials_changed()


def _hand_off(what: str, receiver: Callable[..., object], *args: Any) -> None:
    try:
        receiver(*args)
    except Exception:  # the work is in the database; the periodic jobs (drain, sweep) will find it
        log.warning("could not queue %s; the periodic jobs will find it", what, exc_info=True)
