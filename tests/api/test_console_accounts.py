"""The console's Chart of accounts under Payroll (issue 34 part 1): map an account for
the company or one entity, see it, reset it; a bad code is named on the form and
nothing changes."""

from app.models import AccountMapping
from tests.api.console import csrf, post, text


def test_map_an_account_see_it_and_reset_it(client, admin, live_company):
    page = post(client, "/console/payroll/accounts", {"entity": "", "key": "basic_salaries", "code": "6000-SAL",
                                                      "name_en": "Salaries", "name_ar": "رواتب"},
                page="/console/payroll/accounts")
    assert "basic_salaries is now 6000-SAL Salaries" in text(page)
    shown = text(client.get("/console/payroll/accounts"))
    assert "6000-SAL" in shown and "رواتب" in shown and "Reset" in shown
    mapping = AccountMapping.get(AccountMapping.company == live_company.id)
    assert (mapping.key, mapping.code, mapping.entity) == ("basic_salaries", "6000-SAL", "")
    back = post(client, "/console/payroll/accounts/reset", {"key": "basic_salaries", "entity": ""},
                page="/console/payroll/accounts")
    assert "back to 5100 Basic salaries" in text(back)
    assert not AccountMapping.select().where(AccountMapping.company == live_company.id).exists()


def test_a_bad_code_is_named_on_the_form_and_changes_nothing(client, admin, live_company):
    answer = client.post("/console/payroll/accounts", data={
        "entity": "", "key": "bank", "code": " 10", "csrf_token": csrf(client, "/console/payroll/accounts")})
    assert answer.status_code == 400
    assert "no space at either end" in text(answer) and 'aria-invalid="true"' in text(answer)
    assert not AccountMapping.select().where(AccountMapping.company == live_company.id).exists()
