"""Who may do what, companies as they are made, and the rules every console password
and email address meets."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.access import companies, signin, users
from app.domain.kernel.countries import COUNTRIES
from app.domain.kernel.errors import NotFound, ValidationFailed
from app.domain.kernel.runtime import Runtime
from app.models import Entity, Membership


@pytest.mark.parametrize("role,allowed", [
    ("ceo", {"integrations.manage", "hr.manage", "payroll.manage"}),
    ("hr_admin", {"integrations.manage", "hr.manage", "payroll.manage"}),
    ("payroll_officer", {"payroll.manage"}),
    ("employee", set()),
    ("intern", set()),  # a role this version does not know grants nothing
])
def test_permissions_follow_the_role(role, allowed):
    assert users.permissions_of(Membership(role=role)) == allowed


def test_no_membership_grants_nothing():
    assert users.permissions_of(None) == frozenset()


def test_a_membership_with_an_unknown_role_is_refused(clock):
    with pytest.raises(ValidationFailed) as refused:
        users.add_membership(None, None, "owner", clock)
    assert refused.value.errors[0][0] == "role"


def test_emails_are_trimmed_and_lowercased():
    assert signin.normalize_email("  Aisha.AlSabah@Example.COM ") == "aisha.alsabah@example.com"


@pytest.mark.parametrize("email", ["", None, "aisha", "@example.com", "aisha@example", "ai sha@example.com",
                                   "a@" + "b" * 250 + ".com"])
def test_what_is_not_an_email_address_is_refused(email):
    with pytest.raises(ValidationFailed):
        signin.normalize_email(email)


@given(st.integers(0, 1100))
def test_a_password_is_10_to_1024_characters_wherever_it_is_set(length):
    password = "p" * length
    if 10 <= length <= 1024:
        signin.check_password_rule(password)
    else:
        with pytest.raises(ValidationFailed) as refused:
            signin.check_password_rule(password)
        assert f"this one has {length}" in refused.value.errors[0][1]


@pytest.mark.parametrize("name,country,path", [("", "KW", "name"), ("   ", "KW", "name"), ("Co", "XX", "country"),
                                               ("Co", "", "country")])
def test_a_company_needs_a_name_and_one_of_the_six_countries(clock, name, country, path):
    with pytest.raises(ValidationFailed) as refused:
        companies.create_company(name, country, clock)
    assert refused.value.errors[0][0] == path


@pytest.mark.parametrize("country", sorted(COUNTRIES))
def test_a_new_company_has_one_primary_entity_in_its_country_and_the_api_off(transaction, clock, country):
    company = companies.create_company(" Gulf Trading ", country, clock, name_ar="الخليج")
    rules = COUNTRIES[country]
    assert (company.name_en, company.currency, company.timezone) == ("Gulf Trading", rules.currency, rules.timezone)
    assert company.api_enabled is False
    [entity] = Entity.select().where(Entity.company == company.id)
    assert entity.primary and (entity.country, entity.currency, entity.name_ar) == (country, rules.currency,
                                                                                   "الخليج")


def test_switching_the_api_on_tells_the_workers_once(transaction, clock):
    told = []
    runtime = Runtime(clock, on_credentials_changed=lambda: told.append(1))
    company = companies.create_company("Gulf Trading", "QA", clock)
    assert companies.enable_partner_api(company.id, runtime).id == company.id
    companies.enable_partner_api(company.id, runtime)
    assert told == [1] and companies.get_company(company.id).api_enabled


def test_entities_list_the_primary_first_and_belong_to_the_company(transaction, clock, make_sandbox):
    company = companies.create_company("Gulf Trading", "AE", clock)
    other = make_sandbox("BH")
    [primary] = companies.entities_of(company.id)
    assert companies.get_entity(primary, company_id=company.id).primary
    other_entity = next(iter(companies.entities_of(other.id)))
    with pytest.raises(NotFound, match="no legal entity"):
        companies.get_entity(other_entity, company_id=company.id)
