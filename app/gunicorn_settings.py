"""gunicorn's settings for the Procfile's `web` and the systemd unit:

    gunicorn -c python:app.gunicorn_settings wsgi:app

Where to bind, how many workers and the log format are read by config.py (`web_server`:
HOST, PORT, WEB_CONCURRENCY, LOG_FORMAT; with `json`, gunicorn's own lines are JSON
too). Request lines up to MAX_REQUEST_LINE, so that an over-long URL gets the app's
problem answer (and one past it, or a header past gunicorn's limits, gets a problem from
the worker, app/gunicorn_worker.py), no control socket, and 30 s for requests in flight to finish at a stop
or a reload (HUP). `flask --app wsgi serve` runs with the same limits (app/serve.py).
"""

from app.serve import CONTROL_SOCKET_DISABLE, MAX_REQUEST_LINE, WORKER_CLASS
from app.telemetry import gunicorn_logging
from config import web_server

_settings = web_server()
bind = _settings["bind"]
workers = _settings["workers"]
limit_request_line = MAX_REQUEST_LINE
worker_class = WORKER_CLASS
control_socket_disable = CONTROL_SOCKET_DISABLE
graceful_timeout = 30
logconfig_dict = gunicorn_logging(_settings["log_format"]) or {}
