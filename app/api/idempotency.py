"""`Idempotency-Key` on every POST under /v1 (beyond the contract, v1.3): a POST sent
again with the same key, after a timeout or a dropped connection, gets the first answer
again (its status and body, and `Idempotent-Replayed: true`), and nothing is done twice.

`@operation` wraps every POST view in `idempotent`: after the guard (a 401, 403, 429 or
the 404 of an operation not live is decided before any key is looked at), the key is
read (400 if it is not 1 to 255 printable ASCII characters), the request's fingerprint
taken, and the key claimed for the company (app/domain/kernel/idempotency.py says
what is kept, and for how long). Then the view runs, and its answer is kept (a 2xx) or
the key freed (anything else: a 404 of an unknown endpoint or a 403 `sandbox_only`,
decided in the view, is never kept either). While v1.3 is not live, the header is ignored, as the
contract has it. The OpenAPI document says all this of every POST (app/api/openapi.py).
"""

import functools
import logging
from typing import Any

from flask import Response, current_app, g, request

from app.api import read_body
from app.api.problems import ApiProblem
from app.domain.access.principal import Principal
from app.domain.kernel import idempotency
from app.extensions import beyond_contract, runtime

log = logging.getLogger(__name__)

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"


def idempotent(view: Any) -> Any:
    """A POST view that honours `Idempotency-Key`."""

    @functools.wraps(view)
    def run(*args: Any, **kwargs: Any) -> Response:
        sent = request.headers.get(HEADER)
        if sent is None or not beyond_contract():
            return current_app.make_response(view(*args, **kwargs))
        key = idempotency.read_key(sent)
        principal: Principal = g.principal
        credential = f"{principal.kind}:{principal.credential_id}"  # one credential's answer is no other's
        request_print = idempotency.fingerprint(credential, request.method, request.full_path, read_body())
        current = runtime()
        sealer = current.sealer
        if sealer is None:
            raise RuntimeError("keeping answers needs a Runtime with the app's sealer (create_app gives it one)")
        decision = idempotency.claim(principal.company.id, key, request_print, current.now(), sealer)
        if isinstance(decision, idempotency.Replay):
            return replayed(decision.answer)
        if isinstance(decision, idempotency.Reused):
            raise ApiProblem("idempotency_key_reused", "This Idempotency-Key was sent with another request (another "
                             "body, operation or credential) in the last 24 hours; send a new key for a new request.")
        if isinstance(decision, idempotency.InUse):
            raise ApiProblem("idempotency_key_in_use", "A request with this Idempotency-Key is still running; send "
                             "it again in a moment to get its answer.")
        try:
            response = current_app.make_response(view(*args, **kwargs))
        except BaseException:
            idempotency.release(decision)
            raise
        if 200 <= response.status_code < 300 and not response.is_streamed:
            answer = idempotency.Answer(response.status_code, response.headers.get("Content-Type"),
                                        response.get_data())
            if not idempotency.answered(decision, answer, sealer):
                log.warning("request_id=%s: the answer under an Idempotency-Key was not kept: the request ran past "
                            "its lease (%s) and another took the key over", g.get("request_id"), idempotency.LEASE)
        else:
            idempotency.release(decision)
        return response

    return run


def replayed(answer: idempotency.Answer) -> Response:
    """The first answer again, saying so."""
    response = Response(answer.body, status=answer.status)
    if answer.content_type is None:
        del response.headers["Content-Type"]
    else:
        response.headers["Content-Type"] = answer.content_type
    response.headers[REPLAYED] = "true"
    return response
