"""The second factor: a code from an authenticator app (TOTP, RFC 6238), through django-otp.

``SEWER_USE_SECOND_FACTOR`` is ``required`` (the default in production) or ``offered`` (the
default on a laptop, so the demo's logins work with the password alone). In ``required`` mode
the accounts of ``SEWER_USE_SECOND_FACTOR_ROLES`` (the roles that sign or impose) and every
superuser must give a code: after the password, one without an authenticator is sent to enrol
and reaches nothing else until the first code confirms it. In either mode an account that
enrolled an authenticator always gives its code.

A session that signed in with the password but not yet the code is *pending*
(:func:`pending`): :class:`~.middleware.SecondFactorMiddleware` sends it to the code (or the
enrolment) from every page, ``office_view`` and :func:`~.access.visible` refuse it too, and
the API's permission refuses its session (``sewer_office.api.permissions``). django-otp's
``OTPMiddleware`` marks a session verified once a device accepted a code
(``user.is_verified()``).

Enrolment shows the secret as a QR code (inline SVG) and as text, and is confirmed by a first
code; ten recovery codes (django-otp's static device), each good once, are shown then and
never again. Enrolling, replacing, removing and resetting write audit events.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token

from . import audit_trail
from .actors import Actor, person_or_none, signed_in
from .roles import roles_of

REQUIRED = "required"
OFFERED = "offered"
MODES = (REQUIRED, OFFERED)
#: The session's note, made at sign-in, of whether the account had an authenticator then.
SESSION_FLAG = "sewer_has_second_factor"
RECOVERY_CODES = 10
AUTHENTICATOR = "Authenticator app"
RECOVERY = "Recovery codes"


def mode() -> str:
    value = str(getattr(settings, "SEWER_USE_SECOND_FACTOR", OFFERED)).strip().lower()
    return value if value in MODES else REQUIRED  # an unknown value errs on the safe side


def required_roles() -> frozenset[str]:
    return frozenset(getattr(settings, "SEWER_USE_SECOND_FACTOR_ROLES", ()))


def required_for(user: Actor | None) -> bool:
    """Whether ``user`` must give a code whatever it enrolled: ``required`` mode, and one of
    the roles that sign or impose, or a superuser (the back office can do everything)."""
    person = person_or_none(user)
    if mode() != REQUIRED or person is None:
        return False
    return bool(person.is_superuser) or bool(roles_of(person) & required_roles())


def has_device(user: Actor) -> bool:
    """Whether ``user`` has a confirmed authenticator."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(TOTPDevice.objects.filter(user_id=user.pk, confirmed=True).exists())


def is_verified(user: Actor) -> bool:
    """Whether the session of ``user`` gave a code (set by django-otp's middleware)."""
    check = getattr(user, "is_verified", None)
    if callable(check) and check():
        return True
    # just signed in on this request, with the code (the backend or django_otp.login marked it)
    return getattr(user, "otp_device", None) is not None


def note_sign_in(sender: Any, request: Any, user: Actor, **kwargs: Any) -> None:
    """On every sign-in (the page, the back office, a test's ``force_login``): note in the
    session whether the account has an authenticator, so that pages need not ask the
    database on every request (``user_logged_in`` receiver)."""
    session = getattr(request, "session", None)
    if session is not None:
        session[SESSION_FLAG] = has_device(user)


def _has_device_for_session(request: Any, user: Actor) -> bool:
    session = request.session
    if SESSION_FLAG not in session:  # a session from before this note existed
        session[SESSION_FLAG] = has_device(user)
    return bool(session[SESSION_FLAG])


def pending(request: Any) -> bool:
    """Whether the request's session signed in with the password but still owes a code."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or is_verified(user):
        return False
    return required_for(user) or _has_device_for_session(request, user)


def unverified_where_required(user: Actor | None) -> bool:
    """For a request's user (django-otp marks it): required to give a code and has not.

    A user object from elsewhere (a service, a test, an API token's) carries no mark and is
    not refused here: the API checks its tokens itself."""
    check = getattr(user, "is_verified", None)
    return callable(check) and not check() and required_for(user)


def step_url(request: Any, next_url: str = "") -> str:
    """Where a pending session goes: the code; the enrolment when it has no authenticator and
    its role requires one (else the code page, which finds nothing owed and sends it on)."""
    user = request.user
    enrol = not has_device(user) and required_for(user)
    name = "second-factor-enrol" if enrol else "second-factor-verify"
    url = reverse(name)
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def normalise(code: Any) -> str:
    return "".join(str(code or "").split()).lower()[:32]


def verify_code(user: Actor, code: Any) -> tuple[Any, str]:
    """The device that accepts ``code`` for ``user`` (its authenticator for six digits, else a
    recovery code, used up), or None and why not. django-otp counts the failures of each
    device and makes it wait 1, 2, 4… seconds after each."""
    token = normalise(code)
    if not token:
        return None, "Enter the code."
    devices: Any = (
        TOTPDevice.objects.filter(user_id=user.pk, confirmed=True)
        if token.isdigit()
        else StaticDevice.objects.filter(user_id=user.pk, confirmed=True)
    )
    with transaction.atomic():
        for device in devices.select_for_update():
            allowed, info = device.verify_is_allowed()
            if not allowed:
                until = (info or {}).get("locked_until")
                when = timezone.localtime(until).strftime("%H:%M:%S") if until else "a moment"
                return None, f"Too many wrong codes: try again after {when}."
            if device.verify_token(token):
                return device, ""
    return None, (
        "This code is not right (the app's code changes every 30 seconds; "
        "a recovery code works once)."
    )


def pending_device(user: Actor) -> TOTPDevice:
    """The authenticator being enrolled (not yet confirmed): the same one on every visit of
    the enrolment page, until a code confirms it."""
    device = TOTPDevice.objects.filter(user_id=user.pk, confirmed=False).order_by("id").first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=AUTHENTICATOR, confirmed=False)
    return device


def secret_text(device: TOTPDevice) -> str:
    """The secret as an authenticator app asks for it: base32, in groups of four."""
    raw = base64.b32encode(device.bin_key).decode("ascii").rstrip("=")
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


class _WhiteSvg(qrcode.image.svg.SvgPathImage):  # type: ignore[misc]
    """The QR code on white, readable on any page background."""

    background = "#ffffff"


def qr_svg(device: TOTPDevice) -> str:
    """The device's ``otpauth://`` address as an inline SVG QR code (no script, no request)."""
    image = qrcode.make(device.config_url, image_factory=_WhiteSvg, box_size=10, border=4)
    return str(image.to_string(encoding="unicode"))


def _new_recovery_codes(user: Actor) -> list[str]:
    StaticDevice.objects.filter(user_id=user.pk).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create([StaticToken(device=device, token=c) for c in codes])
    return codes


def recovery_codes_left(user: Actor) -> int:
    return int(StaticToken.objects.filter(device__user_id=user.pk, device__confirmed=True).count())


def confirm_enrolment(user: Actor, device: TOTPDevice, code: Any) -> list[str] | None:
    """Confirm the enrolment with the app's first code: the new authenticator replaces any
    earlier one, new recovery codes are made (returned, to be shown once), and the account's
    API tokens — issued before it had this authenticator — are withdrawn. None when the code
    is not right."""
    if device.user_id != user.pk or device.confirmed:
        return None
    with transaction.atomic():
        locked = TOTPDevice.objects.select_for_update().get(pk=device.pk)
        if not locked.verify_token(normalise(code)):
            return None
        replaced = TOTPDevice.objects.filter(user_id=user.pk, confirmed=True).exclude(pk=locked.pk)
        was_enrolled = replaced.exists()
        replaced.delete()
        TOTPDevice.objects.filter(user_id=user.pk, confirmed=False).exclude(pk=locked.pk).delete()
        locked.confirmed = True
        locked.save(update_fields=["confirmed"])
        codes = _new_recovery_codes(user)
        Token.objects.filter(user_id=signed_in(user).pk).delete()
        audit_trail.record(
            actor=user,
            action="replace_second_factor" if was_enrolled else "enrol_second_factor",
            obj=signed_in(user),
            after={"authenticator": locked.persistent_id, "recovery_codes": len(codes)},
        )
    device.confirmed = True
    return codes


def new_recovery_codes(user: Actor) -> list[str]:
    """Ten new recovery codes (the earlier ones stop working), to be shown once."""
    with transaction.atomic():
        codes = _new_recovery_codes(user)
        audit_trail.record(
            actor=user,
            action="new_recovery_codes",
            obj=signed_in(user),
            after={"recovery_codes": len(codes)},
        )
    return codes


def _remove_all(user: Actor) -> dict[str, Any]:
    """Delete the account's authenticators and recovery codes; what was there, as the audit
    event's ``before`` (an open JSON object: the reset adds its API tokens to it)."""
    before = {
        "authenticators": TOTPDevice.objects.filter(user_id=user.pk, confirmed=True).count(),
        "recovery_codes": recovery_codes_left(user),
    }
    TOTPDevice.objects.filter(user_id=user.pk).delete()
    StaticDevice.objects.filter(user_id=user.pk).delete()
    return before


def remove(user: Actor) -> None:
    """The account removes its own authenticator and recovery codes (the caller checked a
    current code)."""
    with transaction.atomic():
        before = _remove_all(user)
        audit_trail.record(
            actor=user,
            action="remove_second_factor",
            obj=signed_in(user),
            before=before,
            after={},
        )


def may_reset(actor: Actor, target: Any) -> bool:
    """The Superintendent resets another account's second factor (not a superuser's); a
    superuser resets anyone's but its own (its own is removed with a code, like anyone's)."""
    if not getattr(actor, "is_authenticated", False) or actor.pk == target.pk:
        return False
    if actor.is_superuser:
        return True
    return "superintendent" in roles_of(actor) and not target.is_superuser


def reset(actor: Actor, target: Any, reason: str) -> None:
    """Remove ``target``'s authenticator, recovery codes and API tokens (a lost or stolen
    telephone): audited with the reason. Its sessions stop being verified at once; in
    ``required`` mode its next page is the enrolment."""
    with transaction.atomic():
        before = _remove_all(target)
        before["api_tokens"] = Token.objects.filter(user_id=target.pk).count()
        Token.objects.filter(user_id=target.pk).delete()
        audit_trail.record(
            actor=actor,
            action="reset_second_factor",
            obj=target,
            before=before,
            after={},
            reason=reason,
        )


@dataclass(frozen=True)
class FactorStatus:
    """What the account's page shows of its second factor: enrolled since when, last used,
    recovery codes left, and whether its role requires one."""

    enrolled: bool
    since: datetime | None
    last_used: datetime | None
    recovery_codes: int
    required: bool


def status(user: Actor) -> FactorStatus:
    """What the pages show of an account's second factor."""
    device = TOTPDevice.objects.filter(user_id=user.pk, confirmed=True).first()
    return FactorStatus(
        enrolled=device is not None,
        since=device.created_at if device is not None else None,
        last_used=device.last_used_at if device is not None else None,
        recovery_codes=recovery_codes_left(user) if device is not None else 0,
        required=required_for(user),
    )
