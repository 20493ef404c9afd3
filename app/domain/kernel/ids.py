"""Opaque identifiers: a short type prefix and 22 random base62 characters (~131 bits).

Never sequential and never derived from data (DESIGN.md, IDs).
"""

import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def random_token(length: int) -> str:
    """`length` base62 characters from 8 random bits each: the digits of a uniform
    8*length-bit number, whose bias toward any character is below 2**-(2*length).
    (One `secrets.choice` per character costs ten times as much; ingest makes 500 ids
    per request.)"""
    number = int.from_bytes(secrets.token_bytes(length))
    characters = []
    for _ in range(length):
        number, digit = divmod(number, 62)
        characters.append(ALPHABET[digit])
    return "".join(characters)


def new_id(prefix: str) -> str:
    return f"{prefix}_{random_token(22)}"
