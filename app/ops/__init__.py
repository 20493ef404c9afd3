"""What the operator's tools ask, outside /v1 and without an API key: `/healthz` (the
process answers), `/readyz` (it can do its work) and `/metrics` (Prometheus, behind
METRICS_TOKEN). The request and job log lines and the counters are app/telemetry.py and
app/metrics.py, which every entry point uses."""
