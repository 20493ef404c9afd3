"""Helpers for driving the console through the Flask client: a member with a password,
a form post with the page's CSRF token, the page's text."""

import html
import re

from app.console.throttle import SignInThrottle
from app.domain.access import users as access
from app.limits import make_limiter

PASSWORD = "correct horse battery staple"


def throttle(redis_client=None, prefix="login:", pair=10, address=100, email=50):
    return SignInThrottle(
        by_email_and_address=make_limiter(pair, redis_client, window_seconds=900, prefix=prefix + "pair:"),
        by_address=make_limiter(address, redis_client, window_seconds=900, prefix=prefix + "address:"),
        by_email=make_limiter(email, redis_client, window_seconds=3600, prefix=prefix + "email:"))


def member(company, role, clock, email=None):
    user = access.get_or_create_user(email or f"{role}@{company.id}.example.com", clock, password=PASSWORD)
    access.add_membership(user, company, role, clock)
    return user


def csrf(client, path="/console/sign-in"):
    page = client.get(path, follow_redirects=True).get_data(as_text=True)
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page).group(1)


def sign_in(client, email, password=PASSWORD, address="127.0.0.1"):
    return client.post("/console/sign-in", data={"email": email, "password": password, "csrf_token": csrf(client)},
                       environ_base={"REMOTE_ADDR": address})


def post(client, path, data=None, page="/console/"):
    """A console form post with the page's CSRF token, following redirects."""
    return client.post(path, data={**(data or {}), "csrf_token": csrf(client, page)}, follow_redirects=True)


def switch_language(client, language, page="/console/sign-in"):
    """The language switch of `page`'s header, posted as a browser posts it: its own
    form's fields (where to come back to, the CSRF token) and the button for `language`."""
    shown = client.get(page).get_data(as_text=True)
    form = re.search(r'<form class="languages" method="post" action="([^"]+)".*?</form>', shown, re.S)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))
    assert f'name="language" value="{language}"' in form.group(0), f"no switch to {language} on {page}"
    return client.post(form.group(1), data={**{k: html.unescape(v) for k, v in fields.items()}, "language": language})


def text(response):
    return response.get_data(as_text=True)


def copied_cookie(app, client):
    """A second browser holding a copy of this browser's session cookie."""
    thief = app.test_client()
    thief.set_cookie("console_session", client.get_cookie("console_session").value)
    assert thief.get("/console/integrations").status_code == 200
    return thief
