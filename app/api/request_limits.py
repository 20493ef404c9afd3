"""What every request must be before any view reads it, API and console alike.

- The URL at most 4,096 characters (414). gunicorn reads request lines up to 8,190
  (Procfile, `serve`), so an over-long URL gets this answer, not gunicorn's HTML page.
- No NUL in the path (no id holds one: 404) or in the query (400). PostgreSQL cannot
  even compare text with a NUL, so it must not reach a query.
- A declared body over MAX_CONTENT_LENGTH is 413 before any of it is read (Contract,
  Limits: 1 MB).

Under /v1 each is a problem (`app/api/problems.py`); the console shows its error page.
"""

from flask import abort, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge, RequestURITooLarge

from app.api.problems import ApiProblem, is_api_request

MAX_URL_LENGTH = 4096


def refuse_hostile_request():
    # Read from the raw environ: this runs on every request, before anything is parsed.
    environ = request.environ
    query = environ.get("QUERY_STRING", "")
    url_length = len(environ.get("RAW_URI") or "") or len(environ.get("PATH_INFO", "")) + len(query) + 1
    if url_length > MAX_URL_LENGTH:
        if is_api_request():
            raise ApiProblem("invalid_request", f"The URL is {url_length} characters; at most {MAX_URL_LENGTH}.",
                             status=414)
        raise RequestURITooLarge()
    if "\x00" in request.path:
        if is_api_request():
            raise ApiProblem("not_found", "No such resource or path.")
        abort(404)
    for name, value in (request.args.items(multi=True) if "%00" in query else ()):
        if "\x00" in name or "\x00" in value:
            if is_api_request():
                raise ApiProblem("invalid_request", f"The query parameter `{name.replace(chr(0), '')}` holds a "
                                                    "NUL character.")
            abort(400)
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is not None and request.content_length > limit:
        raise RequestEntityTooLarge()


def register(app):
    app.before_request(refuse_hostile_request)
