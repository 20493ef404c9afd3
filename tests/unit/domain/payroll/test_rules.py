from hypothesis import given
from hypothesis import strategies as st

from app.domain.kernel.countries import COUNTRIES, get_country
from app.domain.payroll.end_of_service import provision_lines
from app.domain.payroll.rules import (
    Pay,
    accrual_journal,
    difference_journal,
    employee_lines,
    net_by_account,
    payment_journal,
    summarize,
)


def test_saudi_national_pays_gosi_on_basic_and_housing_only():
    lines = employee_lines(Pay(basic=1_000_000, housing=250_000, transport=100_000, is_national=True),
                           get_country("SA"))
    assert lines["social_insurance_employee"] == 121_875  # 9.75% of SAR 12,500.00
    assert lines["social_insurance_employer"] == 146_875  # 11.75%


def test_saudi_expatriate_costs_only_the_employer_hazard_share():
    lines = employee_lines(Pay(basic=1_000_000, housing=250_000), get_country("SA"))
    assert "social_insurance_employee" not in lines
    assert lines["social_insurance_employer"] == 25_000  # 2%


def test_contributory_wage_is_capped_at_the_ceiling():
    lines = employee_lines(Pay(basic=5_000_000, is_national=True), get_country("KW"))
    assert lines["social_insurance_employee"] == 288_750  # 10.5% of the KWD 2,750 ceiling


def test_kuwaiti_expatriate_has_no_social_insurance():
    lines = employee_lines(Pay(basic=800_000, housing=200_000), get_country("KW"))
    assert set(lines) == {"basic", "housing"}


def test_summary_counts_employees_per_component_and_derives_totals():
    country = get_country("BH")
    components, totals = summarize([
        employee_lines(Pay(basic=1_000_000, is_national=True), country),
        employee_lines(Pay(basic=500_000, transport=50_000), country),
    ])
    by_code = {c.code: c for c in components}
    assert by_code["basic"].employee_count == 2 and by_code["transport"].employee_count == 1
    assert by_code["social_insurance_employee"].amount == 80_000 + 5_500
    assert totals.gross == 1_550_000
    assert totals.net == totals.gross - totals.deductions
    assert totals.total_cost == totals.gross + totals.employer_contributions


pays = st.builds(
    Pay,
    basic=st.integers(0, 10**9), housing=st.integers(0, 10**8), transport=st.integers(0, 10**8),
    other_allowance=st.integers(0, 10**8), is_national=st.booleans(),
)


def test_a_bahrain_sio_contribution_is_an_employer_cost_owed_with_social_insurance():
    lines = employee_lines(Pay(basic=600_000, housing=200_000), get_country("BH"), sio=67_200)
    assert lines["end_of_service_sio"] == 67_200  # 8.4% of 800,000
    components, totals = summarize([lines])
    journal = accrual_journal(components, "BH")
    assert ("5210", "End-of-service contributions", 67_200, 0) in journal
    assert ("5205", "SIO employer contributions", 32_000, 0) in journal
    owed = {line[0]: line[3] for line in journal if line[3]}
    # expatriate social insurance: 1% + 4% of 800,000, and the SIO contribution beside it, all owed to the SIO
    assert owed["2125"] == 8_000 + 32_000 + 67_200 and totals.employer_contributions == 32_000 + 67_200


@given(st.lists(st.tuples(pays, st.integers(0, 10**8)), max_size=30), st.sampled_from(sorted(COUNTRIES)))
def test_accrual_journal_balances_to_the_minor_unit_for_any_run(all_pay, code):
    country = get_country(code)
    components, totals = summarize([employee_lines(p, country, sio=sio) for p, sio in all_pay])
    lines = accrual_journal(components, code)
    debit = sum(line[2] for line in lines)
    assert debit == sum(line[3] for line in lines)
    assert debit == totals.total_cost
    payable = {line[0]: line[3] for line in lines if line[3]}
    assert payable.get("2110", 0) == totals.net


def accrual_of(all_pay, code):
    components, _ = summarize([employee_lines(pay, get_country(code)) for pay in all_pay])
    return accrual_journal(components, code)


@given(st.lists(pays, max_size=12), st.lists(pays, max_size=12), st.sampled_from(sorted(COUNTRIES)))
def test_a_correction_moves_the_posted_accrual_to_the_new_one_and_balances(old, new, code):
    posted = [accrual_of(old, code)]
    correction = difference_journal(posted, accrual_of(new, code))
    assert sum(line[2] for line in correction) == sum(line[3] for line in correction)
    assert all(line[2] >= 0 and line[3] >= 0 and (line[2] == 0) != (line[3] == 0) for line in correction)
    after = net_by_account(posted + [correction])
    target = net_by_account([accrual_of(new, code)])
    assert {k: v for k, v in after.items() if v} == {k: v for k, v in target.items() if v}


@given(st.lists(pays, min_size=1, max_size=12), st.sampled_from(sorted(COUNTRIES)))
def test_a_reversal_brings_every_account_back_to_zero(all_pay, code):
    posted = [accrual_of(all_pay, code)]
    reversal = difference_journal(posted, [])
    assert not any(net_by_account(posted + [reversal]).values())


def test_payment_moves_net_pay_from_salaries_payable_to_the_bank():
    assert payment_journal(1_500) == [("2110", "Salaries payable", 1_500, 0), ("1010", "Bank", 0, 1_500)]


provision_moves = st.tuples(st.integers(0, 10**9), st.integers(0, 10**9), st.one_of(st.none(), st.floats(0, 1)))


@given(st.lists(st.tuples(pays, provision_moves), max_size=20), st.sampled_from(sorted(COUNTRIES)))
def test_end_of_service_lines_balance_and_move_the_provision_to_what_was_earned(people, code):
    """Each employee: the books carried `booked`, they have earned `earned`; a leaver is
    owed a share of it. The journal balances, the provision account moves by exactly
    (what it should carry now) - (what it carried), and net pay includes what is owed."""
    country = get_country(code)
    all_lines, carried_before, carried_after, owed_total = [], 0, 0, 0
    for pay, (booked, earned, share) in people:
        owed = None if share is None else int(earned * share)
        lines = employee_lines(pay, country)
        lines.update(provision_lines(booked, earned, owed))
        all_lines.append(lines)
        carried_before += booked
        carried_after += 0 if owed is not None else earned
        owed_total += owed or 0
    components, totals = summarize(all_lines)
    journal = accrual_journal(components, code)
    assert sum(line[2] for line in journal) == sum(line[3] for line in journal)
    provision = net_by_account([journal]).get(("2300", "End-of-service benefits provision"), 0)
    assert -provision == carried_after - carried_before
    assert totals.provisions == -provision + owed_total  # accruals less releases; the benefit is paid from it
