"""Webhooks (v1.2): endpoints a credential registers, the URL rules that keep deliveries
off private networks (`urls`), the signature (`signing`), and deliveries with their
retry schedule (`deliveries`)."""
