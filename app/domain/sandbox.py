"""Sandbox companies: generated, realistic, never real people (Contract, Sandbox).

`create_sandbox` makes one legal entity in the chosen country, ten employees
SBX-001..SBX-010 (3 nationals, 7 expatriates; 8 full time, 1 part time, 1 contract;
from months to over ten years of service)
with generated bank and ID details, and one finalized payroll run for the previous
month whose totals and journal come from the payroll code, not from typed-in figures.
Its events (ten `employee.created`, one `payroll_run.finalized`) go to the outbox like
any company's, so the nightly reconciliation finds nothing unannounced.

It comes with some leave (v1.3's listLeave and listLeaveBalances have something to
show): three approved annual leaves and a sick leave, all before the month of its run
(so no pay changes), and an annual and an unpaid leave requested for the weeks ahead.
They are its history, recorded as they stand: no `leave.*` events are written for them.

`generate` makes that data in a company that has its entity and branches, for
`create_sandbox` and for `sandbox_reset.reset`; the events a sandbox can be made to emit
on demand are sandbox_triggers.py's.
"""

import random
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import cast
from zoneinfo import ZoneInfo

import phonenumbers

from app.domain.access.companies import create_company
from app.domain.access.users import add_membership, ensure_no_sandbox
from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.countries import EXPATRIATE_POOLS, Country, get_country
from app.domain.kernel.errors import ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.money import minor_digits
from app.domain.kernel.runtime import Runtime
from app.domain.leave.days import leave_days
from app.domain.leave.law import LAWS
from app.domain.payroll.drafts import build_draft_run
from app.domain.payroll.moves import finalize_run
from app.domain.people.actions import announce
from app.models import Branch, Company, Employee, Entity, LeaveRequest, User
from app.models.base import locked, write_transaction

# (job title, department, employment type, national?, manager's position, basic in SAR)
ROSTER = (
    ("General Manager", "Management", "full_time", True, None, 38000),
    ("HR Manager", "Human Resources", "full_time", True, 1, 22000),
    ("Accountant", "Finance", "full_time", True, 1, 14000),
    ("Sales Executive", "Sales", "full_time", False, 1, 9000),
    ("Software Engineer", "Information Technology", "full_time", False, 1, 16000),
    ("Operations Supervisor", "Operations", "full_time", False, 1, 11000),
    ("Store Associate", "Retail", "part_time", False, 6, 3200),
    ("Driver", "Operations", "full_time", False, 6, 4000),
    ("Marketing Specialist", "Marketing", "contract", False, 1, 12000),
    ("Customer Service Officer", "Customer Service", "full_time", False, 2, 6500),
)
# Years of service of each position on the day the sandbox is made (give or take three
# weeks), so that its runs show every branch of the end-of-service rules: under one year
# (nothing vested in the UAE and Qatar), past 3, 5 and 10 years (the resignation shares
# of Saudi Arabia and Kuwait, the second tier everywhere, Kuwait's cap later), nationals
# among them, and in Bahrain people hired before and after the SIO scheme of March 2024.
SERVICE_YEARS = (12.3, 6.4, 0.6, 0.7, 3.6, 10.6, 1.4, 5.8, 2.5, 7.2)
# Rough value of one unit of each currency in SAR, to scale the roster's pay.
SAR_PER_UNIT = {"SAR": 1.0, "KWD": 12.2, "AED": 1.02, "QAR": 1.03, "BHD": 9.95, "OMR": 9.74}

CITIES = {"KW": "Kuwait City", "SA": "Riyadh", "AE": "Dubai", "QA": "Doha", "BH": "Manama", "OM": "Muscat"}
PHONE_FORMATS = {  # E.164 mobile numbers: country code, leading digits, subscriber digits
    "KW": ("965", "569", 7), "SA": ("966", "5", 8), "AE": ("971", "5", 8),
    "QA": ("974", "3567", 7), "BH": ("973", "3", 7), "OM": ("968", "79", 7),
}
IBAN_FORMATS = {  # total length, bank code (letters or digits), length of the rest
    "KW": (30, "NBOK", 22), "SA": (24, "80", 18), "AE": (23, "033", 16),
    "QA": (29, "QNBA", 21), "BH": (22, "NBOB", 14), "OM": (23, "018", 16),
}
# A generated name: (English, Arabic), the Arabic None where the pool has none.
NamePair = tuple[str, str | None]
# A pool of first or family names: English alone, or (English, Arabic) pairs.
NamePool = Sequence[str | tuple[str, str]]
# EXPATRIATE_POOLS as (nationality, first names, family names): mypy infers its mixed
# pools (plain names beside pairs) as tuples of Sequence[str].
EXPATRIATES = cast(Sequence[tuple[str, NamePool, NamePool]], EXPATRIATE_POOLS)
BANK_NAMES = {
    "KW": "National Bank of Kuwait", "SA": "Al Rajhi Bank", "AE": "Emirates NBD",
    "QA": "Qatar National Bank", "BH": "National Bank of Bahrain", "OM": "Bank Muscat",
}


def create_sandbox(user: User, country_code: str, runtime: Runtime, *, seed: int | None = None) -> Company:
    """The user's sandbox company (one per user), with generated data and the API on.

    The user becomes its CEO by membership only; nothing else about the user changes.
    """
    try:
        country = get_country(country_code)
    except ValueError as exc:
        raise ValidationFailed(Words("unknown country"), [("country", exc.args[0])]) from None
    rng = random.Random(seed)
    with write_transaction():
        # One per user, decided under the user's row lock: of two "Create sandbox"
        # clicks, the second waits and is refused. The unique index backs it up.
        locked(User.select(User.id).where(User.id == user.id))
        ensure_no_sandbox(user)
        company = create_company(
            f"{country.name_en} Sandbox Trading Co.", country.code, runtime.clock,
            name_ar=f"شركة {country.name_ar} التجريبية للتجارة", sandbox=True, sandbox_owner=user,
        )
        Company.update(api_enabled=True).where(Company.id == company.id).execute()
        company.api_enabled = True
        add_membership(user, company, "ceo", runtime.clock)
        entity = Entity.get(Entity.company == company.id)
        for name in ("Head Office", f"{CITIES[country.code]} Branch"):
            Branch.create(id=new_id("br"), company=company, entity=entity, name=name, created_at=to_db(runtime.now()))
        generate(company, user.email, runtime, rng)
    return company


def generate(company: Company, by: str, runtime: Runtime, rng: random.Random) -> None:
    """A sandbox's generated data, in the caller's transaction: ten employees in its
    primary entity and branches (each announced), their leave (`by`: who recorded it),
    and last month's run, finalized. What `create_sandbox` makes, and `reset` makes again."""
    country = get_country(company.country)
    entity = Entity.get(Entity.company == company.id, Entity.primary == True)  # noqa: E712
    branches = sorted(Branch.select().where(Branch.entity == entity.id),  # the head office first, as made
                      key=lambda branch: (branch.name != "Head Office", branch.created_at, branch.id))
    staff = _generate_employees(company, entity, branches, country, runtime.clock, rng)
    for employee in staff:
        announce(company, employee.id, "employee.created", runtime)
    _seed_leave(company, staff, by, runtime.clock)
    run = build_draft_run(entity, previous_month(runtime.now(), company.timezone), runtime.clock,
                          end_of_service=runtime.beyond_contract)
    finalize_run(run, runtime)


# The sandbox's leave: (roster position, type, status, first day, last day), the days
# counted from the first of the month before the sandbox's (the month of its run) when
# negative, from the sandbox's first day when positive. Long-serving people only, whose
# balance holds the annual days; the sick leave is within every law's fully paid tier;
# the unpaid leave is only asked for (approved, it would shorten service in some laws,
# and so every end-of-service figure of the sandbox's runs).
LEAVE_SEED = (
    (5, "annual", "approved", -120, -116),
    (6, "annual", "approved", -75, -71),
    (8, "annual", "approved", -40, -36),
    (7, "unpaid", "requested", 44, 45),
    (5, "sick", "approved", -20, -18),
    (6, "annual", "requested", 30, 34),
)


def _seed_leave(company: Company, staff: Sequence[Employee], by: str, clock: Clock) -> None:
    now = clock.now()
    today = now.astimezone(ZoneInfo(company.timezone)).date()
    run_month = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    for number, (position, leave_type, status, first, last) in enumerate(LEAVE_SEED, 1):
        employee = staff[position - 1]
        base = run_month if first < 0 else today
        start, end = base + timedelta(days=first), base + timedelta(days=last)
        approved, recorded = status == "approved", to_db(now + timedelta(microseconds=number))
        LeaveRequest.create(
            id=new_id("leave"), company=company.id, employee=employee.id, type=leave_type, status=status,
            start_date=start, end_date=end, days=leave_days(LAWS[employee.country], leave_type, start, end),
            requested_by=by, decided_by=by if approved else None, created_at=recorded,
            decided_at=to_db(now) if approved else None, updated_at=recorded)


def previous_month(moment: datetime, timezone: str) -> str:
    """"YYYY-MM" of the month before `moment`'s month in `timezone`."""
    local = moment.astimezone(ZoneInfo(timezone)).date()
    last_of_previous = local.replace(day=1) - timedelta(days=1)
    return last_of_previous.strftime("%Y-%m")


def _generate_employees(company: Company, entity: Entity, branches: Sequence[Branch], country: Country,
                        clock: Clock, rng: random.Random) -> list[Employee]:
    now = clock.now()
    today = now.date()
    domain = f"{country.code.lower()}-sandbox.example.com"
    expat_pools = list(EXPATRIATES)
    rng.shuffle(expat_pools)
    used_names: set[tuple[str, str]] = set()
    created: list[Employee] = []
    # The annual leave balance a former system carried a year ago (app/domain/leave/carried.py),
    # for those employed then: a sandbox does not hold years of leave history.
    carried_as_of = today.replace(day=1) - timedelta(days=1)
    carried_as_of = carried_as_of.replace(year=carried_as_of.year - 1)
    for position, (title, department, kind, national, manager_pos, basic_sar) in enumerate(ROSTER, 1):
        if national:
            nationality = country.nationality
            first, family = pick_name(rng, country.national_first_names,
                                      country.national_family_names, used_names)
        else:
            nationality, first_names, family_names = expat_pools[position % len(expat_pools)]
            first, family = pick_name(rng, first_names, family_names, used_names)
        name_en = f"{first[0]} {family[0]}"
        name_ar = f"{first[1]} {family[1]}" if first[1] and family[1] else None
        basic = scaled_minor(basic_sar * rng.uniform(0.92, 1.08), country.currency)
        hire_date = today - timedelta(days=round(SERVICE_YEARS[position - 1] * 365) + rng.randint(-21, 21))
        employee = Employee.create(
            id=new_id("emp"), company=company, entity=entity,
            branch=branches[0] if position <= 3 or position % 2 else branches[1],
            manager=created[manager_pos - 1] if manager_pos else None,
            staff_number=f"SBX-{position:03d}", name_en=name_en, name_ar=name_ar,
            job_title=title, department=department, status="active", employment_type=kind,
            country=country.code,
            contact_email=f"{first[0]}.{family[0]}".lower().replace("-", "").replace(" ", "") + f"@{domain}",
            contact_phone=phone_number(rng, country.code), hire_date=hire_date,
            # Distinct creation instants keep "oldest first" in staff-number order.
            created_at=to_db(now + timedelta(microseconds=position)),
            updated_at=to_db(now),
            nationality=nationality, is_national=national,
            basic_salary_minor=basic,
            housing_allowance_minor=_round_minor(basic * 0.25, country.currency),
            transport_allowance_minor=_round_minor(basic * 0.10, country.currency),
            other_allowance_minor=_other_allowance(rng, kind, country.currency),
            bank_name=BANK_NAMES[country.code], iban=_iban(rng, country.code),
            civil_id=_civil_id(rng, country.code, national),
            passport_number=f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(1000000, 9999999)}",
            date_of_birth=date(today.year - rng.randint(24, 58), rng.randint(1, 12), rng.randint(1, 28)),
            social_insurance_number=str(rng.randint(10**9, 10**10 - 1)) if national else None,
            leave_carried_days=Decimal((position * 7) % 20 + 4) if hire_date <= carried_as_of else None,
            leave_carried_as_of=carried_as_of if hire_date <= carried_as_of else None,
        )
        created.append(employee)
    return created


def pick_name(rng: random.Random, first_names: NamePool, family_names: NamePool,
              used: set[tuple[str, str]]) -> tuple[NamePair, NamePair]:
    def pair(value: str | tuple[str, str]) -> NamePair:
        return value if isinstance(value, tuple) else (value, None)

    while True:
        first, family = pair(rng.choice(first_names)), pair(rng.choice(family_names))
        if (first[0], family[0]) not in used:
            used.add((first[0], family[0]))
            return first, family


def scaled_minor(amount_sar: float, currency: str) -> int:
    """A SAR figure in `currency`, rounded to a tidy 10 major units, as minor units."""
    major = amount_sar / SAR_PER_UNIT[currency]
    tidy = max(10, round(major / 10) * 10)
    unit: int = 10 ** minor_digits(currency)
    return tidy * unit


def _other_allowance(rng: random.Random, kind: str, currency: str) -> int:
    """Some full-timers and contractors get a small fixed allowance; part-timers none."""
    return 0 if kind == "part_time" else scaled_minor(rng.choice((0, 300, 500)), currency)


def _round_minor(amount_minor: float, currency: str) -> int:
    """Round to a whole major unit, as allowances usually are."""
    unit: int = 10 ** minor_digits(currency)
    return int(round(amount_minor / unit)) * unit


def phone_number(rng: random.Random, country_code: str) -> str:
    """A mobile number in E.164 that libphonenumber (which HR input is checked with)
    accepts for the country."""
    code, leading, digits = PHONE_FORMATS[country_code]
    while True:
        number = f"+{code}{rng.choice(leading)}{rng.randint(0, 10**digits - 1):0{digits}d}"
        if phonenumbers.is_valid_number(phonenumbers.parse(number)):
            return number


def _iban(rng: random.Random, country_code: str) -> str:
    """A syntactically valid IBAN (ISO 13616 check digits) for a made-up account."""
    length, bank, rest = IBAN_FORMATS[country_code]
    bban = bank + "".join(str(rng.randint(0, 9)) for _ in range(rest))
    assert len(bban) + 4 == length
    return country_code + iban_check_digits(country_code, bban) + bban


def iban_check_digits(country_code: str, bban: str) -> str:
    rearranged = bban + country_code + "00"
    numeric = "".join(str(int(ch, 36)) for ch in rearranged)
    return f"{98 - int(numeric) % 97:02d}"


def _civil_id(rng: random.Random, country_code: str, national: bool) -> str:
    if country_code == "AE":
        return f"784{rng.randint(1960, 2001)}{rng.randint(0, 10**8 - 1):08d}"
    if country_code == "SA":  # national ID starts with 1, resident's iqama with 2
        return f"{1 if national else 2}{rng.randint(0, 10**9 - 1):09d}"
    lengths = {"KW": 12, "QA": 11, "BH": 9, "OM": 8}
    n = lengths[country_code]
    return str(rng.randint(10 ** (n - 1), 10**n - 1))
