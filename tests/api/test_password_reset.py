"""'Forgot password' end to end through the console, with a real SMTP server (aiosmtpd)
receiving the email: a single-use link valid 30 minutes, which ends every session."""

import re

from app.mail import LogMailer, SmtpMailer
from tests.api.console import PASSWORD, copied_cookie, csrf, member, sign_in, text
from tests.helpers import free_port

NEW_PASSWORD = "an entirely new pass phrase"


def ask_for_link(client, email):
    return client.post("/console/forgot-password", data={"email": email, "csrf_token": csrf(client)},
                       follow_redirects=True)


def link_in(message):
    return re.search(r"http://localhost(/console/reset-password/\S+)", message.get_content()).group(1)


def set_password(client, path, password=NEW_PASSWORD, again=None):
    page = client.get(path)
    token = re.search(r'name="csrf_token" value="([^"]+)"', text(page)).group(1)
    return client.post(path, data={"password": password, "again": again or password, "csrf_token": token})


def test_a_reset_link_arrives_by_email_sets_the_password_once_and_ends_every_session(app, client, live_company,
                                                                                      clock, inbox):
    user = member(live_company, "hr_admin", clock)
    assert sign_in(client, user.email).status_code == 302
    other_browser = copied_cookie(app, client)
    stranger = app.test_client()
    answer = ask_for_link(stranger, user.email)
    assert "a link to set a new password is on its way" in text(answer)
    [message] = inbox.messages
    assert message["To"] == user.email and message["From"] == "console@example.com"
    path = link_in(message)
    assert set_password(stranger, path, again="something else entirely").status_code == 422
    done = set_password(stranger, path)
    assert done.status_code == 302 and done.headers["Location"] == "/console/sign-in"
    assert client.get("/console/integrations").status_code == 302  # every session ended
    assert other_browser.get("/console/integrations").status_code == 302
    assert sign_in(app.test_client(), user.email, PASSWORD).status_code == 401
    assert sign_in(app.test_client(), user.email, NEW_PASSWORD).status_code == 302
    again = stranger.get(path)
    assert again.status_code == 410 and "no longer works" in text(again)  # single use


def test_a_reset_link_expires_after_30_minutes_and_a_newer_one_replaces_it(app, client, live_company, clock,
                                                                            inbox):
    user = member(live_company, "hr_admin", clock)
    ask_for_link(client, user.email)
    clock.advance(minutes=30, seconds=1)
    assert client.get(link_in(inbox.messages[0])).status_code == 410
    ask_for_link(client, user.email)
    ask_for_link(client, user.email)
    first, second = (link_in(message) for message in inbox.messages[1:])
    assert client.get(first).status_code == 410 and client.get(second).status_code == 200


def test_the_answer_is_the_same_for_an_unknown_email_and_nothing_is_sent(client, live_company, inbox):
    answer = ask_for_link(client, "nobody@example.com")
    assert "a link to set a new password is on its way" in text(answer) and inbox.messages == []


def test_a_short_new_password_is_refused_with_the_rule(client, live_company, clock, inbox):
    user = member(live_company, "hr_admin", clock)
    ask_for_link(client, user.email)
    refused = set_password(client, link_in(inbox.messages[0]), password="short")
    assert refused.status_code == 422 and "must be 10 to 1024 characters" in text(refused)


def test_without_smtp_the_link_is_written_to_the_log(app, client, live_company, clock, monkeypatch, caplog):
    monkeypatch.setitem(app.extensions, "mailer", LogMailer())
    user = member(live_company, "hr_admin", clock)
    ask_for_link(client, user.email)
    assert "no SMTP_URL set" in caplog.text and "/console/reset-password/" in caplog.text


def test_an_smtp_server_that_is_down_changes_nothing_for_the_asker(app, client, live_company, clock, monkeypatch,
                                                                  caplog):
    monkeypatch.setitem(app.extensions, "mailer", SmtpMailer(f"smtp://127.0.0.1:{free_port()}", "x@example.com"))
    user = member(live_company, "hr_admin", clock)
    answer = ask_for_link(client, user.email)
    assert answer.status_code == 200 and "on its way" in text(answer)
    assert "password reset email to user" in caplog.text
