"""No one can lock the Town out of its own office, and registering tells no one who has an account.

- Failures of a name pause it at the address they came from, never everywhere: twenty wrong
  passwords from twenty addresses leave the Superintendent signing in from a known device, or
  with the code of the second factor; from an unrecognised device without a code the name is
  slowed (one attempt per turn), not locked.
- A known device (the cookie of an earlier sign-in) is paused only by its own failures.
- The second factor: enrolment (QR code, secret, first code, recovery codes shown once), the
  code after the password, ``required`` mode on the pages and the API token, a wrong code
  refused, removal with a code, the Superintendent's audited reset.
- Registration answers alike (status, page, e-mails and their recipients) for a taken name, a
  taken address and a free name; registrations per address are limited with a clear refusal,
  and messages to one mailbox are capped.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.test import Client, RequestFactory
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token

from sewer_office.accounts import second_factor
from sewer_office.accounts.checks import check_sign_in_settings
from sewer_office.accounts.known_device import COOKIE
from sewer_office.accounts.models import RegistrationAttempt, SignInFailure, SignInPace
from sewer_office.core.models import AuditEvent

from .factories import PASSWORD, Town

pytestmark = pytest.mark.django_db

STAFF_PAGE = "/registry/properties/"
REQUIRED = {"SEWER_USE_SECOND_FACTOR": "required"}


def _sign_in(client: Client, username: str, password: str, **data: str) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password, **data})


def _signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def _from(n: int) -> Client:
    """A client at its own address (``203.0.113.n``)."""
    return Client(REMOTE_ADDR=f"203.0.113.{n}")


def _guess_from_twenty_addresses(username: str) -> None:
    for n in range(1, 21):
        response = _sign_in(_from(n), username, "wrong")
        assert response.status_code == 200 or "slowed" in response.content.decode()


def _enrolled(user: Any) -> TOTPDevice:
    return TOTPDevice.objects.create(user=user, name="Authenticator app", confirmed=True)


def _code(device: TOTPDevice) -> str:
    """The app's code now, usable again (a code is accepted once per 30-second step)."""
    TOTPDevice.objects.filter(pk=device.pk).update(
        last_t=-1, throttling_failure_count=0, throttling_failure_timestamp=None
    )
    device.refresh_from_db()
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time()
    return f"{totp.token():06d}"


# -- the pause: a name at an address; a name across addresses slowed, never locked --------


def test_five_failures_pause_the_name_at_that_address_but_not_at_another(town: Town) -> None:
    here = _from(1)
    for _ in range(5):
        assert _sign_in(here, "clerk", "wrong").status_code == 200
    paused = _sign_in(here, "clerk", PASSWORD)
    assert paused.status_code == 429 and not _signed_in(here)
    assert "from this address is paused after 5 failed attempts" in paused.content.decode()
    elsewhere = _from(2)
    assert _sign_in(elsewhere, "clerk", PASSWORD).status_code == 302 and _signed_in(elsewhere)
    # the success elsewhere forgets nothing of the first address's failures
    assert SignInFailure.objects.filter(username="clerk", address="203.0.113.1").count() == 5
    assert _sign_in(_from(1), "clerk", PASSWORD).status_code == 429


def test_twenty_addresses_do_not_stop_the_superintendent_on_a_known_device(town: Town) -> None:
    office = _from(100)
    assert _sign_in(office, "superintendent", PASSWORD).status_code == 302
    cookie = office.cookies[COOKIE]
    assert cookie["httponly"] and cookie["max-age"] and cookie.value
    office.post("/accounts/logout/")
    _guess_from_twenty_addresses("superintendent")
    # others' failures at the office's own address too
    for _ in range(5):
        _sign_in(_from(100), "superintendent", "wrong")
    unrecognised = _sign_in(_from(101), "superintendent", PASSWORD)
    assert unrecognised.status_code in (200, 429)  # slowed: one attempt per turn
    signed = _sign_in(office, "superintendent", PASSWORD)
    assert signed.status_code == 302 and _signed_in(office)
    assert office.get(STAFF_PAGE).status_code == 200


def test_a_name_attacked_from_many_addresses_is_slowed_not_locked(
    town: Town, settings: Any
) -> None:
    settings.SEWER_USE_SIGNIN_SLOW_SECONDS = 3600  # one turn for the whole test
    _guess_from_twenty_addresses("engineer")
    assert SignInFailure.objects.filter(username="engineer").count() >= 10
    # The turn the guesses took is not over: the real password from a new device waits.
    slowed = _sign_in(_from(50), "engineer", PASSWORD)
    assert slowed.status_code == 429 and int(slowed["Retry-After"]) > 0
    text = slowed.content.decode()
    assert "slowed after many failed attempts" in text and 'name="otp_token"' in text
    # When the turn comes, the right password signs in from anywhere.
    SignInPace.objects.update(next_at=timezone.now() - timedelta(seconds=1))
    client = _from(51)
    assert _sign_in(client, "engineer", PASSWORD).status_code == 302 and _signed_in(client)
    # A turn is taken once: the next attempt right after waits again (refused, not counted).
    before = SignInFailure.objects.count()
    assert _sign_in(_from(52), "engineer", "wrong").status_code == 429
    assert SignInFailure.objects.count() == before


def test_twenty_addresses_do_not_stop_the_superintendent_with_a_code_in_required_mode(
    town: Town, settings: Any
) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "required"
    settings.SEWER_USE_SIGNIN_SLOW_SECONDS = 3600
    device = _enrolled(town.u("superintendent"))
    _guess_from_twenty_addresses("superintendent")
    # No known device, a new address, during the slow-down: the code lets it through.
    client = _from(60)
    response = _sign_in(client, "superintendent", PASSWORD, otp_token=_code(device))
    assert response.status_code == 302 and _signed_in(client)
    assert client.get(STAFF_PAGE).status_code == 200  # verified: no code step
    # The API alike, with its otp field.
    api = _from(61).post(
        "/api/token/",
        {"username": "superintendent", "password": PASSWORD, "otp": _code(device)},
    )
    assert api.status_code == 200 and api.json()["token"]


def test_a_random_code_does_not_reveal_a_right_password_during_the_slow_down(
    town: Town, settings: Any
) -> None:
    settings.SEWER_USE_SIGNIN_SLOW_SECONDS = 3600
    _enrolled(town.u("clerk"))
    _guess_from_twenty_addresses("clerk")
    right = _sign_in(_from(70), "clerk", PASSWORD, otp_token="000000")
    wrong = _sign_in(_from(71), "clerk", "wrong", otp_token="000000")
    assert right.status_code == wrong.status_code == 200
    assert not _signed_in(_from(70))

    def message(r: Any) -> str:
        found = re.search(r'<ul class="errorlist nonfield">(.*?)</ul>', r.content.decode(), re.S)
        return found.group(1) if found else ""

    assert message(right) == message(wrong) != ""


def test_a_known_device_is_paused_by_its_own_failures_only(town: Town) -> None:
    desk = _from(5)
    assert _sign_in(desk, "clerk", PASSWORD).status_code == 302
    desk.post("/accounts/logout/")
    for _ in range(5):
        assert _sign_in(desk, "clerk", "wrong").status_code == 200
    paused = _sign_in(desk, "clerk", PASSWORD)
    assert paused.status_code == 429 and "on this device is paused" in paused.content.decode()
    assert SignInFailure.objects.filter(username="clerk").exclude(device="").count() == 5
    # Another browser at the same address is not paused by the desk's failures.
    assert _sign_in(_from(5), "clerk", PASSWORD).status_code == 302


def test_an_altered_or_foreign_cookie_is_no_known_device(town: Town) -> None:
    desk = _from(6)
    assert _sign_in(desk, "engineer", PASSWORD).status_code == 302
    value = desk.cookies[COOKIE].value
    desk.post("/accounts/logout/")
    for _ in range(5):  # someone else's failures from this address
        _sign_in(_from(6), "clerk", "wrong")
    # The engineer's cookie says nothing for the clerk: paused at this address.
    assert _sign_in(desk, "clerk", PASSWORD).status_code == 429
    tampered = _from(7)
    tampered.cookies[COOKIE] = value[:-2] + ("AA" if not value.endswith("AA") else "BB")
    for _ in range(5):
        _sign_in(_from(7), "engineer", "wrong")
    assert _sign_in(tampered, "engineer", PASSWORD).status_code == 429


def test_control_characters_in_a_name_are_a_failure_not_an_error(town: Town) -> None:
    """The office refuses such requests before they reach sign-in (400); the backend does not
    rely on it: a NUL in the name is a failure counted under the name without it, never a
    database error (PostgreSQL cannot store a NUL)."""
    client = _from(8)
    assert _sign_in(client, "clerk\x00", PASSWORD).status_code in (200, 400)
    api = client.post("/api/token/", {"username": "clerk\x00", "password": PASSWORD})
    assert api.status_code == 400 and not _signed_in(client)
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="203.0.113.8\x00")
    assert authenticate(request, username="clerk\x00", password=PASSWORD) is None
    [failure] = SignInFailure.objects.filter(username="clerk")
    assert failure.address == "203.0.113.8"


# -- the second factor ----------------------------------------------------------------------


def test_required_mode_sends_an_account_without_authenticator_to_enrol(
    town: Town, settings: Any
) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "required"
    client = _from(10)
    response = _sign_in(client, "clerk", PASSWORD)
    assert response.status_code == 302 and response["Location"].startswith(
        "/accounts/second-factor/enrol/"
    )
    # Nothing else until enrolled: pages, the back office, a posted form, the API's session.
    for url in (STAFF_PAGE, "/", "/accounts/password_change/", "/admin/"):
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith("/accounts/second-factor/"), url
    assert client.post("/accounts/password_change/", {}).status_code == 403
    api = client.get("/api/properties/")
    assert api.status_code == 403 and "second factor" in api.json()["detail"]
    page = client.get("/accounts/second-factor/enrol/")
    text = page.content.decode()
    assert page.status_code == 200 and "<svg" in text and "<path" in text
    device = TOTPDevice.objects.get(user=town.u("clerk"), confirmed=False)
    assert second_factor.secret_text(device) in text
    assert 'id="site-nav"' not in text  # no menu to pages it cannot open
    # A wrong code is refused; the right one confirms, and the recovery codes are shown once.
    wrong = client.post("/accounts/second-factor/enrol/", {"code": "123456"})
    assert wrong.status_code == 400 and "not right" in wrong.content.decode()
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    done = client.post("/accounts/second-factor/enrol/", {"code": _code(device), "next": "/"})
    assert done.status_code == 200 and "shown only this once" in done.content.decode()
    codes = re.findall(r"<li><code>([a-z0-9]+)</code></li>", done.content.decode())
    assert len(codes) == 10
    assert sorted(codes) == sorted(StaticToken.objects.values_list("token", flat=True))
    assert client.get(STAFF_PAGE).status_code == 200
    assert client.get("/api/properties/").status_code == 200
    event = AuditEvent.objects.get(action="enrol_second_factor")
    assert event.actor == town.u("clerk") and device.key not in str(event.after)


def test_required_mode_asks_the_code_after_the_password(town: Town, settings: Any) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "required"
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    device = _enrolled(town.u("engineer"))
    client = _from(11)
    response = _sign_in(client, "engineer", PASSWORD, next=STAFF_PAGE)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/second-factor/code/")
    assert client.get(STAFF_PAGE).status_code == 302
    # It cannot enrol its way around the authenticator it has.
    assert client.get("/accounts/second-factor/enrol/")["Location"].startswith(
        "/accounts/second-factor/code/"
    )
    wrong = client.post("/accounts/second-factor/code/", {"code": "000000"})
    assert wrong.status_code == 400 and "not right" in wrong.content.decode()
    assert SignInFailure.objects.filter(username="engineer").count() == 1
    right = client.post(
        "/accounts/second-factor/code/", {"code": _code(device), "next": STAFF_PAGE}
    )
    assert right.status_code == 302 and right["Location"] == STAFF_PAGE
    assert client.get(STAFF_PAGE).status_code == 200


def test_wrong_codes_are_paused_like_wrong_passwords(town: Town, settings: Any) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "required"
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    device = _enrolled(town.u("engineer"))
    client = _from(12)
    _sign_in(client, "engineer", PASSWORD)
    for _ in range(5):
        client.post("/accounts/second-factor/code/", {"code": "000000"})
    paused = client.post("/accounts/second-factor/code/", {"code": _code(device)})
    assert paused.status_code == 429 and "paused after 5 failed attempts" in (
        paused.content.decode()
    )


def test_the_authenticator_waits_after_a_wrong_code(town: Town, settings: Any) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "required"
    settings.OTP_TOTP_THROTTLE_FACTOR = 3600  # django-otp's own wait, made long for the test
    device = _enrolled(town.u("engineer"))
    client = _from(13)
    _sign_in(client, "engineer", PASSWORD)
    client.post("/accounts/second-factor/code/", {"code": "000000"})
    device.refresh_from_db()
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    waiting = client.post("/accounts/second-factor/code/", {"code": f"{totp.token():06d}"})
    assert waiting.status_code == 400 and "Too many wrong codes" in waiting.content.decode()


def test_a_recovery_code_signs_in_once(town: Town, settings: Any) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "required"
    clerk = town.u("clerk")
    device = _enrolled(clerk)
    codes = second_factor.new_recovery_codes(clerk)
    client = _from(14)
    _sign_in(client, "clerk", PASSWORD)
    assert client.post("/accounts/second-factor/code/", {"code": codes[0]}).status_code == 302
    assert client.get(STAFF_PAGE).status_code == 200
    again = _from(15)
    _sign_in(again, "clerk", PASSWORD)
    assert again.post("/accounts/second-factor/code/", {"code": codes[0]}).status_code == 400
    assert second_factor.recovery_codes_left(clerk) == 9 and device.pk


def test_offered_mode_still_asks_the_code_of_an_enrolled_account(town: Town) -> None:
    assert second_factor.mode() == "offered"  # the tests' default, as on a laptop
    device = _enrolled(town.u("owner"))
    client = _from(16)
    response = _sign_in(client, "owner", PASSWORD)
    assert response["Location"].startswith("/accounts/second-factor/code/")
    assert client.get("/").status_code == 302
    assert client.post("/accounts/second-factor/code/", {"code": _code(device)}).status_code == 302
    assert client.get("/").status_code == 200
    # An account without one signs in with the password alone.
    plain = _from(17)
    assert _sign_in(plain, "clerk", PASSWORD)["Location"] == "/"
    assert plain.get(STAFF_PAGE).status_code == 200


def test_required_mode_refuses_sessions_without_the_code(town: Town, settings: Any) -> None:
    """A session from before the mode was switched on (here ``force_login``) owes the code."""
    client = Client()
    client.force_login(town.u("clerk"))
    assert client.get(STAFF_PAGE).status_code == 200  # offered: the tests' default
    settings.SEWER_USE_SECOND_FACTOR = "required"
    r = client.get(STAFF_PAGE)
    assert r.status_code == 302 and r["Location"].startswith("/accounts/second-factor/enrol/")
    # an applicant's role does not require it
    owner = Client()
    owner.force_login(town.u("owner"))
    assert owner.get("/").status_code == 200


def test_the_api_token_asks_for_the_code(town: Town, settings: Any) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "required"
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    api = _from(20)
    # Not enrolled, its role requires it: no token, and an earlier token no longer works.
    earlier = Token.objects.create(user=town.u("clerk"))
    refused = api.post("/api/token/", {"username": "clerk", "password": PASSWORD})
    assert refused.status_code == 403 and "enrol" in refused.json()["detail"]
    old = api.get("/api/properties/", HTTP_AUTHORIZATION=f"Token {earlier.key}")
    assert old.status_code == 403
    # Enrolled: the code is asked for, a wrong one fails like a wrong password.
    device = _enrolled(town.u("engineer"))
    no_code = api.post("/api/token/", {"username": "engineer", "password": PASSWORD})
    assert no_code.status_code == 400 and "otp" in no_code.json()["errors"]
    wrong = api.post("/api/token/", {"username": "engineer", "password": PASSWORD, "otp": "1"})
    assert wrong.status_code == 400 and "token" not in wrong.json()
    ok = api.post(
        "/api/token/", {"username": "engineer", "password": PASSWORD, "otp": _code(device)}
    )
    assert ok.status_code == 200
    key = ok.json()["token"]
    assert api.get("/api/properties/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    # Five failures from one address pause the token there, as on the page.
    for _ in range(5):
        api.post("/api/token/", {"username": "engineer", "password": "wrong"})
    paused = api.post(
        "/api/token/", {"username": "engineer", "password": PASSWORD, "otp": _code(device)}
    )
    assert paused.status_code == 429 and int(paused["Retry-After"]) > 0


def test_removing_needs_a_current_code_and_enrolment_withdraws_tokens(
    town: Town, settings: Any
) -> None:
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    client = _from(21)
    assert _sign_in(client, "viewer", PASSWORD).status_code == 302
    token = Token.objects.create(user=town.u("viewer"))
    client.get("/accounts/second-factor/enrol/")
    device = TOTPDevice.objects.get(user=town.u("viewer"))
    assert client.post("/accounts/second-factor/enrol/", {"code": _code(device)}).status_code == 200
    assert not Token.objects.filter(pk=token.pk).exists()
    page = client.get("/accounts/second-factor/")
    assert "Recovery codes left: <strong>10</strong>" in page.content.decode()
    assert client.post("/accounts/second-factor/remove/", {"code": "000000"}).status_code == 400
    assert TOTPDevice.objects.filter(user=town.u("viewer"), confirmed=True).exists()
    assert (
        client.post("/accounts/second-factor/remove/", {"code": _code(device)}).status_code == 302
    )
    assert not TOTPDevice.objects.filter(user=town.u("viewer")).exists()
    assert AuditEvent.objects.filter(action="remove_second_factor").count() == 1


def test_the_superintendent_resets_a_lost_authenticator_audited(town: Town, settings: Any) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "required"
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    clerk = town.u("clerk")
    clerk_device = _enrolled(clerk)
    clerk_client = _from(30)
    _sign_in(clerk_client, "clerk", PASSWORD)
    clerk_client.post("/accounts/second-factor/code/", {"code": _code(clerk_device)})
    assert clerk_client.get(STAFF_PAGE).status_code == 200
    chief = _from(31)
    chief_device = _enrolled(town.u("superintendent"))
    _sign_in(chief, "superintendent", PASSWORD)
    chief.post("/accounts/second-factor/code/", {"code": _code(chief_device)})
    listing = chief.get("/accounts/second-factor/accounts/")
    assert listing.status_code == 200 and "clerk" in listing.content.decode()
    no_reason = chief.post(f"/accounts/second-factor/accounts/{clerk.pk}/reset/", {"reason": ""})
    assert no_reason.status_code == 302 and TOTPDevice.objects.filter(user=clerk).exists()
    done = chief.post(
        f"/accounts/second-factor/accounts/{clerk.pk}/reset/",
        {"reason": "telephone lost; identity checked at the counter"},
    )
    assert done.status_code == 302 and not TOTPDevice.objects.filter(user=clerk).exists()
    event = AuditEvent.objects.get(action="reset_second_factor")
    assert event.actor == town.u("superintendent") and "telephone lost" in event.reason
    assert event.object_id == str(clerk.pk)
    # The clerk's session is no longer verified: its next page is the enrolment.
    r = clerk_client.get(STAFF_PAGE)
    assert r.status_code == 302 and r["Location"].startswith("/accounts/second-factor/enrol/")
    # A clerk resets no one's.
    engineer_device = _enrolled(town.u("engineer"))
    clerk_client.get("/accounts/second-factor/enrol/")
    new = TOTPDevice.objects.get(user=clerk, confirmed=False)
    clerk_client.post("/accounts/second-factor/enrol/", {"code": _code(new)})
    refused = clerk_client.post(
        f"/accounts/second-factor/accounts/{town.u('engineer').pk}/reset/", {"reason": "x"}
    )
    assert refused.status_code == 403 and TOTPDevice.objects.filter(pk=engineer_device.pk).exists()


# -- registration -------------------------------------------------------------------------


def _register(client: Client, username: str, email: str) -> Any:
    return client.post(
        "/portal/register/",
        {
            "name": "Nora Newcomer",
            "email": email,
            "username": username,
            "password": "Wappinger-Falls-2026",
            "password_again": "Wappinger-Falls-2026",
        },
        follow=True,
    )


def _page_without_csrf(response: Any) -> str:
    """The page as the requester reads it, its CSRF tokens (random on every answer) left out."""
    text = re.sub(r'"X-CSRFToken": "[^"]+"', '"X-CSRFToken": ""', response.content.decode())
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)


def test_registration_answers_alike_for_a_taken_and_a_free_name(
    town: Town, mailoutbox: list[Any]
) -> None:
    town.u("owner").email = "olive@example.org"
    town.u("owner").save()
    cases = {
        "free": ("nora", "nora@example.org"),
        "taken name": ("superintendent", "nora2@example.org"),
        "taken name, other case": ("Clerk", "nora3@example.org"),
        "taken address": ("nora4", "olive@example.org"),
    }
    answers = {}
    for case, (username, email) in cases.items():
        before = len(mailoutbox)
        response = _register(_from(40), username, email)
        sent = mailoutbox[before:]
        answers[case] = (
            response.status_code,
            response.redirect_chain,
            _page_without_csrf(response),
            [m.to for m in sent],
        )
        assert [m.to for m in sent] == [[email]], case
    first = answers["free"]
    for case, answer in answers.items():
        assert answer[:3] == first[:3], case
    assert first[0] == 200 and first[1] == [("/portal/register/sent/", 302)]
    # Only the mailbox learns which: a link, "not available", "you already have an account".
    subjects = [m.subject for m in mailoutbox[-4:]]
    assert subjects == [
        "Sewer office: confirm your e-mail address",
        "Sewer office: your registration",
        "Sewer office: your registration",
        "Sewer office: you already have an account",
    ]
    assert "not available" in mailoutbox[-3].body and "/portal/register/" in mailoutbox[-3].body
    # One account was made: the free name's.
    assert get_user_model().objects.filter(username__in=["nora", "nora4"]).count() == 1


def test_registrations_from_one_address_are_limited(
    town: Town, settings: Any, mailoutbox: list[Any]
) -> None:
    settings.SEWER_USE_REGISTRATIONS_PER_ADDRESS = 2
    for n in range(2):
        assert _register(_from(41), f"newuser{n}", f"new{n}@example.org").status_code == 200
    before = (len(mailoutbox), get_user_model().objects.count())
    refused = Client(REMOTE_ADDR="203.0.113.41").post(
        "/portal/register/",
        {"name": "N", "email": "new9@example.org", "username": "newuser9",
         "password": "Wappinger-Falls-2026", "password_again": "Wappinger-Falls-2026"},
    )  # fmt: skip
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many registrations from this address" in refused.content.decode()
    assert (len(mailoutbox), get_user_model().objects.count()) == before
    # Another address registers.
    other = _register(_from(42), "newuser9", "new9@example.org")
    assert other.redirect_chain == [("/portal/register/sent/", 302)]
    assert RegistrationAttempt.objects.filter(address="203.0.113.41").count() == 2


def test_one_mailbox_receives_a_few_messages_then_the_same_answer_and_none(
    town: Town, settings: Any, mailoutbox: list[Any]
) -> None:
    settings.SEWER_USE_REGISTRATION_MAILS_PER_RECIPIENT = 2
    answers = []
    for n in range(4):  # from four addresses, for one victim's mailbox
        response = _register(_from(43 + n), "superintendent", "victim@example.org")
        answers.append((response.redirect_chain, _page_without_csrf(response)))
    assert all(a == answers[0] for a in answers)
    assert [m.to for m in mailoutbox] == [["victim@example.org"]] * 2


def test_a_reset_in_offered_mode_leaves_the_account_signing_in_with_its_password(
    town: Town,
) -> None:
    owner = town.u("owner")
    device = _enrolled(owner)
    client = _from(90)
    _sign_in(client, "owner", PASSWORD)
    client.post("/accounts/second-factor/code/", {"code": _code(device)})
    assert client.get("/").status_code == 200
    second_factor.reset(town.u("superintendent"), owner, "telephone lost")
    # Its session noted an authenticator; the code page finds none owed and sends it on.
    r = client.get("/", follow=True)
    assert r.status_code == 200 and r.redirect_chain[-1][0] == "/"


def test_a_mistyped_mode_is_refused_when_the_office_starts(settings: Any) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "requird"
    settings.SEWER_USE_SECOND_FACTOR_ROLES = ["superintendant"]
    ids = [e.id for e in check_sign_in_settings()]
    assert ids == ["sewer_use.E001", "sewer_use.E002"]
    assert second_factor.mode() == "required"  # meanwhile, the safe reading
