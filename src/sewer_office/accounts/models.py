"""What the accounts app stores itself: failed sign-ins (the pause), the pace of sign-in for a
name under attack (the slow-down), and registrations asked for (their per-address limit)."""

from __future__ import annotations

from datetime import datetime

from django.db import models
from django.utils import timezone


def _local(at: datetime) -> str:
    """A stored moment as the Town reads it (its time zone, to the minute): the names of these
    rows in the back office. The accounts sit below ``core`` and its ``moments``, which every
    other app uses for the same reading."""
    return (
        timezone.localtime(at).strftime("%Y-%m-%d %H:%M")
        if timezone.is_aware(at)
        else (at.strftime("%Y-%m-%d %H:%M"))
    )


class SignInFailure(models.Model):
    """One failed sign-in (a wrong password, an unknown name or a wrong code), kept for the
    pause window.

    The page, the back office and ``POST /api/token/`` all sign in through
    :class:`~sewer_office.accounts.backends.ThrottledModelBackend`, which writes these rows;
    :mod:`~sewer_office.accounts.throttle` reads them by name and address together, by address
    alone, by name alone (the slow-down) and by known device. A row holds no password. Deleting
    an account's rows in the back office ends its pauses and its slow-down at once.
    """

    username = models.CharField(max_length=150, db_index=True, help_text="as typed, lower-cased")
    address = models.CharField(max_length=45, blank=True, db_index=True)
    device = models.CharField(
        max_length=32,
        blank=True,
        help_text="the known device the attempt came from (its cookie's id), if any",
    )
    at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ("-at",)
        verbose_name = "failed sign-in"
        indexes = (
            # the pause of a name at one address: the query every attempt makes first
            models.Index(fields=["username", "address", "at"], name="signin_name_address_at"),
        )

    def __str__(self) -> str:
        return f"{self.username} from {self.address or 'unknown address'} at {_local(self.at)}"


class SignInPace(models.Model):
    """When the next sign-in for a slowed name may be tried from an unrecognised device.

    One row per name, moved forward by a conditional ``UPDATE`` (``next_at <= now``): of many
    attempts arriving at once, exactly one claims the turn, on SQLite and PostgreSQL alike.
    """

    username = models.CharField(max_length=150, unique=True)
    next_at = models.DateTimeField()

    class Meta:
        verbose_name = "slowed sign-in"

    def __str__(self) -> str:
        return f"{self.username}: next attempt at {_local(self.next_at)}"


class RegistrationAttempt(models.Model):
    """A registration the portal accepted (it answered "check your e-mail"), kept for the
    window of :mod:`~sewer_office.accounts.registration_limits`: registrations from one address,
    and messages to one e-mail address, are counted here."""

    address = models.CharField(max_length=45, blank=True, db_index=True)
    email = models.CharField(max_length=254, db_index=True, help_text="lower-cased")
    at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ("-at",)
        verbose_name = "registration asked for"
        verbose_name_plural = "registrations asked for"

    def __str__(self) -> str:
        return f"{self.email} from {self.address or 'unknown address'} at {_local(self.at)}"


class StaffJurisdiction(models.Model):
    """A jurisdiction a staff member acts for, in an installation serving several towns.

    The user's roles (their groups) are held in each jurisdiction granted here: a clerk
    granted Wappinger sees and acts for Wappinger's records only
    (:mod:`~sewer_office.accounts.jurisdictions`). An installation of one town needs none.
    Granted and withdrawn in the back office, each change an audit event."""

    user = models.ForeignKey(
        "auth.User", on_delete=models.CASCADE, related_name="staff_jurisdictions"
    )
    jurisdiction = models.CharField(
        max_length=40, help_text="the law package's name, e.g. wappinger or town-of-poughkeepsie"
    )
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("user", "jurisdiction")
        verbose_name = "jurisdiction acted for"
        verbose_name_plural = "jurisdictions acted for"
        constraints = (
            models.UniqueConstraint(
                fields=["user", "jurisdiction"], name="accounts_staff_jurisdiction_once"
            ),
        )

    def __str__(self) -> str:
        return f"{self.user} acts for {self.jurisdiction}"
