"""Creating users with roles, and granting the jurisdictions they act for (used by the demo
town and the back office)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from . import audit_trail
from .actors import Actor
from .jurisdictions import forget_jurisdictions
from .models import StaffJurisdiction
from .roles import ALL_ROLES, forget_roles
from .towns import installed


def create_user(
    username: str,
    password: str,
    roles: tuple[str, ...],
    *,
    first_name: str = "",
    last_name: str = "",
    email: str = "",
    jurisdictions: tuple[str, ...] = (),
    actor: Actor | None = None,
) -> Any:
    """A user in the given role groups, acting for ``jurisdictions`` (in an installation of
    several towns), with an audit event."""
    unknown = [r for r in roles if r not in ALL_ROLES]
    if unknown:
        raise ValueError(f"unknown role(s): {', '.join(unknown)}")
    user_model = get_user_model()
    with transaction.atomic():
        user = user_model.objects.create_user(
            username=username,
            password=password,
            first_name=first_name,
            last_name=last_name,
            email=email,
        )
        # The role groups come from a data migration; a database flushed between tests (or
        # restored without them) gets them back here rather than a user without a role.
        user.groups.set([Group.objects.get_or_create(name=r)[0] for r in roles])
        forget_roles(user)
        audit_trail.record(
            actor=actor,
            action="create_user",
            obj=user,
            after={"username": username, "roles": sorted(roles)},
        )
        for code in jurisdictions:
            grant_jurisdiction(user, code, actor=actor)
    return user


def grant_jurisdiction(user: Any, jurisdiction: str, *, actor: Actor | None = None) -> Any:
    """``user`` acts for ``jurisdiction`` from now on (idempotent), with an audit event.

    Refused for a jurisdiction the installation does not serve (``SEWER_USE_JURISDICTIONS``):
    a grant for a town whose records the office does not hold would be a grant of nothing."""
    if jurisdiction not in installed():
        raise ValueError(
            f"jurisdiction {jurisdiction!r}: this installation serves {', '.join(installed())}"
        )
    with transaction.atomic():
        row, created = StaffJurisdiction.objects.get_or_create(user=user, jurisdiction=jurisdiction)
        if created:
            audit_trail.record(
                actor=actor,
                action="grant_jurisdiction",
                obj=user,
                after={"jurisdiction": jurisdiction},
            )
    forget_jurisdictions(user)
    return row


def withdraw_jurisdiction(
    user: Any, jurisdiction: str, *, actor: Actor | None = None, reason: str = ""
) -> None:
    """``user`` no longer acts for ``jurisdiction``, with an audit event (nothing when they
    did not)."""
    with transaction.atomic():
        deleted, _ = StaffJurisdiction.objects.filter(user=user, jurisdiction=jurisdiction).delete()
        if deleted:
            audit_trail.record(
                actor=actor,
                action="withdraw_jurisdiction",
                obj=user,
                before={"jurisdiction": jurisdiction},
                reason=reason,
            )
    forget_jurisdictions(user)
