"""Which messages of the log a user may see: the office all of them, an outside user the
messages addressed to their own account (another's message is a 404)."""

from __future__ import annotations

from django.db import models

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import is_office_user, is_staff_member

from .models import SentMessage


def visible_messages(user: Actor) -> models.QuerySet[SentMessage]:
    qs = SentMessage.objects.select_related("user", "about_type")
    if is_staff_member(user):
        return qs
    if not is_office_user(user):
        return qs.none()
    return qs.filter(user=signed_in(user))
