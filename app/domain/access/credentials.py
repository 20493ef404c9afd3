"""One service-wide version of everything an API principal is made of.

A principal is a key, its company and the company's legal entities. Web processes keep
principals in memory so that a request needs no SQL to authenticate (bench/read_path);
they stay correct because each request reads this version from Redis in the same round
trip as its rate limit, and a process that sees a new version loads the principal again.
So a revoked key, a switched-off Partner API or a renamed entity takes effect at once in
every worker.

Every change to keys, companies or entities calls `changed()` inside its transaction.
The version is bumped then and again after commit: between the two, another process may
reload the old rows under the new version, and the second bump retires that copy. A
version is a random token, never a counter, so a Redis restart cannot bring an old one
back. Without Redis nothing is cached and this module does nothing.
"""

import logging
import secrets

import redis

from app.models import db

log = logging.getLogger(__name__)
VERSION_KEY = "partner-api:credentials-version"
_redis = None


def use_redis(client):
    """Set at start-up by `create_app`: the Redis the web processes check against."""
    global _redis
    _redis = client


def new_version():
    return secrets.token_hex(8)


def changed():
    if _redis is None:
        return
    _bump()
    if db.in_transaction():
        db.after_commit(_bump)


def _bump():
    try:
        _redis.set(VERSION_KEY, new_version())
    except redis.RedisError as exc:
        # Cached principals still expire on their own (PRINCIPAL_MAX_AGE in app/api/auth.py).
        log.error("could not bump the credentials version: %s", exc)
