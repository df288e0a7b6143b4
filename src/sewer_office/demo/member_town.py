"""The demo's second member town: the plant's program in one office.

``sewer-use demo`` (``make run``) serves the demo town and the Town of Poughkeepsie on one
treatment plant (``SEWER_USE_JURISDICTIONS=demo,town-of-poughkeepsie``). The demo town's staff
act for it alone; the member town has a clerk and an engineer of its own, a Tri-Municipal area
of parcels, an industrial user and a violation under its own law (the notice demanding an
explanation and a plan within 10 calendar days of its mailing); the plant's pretreatment
coordinator sees both towns and designates the member town's significant industrial user, so
the program's annual report covers both. Every name and address is an EXAMPLE.

With one town (``SEWER_USE_JURISDICTIONS`` unset, as the tests of the demo run) nothing here
is loaded.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from sewer_office.accounts import roles
from sewer_office.accounts.services import create_user, grant_jurisdiction
from sewer_office.accounts.towns import installed, keeps_article, law_of, primary, several
from sewer_office.core.letter_edits import save_letterhead
from sewer_office.core.services import perform
from sewer_office.enforcement import rules, services
from sewer_office.pretreatment import services as pretreatment
from sewer_office.registry.choices import (
    AreaKind,
    BuildingUse,
    EstablishmentKind,
    PersonKind,
    WastewaterService,
)
from sewer_office.registry.models import Building, Establishment, Person, Property, ServiceArea

from .town import Town

#: The plant's coordinator, who sees every member town.
COORDINATOR = ("coordinator", (roles.COORDINATOR,), "Casey", "Morgan")
#: Each member town's own staff: login suffix → roles, first and last name.
MEMBER_STAFF = (
    ("clerk", (roles.CLERK,), "Pat", "Kowalski"),
    ("engineer", (roles.SUPERINTENDENT, roles.ENGINEER), "Dana", "Reyes"),
)
PASSWORD = "demo"
PLANT_NAME = "Arlington Metal Finishing Co. (EXAMPLE)"
#: The member town's explosion-hazard limit (its pretreatment prohibitions).
PROHIBITION = "T. Poughkeepsie Code [ecode360 6322550] A(1)"


def login_of(member: str, suffix: str) -> str:
    """A member town's staff login: its first name-part and the role ("poughkeepsie-clerk")."""
    return f"{member.removeprefix('town-of-').split('-')[0]}-{suffix}"


def load_demo_plant_staff(town: Town) -> None:
    """In an office of several towns, before anything is recorded: the demo town's staff act
    for it alone, and the plant's coordinator for every member town."""
    if not several():
        return
    home = primary()
    for user in list(town.users.values()):
        if roles.is_staff_member(user):
            grant_jurisdiction(user, home)
    user, user_roles, first, last = COORDINATOR
    town.users[user] = create_user(
        user, PASSWORD, user_roles, first_name=first, last_name=last, email=f"{user}@demo.invalid"
    )


def load_demo_member_towns(town: Town) -> None:
    """Each other member town: its staff, letterhead, parcels, industrial user and violation."""
    if not several():
        return
    for member in installed()[1:]:
        _member_town(town, member)


def _member_town(town: Town, member: str) -> None:
    staff = {}
    for suffix, user_roles, first, last in MEMBER_STAFF:
        login = login_of(member, suffix)
        staff[suffix] = town.users[login] = create_user(
            login,
            PASSWORD,
            user_roles,
            first_name=first,
            last_name=last,
            email=f"{login}@demo.invalid",
            jurisdictions=(member,),
        )
    law = law_of(member)
    name = law.name if law is not None else member
    save_letterhead(
        {
            "town_name": name,
            "office_name": "Office of the Town Engineer (EXAMPLE)",
            "address": "Town Hall, 1 Overocker Road (EXAMPLE)\nPoughkeepsie, NY 12603",
            "phone": "(555) 010-0403",
            "email": f"sewer-office@{login_of(member, 'demo')}.invalid",
            "hours": "Monday to Friday, 8:00 a.m. to 4:00 p.m.",
            "note": f"The {name}'s letterhead in the demo (EXAMPLE values)",
        },
        actor=staff["clerk"],
        jurisdiction=member,
    )
    plant = _parcels(town, member)
    coordinator = town.users[COORDINATOR[0]]
    decided = town.anchor - timedelta(days=40)
    pretreatment.designate(
        coordinator,
        plant,
        basis="designated",
        reason=(
            "Metal finishing with chromium and nickel baths: a reasonable potential for "
            "violating its pretreatment standards (40 CFR 403.3(v)(1)(ii))."
        ),
        on=decided,
        at=_at(town, decided),
    )
    if not keeps_article(member):
        _violation_under_its_law(town, plant, staff)


def _at(town: Town, day: date, hour: int = 10) -> datetime:
    return datetime.combine(day, time(hour), tzinfo=town.moment(0).tzinfo)


def _parcels(town: Town, member: str) -> Establishment:
    """A Tri-Municipal area of the member town: a street of houses and an industrial user."""
    area = ServiceArea.objects.create(
        code=f"{login_of(member, 'tri-municipal')}",
        name="Tri-Municipal Sewer Improvement Area (EXAMPLE)",
        kind=AreaKind.IMPROVEMENT_AREA,
        jurisdiction=member,
        public_sewer_available_from=date(1987, 6, 17),
        availability_act="EXAMPLE Town Board resolution 1987 (demo)",
    )
    since = date(1999, 2, 3)
    props = []
    for i in range(12):
        owner = Person.objects.create(kind=PersonKind.INDIVIDUAL, name=f"Member Owner {i + 1}")
        prop = Property.objects.create(
            parcel_id=f"1340-{i + 1:02d}-{500100 + 37 * i:06d}",
            address=f"{20 + 4 * i} Arlington Avenue",
            city="Poughkeepsie",
            state="NY",
            zip="12603",
            owner=owner,
            service_area=area,
            jurisdiction=member,
            jurisdiction_since=since,
            acreage=Decimal("0.25"),
            wastewater_service=WastewaterService.PUBLIC_SEWER,
            service_since=date(2001, 5, 1) + timedelta(days=90 * i),
        )
        Building.objects.create(
            property=prop, name="House", use=BuildingUse.RESIDENTIAL, dwelling_units=1
        )
        props.append(prop)
    operator = Person.objects.create(kind=PersonKind.CORPORATION, name=PLANT_NAME)
    site = props[-1]
    site.owner, site.address = operator, "400 Manchester Road"
    site.save()
    building = site.buildings.get()
    building.name, building.use, building.dwelling_units = PLANT_NAME, BuildingUse.INDUSTRIAL, 0
    building.save()
    return Establishment.objects.create(
        name=PLANT_NAME, operator=operator, building=building, kind=EstablishmentKind.INDUSTRIAL
    )


def _violation_under_its_law(town: Town, plant: Establishment, staff: dict[str, Any]) -> None:
    """Found over its explosion-hazard limit; the Town Engineer's notice, mailed: the answer
    (an explanation and a plan) is due within 10 calendar days of the mailing."""
    found = town.anchor - timedelta(days=12)
    kind = rules.kind_choices(found)[0][0]
    violation = services.open_violation(
        staff["engineer"],
        kind=kind,
        section=PROHIBITION,
        description="Explosion-hazard meter at 46 % of the lower explosive limit at the outfall",
        person=plant.operator,
        establishment=plant,
        observed_on=found,
        at=_at(town, found, 14),
    )
    issued = town.anchor - timedelta(days=10)
    violation = perform(
        violation,
        "issue_notice",
        staff["engineer"],
        {"nature": "A reading of 46 % of the lower explosive limit (EXAMPLE)"},
        at=_at(town, issued, 9),
    )
    perform(
        violation,
        "serve",
        staff["clerk"],
        {
            "served_on": (issued + timedelta(days=1)).isoformat(),
            "service_method": "certified_mail",
            "receipt_number": "7019 0403 0001",
        },
        at=_at(town, issued + timedelta(days=1), 15),
    )
