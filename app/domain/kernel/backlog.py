"""How much work waits, and how long the oldest has waited: what readiness and the
metrics report of the outbox and the webhook queue."""

from dataclasses import dataclass
from datetime import datetime

from app.domain.kernel.clock import from_db


@dataclass(frozen=True)
class Backlog:
    count: int
    oldest_seconds: float | None  # None when nothing waits

    @classmethod
    def of(cls, count: int | None, oldest: datetime | None, now: datetime) -> "Backlog":
        """From a count and the oldest stored (naive UTC) time, as seen at `now`."""
        if not count or oldest is None:
            return cls(count or 0, None)
        return cls(count, max(0.0, (now - from_db(oldest)).total_seconds()))
