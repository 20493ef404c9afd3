"""Payroll arithmetic: per-employee lines -> run totals, components, balanced journals.

Pure functions; `app/domain/payroll/drafts.py` builds runs and `moves.py` moves them
through their states. Amounts are integer minor units throughout. A journal line is
(account code, account name, debit, credit).
"""

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from app.domain.kernel.countries import AGENCIES, Country
from app.domain.kernel.money import percent_of, round_half_up
from app.models import Employee

EARNING, DEDUCTION, EMPLOYER = "earning", "deduction", "employer_contribution"
PROVISION = "provision"  # v1.3: a month's change in a liability the employer carries (end of service, leave)
Line = tuple[str, str, int, int]  # a journal line: account code, account name, debit, credit
# A Line, its cost centre and headcount: the centre is a group name (None: unassigned), or
# once posted (split_by, name), so a line keeps what it was split by; headcount 0: whole.
SplitLine = tuple[str, str, int, int, Hashable, int]


@dataclass(frozen=True)
class ComponentType:
    code: str
    name_en: str
    name_ar: str
    kind: str
    account_code: str  # the account debited (an expense for earnings and employer contributions)
    account_name: str
    credit: tuple[str, str] | None = None  # a provision's account credited (code, name)


# In the order components are shown.
COMPONENT_TYPES = (
    ComponentType("basic", "Basic salary", "الراتب الأساسي", EARNING, "5100", "Basic salaries"),
    ComponentType("housing", "Housing allowance", "بدل السكن", EARNING, "5110", "Housing allowances"),
    ComponentType("transport", "Transport allowance", "بدل المواصلات", EARNING, "5120", "Transport allowances"),
    ComponentType("other_allowance", "Other allowances", "بدلات أخرى", EARNING, "5130", "Other allowances"),
    # Social insurance is owed to the country's agency, and the employer's share is that
    # agency's expense (countries.AGENCIES; accrual_journal).
    ComponentType("social_insurance_employee", "Social insurance (employee share)",
                  "التأمينات الاجتماعية (حصة الموظف)", DEDUCTION, "", ""),  # the agency's payable
    ComponentType("social_insurance_employer", "Social insurance (employer share)",
                  "التأمينات الاجتماعية (حصة صاحب العمل)", EMPLOYER, "", ""),  # the agency's expense
    # Bahrain, from March 2024: the employer's monthly end-of-service contribution to the
    # SIO for expatriates (Edict 109 of 2023; app/domain/payroll/end_of_service.py), owed
    # to the SIO beside social insurance.
    ComponentType("end_of_service_sio", "End-of-service contribution (SIO)", "اشتراك مكافأة نهاية الخدمة (الهيئة)",
                  EMPLOYER, "5210", "End-of-service contributions"),
    # The end-of-service benefit (app/domain/payroll/end_of_service.py): paid to a leaver
    # in the run of their last month out of the provision (Dr provision, Cr salaries
    # payable); the month's growth of the provision (Dr expense, Cr provision); and what a
    # provision no longer needs, a resignation's reduction or a lower wage (Dr provision,
    # Cr expense).
    ComponentType("end_of_service_benefit", "End-of-service benefit", "مكافأة نهاية الخدمة", EARNING,
                  "2300", "End-of-service benefits provision"),
    ComponentType("end_of_service_accrual", "End-of-service provision (month's accrual)",
                  "مخصص مكافأة نهاية الخدمة (استحقاق الشهر)", PROVISION, "5300", "End-of-service benefits expense",
                  credit=("2300", "End-of-service benefits provision")),
    ComponentType("end_of_service_release", "End-of-service provision released",
                  "تحرير مخصص مكافأة نهاية الخدمة", PROVISION, "2300", "End-of-service benefits provision",
                  credit=("5300", "End-of-service benefits expense")),
    # The leave-salary provision (app/domain/payroll/leave_provision.py; IAS 19, short-term
    # compensated absences): the annual leave earned and not taken, at a day's leave wage.
    # A leaver's unused days are paid out of it (Dr provision, Cr salaries payable); the
    # month's growth is an expense (Dr expense, Cr provision); leave taken, or what the
    # provision no longer needs, releases it (Dr provision, Cr expense).
    ComponentType("leave_encashment", "Leave encashment (unused annual leave)", "بدل الإجازة السنوية غير المستخدمة",
                  EARNING, "2310", "Leave salary provision"),
    ComponentType("leave_accrual", "Leave salary provision (month's accrual)", "مخصص رواتب الإجازات (استحقاق الشهر)",
                  PROVISION, "5310", "Leave salary expense", credit=("2310", "Leave salary provision")),
    ComponentType("leave_release", "Leave salary provision released", "تحرير مخصص رواتب الإجازات", PROVISION,
                  "2310", "Leave salary provision", credit=("5310", "Leave salary expense")),
)
COMPONENTS = {c.code: c for c in COMPONENT_TYPES}
SALARIES_PAYABLE = ("2110", "Salaries payable")
EOS_PROVISION = ("2300", "End-of-service benefits provision")  # a non-current liability
EOS_EXPENSE = ("5300", "End-of-service benefits expense")
LEAVE_PROVISION = ("2310", "Leave salary provision")  # a current liability
LEAVE_EXPENSE = ("5310", "Leave salary expense")
PROVISION_ACCOUNTS = (EOS_PROVISION, LEAVE_PROVISION)  # what a provision component credits when it accrues
OPENING_EQUITY = ("3100", "Retained earnings")  # where an entity's first provision comes from
BANK = ("1010", "Bank")


@dataclass(frozen=True)
class Pay:
    """One employee's monthly pay terms (internal fields of Employee)."""

    basic: int
    housing: int = 0
    transport: int = 0
    other_allowance: int = 0
    is_national: bool = False


@dataclass(frozen=True)
class Totals:
    gross: int
    deductions: int
    net: int
    employer_contributions: int
    total_cost: int
    provisions: int = 0  # the month's net change in provisions: accruals less releases (v1.3)


@dataclass(frozen=True)
class ComponentTotal:
    code: str
    amount: int
    employee_count: int


# How a month that is not worked whole is paid (a joiner's first, a leaver's last): the
# days employed over a 30-day month where Gulf payrolls count one (Saudi Arabia, Qatar,
# Bahrain, Oman), the month's calendar days elsewhere (UAE: its day is a year's basic
# over 365; Kuwait: its 26 is a working month for a day's wage, not the salary's). A
# whole month is the whole pay either way; so is any 30-day month worked from the same
# day. The readings, their sources and what is not confirmed (the UAE may count a 30-day
# month too): docs/reference/pay-for-part-months.md.
THIRTY_DAY_MONTH = frozenset({"SA", "QA", "BH", "OM"})


def employed_share(country_code: str, month_start: date, month_end: date, hired: date,
                   last_day: date | None) -> Fraction:
    """The part of the month's pay earned by someone employed from `hired` to `last_day`
    (None: still employed): 1 for the whole month, 0 for none of it."""
    first, last = max(hired, month_start), min(last_day or month_end, month_end)
    if last < first:
        return Fraction(0)
    if first == month_start and last == month_end:
        return Fraction(1)
    if country_code in THIRTY_DAY_MONTH:  # day 31 counts as 30; a month's last day is day 30
        first_day = min(first.day, 30)
        last_index = 30 if last == month_end else min(last.day, 30)
        return Fraction(max(last_index - first_day + 1, 0), 30)
    return Fraction((last - first).days + 1, (month_end - month_start).days + 1)


def pro_rata(pay: Pay, share: Fraction) -> Pay:
    """Every earning of `pay` for `share` of the month, each rounded half up to the minor unit."""
    if share == 1:
        return pay
    return Pay(**{name: _share_of(getattr(pay, name), share)
                  for name in ("basic", "housing", "transport", "other_allowance")}, is_national=pay.is_national)


def monthly_terms(paid: Pay, share: Fraction) -> Pay:
    """The monthly terms behind what a part month paid (`pro_rata`'s inverse, to the minor
    unit): what the end-of-service rules and Bahrain's SIO contribution are measured on."""
    if share in (0, 1):
        return paid
    return pro_rata(paid, 1 / share)


def _share_of(amount: int, share: Fraction) -> int:
    return round_half_up(amount * share)


def employee_lines(pay: Pay, country: Country, *, sio: int = 0) -> dict[str, int]:
    """{component code: amount} for one employee, zero amounts left out. `sio`: the
    month's end-of-service contribution to Bahrain's SIO (end_of_service.sio_contribution)."""
    earnings = {
        "basic": pay.basic, "housing": pay.housing,
        "transport": pay.transport, "other_allowance": pay.other_allowance,
    }
    base = sum(earnings[code] for code in country.contributory)
    if country.contributory_ceiling is not None:
        base = min(base, country.contributory_ceiling)
    rates = country.nationals if pay.is_national else country.expatriates
    lines = dict(earnings)
    lines["social_insurance_employee"] = percent_of(base, rates.employee)
    lines["social_insurance_employer"] = percent_of(base, rates.employer)
    lines["end_of_service_sio"] = sio
    return {code: amount for code, amount in lines.items() if amount}


def summarize(all_lines: Iterable[dict[str, int]]) -> tuple[list[ComponentTotal], Totals]:
    """Per-employee line dicts -> (component totals in display order, Totals)."""
    amounts: defaultdict[str, int] = defaultdict(int)
    counts: defaultdict[str, int] = defaultdict(int)
    for lines in all_lines:
        for code, amount in lines.items():
            amounts[code] += amount
            counts[code] += 1
    components = [
        ComponentTotal(c.code, amounts[c.code], counts[c.code])
        for c in COMPONENT_TYPES if counts[c.code]
    ]
    by_kind: defaultdict[str, int] = defaultdict(int)
    for component in components:
        by_kind[COMPONENTS[component.code].kind] += component.amount
    gross, deductions, employer = by_kind[EARNING], by_kind[DEDUCTION], by_kind[EMPLOYER]
    provisions = sum(c.amount if COMPONENTS[c.code].credit in PROVISION_ACCOUNTS else -c.amount
                     for c in components if COMPONENTS[c.code].kind == PROVISION)
    totals = Totals(gross, deductions, gross - deductions, employer, gross + employer, provisions)
    return components, totals


def accrual_journal(components: Iterable[ComponentTotal], country_code: str) -> list[Line]:
    """The accrual entry for a closed run of a country: expenses debited, liabilities credited.

    Dr each earning and the employer contribution to its expense account (the employer's
    social insurance to its agency's); Cr salaries payable with net pay, and the
    country's social-insurance agency (GOSI, PIFSS, ...) with both shares and whatever
    else it collects. It balances because net = gross - employee deductions. A
    provision's change is debited and credited to its own two accounts.
    """
    agency = AGENCIES[country_code]
    debits: list[Line] = []
    credits: defaultdict[tuple[str, str], int] = defaultdict(int)
    for component in components:
        kind = COMPONENTS[component.code].kind
        if kind in (EARNING, EMPLOYER, PROVISION):
            account = (agency.expense if component.code == "social_insurance_employer"
                       else (COMPONENTS[component.code].account_code, COMPONENTS[component.code].account_name))
            debits.append((*account, component.amount, 0))
        if kind == PROVISION:
            credits[COMPONENTS[component.code].credit or EOS_PROVISION] += component.amount
        if kind in (DEDUCTION, EMPLOYER):
            credits[agency.payable] += component.amount
        if kind == EARNING:
            credits[SALARIES_PAYABLE] += component.amount
        elif kind == DEDUCTION:
            credits[SALARIES_PAYABLE] -= component.amount
    lines = debits + [
        (account[0], account[1], 0, amount)
        for account, amount in sorted(credits.items()) if amount
    ]
    check_balanced(lines)
    return lines


def check_balanced(lines: Iterable[Line | SplitLine]) -> None:
    debit = sum(line[2] for line in lines)
    credit = sum(line[3] for line in lines)
    if debit != credit:
        raise AssertionError(f"journal does not balance: debit {debit} != credit {credit}")


def payment_journal(net: int) -> list[Line]:
    """Paying a run: Dr salaries payable, Cr bank, with the net pay."""
    lines = [(*SALARIES_PAYABLE, net, 0), (*BANK, 0, net)]
    check_balanced(lines)
    return lines


def net_by_account(entries: Iterable[Iterable[Line]]) -> dict[tuple[str, str], int]:
    """{(account code, name): debit minus credit} over the lines of posted entries."""
    balances: defaultdict[tuple[str, str], int] = defaultdict(int)
    for lines in entries:
        for code, name, debit, credit in lines:
            balances[(code, name)] += debit - credit
    return balances


def difference_journal(posted: Iterable[Iterable[Line]], target: Iterable[Line]) -> list[Line]:
    """The lines that move the accounts from the balances of `posted` entries to those
    of `target` lines: a correction posts this instead of editing what was posted, and
    a reversal is the difference to nothing. Balances because both sides do."""
    before, after = net_by_account(posted), net_by_account([target])
    lines: list[Line] = []
    for account in sorted(set(before) | set(after)):
        change = after.get(account, 0) - before.get(account, 0)
        if change:
            lines.append((*account, max(change, 0), max(-change, 0)))
    check_balanced(lines)
    return lines


def pay_of(employee: Employee) -> Pay:
    return Pay(
        basic=employee.basic_salary_minor, housing=employee.housing_allowance_minor,
        transport=employee.transport_allowance_minor,
        other_allowance=employee.other_allowance_minor, is_national=employee.is_national,
    )


# Cost centres (issue 34 part 2, v1.3): a run's expense lines split by the employees'
# department (or branch), never a line standing for fewer than FLOOR people.
FLOOR = 3


def floor_groups(members: dict[str, str | None]) -> dict[str, str | None]:
    """{employee: the group their amount is shown under}, from {employee: their own
    group, None when they have none}: a group under FLOOR people joins the unassigned
    (None); an unassigned group itself under FLOOR joins the smallest named group, which
    is then shown as unassigned too, so no figure can be subtracted out. Every group
    shown has FLOOR people or more, unless all of them together have fewer (one group)."""
    sizes: defaultdict[str | None, int] = defaultdict(int)
    for group in members.values():
        sizes[group] += 1
    shown = {employee: group if group is not None and sizes[group] >= FLOOR else None
             for employee, group in members.items()}
    unassigned = sum(1 for group in shown.values() if group is None)
    named: defaultdict[str, int] = defaultdict(int)
    for group in shown.values():
        if group is not None:
            named[group] += 1
    if 0 < unassigned < FLOOR and named:
        smallest = min(named, key=lambda group: (named[group], group))
        shown = {employee: None if group == smallest else group for employee, group in shown.items()}
    return shown


def split_journal(lines: list[Line], by_account: dict[tuple[str, str], dict[str, int]],
                  groups: dict[str, str | None]) -> list[SplitLine]:
    """`lines` with each expense line that `by_account` breaks down ({(code, side): {employee:
    amount}}, side "debit" or "credit") split by the employees' groups (floor_groups over
    those with an amount on it); other lines whole (group None, headcount 0). Each split
    line is the sum of its group's amounts, so an account's lines sum to its whole line."""
    out: list[SplitLine] = []
    for code, name, debit, credit in lines:
        side = "debit" if debit else "credit"
        amounts = {employee: amount for employee, amount in by_account.get((code, side), {}).items() if amount}
        if not amounts or sum(amounts.values()) != (debit or credit):
            out.append((code, name, debit, credit, None, 0))
            continue
        shown = floor_groups({employee: groups.get(employee) for employee in amounts})
        totals: defaultdict[str | None, list[int]] = defaultdict(lambda: [0, 0])
        for employee, amount in amounts.items():
            totals[shown[employee]][0] += amount
            totals[shown[employee]][1] += 1
        for group in sorted(totals, key=lambda g: (g is None, g or "")):
            amount, count = totals[group]
            out.append((code, name, amount if debit else 0, 0 if debit else amount, group, count))
    return out


def expense_side(code: str, country_code: str) -> tuple[str, str] | None:
    """Where accrual_journal posts a component's amount on an expense account: (account
    code, "debit" or "credit"); None for one posted to a liability only (a deduction, the
    end-of-service benefit or a leave encashment paid out of its provision)."""
    component = COMPONENTS[code]
    if code == "social_insurance_employer":
        return AGENCIES[country_code].expense[0], "debit"
    if component.kind == PROVISION and component.credit is not None and component.credit[0].startswith("5"):
        return component.credit[0], "credit"  # a release: Dr the provision, Cr the expense
    if component.kind in (EARNING, EMPLOYER, PROVISION) and component.account_code.startswith("5"):
        return component.account_code, "debit"
    return None


def whole(lines: Iterable[Line]) -> list[SplitLine]:
    """Lines that are not split (group None, headcount 0)."""
    return [(code, name, debit, credit, None, 0) for code, name, debit, credit in lines]


def split_difference(posted: Iterable[Iterable[SplitLine]], target: Iterable[SplitLine]) -> list[SplitLine]:
    """difference_journal for lines that may be split: the accounts are (code, name,
    group, split or not), each difference carrying the target's headcount (the posted
    one's for what the target no longer has)."""
    def account(line: SplitLine) -> tuple[str, str, Hashable, bool]:
        return line[0], line[1], line[4], line[5] > 0

    before: defaultdict[tuple[str, str, Hashable, bool], int] = defaultdict(int)
    after: defaultdict[tuple[str, str, Hashable, bool], int] = defaultdict(int)
    counts: dict[tuple[str, str, Hashable, bool], int] = {}
    for lines in posted:
        for line in lines:
            before[account(line)] += line[2] - line[3]
            counts.setdefault(account(line), line[5])
    for line in target:
        after[account(line)] += line[2] - line[3]
        counts[account(line)] = line[5]
    out: list[SplitLine] = []
    for key in sorted(set(before) | set(after), key=lambda k: (k[0], k[1], k[3], repr(k[2]))):
        change = after.get(key, 0) - before.get(key, 0)
        if change:
            out.append((key[0], key[1], max(change, 0), max(-change, 0), key[2], counts[key]))
    check_balanced(out)
    return out
