"""The console's forms (Flask-WTF: every form carries its CSRF token).

Money fields are text in the company currency's major units ("1250.500"); the views turn
them into minor units, because how many decimals are allowed depends on the company.
"""

from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    EmailField,
    HiddenField,
    IntegerField,
    MonthField,
    PasswordField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
    TimeField,
    widgets,
)
from wtforms.validators import AnyOf, DataRequired, InputRequired, Length, Optional, ValidationError

from app.domain.access.keys import SCOPES
from app.domain.attendance.ingest import REF_TYPES
from app.domain.attendance.pairing import EVENT_TYPES
from app.domain.kernel.countries import COUNTRIES
from app.domain.people.actions import EDITABLE_STATUSES, EMPLOYMENT_TYPES
from app.domain.sandbox import TRIGGERS
from app.domain.webhooks.endpoints import SUBSCRIBABLE


def options(pairs):
    """[(value, label)] -> select options."""
    return [SelectChoice(value, label) for value, label in pairs]


COUNTRY_CHOICES = options((code, country.name_en) for code, country in COUNTRIES.items())


class SignInForm(FlaskForm):
    email = EmailField("Email", validators=[DataRequired(), Length(max=254)])
    password = PasswordField("Password", validators=[DataRequired(), Length(max=1024)])


class ForgotPasswordForm(FlaskForm):
    email = EmailField("Email", validators=[DataRequired(), Length(max=254)])


class ResetPasswordForm(FlaskForm):
    password = PasswordField("New password", validators=[DataRequired(), Length(max=1024)],
                             description="10 to 1024 characters. A few words make a phrase easy to type, "
                                         "hard to guess.")
    again = PasswordField("The same again", validators=[DataRequired(), Length(max=1024)])


class SwitchCompanyForm(FlaskForm):
    company_id = SelectField("Company", choices=[])


class CheckboxesField(SelectMultipleField):
    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


class CreateKeyForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=100)],
                       description="Who uses it, e.g. \"Ledger sync (production)\".")
    scopes = CheckboxesField("Scopes", choices=options((scope, scope) for scope in SCOPES))


def _pace_field():
    return IntegerField("Deliveries a second, at most", validators=[Optional()],
                        description="Leave empty for no limit. The receiver's own pace, 1 to 10,000: deliveries "
                                    "wait their turn, never counted as failures.",
                        render_kw={"inputmode": "numeric", "min": "1", "max": "10000"})


class AddEndpointForm(FlaskForm):
    """A webhook endpoint made in the console for one of the company's keys; the domain
    judges the URL (app/domain/webhooks/urls.py) and the key."""

    url = StringField("URL", validators=[DataRequired(), Length(max=2048)],
                      description="https:// on a public host. It is checked now and at every delivery.",
                      render_kw={"spellcheck": "false", "autocomplete": "off", "inputmode": "url"})
    events = CheckboxesField("Events", choices=options((t, t) for t in SUBSCRIBABLE))
    key = SelectField("Owning key", choices=[], validate_choice=False,
                      description="The integration that receives the events: the endpoint is this key's, and the "
                                  "key sees and changes it through the API. Revoking the key disables it.")
    rate_limit = _pace_field()

    def validate_events(self, field):
        # Not DataRequired: it would mark every checkbox `required`, and a browser would then
        # refuse the form until all of them were ticked.
        if not field.data:
            raise ValidationError("Choose at least one event type.")


class EndpointPaceForm(FlaskForm):
    """An endpoint's pace changed (the domain judges it: 1 to 10,000, or empty for none)."""

    rate_limit = _pace_field()


class RegisterAppForm(FlaskForm):
    """An OAuth app (preview). The domain (app/domain/oauth/apps.py) judges the redirect
    URIs; its reasons are shown on the fields."""

    name = StringField("Name", validators=[DataRequired(), Length(max=100)],
                       description="Shown to customers on the consent page, e.g. \"Ledgerly\".")
    redirect_uris = TextAreaField("Redirect URIs", validators=[DataRequired(), Length(max=20_000)],
                                  description="One per line, matched exactly: https://, or http:// on 127.0.0.1 "
                                              "or [::1] for a native app. No #fragment.",
                                  render_kw={"rows": 3, "spellcheck": "false", "autocomplete": "off"})
    scopes = CheckboxesField("Scopes", choices=options((scope, scope) for scope in SCOPES))

    def uris(self):
        return [line.strip() for line in self.redirect_uris.data.splitlines() if line.strip()]


class RotateAppSecretForm(FlaskForm):
    secret_version = HiddenField(validators=[DataRequired(), Length(max=64)])


# How long a webhook endpoint's replaced secret keeps signing (rotateWebhookSecret's
# expire_previous_in), in seconds: the console's choices of that range.
OVERLAPS = (("86400", "24 hours (the integration switches at its pace)"), ("3600", "1 hour"),
            ("0", "No overlap: the current secret stops now"))


class RollEndpointSecretForm(FlaskForm):
    secret_version = HiddenField(validators=[DataRequired(), Length(max=64)])
    overlap = SelectField("The current secret keeps signing for", choices=options(OVERLAPS), default="86400",
                          validators=[AnyOf([value for value, _ in OVERLAPS])])


class SandboxForm(FlaskForm):
    country = SelectField("Country", choices=COUNTRY_CHOICES, validators=[InputRequired()])


class TriggerForm(FlaskForm):
    event_type = SelectField("Event", choices=options((t, t) for t in TRIGGERS), validators=[InputRequired()])


class EmployeeForm(FlaskForm):
    """Hire or edit. Field names are the domain's (app/domain/people/actions.py), so its
    refusals land beside the right field."""

    staff_number = StringField("Staff number", validators=[DataRequired(), Length(max=40)])
    name_en = StringField("Name (English)", validators=[DataRequired(), Length(max=200)])
    name_ar = StringField("Name (Arabic)", validators=[Optional(), Length(max=200)])
    job_title = StringField("Job title", validators=[Optional(), Length(max=200)])
    department = StringField("Department", validators=[Optional(), Length(max=200)])
    employment_type = SelectField("Employment type",
                                  choices=options((t, t.replace("_", " ")) for t in EMPLOYMENT_TYPES))
    status = SelectField("Status", choices=options((s, s.replace("_", " ")) for s in EDITABLE_STATUSES))
    entity = SelectField("Legal entity", choices=[])
    branch = SelectField("Branch", choices=[])
    manager = StringField("Manager", validators=[Optional(), Length(max=40)], description="Their staff number.")
    hire_date = DateField("Hire date", validators=[InputRequired()])
    contact_email = StringField("Work email", validators=[Optional(), Length(max=254)])  # checked by the domain
    contact_phone = StringField("Work phone", validators=[Optional(), Length(max=32)],
                                description="International format, e.g. +96550001234.")
    # ---- internal: never shown to partners
    nationality = StringField("Nationality", validators=[DataRequired(), Length(min=2, max=2)],
                              description="Two-letter country code, e.g. KW, IN, EG.")
    basic_salary_minor = StringField("Basic salary", validators=[DataRequired()])
    housing_allowance_minor = StringField("Housing allowance", default="0")
    transport_allowance_minor = StringField("Transport allowance", default="0")
    other_allowance_minor = StringField("Other allowances", default="0")
    bank_name = StringField("Bank", validators=[Optional(), Length(max=100)])
    iban = StringField("IBAN", validators=[Optional(), Length(max=42)])
    civil_id = StringField("Civil ID", validators=[Optional(), Length(max=20)])
    passport_number = StringField("Passport number", validators=[Optional(), Length(max=20)])
    date_of_birth = DateField("Date of birth", validators=[Optional()])

    PARTNER_FIELDS = ("staff_number", "name_en", "name_ar", "job_title", "department", "employment_type",
                      "status", "entity", "branch", "manager", "hire_date", "contact_email", "contact_phone")
    INTERNAL_FIELDS = ("nationality", "basic_salary_minor", "housing_allowance_minor", "transport_allowance_minor",
                       "other_allowance_minor", "bank_name", "iban", "civil_id", "passport_number", "date_of_birth")
    MONEY_FIELDS = ("basic_salary_minor", "housing_allowance_minor", "transport_allowance_minor",
                    "other_allowance_minor")


class EndEmploymentForm(FlaskForm):
    termination_date = DateField("Last day", validators=[InputRequired()])
    leaving = SelectField("How they leave", choices=options((("termination", "The company ends it"),
                                                             ("resignation", "They resign"))),
                          default="termination",
                          description="Kept inside the company; it decides the end-of-service benefit owed.")
    reason = TextAreaField("Reason (internal)", validators=[Optional(), Length(max=2000)],
                           description="Kept inside the company; partners only see the status `left`.")


class DraftRunForm(FlaskForm):
    entity = SelectField("Legal entity", choices=[])
    month = MonthField("Month", validators=[InputRequired()])


class AccountMappingForm(FlaskForm):
    """The company's own code and name for one journal account (app/domain/payroll/accounts.py
    judges them)."""

    entity = SelectField("For", choices=[])
    key = SelectField("Account", choices=[], validators=[InputRequired()])
    code = StringField("Code", validators=[InputRequired(), Length(max=40)],
                       description="1 to 40 printable characters, as your ledger spells it.")
    name_en = StringField("Name", validators=[Optional(), Length(max=100)],
                          description="Left empty: the account's default name.")
    name_ar = StringField("Arabic name", validators=[Optional(), Length(max=100)])


class PunchForm(FlaskForm):
    """A punch HR enters, in the company's local time."""

    employee = SelectField("Employee", choices=[], validators=[InputRequired()])
    kind = SelectField("Punch", choices=options((t, t.replace("_", " ")) for t in EVENT_TYPES))
    day = DateField("Date", validators=[InputRequired()])
    time = TimeField("Time", validators=[InputRequired()])
    branch_ref = StringField("Branch", validators=[Optional(), Length(max=100)])


class LinkForm(FlaskForm):
    """Which employee an unmatched reference means."""

    source = HiddenField(validators=[DataRequired(), Length(max=100)])
    ref_type = HiddenField(validators=[DataRequired(), AnyOf(REF_TYPES)])
    value = HiddenField(validators=[DataRequired(), Length(max=254)])
    employee = SelectField("Employee", choices=[], validators=[InputRequired()])
