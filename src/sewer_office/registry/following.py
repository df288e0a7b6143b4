"""The records that keep their parcel's town follow the parcel when an act moves it.

A permit, a violation or an inspection keeps the member town of its parcel in a column of its
own (:class:`~sewer_office.core.models.KeepsItsTown`), so that a town's records are found by an
index among a county's. The town is still the parcel's: when a boundary change or an
intermunicipal agreement moves the parcel (:func:`~.services.move_to_jurisdiction`), every
record that keeps it is moved with it, in the same transaction and under the parcel's audit
event, as it was when the town was read through the joins. What those records determined
under the law of their day stays as it was written.

The registry sits below the apps whose records these are: it finds them by their declaration
(``TOWN_SOURCES``) in Django's app registry, not by importing them.
"""

from __future__ import annotations

from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.db.models import Q

from .models import Establishment, Property

#: From the record a source reaches to the parcel whose town it keeps.
_TO_PARCEL: dict[type[models.Model], str] = {Property: "", Establishment: "__building__property"}


def follow_parcel(prop: Property) -> dict[str, int]:
    """Give the records that keep ``prop``'s town its town now; label → rows moved."""
    moved: dict[str, int] = {}
    for model in apps.get_models():
        sources: tuple[str, ...] = getattr(model, "TOWN_SOURCES", ())
        if not sources:
            continue
        rows = (
            model._base_manager.filter(_of_parcel(model, sources, prop))
            .exclude(jurisdiction=prop.jurisdiction)
            .update(jurisdiction=prop.jurisdiction)
        )
        if rows:
            moved[model._meta.label] = rows
    return moved


def _of_parcel(model: type[models.Model], sources: tuple[str, ...], prop: Property) -> Q:
    """The records of ``model`` whose town is ``prop``'s: the first of ``sources`` that a
    record has leads to ``prop`` (a violation of a facility keeps the facility's town even if
    it also names a parcel)."""
    cond = Q(pk__in=[])
    earlier: list[str] = []
    for source in sources:
        part = Q(**{f"{source}{_to_parcel(model, source)}": prop})
        for before in earlier:
            part &= Q(**{f"{before}__isnull": True})
        cond |= part
        earlier.append(source)
    return cond


def _to_parcel(model: type[models.Model], source: str) -> str:
    current: type[models.Model] | None = model
    for hop in source.split("__"):
        related = current._meta.get_field(hop).related_model if current is not None else None
        current = related if isinstance(related, type) else None
    if current is None or current not in _TO_PARCEL:
        raise ImproperlyConfigured(
            f"{model._meta.label}.TOWN_SOURCES: {source} leads to neither a parcel nor a facility"
        )
    return _TO_PARCEL[current]
