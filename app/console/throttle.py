"""Sign-in attempts, counted three ways so that knowing someone's email is not enough to
lock them out, while guessing stays slow:

- per email and client address (10 in 15 minutes) and per client address (100 in 15
  minutes): refused before the password is even checked;
- per email across all addresses (50 in an hour): a slower ceiling that refuses only
  wrong passwords, so the owner still signs in while others guess from many addresses.

Each counter is a limiter of `app/limits.py`: exact across processes, through
Redis or the host's limits file.
"""

from dataclasses import dataclass

from app.extensions import service


@dataclass(frozen=True)
class SignInThrottle:
    by_email_and_address: object
    by_address: object
    by_email: object

    def refusal_before_checking(self, email, address, now_us):
        """The refusing decision if this address, or this address for this email, has
        tried too often; else None. Counts the attempt."""
        for limiter, key in ((self.by_email_and_address, f"{_normal(email)} {address}"), (self.by_address, address)):
            verdict = limiter.hit(key, now_us)
            if not verdict.allowed:
                return verdict
        return None

    def ceiling_reached(self, email, now_us):
        """The refusing decision if the email's own ceiling is reached (counts the attempt)."""
        verdict = self.by_email.hit(_normal(email), now_us)
        return None if verdict.allowed else verdict


def _normal(email):
    return (email or "").strip().lower()


def sign_in_throttle() -> SignInThrottle:
    """This app's sign-in throttle (create_app makes it over Redis or RATE_LIMIT_FILE)."""
    return service("sign_in_throttle", SignInThrottle)
