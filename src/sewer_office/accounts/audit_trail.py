"""How a change of an account reaches the audit trail, which stands above the accounts.

Users and roles are the lowest of the office's apps: the audit trail (``core.audit``), the
workflows' steps, the pages' decorators and every service read them, so the accounts import
none of those. Yet creating a user and enrolling, replacing, removing or resetting a second
factor are changes the audit trail must keep, in the change's own transaction. So the accounts
declare the one function they call (:func:`record`) and the core app, which keeps the trail,
sets what it does from its ``apps.py`` (:func:`keep_with`, given ``core.audit.record``). A
change asked for before that (no app registry: a bare script) is refused, never left
unrecorded.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.core.exceptions import ImproperlyConfigured
from django.db import models

from .actors import Actor


class Recorder(Protocol):
    """What keeps one event of the trail (``core.audit.record``'s keywords)."""

    def __call__(
        self,
        *,
        actor: Actor | None,
        action: str,
        obj: models.Model,
        before: dict[str, Any] | None = ...,
        after: dict[str, Any] | None = ...,
        reason: str = ...,
    ) -> object: ...


_kept_by: list[Recorder] = []


def keep_with(recorder: Recorder) -> None:
    """The audit trail's recorder (set once by the core app; a second call replaces it)."""
    _kept_by[:] = [recorder]


def record(
    *,
    actor: Actor | None,
    action: str,
    obj: models.Model,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
) -> None:
    """One audit event of an account's change (call inside the change's transaction)."""
    if not _kept_by:
        raise ImproperlyConfigured(
            "No audit trail keeps the accounts' changes: sewer_office.core is not installed or "
            "its app is not ready."
        )
    _kept_by[0](actor=actor, action=action, obj=obj, before=before, after=after, reason=reason)
