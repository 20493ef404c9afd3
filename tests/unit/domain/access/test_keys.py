"""Scopes of a key: parsed, checked, in the contract's order (no database here)."""

import pytest

from app.domain.access import keys
from app.domain.kernel.errors import ValidationFailed


def test_scopes_come_back_in_the_contracts_order_without_repeats():
    assert keys.parse_scopes("payroll:read, employees:read payroll:read") == ["employees:read", "payroll:read"]
    assert keys.parse_scopes(["webhooks:manage", "", "attendance:read"]) == ["attendance:read", "webhooks:manage"]
    assert keys.parse_scopes("") == []


def test_every_unknown_scope_is_named():
    with pytest.raises(ValidationFailed) as refused:
        keys.parse_scopes("employees:read,employees:write payroll")
    assert [path for path, _ in refused.value.errors] == ["scopes", "scopes"]
    assert "'employees:write'" in refused.value.errors[0][1] and "'payroll'" in refused.value.errors[1][1]
