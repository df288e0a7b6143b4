"""Demo inspections (§ 196-21): two completed, two on the calendar, and this program year's
routine inspection of each industrial user.

Acme Plating (``ACME-PLATING``) was inspected as an industrial user and one item failed
(plating solution found in a floor drain, § 196-19 D(4)), so its facility page and the
review queue show a finding; a restaurant passed a food-service inspection with a note; a
control manhole inspection at Acme and a restaurant's follow-up are scheduled. Every industrial
user not yet inspected this program year had its routine visit, all items met: the Town
inspects each significant industrial user once a year (40 CFR 403.8(f)(2)(v)). Everything is
made through the services, so the audit trail is the one a real office would have.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sewer_office.inspections import services
from sewer_office.inspections.checklists import items
from sewer_office.inspections.choices import InspectionKind
from sewer_office.inspections.models import Inspection
from sewer_office.monitoring.models import SamplingEvent
from sewer_office.pretreatment.oversight import inspections_in, program_year
from sewer_office.registry.choices import EstablishmentKind
from sewer_office.registry.models import Establishment


def _all_pass(kind: str, **overrides: dict[str, str]) -> dict[str, dict[str, str]]:
    answers = {i.key: {"result": "pass", "note": ""} for i in items(kind)}
    answers.update(overrides)
    return answers


def load_demo_inspections(town: Any) -> None:
    """Create the demo inspections (after the monitoring demo gave Acme its facility code)."""
    inspector = town.users["inspector"]
    superintendent = town.users["superintendent"]
    acme = Establishment.objects.filter(code="ACME-PLATING").first() or Establishment.objects.get(
        name="Acme Plating Corporation"
    )
    restaurant = town.establishments[EstablishmentKind.RESTAURANT][0]

    # 1. Acme, industrial user, completed 40 days ago with one failed item.
    visit = town.moment(40)
    acme_visit = services.schedule(
        superintendent,
        kind=InspectionKind.INDUSTRIAL_USER,
        establishment=acme,
        scheduled_for=visit,
        inspector=superintendent,
        notes="Annual industrial user inspection.",
        at=town.moment(54),
    )
    samples = list(
        SamplingEvent.objects.filter(
            establishment=acme,
            collected_at__gte=visit - timedelta(days=1),
            collected_at__lte=visit + timedelta(days=1),
        )[:2]
    )
    services.complete(
        acme_visit,
        superintendent,
        credentials_presented=True,
        credential="Town of Wappinger ID 0042 (S. Ortiz)",
        started_at=visit,
        ended_at=visit + timedelta(minutes=95),
        answers=_all_pass(
            InspectionKind.INDUSTRIAL_USER,
            no_plating_solutions={
                "result": "fail",
                "note": "Drag-out from the nickel line drains to a floor drain tied to the "
                "building sewer; no containment.",
            },
        ),
        observations="Rinse tanks and clarifier operating. Floor drain by the nickel line "
        "shows plating residue. Control manhole CM-1 clear.",
        samples=samples,
        samples_text="" if samples else "Grab sample at CM-1, 10:05, pH field 7.4",
        at=visit + timedelta(hours=3),
    )

    # 2. A restaurant, food service, completed 12 days ago, all items met.
    visit = town.moment(12, minutes=120)
    diner = services.schedule(
        inspector,
        kind=InspectionKind.FOOD_SERVICE,
        establishment=restaurant,
        unscheduled=True,
        notes="Unannounced grease trap check after a downstream blockage.",
        at=visit - timedelta(hours=1),
    )
    services.complete(
        diner,
        inspector,
        credentials_presented=True,
        credential="Building Inspector badge 7 (I. Moreau)",
        started_at=visit,
        ended_at=visit + timedelta(minutes=40),
        answers=_all_pass(InspectionKind.FOOD_SERVICE),
        observations="Grease trap under the dish station, lid accessible; cleaned last month.",
        at=visit + timedelta(hours=1),
    )

    # 3 and 4. On the calendar: Acme's control manhole, a restaurant's follow-up.
    services.schedule(
        superintendent,
        kind=InspectionKind.CONTROL_MANHOLE,
        establishment=acme,
        scheduled_for=town.moment(-5),
        inspector=superintendent,
        notes="Check the control manhole after the meter replacement (§ 196-19 H).",
        at=town.moment(2),
    )
    restaurants = town.establishments[EstablishmentKind.RESTAURANT]
    follow_up = restaurants[1 % len(restaurants)]
    services.schedule(
        inspector,
        kind=InspectionKind.FOOD_SERVICE,
        establishment=follow_up,
        scheduled_for=town.moment(-20, minutes=90),
        inspector=inspector,
        notes="Routine grease trap inspection.",
        at=town.moment(1),
    )
    load_routine_inspections(town)


#: Days before the anchor of the routine industrial-user visits (at most: never before the
#: program year began).
ROUTINE_DAYS = 25


def load_routine_inspections(town: Any) -> list[Inspection]:
    """This program year's routine inspection of each industrial user not yet inspected in it
    (none when the year began on the anchor: nothing is due yet)."""
    year = program_year(town.anchor)
    days = min(ROUTINE_DAYS, (town.anchor - year.start).days)
    users = town.establishments.get(EstablishmentKind.INDUSTRIAL, [])
    done = inspections_in([e.pk for e in users], year.start, year.end)
    if days < 1:
        return []
    superintendent = town.users["superintendent"]
    out = []
    for est in users:
        if est.pk in done:
            continue
        visit = town.moment(days, 60)
        routine = services.schedule(
            superintendent,
            kind=InspectionKind.INDUSTRIAL_USER,
            establishment=est,
            scheduled_for=visit,
            inspector=superintendent,
            notes="Routine yearly industrial user inspection (40 CFR 403.8(f)(2)(v)).",
            at=visit - timedelta(days=10),
        )
        out.append(
            services.complete(
                routine,
                superintendent,
                credentials_presented=True,
                credential="Town of Wappinger ID 0042 (S. Ortiz)",
                started_at=visit,
                ended_at=visit + timedelta(minutes=60),
                answers=_all_pass(InspectionKind.INDUSTRIAL_USER),
                observations="Pretreatment units operating; control point clear.",
                at=visit + timedelta(hours=2),
            )
        )
    return out
