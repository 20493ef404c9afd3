"""Bearer key -> principal and rate-limit decision, in as few round trips as possible.

With Redis, usable principals (a valid key of a company with the Partner API on) are
kept in process memory, keyed by the key's hash. The rate-limit step returns the
credentials version (app/domain/access/credentials.py) in the same round trip, and an entry is
used only while that version is the one it was loaded under, and for at most `max_age`
(the bound on staleness if a version bump was lost while Redis was down). A request
with a warm entry therefore makes one Redis call and no SQL.

Without Redis (or while it is down) there is no shared version: the limiter answers
None, nothing is kept, and every request loads its principal with one query.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from app.domain.access.keys import Principal, load_principal, record_use


@dataclass
class _Entry:
    principal: Principal
    version: str
    loaded_at: datetime
    last_used_at: datetime | None


class Authenticator:
    def __init__(self, limiter, *, last_used_resolution, max_entries=10_000, max_age=timedelta(seconds=30)):
        self.limiter = limiter
        self.last_used_resolution = last_used_resolution
        self.max_entries, self.max_age = max_entries, max_age
        self._entries = {}

    def __call__(self, secret_hash, now):
        """(principal, decision). The decision is None when the company has the Partner
        API off and the principal was just loaded: that request is refused uncounted.
        Raises Unauthenticated."""
        now_us = int(now.timestamp() * 1_000_000)
        entry = self._entries.get(secret_hash)
        if entry is not None and now - entry.loaded_at < self.max_age:
            verdict = self.limiter.hit(entry.principal.key_id, now_us)
            if verdict.credentials_version != entry.version:
                # Something changed since it was loaded. The version came back before
                # this reload, so any later change still shows as a newer version.
                entry = self._load(secret_hash, verdict.credentials_version, now)
        else:
            entry = self._load(secret_hash, self.limiter.credentials_version(), now)
            verdict = self.limiter.hit(entry.principal.key_id, now_us) if entry.principal.company.api_enabled else None
        entry.last_used_at = record_use(entry.principal.key_id, entry.last_used_at, now, self.last_used_resolution)
        return entry.principal, verdict

    def _load(self, secret_hash, version, now):
        self._entries.pop(secret_hash, None)
        principal = load_principal(secret_hash)
        entry = _Entry(principal, version, now, principal.last_used_at)
        if version is not None and principal.company.api_enabled:
            if len(self._entries) >= self.max_entries:
                del self._entries[next(iter(self._entries))]  # the oldest loaded
            self._entries[secret_hash] = entry
        return entry
