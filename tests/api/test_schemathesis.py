"""Schemathesis against every published operation, in process (WSGI), on whichever
database the suite runs: generated valid and invalid requests, and every check but
`positive_data_acceptance` (a valid-looking id or cursor may still name nothing) and,
for ingest only, `negative_data_rejection` (the contract answers per-event problems
inside a 207). A bounded number of examples keeps the suite in its time budget.

Driven through Hypothesis directly: schemathesis' own pytest integration reads a private
attribute that pytest 9 no longer has."""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode, checks
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from app.api.ratelimit import make_limiter
from tests.conftest import bearer
from tests.helpers import ADDITION_NAMES, CONTRACT_NAMES

checks.load_all_checks()
EXAMPLES = 30


@pytest.fixture
def operations(app, transaction, monkeypatch):
    # Hundreds of requests on one key: the rate limit is tested elsewhere.
    monkeypatch.setattr(app.extensions["authenticator"], "limiter", make_limiter(10**6))
    schema = schemathesis.openapi.from_wsgi("/v1/openapi.json", app)
    found = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        found[operation.definition.raw["operationId"]] = operation
    return found


@pytest.mark.parametrize("mode", list(GenerationMode), ids=lambda mode: mode.value)
@pytest.mark.parametrize("operation_id", sorted(CONTRACT_NAMES | ADDITION_NAMES))
def test_every_operation_holds_under_generated_input(operations, operation_id, mode, sandbox, make_key):
    excluded = [positive_data_acceptance]
    if operation_id == "ingestAttendanceEvents":
        excluded.append(negative_data_rejection)
    used = [check for check in checks.CHECKS.get_all() if check not in excluded]
    headers = bearer(make_key(sandbox))

    @given(case=operations[operation_id].as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def holds(case):
        case.call_and_validate(headers=headers, checks=used)

    holds()
