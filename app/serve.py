"""Run the app under gunicorn from inside the process (the `flask serve` command)."""

import contextvars

from gunicorn.app.base import BaseApplication

from app.telemetry import gunicorn_logging

# gunicorn's largest request line: URLs up to it reach the app, which answers one over
# 4,096 characters with a problem (app/api/request_limits.py), not gunicorn's HTML 414.
MAX_REQUEST_LINE = 8190
# gunicorn's sync worker, answering what gunicorn refuses itself as a problem, not HTML.
WORKER_CLASS = "app.gunicorn_worker.ProblemWorker"
# gunicorn's control socket (for `gunicornc`) is off: systemctl reload and signals do its
# work, and by default it is made under $HOME, which the service's user may not write.
CONTROL_SOCKET_DISABLE = True


class _Gunicorn(BaseApplication):
    def __init__(self, application, options):
        self.application, self.options = application, options
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return self.application


def run_gunicorn(app, host, port, workers):
    """Serve `app` until gunicorn stops.

    The flask CLI runs every command inside an app context, and gunicorn's workers fork
    from this call. Flask pushes a request's own app context only when none of this app
    is active, so in a worker that inherited the CLI's, every request would share one
    context and its `g` (one visitor's CSRF token, another key's rate-limit headers).
    gunicorn therefore runs in a new, empty context: each request pushes its own."""
    server = _Gunicorn(app, {"bind": f"{host}:{port}", "workers": workers, "limit_request_line": MAX_REQUEST_LINE,
                             "worker_class": WORKER_CLASS,
                             "control_socket_disable": CONTROL_SOCKET_DISABLE,
                             "logconfig_dict": gunicorn_logging(app.config["LOG_FORMAT"]) or {}})
    contextvars.Context().run(server.run)
