"""What create_app builds once per app and the rest of the app reaches from inside an
app context (jobs, the console, the CLI), each through a typed accessor: the Runtime
handed to domain actions, the mailer, the webhook sender and pacer, Redis, the OAuth
server. What belongs to one area is reached through `service()` by an accessor of that
area (the job queue in app/jobs/queues.py, the sign-in throttle in app/console/throttle.py,
the authenticator and the OpenAPI document in app/api). Plus the Redis client maker the
web processes use."""

from typing import TypeVar

import redis
from authlib.integrations.flask_oauth2 import AuthorizationServer
from flask import current_app
from redis.backoff import NoBackoff
from redis.retry import Retry

from app.domain.kernel.runtime import Runtime
from app.domain.webhooks.sending import Pacer
from app.egress import Sender
from app.mail import LogMailer, SmtpMailer

Made = TypeVar("Made")


def service(name: str, kind: type[Made]) -> Made:
    """What create_app made under `name`, which is a `kind`."""
    made = current_app.extensions[name]
    if not isinstance(made, kind):
        raise TypeError(f"app.extensions[{name!r}] is a {type(made).__name__}, not a {kind.__name__}")
    return made


def runtime() -> Runtime:
    """This app's Runtime (app/domain/kernel/runtime.py): its clock and its hand-offs."""
    return service("runtime", Runtime)


def beyond_contract() -> bool:
    """Whether what v1.3 adds past the contract is live on this app (LIVE_RELEASES): the
    one switch, read once by create_app into the Runtime (app/domain/kernel/runtime.py)."""
    return bool(runtime().beyond_contract)


def mailer() -> LogMailer | SmtpMailer:
    """This app's mailer (app/mail.py): SMTP, or the log."""
    made = current_app.extensions["mailer"]
    if not isinstance(made, LogMailer | SmtpMailer):
        raise TypeError(f"app.extensions['mailer'] is a {type(made).__name__}, not a mailer of app/mail.py")
    return made


def delivery_pacer() -> Pacer:
    """Webhook endpoints' paces (`rate_limit`, v1.3), counted across workers (app/limits.py, SharedPacer)."""
    return service("delivery_pacer", Pacer)  # type: ignore[type-abstract]  # a runtime-checkable Protocol


def webhook_sender() -> Sender:
    """This app's pinned HTTP sender for webhook deliveries (app/egress.py)."""
    return service("webhook_sender", Sender)


def redis_client() -> redis.Redis | None:
    """This app's Redis client (REDIS_URL), or None without Redis."""
    return service("redis", redis.Redis) if current_app.extensions["redis"] is not None else None


def oauth_server() -> AuthorizationServer:
    """This app's OAuth 2.0 authorization server (app/oauth/server.py; Authlib's)."""
    return service("oauth_server", AuthorizationServer)


def connect_redis(url):
    """A Redis client for request paths: one immediate retry (a pooled connection that a
    Redis restart closed) and short timeouts. redis-py's default retries with backoff
    for seconds, which would stall every request while Redis is down, where the rate
    limiter and the principal cache are meant to fall back at once."""
    return redis.Redis.from_url(url, retry=Retry(NoBackoff(), 1), socket_connect_timeout=0.5, socket_timeout=1)
