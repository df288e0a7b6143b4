"""Filters by what people know of a record — its name, code or address — never its id alone.

A list's filter for a property or a facility takes the words a user types (``Acme``, ``12 Main``,
a tax parcel, a facility code); a number alone still means the record's id, so that links and
API clients that pass ids keep working.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from .filters import MAX_ID


def id_or_text(
    qs: QuerySet[Any], value: str, id_field: str, text_fields: tuple[str, ...]
) -> QuerySet[Any]:
    """``qs`` narrowed to the record whose id is ``value`` (all digits), else to those whose
    ``text_fields`` contain ``value`` (any case); unchanged for a blank value."""
    v = str(value or "").strip()
    if not v:
        return qs
    if v.isdigit():  # an id the database cannot hold names no record (never an overflow)
        number = int(v)
        return qs.filter(**{id_field: number}) if number <= MAX_ID else qs.none()
    match = Q()
    for name in text_fields:
        match |= Q(**{f"{name}__icontains": v})
    return qs.filter(match)


#: A facility by its code or name; a property by its address or tax parcel, from a record
#: that has an ``establishment`` or a ``property``.
FACILITY_TEXT = ("establishment__code", "establishment__name")
PROPERTY_TEXT = ("property__address", "property__parcel_id")
