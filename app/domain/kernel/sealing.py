"""Sealing secrets the service must read back (webhook signing secrets, and answers kept
for an Idempotency-Key, which may hold one): encrypted with keys derived from the app's
SECRET_KEY, so a copy of the database alone reveals none.

Fernet (AES-128-CBC + HMAC-SHA256, from `cryptography`) with one key per secret key,
derived by HKDF-SHA256 for this purpose only. The first key seals; every key opens, so
after SECRET_KEY is rotated (the old one moved to SECRET_KEY_FALLBACKS) secrets sealed
under the old key still open, and `reseal` moves them to the new one.
"""

import base64
from collections.abc import Iterable

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


class Sealer:
    def __init__(self, secret_keys: Iterable[str | bytes], purpose: str = "webhook-secret") -> None:
        keys = [key for key in secret_keys if key]
        if not keys:
            raise ValueError("a Sealer needs at least one secret key")
        self._fernet = MultiFernet([Fernet(_derive(key, purpose)) for key in keys])

    def seal(self, text: str) -> str:
        return self._fernet.encrypt(text.encode()).decode("ascii")

    def open(self, sealed: str) -> str:
        """The text, or ValueError if no current or fallback key opens it."""
        return self.open_bytes(sealed.encode("ascii")).decode()

    def seal_bytes(self, data: bytes) -> bytes:
        return self._fernet.encrypt(data)

    def open_bytes(self, sealed: bytes) -> bytes:
        """The bytes, or ValueError if no current or fallback key opens them."""
        try:
            return self._fernet.decrypt(sealed)
        except InvalidToken:
            raise ValueError("sealed with a key this service no longer has") from None

    def reseal(self, sealed: str) -> str:
        """The same text sealed with the current key."""
        return self._fernet.rotate(sealed.encode("ascii")).decode("ascii")


def _derive(secret_key: str | bytes, purpose: str) -> bytes:
    material = secret_key.encode() if isinstance(secret_key, str) else secret_key
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose.encode()).derive(material)
    return base64.urlsafe_b64encode(key)
