"""Idempotency keys of POSTs (beyond the contract, v1.3): a partner that sends a POST again
with the same `Idempotency-Key` gets the first answer again, and nothing is done twice.
As the IETF draft "The Idempotency-Key HTTP Header Field"
(draft-ietf-httpapi-idempotency-key-header) and Stripe's idempotent requests have it.

A key is its company's. The first request to send it claims it with one INSERT on the
unique (company, key) index, committed at once in its own short transaction: of two
requests at once, one inserts and runs, the other meets the row. The row remembers the
request (its `fingerprint`: the credential, method, path and body) and, once it
succeeded, its answer (status, content type, and body sealed with the app's sealer: a
created endpoint's answer holds its signing secret). For KEPT (24 hours) from the claim:

- the same key and request, answered: `Replay`, the first answer again;
- the same key with another request (another body, path or credential): `Reused` (422);
- the same key and request while the first still runs: `InUse` (409).

Only a success (2xx) is kept. A refusal (4xx) changed nothing, and a server fault (5xx)
is an action whose transaction failed and rolled back (an action commits its change
with its events, or neither), so either frees the key (`release`): the request may be
sent again with it, corrected or not. Stripe keeps no answer either for a request that
failed validation or met a concurrent one with its key; it does keep its 500s, which
here a retry would meet for a day. A request that dies without an answer (its process
killed) holds the key for LEASE at most: the next request with it then takes it over.
The action and the keeping of its answer are two commits (the action's transactions are
its own, as on every other path): should the process die or the database fail between
them, the key is held for LEASE, and a request with it after that runs the action again.
After KEPT the key is forgotten (a request with it is new), and the nightly job deletes
it (`prune`).
"""

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from peewee import IntegrityError

from app.domain.kernel.clock import from_db, to_db
from app.domain.kernel.errors import DomainError
from app.domain.kernel.ids import new_id, random_token
from app.domain.kernel.sealing import Sealer
from app.models.base import tuple_rows, write_transaction
from app.models.idempotency import IdempotencyKey

KEPT = timedelta(hours=24)
# Longer than any request may run: gunicorn ends a worker whose request takes over 30 s.
LEASE = timedelta(seconds=60)
MAX_LENGTH = 255
_PRINTABLE = re.compile(r"[!-~]([ -~]*[!-~])?")  # printable ASCII, no space at either end
# RFC 8941 3.3.3: a String is DQUOTE, then printable ASCII other than `"` and `\` or the
# escapes `\"` and `\\`, then DQUOTE.
_SF_STRING = re.compile(r'"((?:[ !#-\[\]-~]|\\["\\])*)"')
_SF_ESCAPE = re.compile(r'\\(["\\])')


class InvalidKey(DomainError):
    """400 `invalid_request`: partners read it, never the console (so plain English, not `Words`)."""

    code = "invalid_request"


def read_key(sent: str) -> str:
    """The key a header value names: 1 to 255 printable ASCII characters, or InvalidKey.
    A value that is an RFC 8941 String (the draft's form, `"8e03978e-..."`) names its
    content; any other is the key as it is (Stripe's form, `8e03978e-...`)."""
    if len(sent) > MAX_LENGTH or not _PRINTABLE.fullmatch(sent):
        raise InvalidKey(f"The Idempotency-Key header must be 1 to {MAX_LENGTH} printable ASCII characters "
                         "(a UUID is a good key).")
    quoted = _SF_STRING.fullmatch(sent)
    if quoted is None:
        return sent
    key = _SF_ESCAPE.sub(r"\1", quoted.group(1))
    if not key:
        raise InvalidKey("The Idempotency-Key header names an empty key.")
    return key


def fingerprint(credential: str, method: str, target: str, body: bytes) -> str:
    """What makes two requests the same request, as SHA-256 hex: the credential that sent
    it, the method, the path with its query, and the body. A JSON body counts by what it
    says (keys sorted, insignificant white space left out), so a retry that writes the
    same object another way is the same request; any other body counts by its bytes."""
    digest = hashlib.sha256()
    for part in (credential.encode(), method.encode(), target.encode(), _canonical(body)):
        digest.update(b"%d:" % len(part))
        digest.update(part)
    return digest.hexdigest()


def _canonical(body: bytes) -> bytes:
    try:
        return json.dumps(json.loads(body), sort_keys=True, separators=(",", ":")).encode()
    except (ValueError, RecursionError):  # not JSON (UnicodeDecodeError is a ValueError)
        return body


@dataclass(frozen=True)
class Answer:
    """An answer as it is kept and given again: no Content-Type for a body-less one."""

    status: int
    content_type: str | None
    body: bytes


@dataclass(frozen=True)
class Claimed:
    """This request holds the key: run it, then `answered` or `release`."""

    row_id: str
    lease: str


@dataclass(frozen=True)
class Replay:
    answer: Answer


@dataclass(frozen=True)
class InUse:
    """The key's first request still runs."""


@dataclass(frozen=True)
class Reused:
    """The key was sent with another request."""


Decision = Claimed | Replay | InUse | Reused


def claim(company_id: str, key: str, request: str, now: datetime, sealer: Sealer) -> Decision:
    """Claim `key` of the company for the request whose fingerprint is `request`, or say
    why not (`sealer` opens a kept answer). Call outside any transaction of the request's
    own: the claim commits at once."""
    for _ in range(3):  # a row met, then gone (released or pruned) before it was read: again
        lease = random_token(22)
        row_id = new_id("idk")
        try:
            with write_transaction():
                IdempotencyKey.insert(id=row_id, company=company_id, key=key, fingerprint=request, lease=lease,
                                      locked_until=to_db(now + LEASE), created_at=to_db(now)).execute()
            return Claimed(row_id, lease)
        except IntegrityError:
            pass  # the key is taken: by whom, and how?
        row: IdempotencyKey | None = (IdempotencyKey.select()
                                      .where(IdempotencyKey.company == company_id, IdempotencyKey.key == key)
                                      .first())
        if row is None:
            continue
        decided = _decide(row, request, now, sealer)
        if decided is not None:
            return decided
        if _take_over(row, request, lease, now):
            return Claimed(row.id, lease)
        return InUse()  # another request took it over first, and runs
    return InUse()


def _decide(row: IdempotencyKey, request: str, now: datetime, sealer: Sealer) -> Decision | None:
    """What a request meets in a taken key; None when the key is free to take over (its
    24 hours are over, or its request died before answering)."""
    if from_db(row.created_at) + KEPT <= now:
        return None
    if row.fingerprint != request:
        return Reused()
    if row.status is not None and row.body is not None:  # answered: `answered` writes both at once
        return Replay(Answer(row.status, row.content_type, sealer.open_bytes(bytes(row.body))))
    if row.locked_until is not None and from_db(row.locked_until) > now:
        return InUse()
    return None


def _take_over(row: IdempotencyKey, request: str, lease: str, now: datetime) -> bool:
    """Hold a forgotten or abandoned key for this request: only if no other request took
    it since it was read (its lease is the one read)."""
    with write_transaction():
        taken: int = (IdempotencyKey.update(fingerprint=request, lease=lease, locked_until=to_db(now + LEASE),
                                            created_at=to_db(now), status=None, content_type=None, body=None)
                      .where(IdempotencyKey.id == row.id, IdempotencyKey.lease == row.lease)
                      .execute())
    return taken == 1


def answered(claimed: Claimed, answer: Answer, sealer: Sealer) -> bool:
    """Keep the answer of the request that holds the key, its body sealed; False if it no
    longer does (it ran past its lease and another request took the key over)."""
    with write_transaction():
        kept: int = (IdempotencyKey.update(status=answer.status, content_type=answer.content_type,
                                           body=sealer.seal_bytes(answer.body), locked_until=None)
                     .where(IdempotencyKey.id == claimed.row_id, IdempotencyKey.lease == claimed.lease,
                            IdempotencyKey.status.is_null())
                     .execute())
    return kept == 1


def release(claimed: Claimed) -> None:
    """Free the key of a request that answered no success: nothing is kept for it."""
    with write_transaction():
        (IdempotencyKey.delete()
         .where(IdempotencyKey.id == claimed.row_id, IdempotencyKey.lease == claimed.lease,
                IdempotencyKey.status.is_null())
         .execute())


def prune(now: datetime, batch: int = 5000) -> int:
    """Delete the keys claimed more than KEPT ago, a batch per transaction so the nightly
    job never holds a long lock. Returns how many went."""
    cutoff, removed = to_db(now - KEPT), 0
    while True:
        with write_transaction():
            old = (IdempotencyKey.select(IdempotencyKey.id).where(IdempotencyKey.created_at < cutoff)
                   .limit(batch))
            ids = [row_id for (row_id,) in tuple_rows(old)]
            if ids:
                IdempotencyKey.delete().where(IdempotencyKey.id.in_(ids)).execute()
        removed += len(ids)
        if len(ids) < batch:
            return removed
