"""What the accounts app stores itself: failed sign-ins, for pausing password guessing."""

from __future__ import annotations

from django.db import models

from sewer_office.core.moments import local


class SignInFailure(models.Model):
    """One failed sign-in (a wrong password or an unknown name), kept for the pause window.

    The page, the back office and ``POST /api/token/`` all sign in through
    :class:`~sewer_office.accounts.backends.ThrottledModelBackend`, which writes these rows;
    :mod:`~sewer_office.accounts.throttle` reads them. A row holds no password. Deleting an
    account's rows in the back office ends its pause at once.
    """

    username = models.CharField(max_length=150, db_index=True, help_text="as typed, lower-cased")
    address = models.CharField(max_length=45, blank=True, db_index=True)
    at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ("-at",)
        verbose_name = "failed sign-in"

    def __str__(self) -> str:
        return f"{self.username} from {self.address or 'unknown address'} at {local(self.at)}"
