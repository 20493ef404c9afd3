"""The console in Arabic and English (issue 37): which language a page is in, that the
choice is kept by the header's switch alone, a POST with the CSRF token (cookie, and the
user's profile across browsers; issue 46: `?lang=` shows one page and keeps nothing), Arabic pages right to
left with names, money and form errors in Arabic, emails in the recipient's language,
and the partner API untouched."""

import re
from datetime import UTC, datetime

from app.domain.access import users as access
from app.domain.webhooks.endpoints import EndpointNotice
from app.i18n import COOKIE
from app.models import Employee, JournalEntry, JournalLine, PayrollRun, User
from app.notices import endpoint_notice_email
from tests.api.console import PASSWORD, csrf, member, post, sign_in, switch_language, text

ARABIC_FIRST = {"Accept-Language": "ar-KW,ar;q=0.9,en;q=0.5"}
ARABIC = re.compile(r"[\u0600-\u06FF]")


def test_a_browser_that_asks_for_arabic_gets_the_page_in_arabic_right_to_left(client):
    page = text(client.get("/console/sign-in", headers=ARABIC_FIRST))
    assert '<html lang="ar" dir="rtl">' in page
    assert "تسجيل الدخول" in page and "كلمة المرور" in page and ">Sign in<" not in page


def test_without_arabic_in_accept_language_the_page_is_english(client):
    for asked in ({}, {"Accept-Language": "fr-FR,fr;q=0.9"}, {"Accept-Language": "en-GB"}):
        page = text(client.get("/console/sign-in", headers=asked))
        assert '<html lang="en" dir="ltr">' in page and ">Sign in</h1>" in page and not ARABIC.search(
            page.replace("العربية", ""))  # the switch names Arabic in Arabic


def test_a_switch_to_english_is_kept_by_the_browser_and_brings_back_the_same_page(client):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = ARABIC_FIRST["Accept-Language"]
    switched = switch_language(client, "en", page="/console/sign-in?next=%2Fconsole%2Fpayroll&lang=ar")
    assert switched.status_code == 302 and switched.location.endswith("/console/sign-in?next=%2Fconsole%2Fpayroll")
    kept = client.get_cookie(COOKIE)
    assert kept.value == "en" and kept.http_only and kept.same_site == "Lax"
    assert '<html lang="en"' in text(client.get("/console/sign-in"))
    switch_language(client, "ar")
    assert '<html lang="ar"' in text(client.get("/console/sign-in"))


def test_lang_in_the_address_shows_that_page_in_it_and_changes_nothing(app, client, live_company, clock):
    """A GET changes nothing: a link (`<img src=".../console/?lang=ar">` on any site)
    cannot change what a user chose."""
    user = member(live_company, "hr_admin", clock)
    access.choose_language(user, "en")
    assert sign_in(client, user.email).status_code == 302
    shown = client.get("/console/integrations?lang=ar")
    assert shown.status_code == 200 and '<html lang="ar" dir="rtl">' in text(shown)
    assert client.get_cookie(COOKIE) is None
    assert User.get_by_id(user.id).language == "en"
    assert '<html lang="en"' in text(client.get("/console/integrations"))
    signed_out = app.test_client()
    assert '<html lang="ar"' in text(signed_out.get("/console/sign-in?lang=ar", headers={"Accept-Language": "en"}))
    assert signed_out.get_cookie(COOKIE) is None and '<html lang="en"' in text(signed_out.get("/console/sign-in"))


def test_the_switch_keeps_a_choice_only_when_posted_with_the_sessions_csrf_token(client, live_company, clock):
    user = member(live_company, "hr_admin", clock)
    assert sign_in(client, user.email).status_code == 302
    forged = client.post("/console/language", data={"language": "ar", "next": "/console/integrations"})
    assert forged.status_code == 400 and client.get_cookie(COOKIE) is None
    assert User.get_by_id(user.id).language is None
    assert client.get("/console/language").status_code == 405
    switched = switch_language(client, "ar", page="/console/integrations")
    assert switched.status_code == 302 and switched.location.endswith("/console/integrations")
    assert User.get_by_id(user.id).language == "ar" and client.get_cookie(COOKIE).value == "ar"


def test_the_switch_comes_back_only_to_this_consoles_pages(client):
    token = csrf(client)
    for elsewhere in ("https://evil.example/", "//evil.example/console", "/v1/company", None):
        answer = client.post("/console/language", data={"language": "ar", "csrf_token": token,
                                                        **({"next": elsewhere} if elsewhere else {})})
        assert answer.status_code == 302 and answer.location.endswith("/console/"), elsewhere


def test_a_language_not_offered_changes_nothing(client):
    answer = client.get("/console/sign-in?lang=fr")
    assert answer.status_code == 200 and client.get_cookie(COOKIE) is None and '<html lang="en"' in text(answer)
    refused = client.post("/console/language", data={"language": "fr", "next": "/console/sign-in",
                                                     "csrf_token": csrf(client)})
    assert refused.status_code == 400 and client.get_cookie(COOKIE) is None


def test_a_signed_in_users_choice_follows_them_to_another_browser(app, client, live_company, clock):
    user = member(live_company, "hr_admin", clock)
    assert sign_in(client, user.email).status_code == 302
    switch_language(client, "ar", page="/console/integrations")
    assert User.get_by_id(user.id).language == "ar"
    other_browser = app.test_client()
    other_browser.set_cookie(COOKIE, "en")  # what this browser chose before, signed out
    assert '<html lang="en"' in text(other_browser.get("/console/sign-in"))
    assert sign_in(other_browser, user.email).status_code == 302
    page = text(other_browser.get("/console/integrations", headers={"Accept-Language": "en"}))
    assert '<html lang="ar" dir="rtl">' in page and "مفاتيح" in page


def test_a_form_error_is_shown_in_arabic(client, live_company, clock):
    user = member(live_company, "hr_admin", clock)
    switch_language(client, "ar")
    empty = client.post("/console/sign-in", data={"email": "", "password": "", "csrf_token": csrf(client)})
    assert empty.status_code == 400 and "هذا الحقل مطلوب" in text(empty)
    wrong = client.post("/console/sign-in", data={"email": user.email, "password": PASSWORD + "x",
                                                  "csrf_token": csrf(client)})
    assert wrong.status_code == 401 and '<p class="flash error" role="alert">' in text(wrong)
    assert ARABIC.search(re.search(r'<p class="flash error" role="alert">([^<]+)</p>', text(wrong)).group(1))


def test_an_arabic_page_shows_arabic_names_and_money_in_arabic_and_english_data_as_english(client, admin,
                                                                                           in_sandbox):
    in_sandbox.name_ar = "شركة الخليج التجريبية"
    in_sandbox.save()
    switch_language(client, "ar", page="/console/payroll")
    page = text(client.get("/console/payroll"))
    assert "<bdi>شركة الخليج التجريبية</bdi>" in page
    assert re.search(r"\d{1,3}(,\d{3})*\.\d{3}\xa0د\.ك\.", page)  # KWD's three decimals, its Arabic symbol
    assert f'<bdi lang="en" dir="ltr">{admin.email}</bdi>' in page
    run = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.status == "finalized")
    assert re.search(r"\d{1,3}(,\d{3})*\.\d{3}\xa0د\.ك\.", text(client.get(f"/console/payroll/{run.id}")))


def test_an_arabic_run_page_names_each_journal_account_in_arabic_as_posted(client, admin, in_sandbox, clock):
    """Issue 50: journal lines showed English account names on Arabic pages. A line keeps
    the Arabic name in force when posted; a line posted before lines kept one shows the
    account's default Arabic name where it carries the default English one, and a name of
    the company's own with no Arabic stays English, marked as English."""
    run = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.status == "finalized")
    lines = JournalLine.select().join(JournalEntry).where(JournalEntry.run == run.id)
    assert {line.account_name_ar for line in lines if line.account_key == "social_insurance_payable_pifss"} == {
        "اشتراكات مستحقة للتأمينات الاجتماعية (الكويت)"}
    switch_language(client, "ar", page="/console/payroll")
    page = text(client.get(f"/console/payroll/{run.id}"))
    assert "<bdi>الرواتب الأساسية</bdi>" in page and "<bdi>اشتراكات مستحقة للتأمينات الاجتماعية (الكويت)</bdi>" in page
    assert "Basic salaries" not in page and "PIFSS payable" not in page
    JournalLine.update(account_name_ar=None).where(JournalLine.id.in_([line.id for line in lines])).execute()
    JournalLine.update(account_name="Salaries (old chart)").where(
        JournalLine.id.in_([line.id for line in lines]), JournalLine.account_key == "basic_salaries").execute()
    page = text(client.get(f"/console/payroll/{run.id}"))
    assert "<bdi>اشتراكات مستحقة للتأمينات الاجتماعية (الكويت)</bdi>" in page
    assert '<bdi lang="en" dir="ltr">Salaries (old chart)</bdi>' in page and "الرواتب الأساسية" not in page


def test_the_wps_card_names_the_wage_protection_system_and_the_banks_answer_in_arabic(client, admin, in_sandbox):
    run = PayrollRun.get(PayrollRun.company == in_sandbox.id, PayrollRun.status == "finalized")
    switch_language(client, "ar", page="/console/payroll")
    page = text(client.get(f"/console/payroll/{run.id}"))
    assert "<h2>نظام حماية الأجور</h2>" in page and "WPS" not in page
    assert "لم يُرسَل إلى البنك بعد" in page and "تسجيل الإرسال إلى البنك" in page
    post(client, f"/console/payroll/{run.id}/wps_submitted", {}, page=f"/console/payroll/{run.id}")
    page = text(client.get(f"/console/payroll/{run.id}"))
    assert "أُرسل إلى البنك" in page and "تسجيل قبول البنك" in page and "تسجيل رفض البنك" in page


def test_the_id_field_and_the_phone_example_are_the_companys_countrys(client, admin, live_company):
    """Issue 50: a Saudi company's form said «الرقم المدني», Kuwait's word, and gave a
    Kuwaiti phone number as its example."""
    labels = {"KW": ("Civil ID", "الرقم المدني", "+96550001234"),
              "SA": ("National ID or Iqama number", "رقم الهوية الوطنية أو الإقامة", "+966501234567"),
              "AE": ("Emirates ID number", "رقم الهوية الإماراتية", "+971501234567"),
              "QA": ("Qatar ID (QID) number", "رقم البطاقة الشخصية القطرية", "+97455123456"),
              "BH": ("CPR number", "الرقم الشخصي", "+97336001234"),
              "OM": ("Civil number", "الرقم المدني", "+96891234567")}
    for country, (english, arabic, phone) in labels.items():
        live_company.country = country
        live_company.save()
        page = text(client.get("/console/employees/new?lang=en"))
        assert f'<label for="civil_id">{english}</label>' in page and f"e.g. {phone}." in page
        page = text(client.get("/console/employees/new?lang=ar"))
        assert f'<label for="civil_id">{arabic}</label>' in page
        assert f'مثل <bdi dir="ltr" class="id">{phone}</bdi>.' in page and "\u2066" not in page


def test_an_id_copied_from_a_message_carries_no_invisible_mark_and_a_pasted_one_is_found(client, admin,
                                                                                        in_sandbox):
    """Issue 50: a message isolated its IDs with Unicode's invisible isolates, so copying
    one copied them too, and the employee search then found nothing. The page isolates with
    markup; the search ignores such marks (and finds an employee by id as well)."""
    switch_language(client, "ar", page="/console/employees")
    missing = text(client.get("/console/employees/emp_none"))
    assert '<bdi dir="ltr" class="id">emp_none</bdi>' in missing and not re.search("[\u2066-\u2069]", missing)
    someone = Employee.get(Employee.company == in_sandbox.id, Employee.staff_number == "SBX-001")
    for pasted in ("\u2066SBX-001\u2069", "\u200fSBX-001", f"\u2066{someone.id}\u2069 "):
        found = text(client.get("/console/employees", query_string={"q": pasted}))
        assert f"/console/employees/{someone.id}" in found and "SBX-002" not in found, pasted


def test_a_flash_names_the_new_sandbox_in_arabic_on_an_arabic_page(client, admin):
    switch_language(client, "ar", page="/console/sandbox")
    page = text(post(client, "/console/sandbox", {"country": "SA"}, page="/console/sandbox"))
    made = access.sandbox_of(admin)
    assert made.name_ar and f"{made.name_ar}." in page and made.name_en not in page


def test_the_partner_api_answers_in_english_whatever_the_browser_asks(client, headers):
    answer = client.get("/v1/employees/emp_none", headers={**headers, **ARABIC_FIRST})
    assert answer.status_code == 404 and not ARABIC.search(answer.get_data(as_text=True))
    assert answer.get_json()["title"].isascii()


def test_emails_are_written_in_the_recipients_language(app, client, live_company, clock, inbox):
    arabic, english = (member(live_company, "hr_admin", clock, email=f"{name}@example.com") for name in ("ar", "en"))
    access.choose_language(arabic, "ar")
    for user in (arabic, english):
        client.post("/console/forgot-password", data={"email": user.email, "csrf_token": csrf(client)})
    by_recipient = {message["To"]: message for message in inbox.messages}
    assert ARABIC.search(by_recipient[arabic.email]["Subject"])
    body = by_recipient[arabic.email].get_content()
    assert ARABIC.search(body) and "/console/reset-password/" in body
    assert by_recipient[english.email]["Subject"] == "Set a new console password"
    notice = EndpointNotice([], "disabled", "whk_1", "https://hooks.example.com/in", None)
    with app.app_context():
        subject, body = endpoint_notice_email(notice, "ar")
        assert ARABIC.search(subject) and "https://hooks.example.com/in" in subject and ARABIC.search(body)
        assert "whk_1" in body and "PATCH /v1/webhooks/whk_1" in body
        subject, body = endpoint_notice_email(notice, None)
        assert subject == "Webhook endpoint disabled: https://hooks.example.com/in" and not ARABIC.search(body)


def test_a_reset_asked_from_an_arabic_page_by_someone_who_never_chose_comes_in_arabic(client, live_company, clock,
                                                                                    inbox):
    """Issue 50: until a user chooses a language, the page they asked from decides."""
    user = member(live_company, "hr_admin", clock, email="new@example.com")
    assert user.language is None
    client.post("/console/forgot-password?lang=ar", data={"email": user.email, "csrf_token": csrf(client)})
    [message] = inbox.messages
    assert ARABIC.search(message["Subject"]) and ARABIC.search(message.get_content())


def test_a_failure_notice_says_when_in_the_companys_time_written_out_in_the_recipients_language(app):
    """Issue 50: the notices showed a raw UTC time such as 2026-11-26T14:38:00Z."""
    since = datetime(2026, 11, 26, 14, 38, tzinfo=UTC)
    kuwait = EndpointNotice([], "disabled", "whk_1", "https://hooks.example.com/in", since, "Asia/Kuwait", "KW")
    with app.app_context():
        _, english = endpoint_notice_email(kuwait, "en")
        _, arabic = endpoint_notice_email(kuwait, "ar")
        _, elsewhere = endpoint_notice_email(kuwait._replace(timezone="Asia/Dubai"), "en")
    assert "since 26 November 2026, 17:38 (Kuwait time)" in " ".join(english.split())
    assert "17:38 (بتوقيت الكويت)" in arabic and "2026" in arabic and "نوفمبر" in arabic
    assert "26 November 2026, 18:38 (Asia/Dubai)" in " ".join(elsewhere.split())
    assert "T14:38" not in english + arabic + elsewhere


def test_the_domains_refusals_read_in_arabic_with_their_ids_left_to_right(client, admin, in_sandbox):
    switch_language(client, "ar", page="/console/employees")
    missing = client.get("/console/employees/emp_none")
    assert missing.status_code == 404 and "لا يوجد موظف <bdi dir=\"ltr\" class=\"id\">emp_none</bdi>" in text(missing)
    switch_language(client, "en", page="/console/employees")
    assert "no employee emp_none" in text(client.get("/console/employees/emp_none"))


def test_an_address_or_method_no_page_takes_gets_the_consoles_own_page_in_the_readers_language(client, admin):
    """Issue 50: a mistyped console address or a wrong method showed the framework's bare
    English page. The console answers with its own, right to left in Arabic, with a way
    back, signed in or not; a 405 still says which methods the address takes."""
    for signed_in in (True, False):
        if not signed_in:
            client.post("/console/sign-out", data={"csrf_token": csrf(client, "/console/")})
            client.delete_cookie("session")
        missing = client.get("/console/no-such-page", headers=ARABIC_FIRST)
        assert missing.status_code == 404
        page = text(missing)
        assert '<html lang="ar" dir="rtl">' in page and "Not Found" not in page and 'href="/console/"' in page
        assert "غير موجود" in page or "لا توجد" in page
        wrong = client.delete("/console/sign-in", headers=ARABIC_FIRST)
        assert wrong.status_code == 405 and "GET" in wrong.headers["Allow"]
        assert '<html lang="ar" dir="rtl">' in text(wrong) and "Method Not Allowed" not in text(wrong)
        assert wrong.headers["X-Content-Type-Options"] == "nosniff"
    english = client.get("/console/no-such-page", headers={"Accept-Language": "en"})
    assert english.status_code == 404 and ">Not found</h1>" in text(english)
    assert client.get("/v1/no-such-thing").content_type.startswith("application/problem+json")  # the API's own


def test_words_that_end_a_credential_or_a_draft_cannot_be_read_as_cancel_or_ignore(client, admin, in_sandbox, clock):
    """Issue 50: «إلغاء» is every screen's Cancel, on the red button that revokes a key;
    «تجاهل» ("ignore") was on the button that deletes a draft."""
    from app.domain.access import keys

    keys.create_key(in_sandbox, ["employees:read"], clock)
    page = text(client.get("/console/integrations", headers=ARABIC_FIRST))
    assert "إبطال" in page and ">إلغاء<" not in page
    from flask_babel import force_locale, gettext

    with client.application.test_request_context(), force_locale("ar"):
        assert gettext("Revoke") == "إبطال" and gettext("Discard draft") == "حذف المسودة"
        assert "تجاهل" not in gettext("Discard this draft?") + gettext("Draft discarded.")
