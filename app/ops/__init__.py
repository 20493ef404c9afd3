"""What the operator's tools read, outside /v1 and without a key: `/healthz` (the
process answers), `/readyz` (it can do its work), `/metrics` (Prometheus, behind
METRICS_TOKEN), and one log line per request and per job."""
