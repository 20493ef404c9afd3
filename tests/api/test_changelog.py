"""The changelog (docs/reference/changelog.md, issue 51 part 5) names everything the OpenAPI
document publishes: every operation, event type and v1.3 enum value under the release
that brought it, and every field and parameter (query, path and header) somewhere on the
page. A name is named when it stands in backticks (`name`)."""

import re
from pathlib import Path

import pytest

from app.api.event_types import CATALOG

CHANGELOG = Path(__file__).resolve().parents[2] / "docs" / "reference" / "changelog.md"
TEXT = CHANGELOG.read_text(encoding="utf-8")
NAMED = set(re.findall(r"`([^`]+)`", TEXT))
RELEASE = re.compile(r"^## (v1\.\d)", re.M)


@pytest.fixture(scope="module")
def document(app):
    return app.test_client().get("/v1/openapi.json").get_json()


def sections():
    """{release: the text of its section}."""
    found = list(RELEASE.finditer(TEXT))
    return {match.group(1): TEXT[match.end():(found[n + 1].start() if n + 1 < len(found) else len(TEXT))]
            for n, match in enumerate(found)}


def operations(document):
    return [op for item in document["paths"].values() for op in item.values() if isinstance(op, dict)
            and "operationId" in op]


def properties(schema):
    """Every property name of `schema`, however deep."""
    if not isinstance(schema, dict):
        return
    for name, inner in (schema.get("properties") or {}).items():
        yield name
        yield from properties(inner)
    for key in ("items", "additionalProperties"):
        yield from properties(schema.get(key))
    for key in ("oneOf", "allOf", "anyOf"):
        for inner in schema.get(key) or ():
            yield from properties(inner)


def test_every_operation_is_named_under_the_release_that_brought_it(document):
    by_release = sections()
    assert set(by_release) == {"v1.0", "v1.1", "v1.2", "v1.3"}
    for op in operations(document):
        assert f"`{op['operationId']}`" in by_release[op["x-release"]], (op["operationId"], op["x-release"])


def test_every_field_parameter_and_header_is_named(document):
    fields = {name for schema in document["components"]["schemas"].values() for name in properties(schema)}
    parameters = {parameter["name"] for op in operations(document) for parameter in op.get("parameters", ())}
    assert not sorted((fields | parameters) - NAMED)


def test_every_event_type_and_value_v13_brought_is_named_under_its_release(document):
    by_release = sections()
    for event_type, (_, release, schema) in CATALOG.items():
        assert f"`{event_type}`" in by_release[release], event_type
        assert f"`{schema.__name__.removesuffix('Schema')}`" in TEXT, schema
    enum_releases = {value: release for schema in document["components"]["schemas"].values()
                     for value, release in _enum_releases(schema)}
    assert enum_releases and all(f"`{value}`" in by_release[release] for value, release in enum_releases.items())


def _enum_releases(schema):
    if isinstance(schema, dict):
        yield from (schema.get("x-enum-releases") or {}).items()
        for value in schema.values():
            yield from _enum_releases(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _enum_releases(value)


def test_the_changelog_is_linked_from_the_api_reference_the_readme_and_the_site():
    root = CHANGELOG.parents[2]
    assert "changelog.md" in (root / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    assert "docs/reference/changelog.md" in (root / "README.md").read_text(encoding="utf-8")
    assert "reference/changelog.md" in (root / "mkdocs.yml").read_text(encoding="utf-8")
