"""Password guessing is paused: twenty wrong passwords, then the right one, is refused.

After ``SEWER_USE_SIGNIN_FAILURES`` failures for one name from one address within the window,
the right password is refused too from that address — on the sign-in page, the back office's
and ``POST /api/token/`` — with a message that says until when; the same name from another
address, and other names, are not affected; the pause ends with the window; a success before
the limit starts the count again; many names guessed from one address pause that address.
The rules across addresses (slowed, never locked), known devices and the second factor are in
``test_signin_lockout.py``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from sewer_office.accounts.models import SignInFailure

from .factories import PASSWORD, Town


def _page(client: Client, username: str, password: str, **extra: Any) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def _signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_twenty_wrong_passwords_then_the_right_one_is_refused_with_when_to_try_again(
    town: Town,
) -> None:
    client = Client()
    for _ in range(20):
        assert _page(client, "clerk", "wrong").status_code in (200, 429)
    response = _page(client, "clerk", PASSWORD)
    assert response.status_code == 429 and not _signed_in(client)
    text = response.content.decode()
    assert "paused after 5 failed attempts" in text and "try again after" in text
    # Only the first five were counted: refused attempts do not lengthen the pause.
    assert SignInFailure.objects.filter(username="clerk").count() == 5
    # The pause is the name's at this address: from another, the right password signs in.
    elsewhere = Client(REMOTE_ADDR="198.51.100.20")
    assert _page(elsewhere, "clerk", PASSWORD).status_code == 302 and _signed_in(elsewhere)


def test_another_name_signs_in_while_one_is_paused(town: Town) -> None:
    client = Client()
    for _ in range(5):
        _page(client, "clerk", "wrong")
    assert _page(client, "clerk", PASSWORD).status_code == 429
    assert _page(Client(), "engineer", PASSWORD).status_code == 302


def test_four_failures_then_the_right_password_signs_in_and_the_count_starts_again(
    town: Town,
) -> None:
    client = Client()
    for _ in range(4):
        assert _page(client, "clerk", "wrong").status_code == 200
    assert _page(client, "clerk", PASSWORD).status_code == 302 and _signed_in(client)
    assert not SignInFailure.objects.filter(username="clerk").exists()


def test_the_pause_ends_with_the_window(town: Town, settings: Any) -> None:
    client = Client()
    for _ in range(5):
        _page(client, "Clerk ", "wrong")  # the name as typed: case and spaces do not escape
    assert _page(client, "clerk", PASSWORD).status_code == 429
    window = timedelta(minutes=settings.SEWER_USE_SIGNIN_PAUSE_MINUTES)
    SignInFailure.objects.update(at=timezone.now() - window - timedelta(seconds=1))
    assert _page(client, "clerk", PASSWORD).status_code == 302


def test_deleting_the_failures_in_the_back_office_ends_the_pause(town: Town, login: Any) -> None:
    client = Client()
    for _ in range(5):
        _page(client, "clerk", "wrong")
    admin = login("superintendent")
    listing = admin.get("/admin/accounts/signinfailure/")
    if listing.status_code == 200:
        assert "clerk" in listing.content.decode()
    SignInFailure.objects.filter(username="clerk").delete()
    assert _page(Client(), "clerk", PASSWORD).status_code == 302


def test_many_names_guessed_from_one_address_pause_that_address(town: Town, settings: Any) -> None:
    settings.SEWER_USE_SIGNIN_ADDRESS_FAILURES = 6
    client = Client(REMOTE_ADDR="203.0.113.9")
    for i in range(6):
        _page(client, f"guess{i}", "wrong")
    response = _page(client, "engineer", PASSWORD)
    assert response.status_code == 429 and "from this address" in response.content.decode()
    # Another address is not affected.
    assert _page(Client(REMOTE_ADDR="198.51.100.7"), "engineer", PASSWORD).status_code == 302


def test_behind_the_proxy_the_forwarded_address_counts(town: Town, settings: Any) -> None:
    settings.SEWER_USE_BEHIND_PROXY = True
    settings.SEWER_USE_SIGNIN_ADDRESS_FAILURES = 3
    for i in range(3):
        _page(Client(), f"guess{i}", "wrong", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert set(SignInFailure.objects.values_list("address", flat=True)) == {"203.0.113.9"}
    paused = _page(Client(), "engineer", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert paused.status_code == 429
    other = _page(Client(), "engineer", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert other.status_code == 302


def test_the_api_token_is_refused_with_429_and_retry_after(town: Town) -> None:
    client = Client()
    for _ in range(5):
        response = client.post("/api/token/", {"username": "clerk", "password": "wrong"})
        assert response.status_code == 400
    response = client.post("/api/token/", {"username": "clerk", "password": PASSWORD})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "paused after 5 failed attempts" in response.json()["detail"]
    assert "token" not in response.json()
    other = Client(REMOTE_ADDR="198.51.100.21")
    response = other.post("/api/token/", {"username": "clerk", "password": PASSWORD})
    assert response.status_code == 200 and response.json()["token"]


def test_the_back_office_sign_in_is_paused_too(town: Town) -> None:
    client = Client()
    for _ in range(5):
        client.post("/admin/login/", {"username": "superintendent", "password": "wrong"})
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "superintendent", "password": PASSWORD}
    )
    assert not _signed_in(client)
    assert "paused after 5 failed attempts" in response.content.decode()


@pytest.mark.parametrize("failures", [0, 3])
def test_a_lower_limit_is_read_from_the_settings(town: Town, settings: Any, failures: int) -> None:
    settings.SEWER_USE_SIGNIN_FAILURES = failures
    client = Client()
    for _ in range(3):
        _page(client, "clerk", "wrong")
    expected = 302 if failures == 0 else 429  # 0 turns the pause off
    assert _page(client, "clerk", PASSWORD).status_code == expected
