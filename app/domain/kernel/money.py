"""Money as integer minor units, rendered as exact decimal strings.

Contract, Conventions 4: KWD, BHD and OMR use 3 decimals; SAR, AED and QAR use 2.
Money is never a float: amounts are `int` minor units here and `Decimal` in arithmetic.
"""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction

from app.domain.kernel.text import ascii_digits

MINOR_DIGITS = {"KWD": 3, "BHD": 3, "OMR": 3, "SAR": 2, "AED": 2, "QAR": 2}
# The largest amount HR may enter for one pay term: far above any salary, and far enough
# inside a 64-bit column that run totals summed over many employees cannot overflow it.
MAX_AMOUNT_MINOR = 10**15


def minor_digits(currency: str) -> int:
    try:
        return MINOR_DIGITS[currency]
    except KeyError:
        raise ValueError(f"unsupported currency {currency!r}") from None


def format_minor(amount: int, currency: str, *, grouped: bool = False) -> str:
    """12505 KWD -> "12.505"; -5 SAR -> "-0.05"; grouped for people to read,
    1234567890 KWD -> "1,234,567.890" (never in the API). Exact, no float on the way."""
    digits = minor_digits(currency)
    sign = "-" if amount < 0 else ""
    whole, frac = divmod(abs(int(amount)), 10**digits)
    return f"{sign}{whole:,}.{frac:0{digits}d}" if grouped else f"{sign}{whole}.{frac:0{digits}d}"


def example_amount(currency: str) -> str:
    """An amount as HR would type it, for messages: "1250.500" KWD, "1250.50" SAR."""
    return format_minor(125050 * 10 ** (minor_digits(currency) - 2), currency)


def parse_major(text: object, currency: str) -> int:
    """"1250.5" KWD -> 1250500. Raises ValueError for text that is not a finite amount
    written as digits 0-9 with an optional sign and decimal point (Decimal alone would
    also take "١٢٥٠", "1_250" and "1e3"), or has more decimals than the currency has."""
    plain = str(text).strip()
    whole, _, fraction = plain.removeprefix("-").removeprefix("+").partition(".")
    if not (whole or fraction) or any(part and not ascii_digits(part) for part in (whole, fraction)):
        raise ValueError(f"{text!r} is not an amount")
    try:
        value = Decimal(plain)
    except InvalidOperation:
        raise ValueError(f"{text!r} is not an amount") from None
    digits = minor_digits(currency)
    scaled = value.scaleb(digits)
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{text} has more than {digits} decimals for {currency}")
    return int(scaled)


def percent_of(amount_minor: int, rate_percent: Decimal | str) -> int:
    """`rate_percent` (a Decimal or str like "9.75") of an amount, rounded half up to the minor unit."""
    share = Decimal(amount_minor) * Decimal(str(rate_percent)) / Decimal(100)
    return int(share.quantize(Decimal(1), rounding=ROUND_HALF_UP))



def round_half_up(exact: Fraction | int) -> int:
    """`exact` to the nearest whole number, a half away from zero (Decimal's ROUND_HALF_UP),
    in integers: exact however large (a Decimal quotient would round to 28 digits first),
    and a payroll of ten thousand rounds this several times an employee."""
    numerator, denominator = exact.numerator, exact.denominator
    whole = (2 * abs(numerator) + denominator) // (2 * denominator)
    return whole if numerator >= 0 else -whole
