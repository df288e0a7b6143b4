"""Who acts: the types the office's services take for the person on whose behalf they act.

Every service takes its actor first (Zulip's ``acting_user``): the audit event names them,
and the roles the law names for the action are checked against theirs. A request's user is
either a signed-in :class:`~django.contrib.auth.models.User` or Django's anonymous user; the
views and the API pass it on as they receive it, and the services refuse an actor without the
role (an anonymous user holds none). So a service's actor is an :data:`Actor`, and the code
that must name a person on a record (a signature, a ``recorded_by``) narrows it with
:func:`signed_in` — never by assuming.

The system itself (a scheduled job, the demo's builder, an import run by the operator) acts
through a named user too, so that every audit event has a person or a named job behind it.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied

#: The person a service acts for: whoever made the request, signed in or not.
Actor: TypeAlias = User | AnonymousUser

#: A person who has signed in: who may be named on a record.
Person: TypeAlias = User


def signed_in(actor: Actor) -> Person:
    """``actor`` as a signed-in person, or a refusal (403): a record of legal weight names
    who made it, and an anonymous request names no one."""
    if isinstance(actor, User) and actor.is_authenticated:
        return actor
    raise PermissionDenied("Sign in first: this action is recorded under your name.")


def person_or_none(actor: Actor | None) -> Person | None:
    """The person to name on a record's ``…_by`` field, or ``None`` when no one signed in acts:
    the operator at the command line (``actor`` ``None``: the server's owner, named by the
    audit event's job instead) or an anonymous caller a service has already let through."""
    if isinstance(actor, User) and actor.is_authenticated:
        return actor
    return None
