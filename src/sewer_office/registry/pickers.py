"""The registry's pickers: persons, facilities (establishments), properties and buildings
chosen by search (:mod:`sewer_office.core.pickers`).

Each kind searches every word typed (all must match, each anywhere: a name, a mailing
address, a property's address or parcel, a facility's name or code), and describes a match
by what tells it apart from a namesake: the mailing address, the parcels owned, the
facilities operated. A person merged into another (a duplicate entry) is never offered.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import models
from django.db.models import Prefetch, Q

from sewer_office.core.pickers import PickField, PickKind

from .choices import ContactKind
from .models import Building, Contact, Establishment, Person, Property

#: The URL name of the search endpoint (``/registry/pick/<kind>/?q=``).
URL_NAME = "registry:pick"

#: Details shown of each list (the first few parcels owned, facilities operated).
SHOWN = 2


def _words(text: str) -> list[str]:
    return [w for w in text.replace(",", " ").split() if w][:6]


def _id_of(word: str) -> int | None:
    w = word.lstrip("#")
    return int(w) if w.isdigit() and len(w) <= 12 else None


def _all_words(
    qs: models.QuerySet[Any], text: str, one: Any, *, by_id: bool = True
) -> models.QuerySet[Any]:
    """``qs`` narrowed by every word of ``text`` (``one(word)`` is the condition for a word);
    a text that is one number also finds the record of that id."""
    words = _words(text)
    if not words:
        return qs.none()
    cond = Q()
    for w in words:
        cond &= one(w)
    if by_id and len(words) == 1 and (pk := _id_of(words[0])) is not None:
        cond |= Q(pk=pk)
    return qs.filter(cond)


def active_persons(qs: models.QuerySet[Person] | None = None) -> models.QuerySet[Person]:
    """Persons that may be chosen: not merged into another."""
    return (qs if qs is not None else Person.objects.all()).filter(merged_into__isnull=True)


# --- persons -----------------------------------------------------------------------------------


def search_persons(qs: models.QuerySet[Any], text: str) -> models.QuerySet[Any]:
    def one(w: str) -> Q:
        places = Property.objects.filter(Q(address__icontains=w) | Q(parcel_id__icontains=w))
        mail = Contact.objects.filter(kind=ContactKind.MAIL, value__icontains=w)
        firms = Establishment.objects.filter(Q(name__icontains=w) | Q(code__icontains=w))
        return (
            Q(name__icontains=w)
            | Q(mail_street__icontains=w)
            | Q(mail_city__icontains=w)
            | Q(mail_zip__startswith=w)
            | Q(pk__in=places.values("owner"))
            | Q(pk__in=mail.values("person"))
            | Q(pk__in=firms.values("operator"))
        )

    return _all_words(active_persons(qs), text, one).order_by("name", "id")


def prepare_persons(qs: models.QuerySet[Any]) -> models.QuerySet[Any]:
    return qs.prefetch_related(
        Prefetch("contacts", queryset=Contact.objects.filter(kind=ContactKind.MAIL)),
        Prefetch("properties", queryset=Property.objects.order_by("parcel_id")),
        Prefetch("establishments", queryset=Establishment.objects.order_by("name")),
    )


def _some(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    return shown + (f" and {len(items) - SHOWN} more" if len(items) > SHOWN else "")


def describe_person(p: Person) -> tuple[str, str]:
    parts: list[str] = [p.get_kind_display()]
    mail = [c.value for c in p.contacts.all()]
    if p.mail_street.strip():
        town = ", ".join(x for x in (p.mail_city, f"{p.mail_state} {p.mail_zip}".strip()) if x)
        mail = [" ".join(p.mail_street.split()) + (f", {town}" if town else "")]
    if mail:
        parts.append(f"mail: {mail[0]}")
    owned = [f"{x.address} (parcel {x.parcel_id})" for x in p.properties.all()]
    if owned:
        parts.append(f"owns {_some(owned)}")
    run = [e.name for e in p.establishments.all()]
    if run:
        parts.append(f"operates {_some(run)}")
    return p.name, " · ".join(parts)


# --- establishments (facilities) ---------------------------------------------------------------


def search_establishments(qs: models.QuerySet[Any], text: str) -> models.QuerySet[Any]:
    def one(w: str) -> Q:
        return (
            Q(name__icontains=w)
            | Q(code__icontains=w)
            | Q(building__property__address__icontains=w)
            | Q(building__property__parcel_id__icontains=w)
            | Q(operator__name__icontains=w)
        )

    return _all_words(qs, text, one).order_by("name", "id")


def prepare_establishments(qs: models.QuerySet[Any]) -> models.QuerySet[Any]:
    return qs.select_related("operator", "building__property")


def describe_establishment(e: Establishment) -> tuple[str, str]:
    prop = e.building.property
    parts = [e.get_kind_display()]
    if e.code:
        parts.append(e.code)
    parts += [f"{prop.address} (parcel {prop.parcel_id})", f"operated by {e.operator.name}"]
    return e.name, " · ".join(parts)


# --- properties and buildings ------------------------------------------------------------------


def search_properties(qs: models.QuerySet[Any], text: str) -> models.QuerySet[Any]:
    def one(w: str) -> Q:
        return Q(address__icontains=w) | Q(parcel_id__icontains=w) | Q(owner__name__icontains=w)

    return _all_words(qs, text, one).order_by("address", "id")


def prepare_properties(qs: models.QuerySet[Any]) -> models.QuerySet[Any]:
    return qs.select_related("owner", "service_area")


def describe_property(p: Property) -> tuple[str, str]:
    parts = [f"parcel {p.parcel_id}", f"owner {p.owner.name}"]
    if p.service_area is not None:
        parts.append(p.service_area.name)
    return p.address, " · ".join(parts)


def search_buildings(qs: models.QuerySet[Any], text: str) -> models.QuerySet[Any]:
    def one(w: str) -> Q:
        return (
            Q(name__icontains=w)
            | Q(property__address__icontains=w)
            | Q(property__parcel_id__icontains=w)
            | Q(property__owner__name__icontains=w)
        )

    return _all_words(qs, text, one).order_by("property__address", "id")


def prepare_buildings(qs: models.QuerySet[Any]) -> models.QuerySet[Any]:
    return qs.select_related("property__owner")


def describe_building(b: Building) -> tuple[str, str]:
    prop = b.property
    return (
        f"{b.name}, {prop.address}",
        f"{b.get_use_display()} · parcel {prop.parcel_id} · owner {prop.owner.name}",
    )


PERSON = PickKind("person", "person", search_persons, describe_person, prepare_persons, URL_NAME)
ESTABLISHMENT = PickKind(
    "establishment",
    "facility",
    search_establishments,
    describe_establishment,
    prepare_establishments,
    URL_NAME,
)
PROPERTY = PickKind(
    "property", "property", search_properties, describe_property, prepare_properties, URL_NAME
)
BUILDING = PickKind(
    "building", "building", search_buildings, describe_building, prepare_buildings, URL_NAME
)

#: kind name → (kind, the model whose records it picks)
KINDS: dict[str, tuple[PickKind, type[models.Model]]] = {
    "person": (PERSON, Person),
    "establishment": (ESTABLISHMENT, Establishment),
    "property": (PROPERTY, Property),
    "building": (BUILDING, Building),
}


# --- the fields other apps' forms use ----------------------------------------------------------


def PersonField(queryset: Any = None, **kwargs: Any) -> PickField:
    """A person chosen by search; merged duplicates are never accepted."""
    return PickField(PERSON, active_persons(queryset), **kwargs)


def EstablishmentField(queryset: Any = None, **kwargs: Any) -> PickField:
    """A facility (establishment) chosen by search: name, code, address, parcel, operator."""
    return PickField(
        ESTABLISHMENT, queryset if queryset is not None else Establishment.objects.all(), **kwargs
    )


def PropertyField(queryset: Any = None, **kwargs: Any) -> PickField:
    """A property chosen by search: address, parcel, owner."""
    return PickField(
        PROPERTY, queryset if queryset is not None else Property.objects.all(), **kwargs
    )


def BuildingField(queryset: Any = None, **kwargs: Any) -> PickField:
    """A building chosen by search: its property's address, parcel or owner."""
    return PickField(
        BUILDING, queryset if queryset is not None else Building.objects.all(), **kwargs
    )


def use_pickers(form: Any, names: tuple[str, ...] = tuple(KINDS), *, select: bool = False) -> None:
    """Turn the form's model choice fields named after a kind (``applicant`` is a person)
    into pickers over the same queryset (forms whose querysets are set per user).

    ``select``: keep a select of the choices (an outside user's few records) while refusing
    what is not among them as a picker does, with a message naming the field."""
    aliases = {"applicant": "person", "owner": "person", "operator": "person"}
    for name, field in list(form.fields.items()):
        kind_name = aliases.get(name, name)
        if kind_name not in names or kind_name not in KINDS or isinstance(field, PickField):
            continue
        if not hasattr(field, "queryset"):
            continue
        kind, _model = KINDS[kind_name]
        qs = field.queryset
        if kind is PERSON:
            qs = active_persons(qs)
        extra: dict[str, Any] = (
            {"widget": forms.Select(), "empty_label": "---------"} if select else {}
        )
        form.fields[name] = PickField(
            kind, qs, required=field.required, label=field.label, help_text=field.help_text, **extra
        )
