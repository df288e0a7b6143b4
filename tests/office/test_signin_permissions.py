"""Who reaches the pages of the second factor: anyone signed in manages its own (as its
password); only the Superintendent and superusers see every account's and reset one — never
their own, and the Superintendent not a superuser's."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django_otp.plugins.otp_totp.models import TOTPDevice

from sewer_office.accounts import second_factor

from .factories import USERS, Town

pytestmark = pytest.mark.django_db

COVERED_URL_NAMES = {
    "second-factor",
    "second-factor-verify",
    "second-factor-enrol",
    "second-factor-remove",
    "second-factor-recovery-codes",
    "second-factor-accounts",
    "second-factor-reset",
}
OWN_PAGES = ("/accounts/second-factor/", "/accounts/second-factor/enrol/")
POSTS = ("/accounts/second-factor/remove/", "/accounts/second-factor/recovery-codes/")


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_anonymous_is_sent_to_sign_in(town: Town, client: Any) -> None:
    target = town.u("clerk").pk
    for url in (
        *OWN_PAGES,
        "/accounts/second-factor/code/",
        "/accounts/second-factor/accounts/",
    ):
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith("/accounts/login/"), url
    for url in (*POSTS, f"/accounts/second-factor/accounts/{target}/reset/"):
        r = client.post(url, {"code": "123456", "reason": "x"})
        assert r.status_code == 302 and r["Location"].startswith("/accounts/login/"), url


@pytest.mark.parametrize("username", sorted(USERS))
def test_every_account_manages_its_own(town: Town, username: str) -> None:
    client = _client(town.u(username))
    for url in OWN_PAGES:
        assert client.get(url).status_code == 200, url
    # nothing owed: the code page sends it on
    assert client.get("/accounts/second-factor/code/").status_code == 302
    for url in POSTS:  # without an authenticator: nothing to remove, no codes to renew
        assert client.post(url, {"code": "123456"}).status_code in (302, 400), url
    may_list = username == "superintendent"
    listing = client.get("/accounts/second-factor/accounts/")
    assert listing.status_code == (200 if may_list else 403)


@pytest.mark.parametrize("username", sorted(USERS))
def test_who_resets_whom(town: Town, username: str) -> None:
    actor = town.u(username)
    target = town.u("engineer" if username != "engineer" else "clerk")
    TOTPDevice.objects.create(user=target, name="app", confirmed=True)
    r = _client(actor).post(
        f"/accounts/second-factor/accounts/{target.pk}/reset/", {"reason": "lost"}
    )
    allowed = username == "superintendent"
    assert r.status_code == (302 if allowed else 403)
    assert TOTPDevice.objects.filter(user=target).exists() is not allowed


def test_the_superintendent_resets_no_superuser_and_not_itself(town: Town) -> None:
    chief = town.u("superintendent")
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "x-Strong-9")
    for target in (admin, chief):
        TOTPDevice.objects.create(user=target, name="app", confirmed=True)
        assert not second_factor.may_reset(chief, target)
    c = Client()
    c.force_login(chief)
    # the superintendent's own session owes its code now: nothing is posted before it
    assert (
        c.post(f"/accounts/second-factor/accounts/{admin.pk}/reset/", {"reason": "x"}).status_code
        == 403
    )
    assert c.get("/accounts/second-factor/accounts/")["Location"].startswith(
        "/accounts/second-factor/code/"
    )
    assert TOTPDevice.objects.filter(user=admin).exists()
    assert second_factor.may_reset(admin, chief) and not second_factor.may_reset(admin, admin)
