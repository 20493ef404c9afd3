"""The console's forms (Flask-WTF: every form carries its CSRF token).

Money fields are text in the company currency's major units ("1250.500"); the views turn
them into minor units, because how many decimals are allowed depends on the company.
"""

from collections.abc import Iterable
from typing import Any

import wtforms
from flask_babel import LazyString
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    EmailField,
    HiddenField,
    PasswordField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
    widgets,
)
from wtforms.validators import AnyOf, DataRequired, InputRequired, Length, Optional, ValidationError

from app.domain.access.keys import SCOPES
from app.domain.attendance.ingest import REF_TYPES
from app.domain.attendance.pairing import EVENT_TYPES
from app.domain.kernel.countries import COUNTRIES
from app.domain.kernel.text import ascii_digits, foreign_digit
from app.domain.leave.law import TYPES as LEAVE_TYPES
from app.domain.payroll.journal_file import QUICKBOOKS_DATE_FORMAT, QUICKBOOKS_DATE_FORMATS, XERO_TAX_RATE
from app.domain.people.actions import EDITABLE_STATUSES, EMPLOYMENT_TYPES
from app.domain.sandbox_triggers import TRIGGERS
from app.domain.webhooks.endpoints import SUBSCRIBABLE
from app.i18n import ARABIC_LETTER, as_stored, name_of
from app.i18n import lazy_text as _l


class DigitsZeroToNine:
    """A field typed as numbers whose digits must be 0-9 (app/domain/kernel/text.py):
    WTForms reads a date or time with strptime, which takes "٢٠٢٦" for a year, and a whole
    number with int(), which takes "١٠" for 10."""

    def process_formdata(self, valuelist):
        if any(isinstance(value, str) and foreign_digit(value) for value in valuelist or ()):
            self.data = None
            raise ValueError(_l("Write the digits 0 to 9."))
        super().process_formdata(valuelist)


class DateField(DigitsZeroToNine, wtforms.DateField):
    pass


class MonthField(DigitsZeroToNine, wtforms.MonthField):
    pass


class TimeField(DigitsZeroToNine, wtforms.TimeField):
    pass


class IntegerField(DigitsZeroToNine, wtforms.IntegerField):
    """A whole number of the digits 0-9 alone, as the API and the commands read one
    (`ascii_int`): int() also takes "+10", "1_0" and "١٠"."""

    def process_formdata(self, valuelist):
        typed = valuelist[0].strip() if valuelist and isinstance(valuelist[0], str) else ""
        if typed and not ascii_digits(typed):
            self.data = None
            raise ValueError(_l("Write the digits 0 to 9."))
        super().process_formdata(valuelist)


def stored_options(pairs):
    """[(value, label)] -> select options whose labels are data as stored (codes, English
    names): read left to right, as English, on an Arabic page."""
    return [SelectChoice(value, label, render_kw={"lang": "en", "dir": "ltr"}) for value, label in pairs]


def people_options(people: Iterable[Any]) -> list[SelectChoice]:
    """[employee] -> select options "SBX-001 · name", the name in the page's language where
    the employee has one, set left to right (an option holds no markup): the staff number
    first. An English name's option reads as English."""
    choices = []
    for person in people:
        name = name_of(person, plain=True)
        direction = {"dir": "ltr"} if ARABIC_LETTER.search(str(name)) else {"lang": "en", "dir": "ltr"}
        choices.append(SelectChoice(person.id, f"{person.staff_number} · {name}", render_kw=direction))
    return choices


def options(pairs):
    """[(value, label)] -> select options."""
    return [SelectChoice(value, label) for value, label in pairs]


# Each country's name in the page's language, chosen when the option is shown.
COUNTRY_CHOICES = options((code, LazyString(name_of, country, plain=True)) for code, country in COUNTRIES.items())

# Human words for the domain's values (a value missing here shows as itself, `_` as a space).
EMPLOYMENT_TYPE_WORDS = {"full_time": _l("full time"), "part_time": _l("part time"), "contract": _l("contract")}
STATUS_WORDS = {"active": _l("active"), "on_leave": _l("on leave"), "suspended": _l("suspended")}
LEAVE_TYPE_WORDS = {"annual": _l("annual leave"), "sick": _l("sick leave"), "unpaid": _l("unpaid leave"),
                    "maternity": _l("maternity leave"), "hajj": _l("Hajj leave"),
                    "bereavement": _l("bereavement leave"), "marriage": _l("marriage leave"),
                    "other": _l("other leave")}
LEAVE_STATUS_WORDS = {"requested": _l("waiting for a decision"), "approved": _l("approved"),
                      "declined": _l("declined"), "cancelled": _l("cancelled")}
PUNCH_WORDS = {"clock_in": _l("clock in"), "clock_out": _l("clock out"), "break_start": _l("break start"),
               "break_end": _l("break end")}


# What is typed in Latin letters (an email, a URL, a code, an English name) reads left to right
# on an Arabic page too, "+96550001234" included; an Arabic name right to left on an English one.
LATIN = {"dir": "ltr", "lang": "en"}
ARABIC = {"dir": "rtl", "lang": "ar"}


def worded(values, words):
    """[(value, its human words)] for select options."""
    return ((value, words.get(value, value.replace("_", " "))) for value in values)


class SignInForm(FlaskForm):
    email = EmailField(_l("Email"), validators=[DataRequired(), Length(max=254)], render_kw=LATIN)
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=1024)])


class ForgotPasswordForm(FlaskForm):
    email = EmailField(_l("Email"), validators=[DataRequired(), Length(max=254)], render_kw=LATIN)


class ResetPasswordForm(FlaskForm):
    password = PasswordField(_l("New password"), validators=[DataRequired(), Length(max=1024)],
                             description=_l("10 to 1024 characters. A few words make a phrase easy to type, "
                                            "hard to guess."))
    again = PasswordField(_l("The same again"), validators=[DataRequired(), Length(max=1024)])


class SwitchCompanyForm(FlaskForm):
    company_id = SelectField(_l("Company"), choices=[])


class CheckboxesField(SelectMultipleField):
    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


class CreateKeyForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=100)],
                       description=_l("Who uses it, e.g. \"Ledger sync (production)\"."))
    scopes = CheckboxesField(_l("Scopes"), choices=options((scope, as_stored(scope)) for scope in SCOPES))


def _pace_field():
    return IntegerField(_l("Deliveries a second, at most"), validators=[Optional()],
                        description=_l("Leave empty for no limit. The receiver's own pace, 1 to 10,000: deliveries "
                                       "wait their turn, never counted as failures."),
                        render_kw={"inputmode": "numeric", "min": "1", "max": "10000"})


class AddEndpointForm(FlaskForm):
    """A webhook endpoint made in the console for one of the company's keys; the domain
    judges the URL (app/domain/webhooks/urls.py) and the key."""

    url = StringField(_l("URL"), validators=[DataRequired(), Length(max=2048)],
                      description=_l("https:// on a public host. It is checked now and at every delivery."),
                      render_kw={"spellcheck": "false", "autocomplete": "off", "inputmode": "url", **LATIN})
    events = CheckboxesField(_l("Events"), choices=options((t, as_stored(t)) for t in SUBSCRIBABLE))
    key = SelectField(_l("Owning key"), choices=[], validate_choice=False,
                      description=_l("The integration that receives the events: the endpoint is this key's, and the "
                                     "key sees and changes it through the API. Revoking the key disables it."))
    rate_limit = _pace_field()

    def validate_events(self, field):
        # Not DataRequired: it would mark every checkbox `required`, and a browser would then
        # refuse the form until all of them were ticked.
        if not field.data:
            raise ValidationError(_l("Choose at least one event type."))


class EndpointPaceForm(FlaskForm):
    """An endpoint's pace changed (the domain judges it: 1 to 10,000, or empty for none)."""

    rate_limit = _pace_field()


class RegisterAppForm(FlaskForm):
    """An OAuth app (preview). The domain (app/domain/oauth/apps.py) judges the redirect
    URIs; its reasons are shown on the fields."""

    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=100)],
                       description=_l("Shown to customers on the consent page, e.g. \"Ledgerly\"."))
    redirect_uris = TextAreaField(_l("Redirect URIs"), validators=[DataRequired(), Length(max=20_000)],
                                  description=_l("One per line, matched exactly: https://, or http:// on 127.0.0.1 "
                                                 "or [::1] for a native app. No #fragment."),
                                  render_kw={"rows": 3, "spellcheck": "false", "autocomplete": "off", **LATIN})
    scopes = CheckboxesField(_l("Scopes"), choices=options((scope, as_stored(scope)) for scope in SCOPES))

    def uris(self):
        return [line.strip() for line in self.redirect_uris.data.splitlines() if line.strip()]


class RotateAppSecretForm(FlaskForm):
    secret_version = HiddenField(validators=[DataRequired(), Length(max=64)])


# How long a webhook endpoint's replaced secret keeps signing (rotateWebhookSecret's
# expire_previous_in), in seconds: the console's choices of that range.
OVERLAPS = (("86400", _l("24 hours (the integration switches at its pace)")), ("3600", _l("1 hour")),
            ("0", _l("No overlap: the current secret stops now")))


class RollEndpointSecretForm(FlaskForm):
    secret_version = HiddenField(validators=[DataRequired(), Length(max=64)])
    overlap = SelectField(_l("The current secret keeps signing for"), choices=options(OVERLAPS), default="86400",
                          validators=[AnyOf([value for value, _ in OVERLAPS])])


class SandboxForm(FlaskForm):
    country = SelectField(_l("Country"), choices=COUNTRY_CHOICES, validators=[InputRequired()])


class TriggerForm(FlaskForm):
    event_type = SelectField(_l("Event"), choices=stored_options((t, t) for t in TRIGGERS),
                             validators=[InputRequired()])


class EmployeeForm(FlaskForm):
    """Hire or edit. Field names are the domain's (app/domain/people/actions.py), so its
    refusals land beside the right field."""

    staff_number = StringField(_l("Staff number"), validators=[DataRequired(), Length(max=40)], render_kw=LATIN)
    name_en = StringField(_l("Name (English)"), validators=[DataRequired(), Length(max=200)], render_kw=LATIN)
    name_ar = StringField(_l("Name (Arabic)"), validators=[Optional(), Length(max=200)], render_kw=ARABIC)
    job_title = StringField(_l("Job title"), validators=[Optional(), Length(max=200)])
    department = StringField(_l("Department"), validators=[Optional(), Length(max=200)])
    employment_type = SelectField(_l("Employment type"),
                                  choices=options(worded(EMPLOYMENT_TYPES, EMPLOYMENT_TYPE_WORDS)))
    status = SelectField(_l("Status"), choices=options(worded(EDITABLE_STATUSES, STATUS_WORDS)))
    entity = SelectField(_l("Legal entity"), choices=[])
    branch = SelectField(_l("Branch"), choices=[])
    manager = StringField(_l("Manager"), validators=[Optional(), Length(max=40)], description=_l("Their staff number."),
                          render_kw=LATIN)
    hire_date = DateField(_l("Hire date"), validators=[InputRequired()])
    contact_email = StringField(_l("Work email"), validators=[Optional(), Length(max=254)],  # checked by the domain
                                render_kw=LATIN)
    contact_phone = StringField(_l("Work phone"), validators=[Optional(), Length(max=32)],
                                render_kw=LATIN)  # its example is the company's country's (employees.py)
    # ---- internal: never shown to partners
    nationality = StringField(_l("Nationality"), validators=[DataRequired(), Length(min=2, max=2)],
                              description=_l("Two-letter country code, e.g. KW, IN, EG."), render_kw=LATIN)
    basic_salary_minor = StringField(_l("Basic salary"), validators=[DataRequired()])
    housing_allowance_minor = StringField(_l("Housing allowance"), default="0")
    transport_allowance_minor = StringField(_l("Transport allowance"), default="0")
    other_allowance_minor = StringField(_l("Other allowances"), default="0")
    bank_name = StringField(_l("Bank"), validators=[Optional(), Length(max=100)])
    iban = StringField(_l("IBAN"), validators=[Optional(), Length(max=42)], render_kw=LATIN)
    civil_id = StringField(_l("Civil ID"), validators=[Optional(), Length(max=20)], render_kw=LATIN)
    passport_number = StringField(_l("Passport number"), validators=[Optional(), Length(max=20)], render_kw=LATIN)
    date_of_birth = DateField(_l("Date of birth"), validators=[Optional()])

    PARTNER_FIELDS = ("staff_number", "name_en", "name_ar", "job_title", "department", "employment_type",
                      "status", "entity", "branch", "manager", "hire_date", "contact_email", "contact_phone")
    INTERNAL_FIELDS = ("nationality", "basic_salary_minor", "housing_allowance_minor", "transport_allowance_minor",
                       "other_allowance_minor", "bank_name", "iban", "civil_id", "passport_number", "date_of_birth")
    MONEY_FIELDS = ("basic_salary_minor", "housing_allowance_minor", "transport_allowance_minor",
                    "other_allowance_minor")


class EndEmploymentForm(FlaskForm):
    termination_date = DateField(_l("Last day"), validators=[InputRequired()])
    leaving = SelectField(_l("How they leave"), choices=options((("termination", _l("The company ends it")),
                                                                ("resignation", _l("They resign")))),
                          default="termination",
                          description=_l("Kept inside the company; it decides the end-of-service benefit owed."))
    reason = TextAreaField(_l("Reason (internal)"), validators=[Optional(), Length(max=2000)],
                           description=_l("Kept inside the company; partners only see the status `left`."))


class DraftRunForm(FlaskForm):
    entity = SelectField(_l("Legal entity"), choices=[])
    month = MonthField(_l("Month"), validators=[InputRequired()])


class PayForm(FlaskForm):
    """A run's payment, on the bank's value date (app/domain/payroll/books.py judges it)."""

    on = DateField(_l("Value date"), validators=[Optional()],
                   description=_l("The day the bank paid: the payment entry is dated on it."))


class CloseBooksForm(FlaskForm):
    through = DateField(_l("Close through"), validators=[InputRequired()],
                        description=_l("The last day of the closed period, today at the latest."))


class ReopenBooksForm(FlaskForm):
    keep_through = DateField(_l("Keep closed through"), validators=[Optional()],
                             description=_l("An earlier date; left empty, every period opens."))


class JournalFileForm(FlaskForm):
    """Which file a journal download is (journal_file.py). Sent by GET, as a download
    changes nothing, so it carries no CSRF token."""

    class Meta:
        csrf = False

    file_format = SelectField(_l("Format"), default="csv", choices=options((
        ("csv", _l("CSV, every column")), ("xero", _l("Xero manual journals")),
        ("quickbooks", _l("QuickBooks Online journal entries")))))
    tax_rate = StringField(_l("Xero tax rate"), default=XERO_TAX_RATE, validators=[Optional(), Length(max=100)],
                           description=_l("For Xero: the rate's name as your organisation's tax settings spell it."),
                           render_kw=LATIN)
    date_format = SelectField(_l("QuickBooks date format"), default=QUICKBOOKS_DATE_FORMAT,
                              choices=[SelectChoice(name, name, render_kw=LATIN) for name in QUICKBOOKS_DATE_FORMATS],
                              description=_l("For QuickBooks Online: your company's date format."))


class JournalPeriodForm(JournalFileForm):
    # Ids of their own: the payroll page's draft form has an entity and a month too.
    entity = SelectField(_l("Legal entity"), choices=[], id="journal-entity")
    month = MonthField(_l("Period"), validators=[InputRequired()], id="journal-month",
                       description=_l("The month the entries are dated in."))


class AccountMappingForm(FlaskForm):
    """The company's own code and name for one journal account (app/domain/payroll/accounts.py
    judges them)."""

    entity = SelectField(_l("For"), choices=[])
    key = SelectField(_l("Account"), choices=[], validators=[InputRequired()])
    code = StringField(_l("Code"), validators=[InputRequired(), Length(max=40)],
                       description=_l("1 to 40 printable characters, as your ledger spells it."), render_kw=LATIN)
    name_en = StringField(_l("Name"), validators=[Optional(), Length(max=100)],
                          description=_l("Left empty: the account's default name."), render_kw=LATIN)
    name_ar = StringField(_l("Arabic name"), validators=[Optional(), Length(max=100)], render_kw=ARABIC)


class PunchForm(FlaskForm):
    """A punch HR enters, in the company's local time."""

    employee = SelectField(_l("Employee"), choices=[], validators=[InputRequired()])
    kind = SelectField(_l("Punch"), choices=options(worded(EVENT_TYPES, PUNCH_WORDS)))
    day = DateField(_l("Date"), validators=[InputRequired()])
    time = TimeField(_l("Time"), validators=[InputRequired()])
    branch_ref = StringField(_l("Branch"), validators=[Optional(), Length(max=100)])


class LinkForm(FlaskForm):
    """Which employee an unmatched reference means."""

    source = HiddenField(validators=[DataRequired(), Length(max=100)])
    ref_type = HiddenField(validators=[DataRequired(), AnyOf(REF_TYPES)])
    value = HiddenField(validators=[DataRequired(), Length(max=254)])
    employee = SelectField(_l("Employee"), choices=[], validators=[InputRequired()])


class LeaveForm(FlaskForm):
    """A leave HR records (app/domain/leave/requests.py judges it). The domain names the
    dates `from` and `to`; here they are `start` and `end` (`from` is Python's)."""

    employee = SelectField(_l("Employee"), choices=[], validators=[InputRequired()])
    # The domain judges the type, and its refusal lists the types.
    type = SelectField(_l("Type"), choices=options(worded(LEAVE_TYPES, LEAVE_TYPE_WORDS)), default="annual",
                       validate_choice=False)
    start = DateField(_l("From"), validators=[InputRequired()], description=_l("The first day off."))
    end = DateField(_l("To"), validators=[InputRequired()],
                    description=_l("The last day off (the same day for one day)."))
    note = TextAreaField(_l("Note (internal)"), validators=[Optional()], render_kw={"rows": 2},
                         description=_l("Kept inside the company: partners never see it."))
    approve = BooleanField(_l("Approve now"), description=_l("Left unticked, the leave waits for a decision."))

    FIELDS = {"employee": "employee", "type": "type", "from": "start", "to": "end", "note": "note"}
