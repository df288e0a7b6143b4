"""What a permit or approval waits for, in words: who (by name when one person holds the
role), doing what (the transition's button as a deed) — the line at the top of its page."""

from __future__ import annotations

from typing import Any, TypedDict

from django.contrib.auth import get_user_model

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import role_label


def _applicant(record: Any) -> str:
    """The applicant by name, and how it stands to the property: "J. Smith (owner)"."""
    person = getattr(record, "applicant", None)
    if person is None:
        return "the applicant"
    prop = getattr(record, "property", None)
    stands = "owner" if prop is not None and prop.owner_id == person.pk else "applicant"
    return f"{person.name} ({stands})"


def _staff(role: str) -> str:
    """The one active person holding ``role`` by name ("Ann Lee (Clerk)"), else the role."""
    label = role_label(role)
    holders = list(
        get_user_model()
        .objects.filter(groups__name=role, is_active=True)
        .values_list("first_name", "last_name")[:2]
    )
    if len(holders) == 1 and " ".join(holders[0]).strip():
        return f"{' '.join(holders[0]).strip()} ({label})"
    return f"the {label}"


def _doing(label: str) -> str:
    """A transition's button label as what someone does: "Notify: ready for inspection" ->
    "notify (ready for inspection)"."""
    head, _, tail = label.partition(": ")
    text = f"{head} ({tail})" if tail else head
    return text[:1].lower() + text[1:]


class Waiting(TypedDict):
    """One line of what a record waits for: who, doing what (``label``: the transition's
    button), and whether it is the user's turn (``you``)."""

    who: str
    what: str
    label: str
    you: bool


def waiting_on(wf: Any, record: Any, user: Actor | None = None) -> list[Waiting]:
    """Who the record waits for, by name, and to do what; ``you`` marks what ``user`` does
    (its button is on the page)."""
    mine = {t.name for t in wf.available(user, record)} if user is not None else set()
    out: list[Waiting] = []
    seen: set[tuple[str, str]] = set()
    for t in wf.transitions:
        if record.state in t.sources and t.queue:
            names = [_staff(r) for r in sorted(t.roles)]
            if t.applicant:
                names.insert(0, _applicant(record))
            who = " or ".join(names) if names else "the office"
            what = _doing(t.label)
            if (who, what) in seen:
                continue
            seen.add((who, what))
            out.append({"who": who, "what": what, "label": t.label, "you": t.name in mine})
    out.sort(key=lambda w: not w["you"])
    return out
