"""Signing in to the console: passwords, server-held sessions and password resets.

- Passwords are hashed with Argon2id; one rule (10 to 1024 characters) wherever a
  password is set.
- A session is a row (`ConsoleSession`) whose random token the browser's cookie carries;
  only the token's SHA-256 is stored. Signing out ends that session; a new password (set
  by the user, an operator or a reset link) and an operator's "end sessions" end all of
  the user's sessions, at once, in every process.
- "Forgot password" makes a single-use link valid 30 minutes, stored hashed. Using it
  sets the new password and so ends every session.
"""

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.models import ConsoleSession, PasswordReset, User
from app.models.base import write_transaction

SESSION_LIFETIME = timedelta(hours=12)
RESET_LIFETIME = timedelta(minutes=30)
MIN_PASSWORD_LENGTH = 10
MAX_PASSWORD_LENGTH = 1024  # Argon2 takes any length; this bounds the work one attempt costs

_hasher = PasswordHasher()
_unknown_user_hash: list[str] = []  # a hash to verify against when no user matches (made once)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(user: User, password: Any) -> bool:
    if not user.password_hash:
        return False
    try:
        return _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def authenticate(email: Any, password: Any) -> User | None:
    """The user with this email and password, or None.

    An unknown email costs the same Argon2 verification as a wrong password, so the
    time taken does not tell which emails have accounts. A hash made with older
    parameters is upgraded on a successful sign-in.
    """
    try:
        email = normalize_email(email)
    except ValidationFailed:
        email = None
    user = User.get_or_none(User.email == email) if email else None
    if user is None or not user.password_hash:
        if not _unknown_user_hash:
            _unknown_user_hash.append(hash_password("no such user"))
        try:
            _hasher.verify(_unknown_user_hash[0], password or "")
        except VerificationError:
            pass
        return None
    if not check_password(user, password or ""):
        return None
    if _hasher.check_needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
        user.save(only=[User.password_hash])
    return user


def normalize_email(email: str) -> str:
    email = (email or "").strip().lower()
    local, at, domain = email.partition("@")
    if not (local and at and "." in domain) or " " in email or len(email) > 254:
        raise ValidationFailed(Words("invalid email"),
                               [("email", Words("%(value)r is not an email address", value=email))])
    return email


def check_password_rule(password: Any) -> None:
    """The one rule for every console password, wherever it is set."""
    length = len(password or "")
    if not MIN_PASSWORD_LENGTH <= length <= MAX_PASSWORD_LENGTH:
        message = Words("must be %(minimum)s to %(maximum)s characters (this one has %(length)s)",
                        minimum=MIN_PASSWORD_LENGTH, maximum=MAX_PASSWORD_LENGTH, length=length)
        raise ValidationFailed(Words("password refused"), [("password", message)])


def set_password(email: str, password: str, clock: Clock) -> User:
    """Give the user with this email a new password; all their console sessions end."""
    check_password_rule(password)
    user = User.get_or_none(User.email == normalize_email(email))
    if user is None:
        raise NotFound(Words("no user %(email)s", email=email))
    _replace_password(user, password, clock)
    return user


def _replace_password(user: User, password: str, clock: Clock) -> None:
    with write_transaction():
        user.password_hash = hash_password(password)
        user.save(only=[User.password_hash])
        end_all_sessions(user, clock)


# ---- sessions ------------------------------------------------------------------------


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start_session(user: User, clock: Clock) -> str:
    """A new session for `user`; returns the token for the browser's cookie (shown once)."""
    token = secrets.token_urlsafe(32)
    now = clock.now()
    ConsoleSession.create(token_hash=_hash(token), user=user.id, created_at=to_db(now),
                          expires_at=to_db(now + SESSION_LIFETIME))
    return token


def user_of_session(token: object, clock: Clock) -> User | None:
    """The user whose session `token` is, while it holds; else None. One query."""
    if not isinstance(token, str) or not token:
        return None
    user: User | None = (User.select(User).join(ConsoleSession)
                         .where(ConsoleSession.token_hash == _hash(token), ConsoleSession.ended_at.is_null(),
                                ConsoleSession.expires_at > to_db(clock.now()))
                         .first())
    return user


def end_session(token: object, clock: Clock) -> None:
    if isinstance(token, str) and token:
        (ConsoleSession.update(ended_at=to_db(clock.now()))
         .where(ConsoleSession.token_hash == _hash(token), ConsoleSession.ended_at.is_null()).execute())


def end_all_sessions(user: User, clock: Clock) -> int:
    """End every session of the user at once; how many held."""
    ended: int = (ConsoleSession.update(ended_at=to_db(clock.now()))
                  .where(ConsoleSession.user == user.id, ConsoleSession.ended_at.is_null()).execute())
    return ended


# ---- password resets -----------------------------------------------------------------


def request_password_reset(email: Any, clock: Clock) -> tuple[User, str] | None:
    """(user, token for the link) for a user with this email, else None; the caller
    answers the same either way, so the answer never tells whether an email has an
    account. Earlier unused links of the user stop working."""
    try:
        user = User.get_or_none(User.email == normalize_email(email))
    except ValidationFailed:
        return None
    if user is None:
        return None
    token = secrets.token_urlsafe(32)
    now = clock.now()
    with write_transaction():
        (PasswordReset.update(used_at=to_db(now))
         .where(PasswordReset.user == user.id, PasswordReset.used_at.is_null()).execute())
        PasswordReset.create(token_hash=_hash(token), user=user.id, created_at=to_db(now),
                             expires_at=to_db(now + RESET_LIFETIME))
    return user, token


def reset_link_holds(token: object, clock: Clock) -> bool:
    """Whether a reset link may still be used (to show its form, or say it is spent)."""
    return (isinstance(token, str) and PasswordReset.select()
            .where(PasswordReset.token_hash == _hash(token), PasswordReset.used_at.is_null(),
                   PasswordReset.expires_at > to_db(clock.now())).exists())


def reset_password(token: object, password: str, clock: Clock) -> User:
    """Use a reset link: the new password is set and every session of the user ends.
    The link is spent by a conditional update, so two uses at once set one password."""
    check_password_rule(password)
    now = to_db(clock.now())
    presented = token if isinstance(token, str) else ""  # not text: no link it could be
    with write_transaction():
        spent = (PasswordReset.update(used_at=now)
                 .where(PasswordReset.token_hash == _hash(presented), PasswordReset.used_at.is_null(),
                        PasswordReset.expires_at > now).execute())
        if not spent:
            raise Conflict(Words("This reset link was used already or has expired; ask for a new one."))
        user = User.select().join(PasswordReset).where(PasswordReset.token_hash == _hash(presented)).get()
        _replace_password(user, password, clock)
    return user
