"""The Partner API: one flask-smorest Blueprint per resource, schemas beside it.

Views parse with a schema, call one domain function and answer with the partner-safe
form from `app.domain.partner_safe`. The response schemas document those forms in the
OpenAPI document; `json_response` sends the already-built dict without a second pass
through marshmallow (the read path is benchmarked against bare Flask).
"""

import json

from flask import Response


def json_response(data, status=200):
    return Response(json.dumps(data, ensure_ascii=False, separators=(",", ":")), status=status,
                    mimetype="application/json")
