"""Opaque identifiers: a short type prefix and 22 random base62 characters (~131 bits).

Never sequential and never derived from data (DESIGN.md, IDs).
"""

import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def random_token(length):
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def new_id(prefix):
    return f"{prefix}_{random_token(22)}"
