"""Settings, read from the environment.

`Config` holds safe development defaults (SQLite file, no Redis). `ProductionConfig`
refuses to start without a real SECRET_KEY. Tests pass overrides to `create_app`.
Reading this module never fails: `check()`, run by `create_app`, says what is wrong
with a setting as a `ConfigurationError`, which `wsgi.py` prints as one line.
"""

import os

DEV_SECRET_KEY = "dev-only-secret-key-do-not-use-in-production"
# The contract's releases, and v1.3: what this service adds beyond the contract, only ever
# additively (new fields, values, operations), marked `x-release: v1.3` in the document.
ALL_RELEASES = ("v1.0", "v1.1", "v1.2", "v1.3")
ADDITIONS = "v1.3"
INTEGER_SETTINGS = ("RATE_LIMIT_PER_MINUTE", "PROXY_HOPS", "WEBHOOK_CLAIM_SECONDS", "SWEEP_SECONDS",
                    "OAUTH_ACCESS_TOKEN_SECONDS", "OAUTH_REFRESH_TOKEN_SECONDS", "READY_MAX_LAG_SECONDS")


class ConfigurationError(RuntimeError):
    """A setting that the service cannot start with; the message names it and says why."""


def _flag(name, default):
    """An on/off setting: 1, true, yes or on (any case) is on; unset is `default`."""
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes", "on")


def _csv(value):
    return tuple(part.strip() for part in value.split(",") if part.strip())


def _integer(name, default):
    """The setting as an int, or as given (for `check()` to refuse) when it is not one."""
    value = os.environ.get(name) or default
    try:
        return int(value)
    except ValueError:
        return value


class Config:
    ENV_NAME = "development"
    SECRET_KEY = os.environ.get("SECRET_KEY") or DEV_SECRET_KEY  # set but empty is unset, as elsewhere
    # Earlier secret keys, newest first, comma-separated: after a rotation, console sessions
    # and sealed webhook secrets made under them still open (Flask's own setting).
    SECRET_KEY_FALLBACKS = _csv(os.environ.get("SECRET_KEY_FALLBACKS", ""))
    DATABASE_URL = os.environ.get("DATABASE_URL", "sqlite:///instance/partner_api.db")
    REDIS_URL = os.environ.get("REDIS_URL") or None
    # Where the `type` URLs of problem responses point. Unset: this service's own `/errors`
    # page, at the address the request came to (behind a proxy, the one the client used).
    ERRORS_URL = os.environ.get("ERRORS_URL") or None
    # Operations that answer: every one of these releases, and these single operations
    # (contract names) besides. The contract's own status today is LIVE_RELEASES= (empty)
    # with LIVE_OPERATIONS=getCompany. Others answer 404 `not_found`. The fields v1.3 adds
    # to contract operations are sent only while v1.3 is in LIVE_RELEASES.
    LIVE_RELEASES = _csv(os.environ.get("LIVE_RELEASES", ",".join(ALL_RELEASES)))
    LIVE_OPERATIONS = _csv(os.environ.get("LIVE_OPERATIONS", ""))
    RATE_LIMIT_PER_MINUTE = _integer("RATE_LIMIT_PER_MINUTE", 600)
    # Without Redis (or while it is down) the rate limit and sign-in throttles count in this
    # SQLite file, shared by every process of the host, so they hold exactly under any
    # number of gunicorn workers (app/limits.py). Unset: beside a SQLite database
    # (`<its file>.ratelimit`), else `instance/rate_limits.sqlite`.
    RATE_LIMIT_FILE = os.environ.get("RATE_LIMIT_FILE") or None
    # Contract, Limits: request bodies over 1 MB are refused with 413.
    MAX_CONTENT_LENGTH = 1024 * 1024
    # How often "last used" of an API key is written, at most (seconds).
    KEY_LAST_USED_RESOLUTION = 60
    # Without Redis, background jobs run on a thread of each process (app/jobs/queues.py).
    JOBS_AUTOSTART = True
    # OAuth 2.0 (preview): /oauth/* answers, and /v1 takes access tokens, only while on
    # (off in production). Token lifetimes in seconds; a code lives 60 (Contract, Limits).
    OAUTH_PREVIEW = _flag("OAUTH_PREVIEW", True)
    OAUTH_ACCESS_TOKEN_SECONDS = _integer("OAUTH_ACCESS_TOKEN_SECONDS", 3600)
    OAUTH_REFRESH_TOKEN_SECONDS = _integer("OAUTH_REFRESH_TOKEN_SECONDS", 30 * 24 * 3600)
    # How often the sweeper queues attendance the database says is due and no queue holds
    # (clock events written while Redis was down): the longest such work waits. Events
    # and webhook attempts are the drain's, every few seconds (app/jobs/outbox.py).
    SWEEP_SECONDS = _integer("SWEEP_SECONDS", 60)
    # /readyz says "not ready" when the oldest event not yet dispatched, or the oldest
    # webhook attempt due, has waited longer than this: the jobs are not keeping up.
    READY_MAX_LAG_SECONDS = _integer("READY_MAX_LAG_SECONDS", 300)
    # Log lines as plain text, or one JSON object each ("json").
    LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
    # GET /metrics (Prometheus) answers only with `Authorization: Bearer <METRICS_TOKEN>`;
    # unset, it is 404. With several processes (gunicorn's workers, the RQ worker) each
    # writes its counters under METRICS_DIR and a scrape adds them up (app/ops/metrics.py).
    METRICS_TOKEN = os.environ.get("METRICS_TOKEN") or None
    METRICS_DIR = os.environ.get("METRICS_DIR") or None
    # Webhooks go to public addresses only; addresses in these networks (CIDRs, comma-
    # separated) pass too, also over http://: a developer's machine, the tests, an ERP on
    # the VM's own network (app/domain/webhooks/urls.py).
    WEBHOOK_ALLOW_PRIVATE_NETWORKS = os.environ.get("WEBHOOK_ALLOW_PRIVATE_NETWORKS", "")
    # A worker's claim on the webhook attempts it sends lasts this long (its lease): it sends
    # one only while 12 s are left (the 10-second limit, 2 s to record the answer). One
    # whose worker stopped or froze is taken over by the next drain (app/jobs/outbox.py,
    # every 4 s), so within 28 s, and sent again (same event id).
    WEBHOOK_CLAIM_SECONDS = _integer("WEBHOOK_CLAIM_SECONDS", 24)
    # CA certificates (PEM) the webhook sender trusts; unset: the system's.
    WEBHOOK_CA_FILE = os.environ.get("WEBHOOK_CA_FILE") or None
    # DNS servers ("address[:port]", comma-separated) that resolve webhook hosts; unset:
    # the system's resolver (app/egress.py).
    WEBHOOK_DNS_SERVERS = os.environ.get("WEBHOOK_DNS_SERVERS", "")

    # Console sessions: a signed cookie, unreadable by scripts, not sent on cross-site
    # requests. Production also marks it Secure (HTTPS only).
    SESSION_COOKIE_NAME = "console_session"
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_SECURE = False
    PERMANENT_SESSION_LIFETIME = 12 * 3600
    # Every console form carries a CSRF token, checked by the console's blueprints
    # (not app-wide: the Partner API takes no cookies, so it needs none).
    WTF_CSRF_CHECK_DEFAULT = False
    WTF_CSRF_TIME_LIMIT = None  # tokens live as long as the session they belong to
    # Sign-in attempts per email and per client address, per 15 minutes (shared via Redis).
    LOGIN_ATTEMPTS_PER_EMAIL_AND_ADDRESS = 10  # per 15 minutes
    LOGIN_ATTEMPTS_PER_ADDRESS = 100  # per 15 minutes
    LOGIN_ATTEMPTS_PER_EMAIL_PER_HOUR = 50  # across all addresses; refuses wrong passwords only
    # Email (password-reset links; later, webhook-disable notices). Unset: written to the log.
    SMTP_URL = os.environ.get("SMTP_URL") or None
    MAIL_FROM = os.environ.get("MAIL_FROM", "Partner API console <no-reply@partner-api.invalid>")
    # Reverse proxies in front of the service whose X-Forwarded-For/-Proto to trust.
    PROXY_HOPS = _integer("PROXY_HOPS", 0)

    API_TITLE = "Partner HR and Payroll API"
    # info.version: what Python packaging and SemVer both take, so generated clients install
    # (v1 with this service's v1.3 additions); the contract's own is CONTRACT_VERSION.
    API_VERSION = "1.3.0"
    CONTRACT_VERSION = "1.0.0-draft.1"
    OPENAPI_VERSION = "3.0.3"
    OPENAPI_URL_PREFIX = "/v1"
    OPENAPI_JSON_PATH = "openapi.json"
    JSON_SORT_KEYS = False

    @classmethod
    def check(cls):
        for name in INTEGER_SETTINGS:
            if not isinstance(getattr(cls, name), int):
                raise ConfigurationError(f"{name} must be a whole number, not {getattr(cls, name)!r}")
        if cls.LOG_FORMAT not in ("text", "json"):
            raise ConfigurationError(f"LOG_FORMAT must be text or json, not {cls.LOG_FORMAT!r}")


class TestConfig(Config):
    ENV_NAME = "test"
    TESTING = True
    SECRET_KEY = "test-secret-key"
    DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "sqlite:///:memory:")
    REDIS_URL = os.environ.get("TEST_REDIS_URL") or None
    JOBS_AUTOSTART = False  # tests run jobs themselves


class ProductionConfig(Config):
    ENV_NAME = "production"
    SESSION_COOKIE_SECURE = True
    # The VM guide puts one TLS-terminating proxy (nginx or Caddy) in front of gunicorn.
    PROXY_HOPS = _integer("PROXY_HOPS", 1)
    OAUTH_PREVIEW = _flag("OAUTH_PREVIEW", False)

    @classmethod
    def check(cls):
        """Refuse to start with a missing or development secret key."""
        super().check()
        if not cls.SECRET_KEY or cls.SECRET_KEY == DEV_SECRET_KEY or len(cls.SECRET_KEY) < 32:
            raise ConfigurationError(
                "SECRET_KEY must be set to a random value of at least 32 characters "
                "in production (for example: python -c 'import secrets; print(secrets.token_urlsafe(48))')"
            )


def rate_limit_file(settings):
    """Where the host's processes count requests without Redis (see RATE_LIMIT_FILE)."""
    if settings.get("RATE_LIMIT_FILE"):
        return settings["RATE_LIMIT_FILE"]
    url = settings["DATABASE_URL"]
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return url[len("sqlite:///"):] + ".ratelimit"
    return "instance/rate_limits.sqlite"


def serve_key_file(settings):
    """Where `serve` keeps its demo key's secret, sealed: beside the SQLite file it serves
    (`<its file>.serve-key`), else `instance/serve-key.sealed`."""
    url = settings["DATABASE_URL"]
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return url[len("sqlite:///"):] + ".serve-key"
    return "instance/serve-key.sealed"


def config_from_env():
    """The config class APP_ENV names: development (default), production."""
    name = os.environ.get("APP_ENV", "development")
    configs = {"development": Config, "production": ProductionConfig}
    if name not in configs:
        raise ConfigurationError(f"APP_ENV must be one of {', '.join(configs)}, not {name!r}")
    return configs[name]


def web_server() -> dict[str, object]:
    """gunicorn's settings from the environment, for the Procfile's `web` and the systemd
    unit (app/gunicorn_settings.py): HOST (127.0.0.1: behind the proxy on the same VM)
    and PORT (8000) to bind, WEB_CONCURRENCY (4) sync workers, and the LOG_FORMAT."""
    host, port, workers = os.environ.get("HOST") or "127.0.0.1", _integer("PORT", 8000), _integer("WEB_CONCURRENCY", 4)
    for name, value in (("PORT", port), ("WEB_CONCURRENCY", workers)):
        if not isinstance(value, int) or value < 1:
            raise ConfigurationError(f"{name} must be a positive whole number, not {value!r}")
    return {"bind": f"{host}:{port}", "workers": workers, "log_format": config_from_env().LOG_FORMAT}
