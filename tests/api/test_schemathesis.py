"""Schemathesis against every published operation, in process (WSGI), on whichever
database the suite runs: what `st run --checks all` does from this folder, held at 0
failures. Every check runs; the cases are those of schemathesis' own phases that need no
links between operations (the schema's examples, the coverage phase's boundary and
near-boundary values, valid and invalid fuzzing), in both generation modes.

The OpenAPI document says what the service enforces (a cursor is not empty, a webhook URL
has a length, a sandbox trigger may be refused with 409). What no document can say is in
`schemathesis.toml`, beside the README, which `st run` reads too: a cursor or an `after`
is an id only the service issued (an unknown one is 400), a webhook URL must resolve to a
public address (422), an Idempotency-Key sent before with another request is 422 on every
POST, and an ingest answers a bad event inside its 207 (Contract, Errors).

A check of this suite's holds those allowances to their reasons. The stateful phase
(operations chained by the links schemathesis infers: make an endpoint, then read it) is
`st run`'s alone; tests/api/test_openapi_conformance.py walks those chains by hand.

Driven through Hypothesis with schemathesis' own test builder, as its pytest plugin
builds tests: the plugin itself reads a private attribute that pytest 9 no longer has."""

from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks
from schemathesis.config import SchemathesisConfig
from schemathesis.generation.hypothesis.builder import HypothesisTestConfig, HypothesisTestMode, create_test

from app.limits import make_limiter
from tests.conftest import bearer
from tests.helpers import ADDITION_NAMES, CONTRACT_NAMES

checks.load_all_checks()
CONFIG = Path(__file__).resolve().parents[2] / "schemathesis.toml"
EXAMPLES = 30  # fuzzed cases per operation; the coverage phase adds its own


@pytest.fixture
def operations(app, transaction, monkeypatch):
    # Hundreds of requests on one key: the rate limit is tested elsewhere.
    monkeypatch.setattr(app.extensions["authenticator"], "limiter", make_limiter(10**6))
    schema = schemathesis.openapi.from_wsgi("/v1/openapi.json", app, config=SchemathesisConfig.from_path(CONFIG))
    found = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        found[operation.definition.raw["operationId"]] = operation
    return found


# What schemathesis.toml lets a schema-valid request be refused with, and the only reasons
# it may give (a 400's detail begins with one; a 422 names only these fields, or is an
# Idempotency-Key sent before with another request).
UNKNOWABLE = {400: ("Unknown cursor: ", "after: no event ", "after: no journal entry ", "to: must not be before `from`",
                    "to: must be at most 62 days after `from`"),
              422: ("url", "employee_id", "payroll_run_id", "set")}
BETWEEN_REQUESTS = "idempotency_key_reused"


def refused_only_as_the_config_says(ctx, response, case):
    """This suite's own check beside schemathesis' (ST901 when it fails): an allowance of
    schemathesis.toml hides no rule the document could state. A schema-valid request it
    lets be refused is refused for the config's reason alone (an unknown cursor or
    `after`, a range out of order, a URL the service will not deliver to); an invalid
    ingest it lets be answered 207 has an event `rejected` in it."""
    if case.meta is None:
        return None
    status = response.status_code
    if not case.meta.generation.mode.is_positive:
        if status == 207 and not any(result["status"] == "rejected" for result in response.json()["results"]):
            raise AssertionError(f"invalid events answered 207 with none rejected: {response.json()}")
        return None
    if status not in UNKNOWABLE or str(status) not in (ctx.config.positive_data_acceptance.expected_statuses or ()):
        return None
    problem = response.json()
    if status == 422 and problem.get("code") == BETWEEN_REQUESTS:
        return None
    said = [problem.get("detail", "")] if status == 400 else [error["path"] for error in problem.get("errors", ())]
    if not said or not all(reason.startswith(UNKNOWABLE[status]) for reason in said):
        raise AssertionError(f"refused for a reason the document could state: {problem}")
    return None


@pytest.mark.parametrize("operation_id", sorted(CONTRACT_NAMES | ADDITION_NAMES))
def test_every_operation_holds_under_every_check(operations, operation_id, sandbox, make_key):
    operation = operations[operation_id]
    headers = bearer(make_key(sandbox))
    every_check = checks.CHECKS.get_all()  # --checks all

    def holds(case):
        case.call_and_validate(headers=headers, checks=every_check,
                               additional_checks=[refused_only_as_the_config_says])

    test = create_test(operation=operation, test_func=holds, config=HypothesisTestConfig(
        project=operation.schema.config,
        modes=[HypothesisTestMode.EXAMPLES, HypothesisTestMode.COVERAGE, HypothesisTestMode.FUZZING],
        settings=settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                          suppress_health_check=list(HealthCheck))))
    test()
