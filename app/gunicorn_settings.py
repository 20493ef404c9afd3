"""gunicorn's settings for the Procfile's `web` and the systemd unit:

    gunicorn -c python:app.gunicorn_settings wsgi:app

From the environment: HOST (127.0.0.1: behind the proxy on the same VM) and PORT (8000)
to bind, WEB_CONCURRENCY (4) sync workers, and LOG_FORMAT (with `json`, gunicorn's own
lines are JSON too). Request lines up to MAX_REQUEST_LINE, so that an over-long URL gets
the app's problem answer, no control socket (app/serve.py), and 30 s for requests in
flight to finish at a stop or a reload (HUP). `flask --app wsgi serve` runs with the same limits (app/serve.py).
"""

import os

from app.serve import CONTROL_SOCKET_DISABLE, MAX_REQUEST_LINE
from app.telemetry import gunicorn_logging

bind = f"{os.environ.get('HOST') or '127.0.0.1'}:{os.environ.get('PORT') or '8000'}"
workers = int(os.environ.get("WEB_CONCURRENCY") or 4)
limit_request_line = MAX_REQUEST_LINE
control_socket_disable = CONTROL_SOCKET_DISABLE
graceful_timeout = 30
logconfig_dict = gunicorn_logging((os.environ.get("LOG_FORMAT") or "text").strip().lower()) or {}
