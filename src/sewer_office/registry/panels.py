"""What the registry contributes to the header's search: properties (address, tax parcel,
owner), persons (name) and facilities (code, name, address), each through its list's own
filterset, among the records this user may see (an outside user: their own)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.http import urlencode

from sewer_office.accounts.access import visible
from sewer_office.core.panels import SEARCH_ROWS, SearchGroup, SearchHit

from .filters import EstablishmentFilter, PersonFilter, PropertyFilter
from .models import Establishment, Property
from .pickers import active_persons, describe_person, prepare_persons


def _group(
    title: str, filterset: Any, qs: Any, q: str, list_name: str, hit: Any, order: int
) -> SearchGroup:
    found = list(filterset({"q": q}, queryset=qs).qs[: SEARCH_ROWS + 1])
    return SearchGroup(
        title=title,
        hits=[hit(r) for r in found[:SEARCH_ROWS]],
        more=len(found) > SEARCH_ROWS,
        list_url=reverse(list_name) + "?" + urlencode({"q": q}),
        order=order,
    )


def search(request: Any, q: str) -> list[SearchGroup]:
    user = request.user
    return [
        _group(
            "Properties",
            PropertyFilter,
            visible(Property.objects.select_related("owner"), user).order_by("address", "id"),
            q,
            "registry:properties",
            lambda p: SearchHit(
                p.address, reverse("registry:property", args=[p.pk]), f"parcel {p.parcel_id}"
            ),
            10,
        ),
        _group(
            "Facilities",
            EstablishmentFilter,
            visible(Establishment.objects.select_related("building__property"), user).order_by(
                "name", "id"
            ),
            q,
            "registry:establishments",
            lambda e: SearchHit(
                e.name,
                reverse("registry:establishment", args=[e.pk]),
                " · ".join(x for x in (e.code, e.building.property.address) if x),
            ),
            20,
        ),
        _group(
            "Persons",
            PersonFilter,
            prepare_persons(visible(active_persons(), user).order_by("name", "id")),
            q,
            "registry:persons",
            lambda p: SearchHit(
                p.name, reverse("registry:person", args=[p.pk]), describe_person(p)[1]
            ),
            30,
        ),
    ]
