"""The accounts a payroll journal posts to, and each company's own chart (issue 34, v1.3).

Every account has a stable `key`, the same in every company (`basic_salaries`,
`end_of_service_provision`), a default code and name (the codes journals have always
used), and a type. HR maps a key to the company's own code and name, for the company or
for one legal entity (the entity's mapping wins). The journal's rules speak in default
codes, one per key; a line is stored with its key and the code and name in force when
its entry is posted (`in_force`), and posted lines never change. Differences (a
correction, a reversal, a true-up) are computed by key, on default codes, and posted
under the mapping in force when they are posted. Two keys may map to one code: their
lines stay apart.
"""

import re
from dataclasses import dataclass
from typing import Any

from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.countries import AGENCIES
from app.domain.kernel.errors import NotFound, ValidationFailed, Words
from app.domain.kernel.locks import hold
from app.domain.kernel.text import line_problem
from app.models import AccountMapping, Company, Entity
from app.models.base import write_transaction

TYPES = ("asset", "liability", "equity", "expense")
SPLITS = ("none", "department", "branch")  # cost centres a company's expense lines may split by


@dataclass(frozen=True)
class Account:
    key: str
    default_code: str
    name_en: str
    type: str
    name_ar: str  # every account has one (issue 50); a mapping may leave it out


CATALOG: tuple[Account, ...] = (
    Account("bank", "1010", "Bank", "asset", "البنك"),
    Account("salaries_payable", "2110", "Salaries payable", "liability", "رواتب مستحقة الدفع"),
    # Runs posted before social insurance was owed per agency carried one payable and expense.
    Account("social_insurance_payable", "2120", "Social insurance payable", "liability",
            "اشتراكات التأمينات الاجتماعية المستحقة"),
    *(Account(agency.key, *agency.payable, "liability", agency.accounts_ar[0]) for agency in AGENCIES.values()),
    Account("end_of_service_provision", "2300", "End-of-service benefits provision", "liability",
            "مخصص مكافأة نهاية الخدمة"),
    # The leave-salary provision (issue 48): annual leave earned and not yet taken or paid.
    Account("leave_provision", "2310", "Leave salary provision", "liability", "مخصص رواتب الإجازات"),
    Account("retained_earnings", "3100", "Retained earnings", "equity", "الأرباح المبقاة"),
    Account("basic_salaries", "5100", "Basic salaries", "expense", "الرواتب الأساسية"),
    Account("housing_allowances", "5110", "Housing allowances", "expense", "بدلات السكن"),
    Account("transport_allowances", "5120", "Transport allowances", "expense", "بدلات المواصلات"),
    Account("other_allowances", "5130", "Other allowances", "expense", "بدلات أخرى"),
    Account("employer_social_insurance", "5200", "Employer social insurance expense", "expense",
            "مصروف اشتراكات صاحب العمل في التأمينات الاجتماعية"),
    *(Account(f"employer_contributions_{agency.short.lower()}", *agency.expense, "expense", agency.accounts_ar[1])
      for agency in AGENCIES.values()),
    Account("end_of_service_contributions", "5210", "End-of-service contributions", "expense",
            "اشتراكات مكافأة نهاية الخدمة"),
    Account("end_of_service_expense", "5300", "End-of-service benefits expense", "expense",
            "مصروف مكافأة نهاية الخدمة"),
    Account("leave_expense", "5310", "Leave salary expense", "expense", "مصروف رواتب الإجازات"),
)
BY_KEY = {account.key: account for account in CATALOG}
BY_DEFAULT_CODE = {account.default_code: account for account in CATALOG}
CODE = re.compile(r"[!-~](?:[ -~]{0,38}[!-~])?")  # 1 to 40 printable ASCII, no space at either end
NAME_LIMIT = 100


@dataclass(frozen=True)
class Mapped:
    """An account as a company's books name it now."""

    account: Account
    code: str
    name_en: str
    name_ar: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.account.key, "code": self.code, "name": {"en": self.name_en, "ar": self.name_ar},
                "type": self.account.type, "default_code": self.account.default_code}


def chart(company_id: str, entity_id: str | None = None) -> list[Mapped]:
    """Every account as mapped now for the company, or for one of its entities (whose own
    mapping wins over the company's); an account not mapped keeps its defaults, and one
    mapped with no Arabic name keeps the default Arabic name while it keeps the default
    English one (the company's own English name has no Arabic one until HR gives it)."""
    _check_entity(company_id, entity_id)
    rows = {(row.entity, row.key): row for row in AccountMapping.select().where(
        AccountMapping.company == company_id, AccountMapping.entity.in_(["", entity_id or ""]))}
    mapped = []
    for account in CATALOG:
        row = rows.get((entity_id or "", account.key)) or rows.get(("", account.key))
        if row is None:
            mapped.append(Mapped(account, account.default_code, account.name_en, account.name_ar))
        else:  # a mapping that keeps the default English name keeps the default Arabic one
            default_ar = account.name_ar if row.name_en == account.name_en else None
            mapped.append(Mapped(account, row.code, row.name_en, row.name_ar or default_ar))
    return mapped


def mappings_of(company_id: str, entity_id: str | None = None) -> list[AccountMapping]:
    """The company's own mappings (or one entity's), as set."""
    return list(AccountMapping.select().where(AccountMapping.company == company_id,
                                              AccountMapping.entity == (entity_id or "")))


def in_force(company_id: str, entity_id: str) -> dict[str, Mapped]:
    """{default code: the account as mapped now for this entity}: what a posting applies
    (call under the company's lock, `locks.hold`, so one entry set sees one mapping)."""
    return {mapped.account.default_code: mapped for mapped in chart(company_id, entity_id)}


def set_mapping(company_id: str, key: str, code: str, clock: Clock, *, entity_id: str | None = None,
                name_en: str | None = None, name_ar: str | None = None) -> Mapped:
    """Map `key` to the company's own `code` (and name; the default name when none is
    given), for the company or one of its entities. ValidationFailed naming the field;
    nothing changes then. A code is printable ASCII (`CODE`), a name one line of text
    (kernel/text.py)."""
    account = _account(key)
    errors: list[tuple[str, str]] = []
    if not isinstance(code, str) or not CODE.fullmatch(code):
        errors.append(("code", Words("1 to 40 printable characters, with no space at either end")))
    for field, value in (("name_en", name_en), ("name_ar", name_ar)):
        if value is None:
            continue
        problem = line_problem(value) if isinstance(value, str) else None
        if problem is not None:  # a name reaches journal lines and files as it is stored
            errors.append((field, problem))
        elif not isinstance(value, str) or not value.strip() or len(value) > NAME_LIMIT:
            errors.append((field, Words("text of 1 to %(limit)s characters", limit=NAME_LIMIT)))
    if errors:
        raise ValidationFailed(Words("invalid account mapping"), errors)
    with write_transaction():
        _check_entity(company_id, entity_id)
        hold(company_id)  # a posting and a change to the chart take turns (locks.py)
        values = {"code": code, "name_en": (name_en or account.name_en).strip(),
                  "name_ar": name_ar.strip() if name_ar else None,  # None: see `chart`
                  "updated_at": to_db(clock.now())}
        updated = (AccountMapping.update(**values)
                   .where(AccountMapping.company == company_id, AccountMapping.entity == (entity_id or ""),
                          AccountMapping.key == key).execute())
        if not updated:
            AccountMapping.create(company=company_id, entity=entity_id or "", key=key, **values)
    return next(m for m in chart(company_id, entity_id) if m.account.key == key)


def reset_mapping(company_id: str, key: str, *, entity_id: str | None = None) -> Mapped:
    """Drop the company's (or the entity's) mapping of `key`: the account falls back to
    the company's mapping, or its defaults."""
    _account(key)
    with write_transaction():
        _check_entity(company_id, entity_id)
        hold(company_id)  # a posting and a change to the chart take turns (locks.py)
        (AccountMapping.delete().where(AccountMapping.company == company_id,
                                       AccountMapping.entity == (entity_id or ""), AccountMapping.key == key)
         .execute())
    return next(m for m in chart(company_id, entity_id) if m.account.key == key)


def set_split(company_id: str, by: str) -> str:
    """Split (or stop splitting) the expense lines of the company's journals by
    department or branch, from the next posting on (under the chart's lock)."""
    if by not in SPLITS:
        raise ValidationFailed(Words("unknown split"), [("by", Words("one of %(choices)s", choices=", ".join(SPLITS)))])
    with write_transaction():
        hold(company_id)  # a posting and a change to the chart take turns (locks.py)
        if not Company.update(journal_split=by).where(Company.id == company_id).execute():
            raise NotFound(Words("no company %(company)s", company=company_id))
    return by


def _account(key: str) -> Account:
    if not isinstance(key, str) or key not in BY_KEY:
        raise ValidationFailed(Words("unknown account key"), [("key", Words("one of %(choices)s",
                                                                       choices=", ".join(BY_KEY)))])
    return BY_KEY[key]


def _check_entity(company_id: str, entity_id: str | None) -> None:
    if entity_id is not None and not Entity.select().where(Entity.id == entity_id,
                                                          Entity.company == company_id).exists():
        raise NotFound(Words("no legal entity %(entity)s", entity=entity_id))
