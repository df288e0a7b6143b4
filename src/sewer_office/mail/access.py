"""Which messages of the log a user may see: the office all of them (in an office of several
member towns, a staff member the messages about their towns' records, and those about no one
town's), an outside user the messages addressed to their own account (another's message is a
404)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.jurisdictions import jurisdictions_of
from sewer_office.accounts.roles import is_office_user, is_staff_member

from .models import SentMessage


def visible_messages(user: Actor) -> models.QuerySet[SentMessage]:
    qs = SentMessage.objects.select_related("user", "about_type")
    if is_staff_member(user):
        towns = jurisdictions_of(user)
        if towns is None:
            return qs
        return qs.filter(Q(jurisdiction__in=sorted(towns)) | Q(jurisdiction=""))
    if not is_office_user(user):
        return qs.none()
    return qs.filter(user=signed_in(user))
