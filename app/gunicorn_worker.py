"""gunicorn's sync worker, answering what gunicorn itself refuses as the API does: a
request line or a header over gunicorn's limits, a request line, header or chunked body
it cannot parse, get an `application/problem+json` (code `invalid_request`, with a
request id) instead of gunicorn's HTML page, so a partner's client reads those refusals
the same way (Contract, Errors). Its log line, the only one such a request gets (it never
reaches the app), names the refusal, never the request line (it may hold a token).
Anything else (a proxy-protocol or TLS fault, an unsupported transfer coding) is
gunicorn's own handling. Used by the Procfile's `web` and `serve`.
"""

import json
import logging
import secrets

from gunicorn.http import errors
from gunicorn.util import write_nonblock
from gunicorn.workers.sync import SyncWorker

log = logging.getLogger("app.request")

# gunicorn's refusal -> (HTTP status, reason phrase, what to tell the client)
REFUSALS = (
    (errors.LimitRequestLine, 414, "URI Too Long", "The request line is longer than the server reads (8,190 "
                                                   "characters); URLs here are at most 4,096."),
    (errors.LimitRequestHeaders, 431, "Request Header Fields Too Large", "A request header is too large, or there "
                                                                         "are too many."),
    ((errors.InvalidRequestLine, errors.InvalidRequestMethod, errors.InvalidHTTPVersion, errors.InvalidHeader,
      errors.InvalidHeaderName, errors.ObsoleteFolding, errors.InvalidChunkSize, errors.ChunkMissingTerminator,
      errors.InvalidChunkExtension), 400, "Bad Request", "The request is not valid HTTP/1.1."),
)


class ProblemWorker(SyncWorker):
    def handle_error(self, req, client, addr, exc):
        refusal = next(((status, reason, detail) for kind, status, reason, detail in REFUSALS
                        if isinstance(exc, kind)), None)
        if refusal is None:
            return super().handle_error(req, client, addr, exc)
        status, reason, detail = refusal
        request_id = f"req_{secrets.token_hex(12)}"
        errors_url = (getattr(self.wsgi, "config", {}) or {}).get("ERRORS_URL") or "/errors"
        body = json.dumps({"type": f"{errors_url}#invalid_request", "title": "The request is not valid",
                           "status": status, "code": "invalid_request", "request_id": request_id,
                           "detail": detail}).encode()
        head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
                f"Content-Length: {len(body)}\r\nX-Request-Id: {request_id}\r\n\r\n").encode("latin-1")
        log.warning("refused before the app: %s (%d) request_id=%s", type(exc).__name__, status, request_id)
        try:
            write_nonblock(client, head + body)
        except OSError:
            pass  # the client has gone
        return None
