"""``{% address_warning person premises %}``: the warning a page that issues letters shows
when the address its letters go to has gaps (the office may still serve a notice in person,
so it warns and does not block)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django import template
from django.urls import reverse

from sewer_office.accounts.roles import has_role, is_staff_member
from sewer_office.registry import addresses
from sewer_office.registry.postal import locality_line

register = template.Library()


@register.inclusion_tag("registry/address_warning.html", takes_context=True)
def address_warning(context: template.Context, record: Any, premises: Any = None) -> dict[str, Any]:
    """The warning for the letters of ``record``: a person, or a record naming one (a
    violation, an invoice: its ``person``, and its premises from its facility or property)."""
    person, premises = _addressee(record, premises)
    request = context.get("request")
    user = getattr(request, "user", None)
    if person is None or user is None or not is_staff_member(user):
        return {"gaps": []}
    chosen = addresses.mailing_address(person, premises)
    gaps = addresses.address_gaps(person, premises)
    here = quote(request.get_full_path()) if request is not None else ""
    edit = ""
    if gaps and has_role(user, *addresses.EDIT_ROLES):
        if chosen is not None and chosen.source == "premises" and premises is not None:
            edit = reverse("registry:property-address", args=[premises.pk])
        elif chosen is not None and chosen.source == "premises":
            first = person.properties.order_by("id").first()
            edit = reverse("registry:property-address", args=[first.pk]) if first else ""
        if not edit:
            edit = reverse("registry:person-address", args=[person.pk])
        edit += f"?next={here}"
    return {
        "gaps": gaps,
        "person": person,
        "lines": addresses.mailing_lines(person, premises)[1:],
        "edit": edit,
        "person_url": reverse("registry:person-address", args=[person.pk]) + f"?next={here}"
        if has_role(user, *addresses.EDIT_ROLES)
        else "",
    }


def _addressee(record: Any, premises: Any) -> tuple[Any, Any]:
    """The person a record's letters go to and the premises they concern."""
    if record is None or not hasattr(record, "person"):
        return record, premises
    if premises is None:
        establishment = getattr(record, "establishment", None)
        if establishment is not None:
            premises = establishment.building.property
        else:
            premises = getattr(record, "property", None)
    return record.person, premises


@register.filter
def postal_locality(prop: Any) -> str:
    """A property's "Town, ST 12345" (blank parts left out)."""
    return locality_line(prop.city, prop.state, prop.zip)


@register.filter
def own_mailing(person: Any) -> str:
    """A person's recorded mailing address on one line (blank: its mail goes to its premises)."""
    chosen = addresses.person_mailing(person)
    return " / ".join(chosen.lines) if chosen is not None else ""


@register.simple_tag(takes_context=True)
def may_edit_addresses(context: template.Context) -> bool:
    """Whether the user may record addresses (the clerk, the Superintendent)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return user is not None and has_role(user, *addresses.EDIT_ROLES)
