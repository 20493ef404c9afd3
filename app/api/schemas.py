"""Schemas shared by every resource: Problem, localized name, pages, common args."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from flask import has_app_context
from marshmallow import EXCLUDE, RAISE, Schema, fields, pre_load, validate

from app.api.problems import CODES
from app.domain.kernel.clock import parse_rfc3339
from app.domain.kernel.text import ascii_int
from app.extensions import beyond_contract
from config import ADDITIONS


class OpenSchema(Schema):
    """The base of every schema of the API. v1 adds fields (Contract, Versioning 4 and 5),
    so no object in the published document may forbid properties it does not list:
    apispec writes `additionalProperties: false` for marshmallow's default
    `unknown = RAISE`, and a generated client would then reject tomorrow's responses.
    The service, in turn, ignores fields it does not know in request bodies, and while
    v1.3 is not live (LIVE_RELEASES) its fields in a JSON body are fields it does not
    know."""

    class Meta:
        unknown = EXCLUDE

    @pre_load
    def _additions_unknown_while_off(self, data: Any, **kwargs: Any) -> Any:  # Any: the raw input, JSON of any kind
        if not isinstance(data, dict) or not has_app_context() or beyond_contract():
            return data
        added = {field.data_key or name for name, field in self.load_fields.items()
                 if field.metadata.get("x-release") == ADDITIONS}
        return {key: value for key, value in data.items() if key not in added} if added & data.keys() else data


class StrictSchema(OpenSchema):
    """The request body of an operation this service adds (v1.3): a field it does not
    know is refused (422 `validation_failed` naming it), so a misspelt option is never
    silently taken for its default. The document says so (`additionalProperties: false`).
    The contract's own bodies stay lenient (OpenSchema), as v1 has always taken them."""

    class Meta:
        unknown = RAISE


class ProblemErrorSchema(OpenSchema):
    path = fields.String(required=True, metadata={"example": "events[0].at"})
    message = fields.String(required=True, metadata={"example": "Must carry a UTC offset."})


class ProblemSchema(OpenSchema):
    """Every error under /v1 (`application/problem+json`)."""

    type = fields.String(required=True, metadata={"example": "https://api.example.com/errors#not_found"})
    title = fields.String(required=True, metadata={"description": "Human text; do not branch on it."})
    status = fields.Integer(required=True, metadata={"example": 404})
    code = fields.String(required=True, metadata={
        "description": f"Stable code; branch on this. One of {', '.join(f'`{code}`' for code in CODES)}; "
                       "tolerate codes added later.",
        "example": "not_found"})
    request_id = fields.String(required=True, metadata={"description": "Same as the X-Request-Id header."})
    detail = fields.String(metadata={"description": "What exactly was wrong, for a developer to read."})
    errors = fields.List(
        fields.Nested(ProblemErrorSchema),
        metadata={"description": "Only for `validation_failed`: one item per invalid field."},
    )


class LocalizedNameSchema(OpenSchema):
    en = fields.String(required=True)
    ar = fields.String(allow_none=True, required=True)


def page_schema(item_schema: type[Schema], name: str) -> type[Schema]:
    """A Page envelope schema class for `item_schema`."""
    return OpenSchema.from_dict(
        {
            "data": fields.List(fields.Nested(item_schema), required=True),
            "next_cursor": fields.String(
                allow_none=True, required=True,
                metadata={"description": "Pass back as `cursor` for the next page; null on the last page."},
            ),
        },
        name=name,
    )


class QueryInteger(fields.Integer):
    """A whole number in a query string, written with the digits 0-9 (kernel/text.py):
    marshmallow's Integer takes what int() takes, "١٠", " 10" and "1_0" among them."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> int:
        number = ascii_int(value)
        if number is None:
            raise self.make_error("invalid", input=value)
        return number


class PageArgsSchema(OpenSchema):
    limit = QueryInteger(
        load_default=50, validate=validate.Range(min=1, max=200),
        error_messages={"invalid": "a whole number written with the digits 0-9"},
        metadata={"description": "Page size, 1 to 200."},
    )
    cursor = fields.String(
        validate=validate.Length(min=1, error="must not be empty: pass back the previous page's next_cursor, or "
                                              "leave cursor out for the first page"),
        metadata={"description": "Opaque `next_cursor` of the previous page. One this query was not given "
                                 "(altered, from other filters, or empty) is 400 `invalid_request`."})


UPDATED_SINCE = {
    "type": "string", "format": "date-time", "x-release": ADDITIONS,
    "description": "Beyond the contract (v1.3): only the items whose partner form changed at or after this "
                   "time (their `updated_at`, which an internal change never moves), oldest change first, "
                   "ties by id. Keep the largest `updated_at` you saw and ask again from it: a tie is sent "
                   "again rather than missed (deduplicate by `id`).",
}


class Rfc3339(fields.Field):
    """An RFC 3339 time with its offset (`2026-11-20T00:00:00Z`), as everywhere in v1."""

    default_error_messages = {
        "invalid": "an RFC 3339 time with its offset, e.g. 2026-11-20T00:00:00Z",
        "plus": "an RFC 3339 time with its offset; in a query string send the offset's + as %2B (a bare + reads "
                "as a space), e.g. 2026-11-20T00:00:00%2B03:00",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> datetime:
        moment = parse_rfc3339(value)
        if moment is None:
            # "...00:00:00 03:00": a `+` that a query string decoded into a space.
            plus = isinstance(value, str) and parse_rfc3339(value[:-6] + "+" + value[-5:]) is not None \
                and value[-6:-5] == " "
            raise self.make_error("plus" if plus else "invalid")
        return moment
