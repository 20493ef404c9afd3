from decimal import ROUND_HALF_UP, Context, Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.kernel.money import (
    MINOR_DIGITS,
    example_amount,
    format_minor,
    parse_major,
    percent_of,
    round_half_up,
)


@pytest.mark.parametrize(
    ("amount", "currency", "text"),
    [(1250500, "KWD", "1250.500"), (5, "BHD", "0.005"), (-5, "OMR", "-0.005"),
     (123456, "SAR", "1234.56"), (7, "AED", "0.07"), (0, "QAR", "0.00"), (-1999, "SAR", "-19.99")],
)
def test_format_uses_the_currency_minor_digits(amount, currency, text):
    assert format_minor(amount, currency) == text


@given(st.integers(min_value=-(10**15), max_value=10**15), st.sampled_from(sorted(MINOR_DIGITS)))
def test_format_then_parse_is_exact_for_every_amount(amount, currency):
    text = format_minor(amount, currency)
    assert len(text.split(".")[1]) == MINOR_DIGITS[currency]
    assert parse_major(text, currency) == amount
    assert Decimal(text) == Decimal(amount).scaleb(-MINOR_DIGITS[currency])


def test_parse_refuses_more_decimals_than_the_currency_has():
    with pytest.raises(ValueError):
        parse_major("1.001", "SAR")


def test_unknown_currency_is_refused():
    with pytest.raises(ValueError):
        format_minor(1, "USD")


def test_percent_rounds_half_up_to_the_minor_unit():
    assert percent_of(1000, "10.5") == 105
    assert percent_of(1, "50") == 1  # 0.5 rounds up
    assert percent_of(3, "9.75") == 0



@pytest.mark.parametrize("text", ["lots", "", "NaN", "Infinity", "-inf", "1,000", "١٢٥٠", "1250.٥", "1_250", "1e3",
                                  "12²", ".", "-", "--1", "1.2.3"])
def test_parse_major_refuses_what_is_not_a_finite_amount_with_value_error(text):
    with pytest.raises(ValueError):
        parse_major(text, "KWD")


def test_parse_major_tolerates_surrounding_spaces():
    assert parse_major(" 12.5 ", "KWD") == 12_500


def test_grouped_amounts_are_for_people_and_keep_every_digit():
    assert format_minor(1_234_567_890, "KWD", grouped=True) == "1,234,567.890"
    assert format_minor(-123_456_789, "SAR", grouped=True) == "-1,234,567.89"
    assert format_minor(99_999, "AED", grouped=True) == "999.99"
    assert format_minor(1_234_567_890, "KWD") == "1234567.890"  # the API's form stays plain


def test_the_example_amount_has_the_currencys_own_decimals_and_parses_back():
    assert example_amount("KWD") == "1250.500" and example_amount("SAR") == "1250.50"
    for currency, digits in MINOR_DIGITS.items():
        assert parse_major(example_amount(currency), currency) == 125050 * 10 ** (digits - 2)


@given(st.integers(-10**40, 10**40), st.integers(1, 10**12))
def test_round_half_up_rounds_a_fraction_exactly_as_decimal_does_with_enough_digits(numerator, denominator):
    """Halves away from zero, as ROUND_HALF_UP; Decimal given the digits the quotient needs
    (its default 28 would round first), then quantized."""
    exact = Fraction(numerator, denominator)
    with localcontext(Context(prec=200)):
        expected = int((Decimal(numerator) / Decimal(denominator)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    assert round_half_up(exact) == expected


def test_round_half_up_on_halves_and_past_what_a_default_decimal_holds():
    assert [round_half_up(Fraction(n, 2)) for n in (-3, -1, 1, 3)] == [-2, -1, 1, 2]
    assert round_half_up(7) == 7
    # 10**26 + 1/2 - 10**-10: a quotient of Decimal's default 28 digits is 10**26 + 0.5,
    # which rounds up; the exact amount is just under the half
    just_under = Fraction(10**26) + Fraction(1, 2) - Fraction(1, 10**10)
    with localcontext(Context(prec=28)):
        assert (Decimal(just_under.numerator) / Decimal(just_under.denominator)).quantize(
            Decimal(1), rounding=ROUND_HALF_UP) == 10**26 + 1
    assert round_half_up(just_under) == 10**26
