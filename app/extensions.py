"""What create_app builds once per app and the rest of the app reaches from inside an
app context (jobs, the console, the CLI): the Runtime handed to domain actions, the job
queue, the mailer and the webhook sender. Plus the Redis client maker the web processes use."""

import redis
from flask import current_app
from redis.backoff import NoBackoff
from redis.retry import Retry


def runtime():
    """This app's Runtime (app/domain/kernel/runtime.py): its clock and its hand-offs."""
    return current_app.extensions["runtime"]


def beyond_contract() -> bool:
    """Whether what v1.3 adds past the contract is live on this app (LIVE_RELEASES): the
    one switch, read once by create_app into the Runtime (app/domain/kernel/runtime.py)."""
    return bool(runtime().beyond_contract)


def job_queue():
    """Where this app's jobs go: RQ (with Redis) or the in-process runner (app/jobs/queues.py)."""
    return current_app.extensions["jobs"]


def mailer():
    """This app's mailer (app/mail.py): SMTP, or the log."""
    return current_app.extensions["mailer"]


def delivery_pacer():
    """Webhook endpoints' paces (`rate_limit`, v1.3), counted across workers (app/api/ratelimit.py, Pacer)."""
    return current_app.extensions["delivery_pacer"]


def webhook_sender():
    """This app's pinned HTTP sender for webhook deliveries (app/egress.py)."""
    return current_app.extensions["webhook_sender"]


def connect_redis(url):
    """A Redis client for request paths: one immediate retry (a pooled connection that a
    Redis restart closed) and short timeouts. redis-py's default retries with backoff
    for seconds, which would stall every request while Redis is down, where the rate
    limiter and the principal cache are meant to fall back at once."""
    return redis.Redis.from_url(url, retry=Retry(NoBackoff(), 1), socket_connect_timeout=0.5, socket_timeout=1)
