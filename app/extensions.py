"""The shared objects, created unbound here and bound in `create_app`."""

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from app.api.openapi import PartnerApi
from app.models import db

api = PartnerApi()


def connect_redis(url):
    """A Redis client for request paths: one immediate retry (a pooled connection that a
    Redis restart closed) and short timeouts. redis-py's default retries with backoff
    for seconds, which would stall every request while Redis is down, where the rate
    limiter and the principal cache are meant to fall back at once."""
    return redis.Redis.from_url(url, retry=Retry(NoBackoff(), 1), socket_connect_timeout=0.5, socket_timeout=1)


__all__ = ["api", "connect_redis", "db"]
