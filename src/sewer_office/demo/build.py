"""Build the demo town (see the package docstring)."""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts import roles
from sewer_office.accounts.services import create_user
from sewer_office.registry.choices import (
    AreaKind,
    BuildingUse,
    EstablishmentKind,
    PersonKind,
    WastewaterService,
)
from sewer_office.registry.models import (
    Building,
    Contact,
    Establishment,
    Person,
    Property,
    ServiceArea,
)

from . import names
from .billing import load_demo_billing
from .enforcement import load_demo_enforcement
from .federal import load_demo_federal
from .grease import load_demo_grease
from .inspections import load_demo_inspections
from .letters import load_demo_letterhead
from .member_town import load_demo_member_towns, load_demo_plant_staff
from .meters import load_demo_meters
from .monitoring import load_demo_monitoring
from .network import load_demo_network
from .portal import load_demo_portal
from .pretreatment import load_demo_pretreatment
from .records import Records
from .reports import load_demo_reports
from .town import Town

PASSWORD = "demo"

USERS = (
    ("superintendent", (roles.SUPERINTENDENT,), "Sam", "Ortiz"),
    ("engineer", (roles.ENGINEER,), "Erin", "Walsh"),
    ("inspector", (roles.BUILDING_INSPECTOR,), "Ian", "Moreau"),
    ("clerk", (roles.CLERK,), "Claire", "Benson"),
    ("highway", (roles.HIGHWAY,), "Hank", "Lowry"),
    ("viewer", (roles.VIEWER,), "Vivian", "Park"),
    ("owner", (roles.APPLICANT,), "Jordan", "Rivera"),
    ("acme", (roles.APPLICANT,), "Alex", "Kim"),
)


def build_demo_town(seed: int = 4, anchor: date | None = None) -> Town:
    """Create the whole demo town in one transaction (deterministic for a seed and anchor)."""
    town = Town(anchor=anchor or timezone.localdate(), rng=random.Random(seed))
    with transaction.atomic():
        _users(town)
        load_demo_plant_staff(town)  # an office of several towns: who acts for which
        load_demo_letterhead(town)  # before the first letter is issued
        _areas(town)
        _registry(town)
        Records(town).build()
        load_demo_network(town.users["superintendent"], seed)
        _monitoring(town)
        load_demo_federal(town)  # what EPA's annual report still needs
        load_demo_member_towns(town)  # an office of several towns: the other member towns
    return town


def _monitoring(town: Town) -> None:
    """Sampling and results first (facility codes, sampling points), then what builds on them."""
    load_demo_monitoring(town)
    load_demo_meters(town)
    load_demo_grease(town)
    load_demo_inspections(town)
    load_demo_enforcement(town)
    load_demo_pretreatment(town)
    load_demo_billing(town)
    load_demo_portal(town, PASSWORD)
    load_demo_reports(town, PASSWORD)


def _users(town: Town) -> None:
    for username, user_roles, first, last in USERS:
        town.users[username] = create_user(
            username,
            PASSWORD,
            user_roles,
            first_name=first,
            last_name=last,
            email=f"{username}@demo.invalid",
        )


def _areas(town: Town) -> None:
    parent = ServiceArea.objects.create(
        code="wsttia",
        name="Wappinger Sewer Transmission/Treatment Improvement Area",
        kind=AreaKind.IMPROVEMENT_AREA,
    )
    spec = (
        (
            "wsttia-phase-1",
            "WSTTIA Phase I",
            date(1994, 6, 1),
            "EXAMPLE Town Board resolution 1994-61 (demo)",
        ),
        (
            "wsttia-phase-2",
            "WSTTIA Phase II",
            date(2003, 9, 15),
            "EXAMPLE Town Board resolution 2003-144 (demo)",
        ),
        ("wsttia-phase-3a", "WSTTIA Phase III-A (Chelsea section)", None, ""),
        ("wsttia-phase-3b", "WSTTIA Phase III-B (Hughsonville section)", None, ""),
    )
    for code, name, available, act in spec:
        town.areas[code] = ServiceArea.objects.create(
            code=code,
            name=name,
            kind=AreaKind.PHASE,
            parent=parent,
            public_sewer_available_from=available,
            availability_act=act,
        )
    town.areas["district-1"] = ServiceArea.objects.create(
        code="united-wappinger-sd",
        name="United Wappinger Sewer District",
        kind=AreaKind.SEWER_DISTRICT,
        public_sewer_available_from=date(1988, 3, 1),
        availability_act="EXAMPLE district formation order 1988 (demo)",
    )


#: area key → (number of parcels, of which new construction without service yet)
AREA_PARCELS = {
    "wsttia-phase-1": (104, 20),
    "district-1": (46, 8),
    "wsttia-phase-2": (90, 17),
    "wsttia-phase-3a": (20, 0),
    "wsttia-phase-3b": (36, 0),
}


#: area key → the post office that serves it (town name, state, ZIP code): the Town of
#: Wappinger is served by several post offices, none named "Wappinger".
POSTAL = {
    "wsttia-phase-1": ("Wappingers Falls", "NY", "12590"),
    "district-1": ("Poughkeepsie", "NY", "12603"),
    "wsttia-phase-2": ("Hopewell Junction", "NY", "12533"),
    "wsttia-phase-3a": ("Wappingers Falls", "NY", "12590"),
    "wsttia-phase-3b": ("Wappingers Falls", "NY", "12590"),
}
#: Where some persons' mail goes instead of their premises (invented street numbers): owners
#: living elsewhere and firms with an office of their own, by person name.
MAILING = {
    "Hudson Ridge Developers LLC": ("Attn: Land Department\n40 Market Street", "Poughkeepsie"),
    "Acme Plating Corporation": ("Corporate Office\n1180 Route 52", "Fishkill"),
}
MAILING_ZIP = {"Poughkeepsie": "12603", "Fishkill": "12524", "Wappingers Falls": "12590"}
#: Every n-th homeowner is an absentee owner whose mail goes to another address.
ABSENTEE_EVERY = 23
ABSENTEE_STREETS = ("Main Street", "Academy Street", "Mill Street")


def _mail_to(person: Person, street: str, city: str) -> None:
    person.mail_street, person.mail_city = street, city
    person.mail_state, person.mail_zip = "NY", MAILING_ZIP[city]
    person.save()


def _person(town: Town, kind: str = PersonKind.INDIVIDUAL, name: str = "") -> Person:
    if not name:
        name = f"{town.rng.choice(names.FIRST)} {town.rng.choice(names.LAST)}"
    return Person.objects.create(kind=kind, name=name)


def _registry(town: Town) -> None:
    rng = town.rng
    block = 0
    for area_no, (key, (count, new)) in enumerate(AREA_PARCELS.items(), start=1):
        area = town.areas[key]
        city, state, zip_code = POSTAL[key]
        street_pool = names.STREETS[(area_no - 1) * 4 : (area_no - 1) * 4 + 4]
        props: list[Property] = []
        for i in range(count):
            block += 1
            street = street_pool[i % len(street_pool)]
            number = 10 + 4 * (i // len(street_pool)) + rng.randint(0, 3)
            owner = _person(town)
            if key in ("wsttia-phase-3a", "wsttia-phase-3b"):
                service = WastewaterService.NONE  # set when the private system is completed
                since = None
            elif i < new:
                service, since = WastewaterService.NONE, None
            else:
                service = WastewaterService.PUBLIC_SEWER
                since = (area.public_sewer_available_from or date(1990, 1, 1)) + timedelta(
                    days=rng.randint(30, 3000)
                )
            prop = Property.objects.create(
                parcel_id=f"{6157 + area_no}-{(block // 100) + 1:02d}-{100000 + block * 37:06d}",
                address=f"{number} {street}",
                city=city,
                state=state,
                zip=zip_code,
                owner=owner,
                service_area=area,
                acreage=Decimal(rng.randint(20, 300)) / 100,
                wastewater_service=service,
                service_since=since,
            )
            Building.objects.create(
                property=prop, name="House", use=BuildingUse.RESIDENTIAL, dwelling_units=1
            )
            if block % ABSENTEE_EVERY == 0:  # an owner living elsewhere in the county
                away = ABSENTEE_STREETS[block % len(ABSENTEE_STREETS)]
                _mail_to(owner, f"{block % 90 + 5} {away}", ("Fishkill", "Poughkeepsie")[block % 2])
            props.append(prop)
        town.properties[key] = props
        town.new_construction[key] = props[:new]
    _businesses(town)
    _special_people(town)


def _business_site(
    town: Town, area_key: str, index: int, operator: Person, use: str, name: str
) -> Building:
    """Turn a served residential parcel into a business site owned by its operator."""
    prop = town.properties[area_key][-(index + 1)]
    prop.owner = operator
    prop.address = f"{1000 + 10 * index} Route 9" if area_key == "wsttia-phase-1" else prop.address
    prop.save()
    building = prop.buildings.get()
    building.name = name
    building.use = use
    building.dwelling_units = 0
    building.save()
    return building


def _businesses(town: Town) -> None:
    groups: list[tuple[str, list[tuple[str, str]], str, str]] = [
        (
            EstablishmentKind.RESTAURANT,
            [(n, PersonKind.FIRM) for n in names.RESTAURANTS],
            BuildingUse.FOOD_SERVICE,
            "wsttia-phase-1",
        ),
        (
            EstablishmentKind.FOOD_PREPARATION,
            [(n, PersonKind.ASSOCIATION) for n in names.FOOD_PREP],
            BuildingUse.FOOD_SERVICE,
            "district-1",
        ),
        (
            EstablishmentKind.FOOD_PROCESSING,
            [(n, PersonKind.COMPANY) for n in names.FOOD_PROCESSING],
            BuildingUse.INDUSTRIAL,
            "wsttia-phase-2",
        ),
        (
            EstablishmentKind.INDUSTRIAL,
            list(names.INDUSTRIAL),
            BuildingUse.INDUSTRIAL,
            "wsttia-phase-2",
        ),
    ]
    index = {"wsttia-phase-1": 0, "district-1": 0, "wsttia-phase-2": 0}
    for kind, entries, use, area in groups:
        town.establishments[kind] = []
        for name, person_kind in entries:
            operator = _person(town, person_kind, name)
            building = _business_site(town, area, index[area], operator, use, name)
            index[area] += 1
            town.establishments[kind].append(
                Establishment.objects.create(
                    name=name, operator=operator, building=building, kind=kind
                )
            )
    town.establishments[EstablishmentKind.COMMERCIAL] = []
    for i, (name, est_kind) in enumerate(names.COMMERCIAL):
        operator = _person(town, PersonKind.CORPORATION if i % 3 == 0 else PersonKind.COMPANY, name)
        area = "wsttia-phase-1" if i % 2 == 0 else "district-1"
        use = BuildingUse.INSTITUTIONAL if est_kind == "institutional" else BuildingUse.COMMERCIAL
        building = _business_site(town, area, index[area], operator, use, name)
        index[area] += 1
        town.establishments[EstablishmentKind.COMMERCIAL].append(
            Establishment.objects.create(
                name=name, operator=operator, building=building, kind=est_kind
            )
        )


def _special_people(town: Town) -> None:
    # The homeowner "owner" with a building sewer permit in progress: a new house in Phase II.
    prop = town.new_construction["wsttia-phase-2"][0]
    owner = prop.owner
    owner.name = "Jordan Rivera"
    owner.save()
    owner.representatives.add(town.users["owner"])
    town.owner_person, town.owner_property = owner, prop
    # Acme Plating's representative.
    acme = Person.objects.get(name="Acme Plating Corporation")
    acme.representatives.add(town.users["acme"])

    Contact.objects.create(
        person=acme, kind="email", value="environmental@acme-plating.invalid", label="EHS manager"
    )
    Contact.objects.create(person=owner, kind="phone", value="(845) 555-0142")
    # A developer with four undeveloped tracts for subdivisions.
    town.developer = _person(town, PersonKind.COMPANY, "Hudson Ridge Developers LLC")
    for i, key in enumerate(("wsttia-phase-1", "wsttia-phase-2", "wsttia-phase-3b", "district-1")):
        town.subdivision_parcels.append(
            Property.objects.create(
                parcel_id=f"6170-09-{500000 + i * 11:06d}",
                address=f"Tract {chr(65 + i)}, {names.STREETS[(i * 5) % len(names.STREETS)]}",
                city=POSTAL[key][0],
                state=POSTAL[key][1],
                zip=POSTAL[key][2],
                owner=town.developer,
                service_area=town.areas[key],
                acreage=Decimal(12 + 7 * i),
                wastewater_service=WastewaterService.NONE,
            )
        )
    # The firms whose mail goes to an office of their own, not to their premises.
    for name, (street, city) in MAILING.items():
        _mail_to(Person.objects.get(name=name), street, city)
