"""Creating users with roles (used by the demo town and the back office)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from . import audit_trail
from .actors import Actor
from .roles import ALL_ROLES, forget_roles


def create_user(
    username: str,
    password: str,
    roles: tuple[str, ...],
    *,
    first_name: str = "",
    last_name: str = "",
    email: str = "",
    actor: Actor | None = None,
) -> Any:
    """A user in the given role groups, with an audit event."""
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
    return user
