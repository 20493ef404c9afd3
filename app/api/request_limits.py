"""What every request must be before any view reads it, API and console alike.

- The URL at most 4,096 characters (414). gunicorn reads request lines up to 8,190
  (Procfile, `serve`), so an over-long URL gets this answer, not gunicorn's HTML page.
- No NUL in the path (no id holds one: 404), the query or a form field (400): PostgreSQL
  cannot even compare text with a NUL, so it must not reach a query
  (app/domain/kernel/text.py). Query and form text is decoded with replacement, so it
  never holds a lone surrogate; JSON bodies are judged field by field where they are read.
- A declared body over MAX_CONTENT_LENGTH is 413 before any of it is read (Contract,
  Limits: 1 MB).

Under /v1 each is a problem (`app/api/problems.py`); `/oauth/token` and `/oauth/revoke`
answer RFC 6749 JSON (app/oauth/routes.py); the console shows its error page.
"""

from flask import Flask, abort, current_app, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, RequestURITooLarge

from app.api.problems import ApiProblem, is_api_request
from app.domain.kernel.text import first_unstorable

MAX_URL_LENGTH = 4096
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class UnstorableField(BadRequest):
    """A query parameter or form field holding text no database can store; `field` names it."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"The field `{field}` {problem}. Nothing was changed.")
        self.field = field


def refuse_hostile_request() -> None:
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
    unstorable = first_unstorable(request.args.items(multi=True)) if "%00" in query else None
    if unstorable is not None:
        if is_api_request():
            raise ApiProblem("invalid_request", f"The query parameter `{unstorable[0]}` {unstorable[1]}.")
        raise UnstorableField(*unstorable)
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is not None and request.content_length > limit:
        raise RequestEntityTooLarge()
    if request.mimetype in FORM_TYPES and not is_api_request():
        unstorable = first_unstorable(request.form.items(multi=True))
        if unstorable is not None:
            raise UnstorableField(*unstorable)


def register(app: Flask) -> None:
    app.before_request(refuse_hostile_request)
