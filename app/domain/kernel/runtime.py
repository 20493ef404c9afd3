"""What an action is handed besides its data: the clock, and where work goes once the
action's transaction commits.

`create_app` builds one Runtime per app (`app.extensions["runtime"]`) and names its
hand-offs there: an outbox event written -> queue its dispatch; clock events stored ->
queue their pairing; credentials changed -> retire every worker's cached principals.
Actions that hand work on take a `runtime` argument where others take a `clock`, so a
reader of the domain sees which functions do. A Runtime tells the time too (`now()`), so
the console and the CLI, which hold one, pass it wherever a clock is asked for.

The database, not the hand-off, is the record of what is due: an event has no
`dispatched_at`, a clock event no `paired_at`. So a hand-off that fails (Redis down) is
logged and the sweeper finds the work later, and `Runtime(clock)` with no hand-offs at
all (unit tests, one-off scripts) loses nothing either.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass

from app.models import db

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Runtime:
    clock: object  # anything with now() -> aware UTC datetime (app/domain/kernel/clock.py)
    on_event_written: Callable[[str], None] | None = None
    on_clock_events_stored: Callable[[str, list], None] | None = None
    on_credentials_changed: Callable[[], None] | None = None

    def now(self):
        return self.clock.now()

    def event_written(self, event_id):
        """Call inside the transaction that wrote the outbox event."""
        if self.on_event_written is not None:
            db.after_commit(lambda: _hand_off(f"the dispatch of event {event_id}", self.on_event_written, event_id))

    def clock_events_stored(self, company_id, employee_ids):
        """Call inside the transaction that stored new clock events of these employees."""
        if self.on_clock_events_stored is not None and employee_ids:
            employee_ids = sorted(employee_ids)
            what = f"the pairing of {len(employee_ids)} employee(s) of {company_id}"
            db.after_commit(lambda: _hand_off(what, self.on_clock_events_stored, company_id, employee_ids))

    def credentials_changed(self):
        """Call inside the transaction that changes a credential, its company or its
        legal entities (revocation, the Partner API switched, a rename). The receiver
        acts at once and again after commit (app/api/principal_cache.py says why)."""
        if self.on_credentials_changed is not None:
            self.on_credentials_changed()


def _hand_off(what, receiver, *args):
    try:
        receiver(*args)
    except Exception:  # the work is in the database; the sweeper will find it
        log.warning("could not queue %s; the sweeper will", what, exc_info=True)
