import pytest

from app import create_app
from app.limits import make_limiter
from config import DEV_SECRET_KEY, ConfigurationError, ProductionConfig


@pytest.mark.parametrize("secret", [None, "", DEV_SECRET_KEY, "too-short"])
def test_production_refuses_to_start_without_a_real_secret_key(monkeypatch, secret):
    # The check runs before anything is wired, so no database is touched.
    monkeypatch.setattr(ProductionConfig, "SECRET_KEY", secret)
    with pytest.raises(ConfigurationError, match="SECRET_KEY"):
        create_app(ProductionConfig)


@pytest.mark.parametrize("limit", [0, -5, 60_000_001])
def test_rate_limit_setting_out_of_range_is_refused(limit):
    with pytest.raises(ConfigurationError, match="RATE_LIMIT_PER_MINUTE"):
        make_limiter(limit)


@pytest.mark.parametrize("setting,value", [("WEBHOOK_DNS_SERVERS", "dns.google"),
                                           ("WEBHOOK_ALLOW_PRIVATE_NETWORKS", "10.0.0.0/33")])
def test_a_webhook_network_setting_that_cannot_be_read_stops_the_start(tmp_path, setting, value):
    with pytest.raises(ConfigurationError, match=setting):
        create_app(DATABASE_URL=f"sqlite:///{tmp_path}/x.db", **{setting: value})
