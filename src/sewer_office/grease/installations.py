"""Grease interceptors installed and removed (§ 196-19 F): registering one, with its sizing
judged by the method the law's plumbing code names (PDI G-101 fixture volume for a
hydromechanical interceptor, drainage fixture units for a gravity one), and recording its removal.

Who may act is the grease app's rule (:mod:`.services`); the pump-outs and the cleaning clock
stay there.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.town_law import require_article_for

from . import rules
from .choices import InterceptorKind
from .models import GreaseInterceptor, SizingCheck
from .services import CITATION, require_staff


def _check_capacity(kind: str, rated_gpm: Decimal | None, capacity_gal: Decimal | None) -> None:
    errors: dict[str, list[str]] = {}
    if kind == InterceptorKind.HYDROMECHANICAL and rated_gpm is None:
        errors["rated_gpm"] = ["A hydromechanical interceptor's rated flow (gpm) is needed."]
    if kind == InterceptorKind.GRAVITY and capacity_gal is None:
        errors["capacity_gal"] = ["A gravity interceptor's capacity (gallons) is needed."]
    if kind == InterceptorKind.GREASE_TRAP and rated_gpm is None and capacity_gal is None:
        errors["capacity_gal"] = ["Give the trap's rated flow (gpm) or its capacity (gallons)."]
    for name, value in (("rated_gpm", rated_gpm), ("capacity_gal", capacity_gal)):
        if value is not None and value <= 0:
            errors[name] = ["Must be more than 0."]
    if errors:
        raise InvalidInput(errors)


def sizing_input(
    kind: str,
    *,
    fixture_volume_in3: Decimal | None,
    drain_minutes: int | None,
    dfu: int | None,
    rated_gpm: Decimal | None,
    capacity_gal: Decimal | None,
) -> rules.SizingInput | None:
    """The sizing to compute for a new installation of ``kind`` (None: no inputs given)."""
    if fixture_volume_in3 is None and dfu is None:
        return None
    if kind == InterceptorKind.OIL_SAND:
        raise InvalidInput(
            {
                "sizing": [
                    "Oil and sand interceptors are of a type and capacity the Superintendent "
                    "approves (§ 196-19 F(1)); no sizing method applies."
                ]
            }
        )
    if fixture_volume_in3 is not None and dfu is not None:
        raise InvalidInput(
            {"dfu": ["Give fixture volume (PDI G-101) or fixture units (UPC), not both."]}
        )
    if fixture_volume_in3 is not None:
        if kind == InterceptorKind.GRAVITY:
            raise InvalidInput({"fixture_volume_in3": ["A gravity interceptor is sized by DFU."]})
        return rules.SizingInput(
            "hydromechanical",
            fixture_volume_in3=fixture_volume_in3,
            drain_minutes=drain_minutes or 1,
            installed=rated_gpm,
        )
    if kind == InterceptorKind.HYDROMECHANICAL:
        raise InvalidInput({"dfu": ["A hydromechanical interceptor is sized by fixture volume."]})
    return rules.SizingInput("gravity", dfu=dfu, installed=capacity_gal)


def register_interceptor(
    actor: Actor,
    *,
    establishment: Any,
    kind: str,
    location: str,
    accessible: bool,
    access_note: str = "",
    make_model: str = "",
    capacity_gal: Decimal | None = None,
    rated_gpm: Decimal | None = None,
    grease_capacity_lb: Decimal | None = None,
    installed_on: date | None = None,
    cleaning_interval_days: int | None = None,
    requirement: Any = None,
    fixture_volume_in3: Decimal | None = None,
    drain_minutes: int | None = None,
    dfu: int | None = None,
    today: date | None = None,
) -> GreaseInterceptor:
    """Register an installed interceptor and, with sizing inputs, store its sizing check.

    The check is judged under the method of the establishment's town in force on the
    installation day (else today): under Wappinger's method 0 (DEC 1988, not formalized) it is
    a reference, ``passed`` None. Refused for an establishment of a town under a law of its own.
    """
    require_staff(actor, "Registering a grease trap or interceptor")
    town = require_article_for(establishment, f"Registering a grease interceptor ({CITATION})")
    today = today or timezone.localdate()
    if kind not in InterceptorKind.values:
        raise InvalidInput({"kind": [f"'{kind}' is not a kind of interceptor"]})
    if not location.strip():
        raise InvalidInput({"location": ["Say where it is (§ 196-19 F(2): accessible)."]})
    if installed_on and installed_on > today:
        raise InvalidInput({"installed_on": ["An installation date cannot be in the future."]})
    if cleaning_interval_days is not None and cleaning_interval_days <= 0:
        raise InvalidInput({"cleaning_interval_days": ["Must be at least 1 day."]})
    if requirement is not None and requirement.establishment_id != establishment.pk:
        raise InvalidInput({"requirement": ["That requirement is of another establishment."]})
    _check_capacity(kind, rated_gpm, capacity_gal)
    sizing = sizing_input(
        kind,
        fixture_volume_in3=fixture_volume_in3,
        drain_minutes=drain_minutes,
        dfu=dfu,
        rated_gpm=rated_gpm,
        capacity_gal=capacity_gal,
    )
    judged_on = installed_on or today
    check = rules.size(sizing, judged_on, town=town) if sizing else None
    with transaction.atomic():
        trap = audit.create_recorded(
            GreaseInterceptor,
            {
                "establishment": establishment,
                "requirement": requirement,
                "kind": kind,
                "capacity_gal": capacity_gal,
                "rated_gpm": rated_gpm,
                "grease_capacity_lb": grease_capacity_lb,
                "make_model": make_model.strip(),
                "location": location.strip(),
                "accessible": accessible,
                "access_note": access_note.strip(),
                "installed_on": installed_on,
                "cleaning_interval_days": cleaning_interval_days,
                "registered_by": actor,
            },
            actor=actor,
            action="register_interceptor",
            citation=lambda created: created.citation,
        )
        if sizing and check:
            stored = _store_check(trap, sizing, check, judged_on, town)
            audit.record(
                actor=actor,
                action="sizing_check",
                obj=trap,
                after=audit.snapshot(stored),
                reason=check.message,
                citation=CITATION,
            )
    return trap


def _store_check(
    trap: GreaseInterceptor, sizing: rules.SizingInput, check: Any, judged_on: date, town: str
) -> SizingCheck:
    d = check.details
    return SizingCheck.objects.create(
        interceptor=trap,
        method=sizing.method,
        fixture_volume_in3=sizing.fixture_volume_in3,
        drain_minutes=sizing.drain_minutes if sizing.method == "hydromechanical" else None,
        dfu=sizing.dfu,
        installed_value=d.get("installed_gpm", d.get("installed_gal", "")),
        computed_size=rules.computed_size(check),
        passed=check.passed,
        determination=d["determination"] == "yes",
        citation=str(check.citation),
        message=check.message,
        details=dict(d),
        judged_on=judged_on,
        parameter=d["parameter"],
        effective=date.fromisoformat(d["effective"]),
        parameters_version=rules.params(town).version,
    )


def remove_interceptor(
    actor: Actor, trap: GreaseInterceptor, removed_on: date, reason: str
) -> GreaseInterceptor:
    """Mark an interceptor removed (replaced, establishment closed): its history stays."""
    require_staff(actor, "Recording an interceptor's removal")
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why it was removed."]})
    with transaction.atomic():
        locked = GreaseInterceptor.objects.select_for_update().get(pk=trap.pk)
        if not locked.active:
            raise Blocked(f"{locked} was already removed on {locked.removed_on}.")
        before = audit.snapshot(locked)
        locked.active = False
        locked.removed_on = removed_on
        locked.removal_reason = reason.strip()
        locked.save(update_fields=["active", "removed_on", "removal_reason", "updated_at"])
        audit.record(
            actor=actor,
            action="remove_interceptor",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=reason.strip(),
            citation=locked.citation,
        )
    return locked
