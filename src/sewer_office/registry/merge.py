"""Persons entered twice: finding the likely duplicates, and merging one into another.

A merge deletes nothing and re-points nothing. The duplicate keeps its id and every record that
names it (a notice served on it, an invoice issued to it, a permit granted to it: records of
legal weight, written once) keeps naming it. The duplicate gets ``merged_into`` (with when and by
whom, audited on both persons): from then on it is offered by no picker and no search, no new
record can name it (:func:`refuse_merged`), its page says whom it was merged into, and the
survivor's page lists the duplicate's records with its own (:func:`records_of`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.apps import apps
from django.db import models, transaction
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.roles import CLERK, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden
from sewer_office.core.links import link

from .choices import ContactKind
from .models import Contact, Person
from .names import normalized

#: Who may merge persons: the clerk, who keeps the registry, and the Superintendent.
MERGE_ROLES = (CLERK, SUPERINTENDENT)
#: The definition the registry keeps one record of.
MERGE_CITATION = "§ 196-15 PERSON"


@dataclass(frozen=True)
class DuplicateGroup:
    """Persons that are probably one: why (same name or same mailing address), and who."""

    reason: str
    key: str
    persons: list[Person]


def likely_duplicates(qs: models.QuerySet[Person] | None = None) -> list[DuplicateGroup]:
    """Groups of persons (not already merged) with the same normalized name, then with the
    same mailing address; the same pair is listed once (under its name)."""
    base = (qs if qs is not None else Person.objects.all()).filter(merged_into__isnull=True)
    persons = {p.pk: p for p in base.order_by("name", "id")}
    by_name: dict[str, list[int]] = defaultdict(list)
    for p in persons.values():
        key = normalized(p.name)
        if key:
            by_name[key].append(p.pk)
    groups = [
        DuplicateGroup("same name", key, [persons[i] for i in ids])
        for key, ids in sorted(by_name.items())
        if len(ids) > 1
    ]
    named_together = [{p.pk for p in g.persons} for g in groups]
    by_address: dict[str, list[int]] = defaultdict(list)
    mail = list(
        Contact.objects.filter(kind=ContactKind.MAIL, person_id__in=list(persons))
        .order_by("person_id")
        .values_list("person_id", "value")
    )
    mail += [
        (p.pk, f"{p.mail_street} {p.mail_city} {p.mail_zip[:5]}")
        for p in persons.values()
        if p.mail_street.strip()
    ]
    for person_id, value in mail:
        key = normalized(value)
        if key and person_id not in by_address[key]:
            by_address[key].append(person_id)
    for key, ids in sorted(by_address.items()):
        if len(ids) > 1 and not any(set(ids) <= together for together in named_together):
            groups.append(DuplicateGroup("same mailing address", key, [persons[i] for i in ids]))
    return groups


def merge_person(duplicate: Person, survivor: Person, actor: Actor, *, reason: str = "") -> Person:
    """Merge ``duplicate`` into ``survivor`` (see the module's docstring); returns the
    duplicate as merged. Refused: another role, a person into itself, a duplicate already
    merged, a survivor itself merged (merge into the one it was merged into: no chains that
    could loop)."""
    if not has_role(actor, *MERGE_ROLES):
        raise Forbidden("Merging persons is for the clerk or the Superintendent.")
    with transaction.atomic():
        locked = {
            p.pk: p
            for p in Person.objects.select_for_update().filter(pk__in=[duplicate.pk, survivor.pk])
        }
        dup, keep = locked[duplicate.pk], locked[survivor.pk]
        if dup.pk == keep.pk:
            raise Blocked(f"{dup.name} (#{dup.pk}) cannot be merged into itself.")
        if dup.merged_into_id is not None:
            raise Blocked(f"{dup.name} (#{dup.pk}) is already merged into #{dup.merged_into_id}.")
        if keep.merged_into_id is not None:
            raise Blocked(
                f"{keep.name} (#{keep.pk}) was itself merged into #{keep.merged_into_id}: "
                f"merge into that person instead."
            )
        if dup.pk in keep.same_person_ids():  # cannot happen while survivors are unmerged
            raise Blocked(f"Merging #{dup.pk} into #{keep.pk} would make a loop.")
        before = audit.snapshot(dup)
        dup.merged_into = keep
        dup.merged_at = timezone.now()
        dup.merged_by = person_or_none(actor)
        dup.save(update_fields=["merged_into", "merged_at", "merged_by", "updated_at"])
        why = reason.strip() or "entered twice in the registry"
        audit.record(
            actor=actor,
            action="merge_into",
            obj=dup,
            before=before,
            after=audit.snapshot(dup),
            reason=f"merged into {keep.name} (#{keep.pk}): {why}",
            citation=MERGE_CITATION,
            at=dup.merged_at,
        )
        audit.record(
            actor=actor,
            action="merge_from",
            obj=keep,
            after={"merged_person": dup.pk},
            reason=f"{dup.name} (#{dup.pk}) merged into this person: {why}",
            citation=MERGE_CITATION,
            at=dup.merged_at,
        )
    return dup


# --- no new records for a merged person --------------------------------------------------------


@cache
def _person_keys(model: type[models.Model]) -> tuple[str, ...]:
    """The attnames of ``model``'s foreign keys to a person."""
    return tuple(
        f.attname
        for f in model._meta.concrete_fields
        if isinstance(f, models.ForeignKey) and f.related_model is Person
    )


#: Apps whose records follow a record already made (a permit's fee invoice, a violation's
#: costs, a payment applied to an invoice): they name the person that record names, merged or
#: not, so that a process begun before the merge ends as it began.
FOLLOWING_APPS = frozenset({"billing"})


def refuse_merged(sender: type[models.Model], instance: models.Model, **kwargs: Any) -> None:
    """``pre_save``: a new record naming a merged person is refused (name the survivor)."""
    if sender is Person or kwargs.get("raw") or not instance._state.adding:
        return
    if sender._meta.app_label in FOLLOWING_APPS:
        return
    ids = [v for key in _person_keys(sender) if (v := getattr(instance, key, None)) is not None]
    if not ids:
        return
    merged = Person.objects.filter(pk__in=ids, merged_into__isnull=False).first()
    if merged is not None:
        raise Blocked(
            f"{merged.name} (#{merged.pk}) was merged into #{merged.merged_into_id}: "
            f"record this for that person instead."
        )


def refuse_merged_link(
    sender: Any, instance: Any, action: str, pk_set: Any = None, **kwargs: Any
) -> None:
    """``m2m_changed`` of ``Person.representatives``: no account is linked to a merged person."""
    if action != "pre_add":
        return
    if isinstance(instance, Person):
        # from the database: the instance in hand may predate the merge
        merged = Person.objects.filter(pk=instance.pk, merged_into__isnull=False).first()
        if merged is not None:
            raise Blocked(
                f"{merged.name} (#{merged.pk}) was merged into #{merged.merged_into_id}: "
                f"link the account to that person instead."
            )
    elif pk_set and Person.objects.filter(pk__in=pk_set, merged_into__isnull=False).exists():
        raise Blocked("A merged person cannot be linked to an account: link the survivor.")


# --- what the survivor's page lists ------------------------------------------------------------

#: Pages of records that have no ``get_absolute_url`` (label → URL name, with the pk).
_PAGES = {
    "billing.invoice": "billing:invoice",
    "billing.payment": "billing:payment-detail",
    "registry.property": "registry:property",
    "registry.establishment": "registry:establishment",
}


@dataclass(frozen=True)
class Held:
    """Records of one kind held by a duplicate merged into the person shown."""

    title: str
    items: list[tuple[str, str, Person]]  # (words, URL or "", the duplicate named)


def _url(obj: models.Model) -> str:
    name = _PAGES.get(obj._meta.label_lower)
    if name:
        return link(name, [obj.pk])
    getter = getattr(obj, "get_absolute_url", None)
    return str(getter()) if callable(getter) else ""


def records_of(person: Person, user: Actor, limit: int = 50) -> list[Held]:
    """The records naming the persons merged into ``person`` (their properties, facilities,
    permits, violations, invoices, payments...), those ``user`` may see, by kind."""
    others = [pk for pk in person.same_person_ids() if pk != person.pk]
    if not others:
        return []
    named = {p.pk: p for p in Person.objects.filter(pk__in=others)}
    out: list[Held] = []
    for model in _holding_models():
        items: list[tuple[str, str, Person]] = []
        for key in _person_keys(model):
            qs = visible(model._default_manager.filter(**{f"{key}__in": others}), user)
            for obj in qs.order_by("-pk")[:limit]:
                items.append((str(obj), _url(obj), named[getattr(obj, key)]))
        if items:
            out.append(Held(str(model._meta.verbose_name_plural).capitalize(), items))
    return out


def _holding_models() -> Iterable[type[models.Model]]:
    for model in apps.get_models():
        if model is Person or model is Contact:
            continue
        if _person_keys(model):
            yield model
