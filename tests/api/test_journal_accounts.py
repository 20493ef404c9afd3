"""The company's own chart of accounts (issue 34 part 1, v1.3): every journal account has
a stable key; HR maps keys to the company's codes for the company or one entity (the
entity's wins); entries are posted under the mapping in force and never change; a
correction's differences are taken by key and posted under the mapping then."""

import json
import re
from datetime import date

from app.domain.kernel.clock import to_db
from app.domain.kernel.ids import new_id
from app.domain.payroll import accounts, moves, provision
from app.models import AccountMapping, Employee, Entity
from tests.conftest import bearer
from tests.helpers import assert_problem, ok, refused

STAFF = [("K-1", date(2014, 3, 1), 900_000), ("K-2", date(2019, 6, 15), 1_250_000)]


def chart(client, books, entity_id=None):
    query = f"?entity_id={entity_id}" if entity_id else ""
    return {a["key"]: a for a in client.get(f"/v1/journal-accounts{query}", headers=books.headers).get_json()["data"]}


def lines_of(client, books, run, kind):
    body = client.get(f"/v1/payroll-runs/{run.id}", headers=books.headers).get_json()
    return [line for entry in body["journal_entries"] if entry["kind"] == kind for line in entry["lines"]]


def test_every_account_has_a_key_type_and_default_code(client, books):
    listed = chart(client, books)
    assert set(listed) == set(accounts.BY_KEY) and len(listed) == len(accounts.CATALOG)
    assert listed["basic_salaries"] == {"key": "basic_salaries", "code": "5100", "default_code": "5100",
                                        "name": {"en": "Basic salaries", "ar": "الرواتب الأساسية"}, "type": "expense"}
    assert listed["social_insurance_payable_pifss"]["code"] == "2122"
    assert {a["type"] for a in listed.values()} == {"asset", "liability", "equity", "expense"}


def test_every_account_has_an_arabic_name_of_its_own(client, books):
    """Issue 50: the fourteen social-insurance accounts had no Arabic name, so Arabic pages
    showed them in English."""
    listed = chart(client, books)
    names = [account["name"]["ar"] for account in listed.values()]
    assert all(re.search("[\u0600-\u06FF]", name) and name == name.strip() for name in names)
    assert len(set(names)) == len(names)  # Saudi Arabia's and Kuwait's agencies share a name: the country parts them
    assert listed["social_insurance_payable_pifss"]["name"] == {
        "en": "PIFSS payable", "ar": "اشتراكات مستحقة للتأمينات الاجتماعية (الكويت)"}
    assert listed["employer_contributions_gpssa"]["name"]["ar"] == (
        "اشتراكات صاحب العمل في هيئة المعاشات والتأمينات الاجتماعية")


def test_a_mapping_keeps_the_default_arabic_name_until_it_names_the_account_in_english(client, books, clock):
    accounts.set_mapping(books.company.id, "bank", "1011", clock)
    assert chart(client, books)["bank"]["name"] == {"en": "Bank", "ar": "البنك"}
    accounts.set_mapping(books.company.id, "bank", "1011", clock, name_en="Bank")  # the default, typed
    assert chart(client, books)["bank"]["name"] == {"en": "Bank", "ar": "البنك"}
    accounts.set_mapping(books.company.id, "bank", "1011", clock, name_en="NBK current account")
    assert chart(client, books)["bank"]["name"] == {"en": "NBK current account", "ar": None}
    accounts.set_mapping(books.company.id, "bank", "1011", clock, name_en="NBK current account",
                         name_ar="الحساب الجاري لدى بنك الكويت الوطني")
    assert chart(client, books)["bank"]["name"]["ar"] == "الحساب الجاري لدى بنك الكويت الوطني"


def test_it_needs_payroll_read_and_an_entity_of_the_company(client, books, make_key, make_sandbox):
    no_scope = bearer(make_key(books.company, scopes=["employees:read"]))
    assert_problem(client.get("/v1/journal-accounts", headers=no_scope), 403, "insufficient_scope")
    other = make_sandbox("SA").entities.get()
    assert_problem(client.get(f"/v1/journal-accounts?entity_id={other.id}", headers=books.headers), 404,
                   "not_found")


def test_an_entitys_mapping_wins_and_runs_post_under_it_with_their_keys(client, books, clock):
    books.hire(*STAFF[0])
    accounts.set_mapping(books.company.id, "basic_salaries", "6000-SAL", clock, name_en="Salaries")
    accounts.set_mapping(books.company.id, "basic_salaries", "KW/6100", clock, entity_id=books.entity.id,
                         name_en="Kuwait salaries", name_ar="رواتب الكويت")
    assert chart(client, books)["basic_salaries"]["code"] == "6000-SAL"
    assert chart(client, books, books.entity.id)["basic_salaries"]["name"] == {"en": "Kuwait salaries",
                                                                               "ar": "رواتب الكويت"}
    july = books.run("2026-07")
    [basic] = [line for line in lines_of(client, books, july, "accrual") if line["account_key"] == "basic_salaries"]
    assert (basic["account_code"], basic["account_name"]) == ("KW/6100", "Kuwait salaries")
    assert {line["account_key"] for line in lines_of(client, books, july, "accrual")} >= {
        "basic_salaries", "salaries_payable", "end_of_service_expense", "end_of_service_provision"}


def test_posted_entries_never_change_and_a_correction_posts_its_difference_under_todays_chart(client, books, clock):
    person = books.hire(*STAFF[0])
    accounts.set_mapping(books.company.id, "basic_salaries", "A-100", clock)
    july = books.run("2026-07")
    accounts.set_mapping(books.company.id, "basic_salaries", "B-200", clock)
    moves.correct_run(july, {person.id: {"basic": 950_000}}, books.runtime)
    [posted] = [line for line in lines_of(client, books, july, "accrual") if line["account_key"] == "basic_salaries"]
    assert (posted["account_code"], posted["debit"]) == ("A-100", "900.000")  # as posted, never edited
    [moved] = [line for line in lines_of(client, books, july, "correction")
               if line["account_key"] == "basic_salaries"]
    assert (moved["account_code"], moved["debit"], moved["credit"]) == ("B-200", "50.000", "0.000")  # by key
    accounts.reset_mapping(books.company.id, "basic_salaries")
    assert chart(client, books)["basic_salaries"]["code"] == "5100"


def test_two_keys_on_one_code_keep_their_lines_apart(client, books, clock):
    books.hire("H-1", date(2014, 3, 1), 900_000)
    Employee.update(housing_allowance_minor=100_000, transport_allowance_minor=50_000).execute()
    for key in ("housing_allowances", "transport_allowances"):
        accounts.set_mapping(books.company.id, key, "6200", clock, name_en="Allowances")
    july = books.run("2026-07")
    shared = [line for line in lines_of(client, books, july, "accrual") if line["account_code"] == "6200"]
    assert sorted((line["account_key"], line["debit"]) for line in shared) == [
        ("housing_allowances", "100.000"), ("transport_allowances", "50.000")]


def test_the_provision_still_ties_when_its_accounts_are_renamed(client, books, clock):
    for staff in STAFF:
        books.hire(*staff)
    accounts.set_mapping(books.company.id, "end_of_service_provision", "L-2300", clock)
    july = books.run("2026-07")
    accounts.set_mapping(books.company.id, "end_of_service_provision", "L-9999", clock)
    accounts.set_mapping(books.company.id, "retained_earnings", "E-1", clock)
    books.run("2026-08")
    moves.delete_run(july, books.runtime)  # the first run: its opening comes back in August's true-up
    state = provision.tie(books.entity.id)  # read by key, whatever the codes were when posted
    assert state.provision == state.provision_owed == books.owed(date(2026, 8, 31)) and state.true_up() == []
    assert state.opening == books.owed(date(2026, 7, 31))


def test_the_cli_lists_sets_and_resets_and_refuses_in_one_line(run, books):
    company = books.company.id
    listed = json.loads(ok(run("payroll", "accounts", "list", "--company", company, "--json")))
    assert {"key", "code", "name", "type", "default_code"} == set(listed["data"][0])
    assert "basic_salaries is 6000 Salaries" in ok(run("payroll", "accounts", "set", "--company", company,
                                                       "--key", "basic_salaries", "--code", "6000",
                                                       "--name-en", "Salaries"))
    for args, words in ((("--key", "basic_salary", "--code", "1"), "key:"),
                        (("--key", "bank", "--code", ""), "code:"), (("--key", "bank", "--code", "x" * 41), "code:"),
                        (("--key", "bank", "--code", " 10"), "code:"),
                        (("--key", "bank", "--code", "10", "--entity", "ent_nope"), "no legal entity")):
        refused(run("payroll", "accounts", "set", "--company", company, *args), words)
    assert AccountMapping.select().where(AccountMapping.company == company).count() == 1  # only the good one
    ok(run("payroll", "accounts", "reset", "--company", company, "--key", "basic_salaries"))
    assert AccountMapping.select().where(AccountMapping.company == company).count() == 0
    entity = Entity.create(id=new_id("ent"), company=company, country="KW", name_en="Two", currency="KWD",
                           primary=False, created_at=to_db(books.runtime.now()))
    ok(run("payroll", "accounts", "set", "--company", company, "--entity", entity.id, "--key", "bank", "--code", "B"))
    by_entity = json.loads(ok(run("payroll", "accounts", "list", "--company", company, "--entity", entity.id,
                                  "--json")))
    assert {a["key"]: a["code"] for a in by_entity["data"]}["bank"] == "B"


def test_a_code_of_forty_characters_is_posted_whole(client, books, clock):
    books.hire(*STAFF[0])
    longest = "6100-SAL-KW-HQ-PAYROLL-BASIC-SALARIES-01"
    assert len(longest) == 40
    accounts.set_mapping(books.company.id, "basic_salaries", longest, clock)
    july = books.run("2026-07")
    assert longest in {line["account_code"] for line in lines_of(client, books, july, "accrual")}
