import random
from datetime import UTC, datetime

import pytest

from app.domain.sandbox import IBAN_FORMATS, _iban, previous_month


@pytest.mark.parametrize("country", sorted(IBAN_FORMATS))
def test_generated_ibans_pass_the_iso_13616_check(country):
    rng = random.Random(1)
    for _ in range(50):
        iban = _iban(rng, country)
        assert len(iban) == IBAN_FORMATS[country][0]
        numeric = "".join(str(int(ch, 36)) for ch in iban[4:] + iban[:4])
        assert int(numeric) % 97 == 1


def test_previous_month_is_taken_in_the_company_timezone():
    # 21:30 UTC on 31 October is already 1 November in Dubai (UTC+4).
    moment = datetime(2026, 10, 31, 21, 30, tzinfo=UTC)
    assert previous_month(moment, "Asia/Dubai") == "2026-10"
    assert previous_month(moment, "UTC") == "2026-09"
    assert previous_month(datetime(2026, 1, 15, tzinfo=UTC), "Asia/Kuwait") == "2025-12"
