"""Which link requests a user may see: staff all of them, an outside user their own."""

from __future__ import annotations

from django.db import models

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import is_office_user, is_staff_member

from .models import LinkRequest


def visible_links(user: Actor) -> models.QuerySet[LinkRequest]:
    qs = LinkRequest.objects.select_related("user", "person", "decided_by")
    if is_staff_member(user):
        return qs
    if not is_office_user(user):
        return qs.none()
    return qs.filter(user=signed_in(user))
