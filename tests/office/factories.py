"""A small town for the office tests: one user per role, two outside users, records of each kind.

Built through the same services as the demo town, so the tests exercise the real code paths.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from sewer_office.accounts import roles
from sewer_office.accounts.services import create_user
from sewer_office.permits.services.building_sewer import file_building_sewer_permit
from sewer_office.permits.services.industrial import file_discharge_approval
from sewer_office.permits.services.minor import (
    file_flushing_notice,
    file_grinder,
    require_interceptor,
)
from sewer_office.permits.services.private_system import file_private_system
from sewer_office.permits.services.subdivision import file_subdivision
from sewer_office.registry.choices import (
    AreaKind,
    BuildingUse,
    EstablishmentKind,
    PersonKind,
)
from sewer_office.registry.models import Building, Establishment, Person, Property, ServiceArea

PASSWORD = "pw-for-tests"

#: username → roles (one user per staff role, two outside users, one without any role)
USERS: dict[str, tuple[str, ...]] = {
    "superintendent": (roles.SUPERINTENDENT,),
    "engineer": (roles.ENGINEER,),
    "inspector": (roles.BUILDING_INSPECTOR,),
    "clerk": (roles.CLERK,),
    "highway": (roles.HIGHWAY,),
    "viewer": (roles.VIEWER,),
    "owner": (roles.APPLICANT,),
    "other": (roles.APPLICANT,),
    "norole": (),
}

GOOD_DESIGN: dict[str, Any] = {
    "buildings": [
        {
            "id": "house",
            "building_sewer": "S1",
            "connected_sources": ["sanitary_fixtures"],
            "building_drain_elevation_ft": "101.5",
            "basement_floor_elevation_ft": "103",
        }
    ],
    "building_sewers": [
        {
            "id": "S1",
            "diameter": "4 in",
            "slope": "1/4 in/ft",
            "length_ft": "60",
            "public_sewer_elevation_ft": "97.2",
        }
    ],
}
BAD_DESIGN: dict[str, Any] = {
    "buildings": [{"id": "house", "building_sewer": "S1", "connected_sources": ["sump_pump"]}],
    "building_sewers": [{"id": "S1", "diameter": "3 in", "slope": "1/4 in/ft"}],
}


@dataclass
class Town:
    users: dict[str, Any] = field(default_factory=dict)
    served: ServiceArea | None = None
    phase3: ServiceArea | None = None
    owner_person: Person | None = None
    other_person: Person | None = None
    owner_home: Property | None = None
    other_home: Property | None = None
    phase3_lot: Property | None = None
    other_phase3_lot: Property | None = None
    owner_restaurant: Establishment | None = None
    other_plant: Establishment | None = None
    owner_shop_building: Building | None = None
    tract: Property | None = None

    def u(self, name: str) -> Any:
        return self.users[name]


def make_town() -> Town:
    t = Town()
    for name, user_roles in USERS.items():
        t.users[name] = create_user(name, PASSWORD, user_roles)
    t.served = ServiceArea.objects.create(
        code="phase-1",
        name="Phase I",
        kind=AreaKind.PHASE,
        public_sewer_available_from=date(1994, 6, 1),
        availability_act="res. 1994-61",
    )
    t.phase3 = ServiceArea.objects.create(code="phase-3", name="Phase III", kind=AreaKind.PHASE)
    t.owner_person = Person.objects.create(name="Olive Owner")
    t.owner_person.representatives.add(t.u("owner"))
    t.other_person = Person.objects.create(name="Otto Other", kind=PersonKind.CORPORATION)
    t.other_person.representatives.add(t.u("other"))

    def prop(
        parcel: str, owner: Person, area: ServiceArea, use: str = BuildingUse.RESIDENTIAL
    ) -> Property:
        p = Property.objects.create(
            parcel_id=parcel,
            address=f"{parcel} Main St",
            city="Wappingers Falls",
            state="NY",
            zip="12590",
            owner=owner,
            service_area=area,
        )
        Building.objects.create(
            property=p,
            name="Main",
            use=use,
            dwelling_units=1 if use == BuildingUse.RESIDENTIAL else 0,
        )
        return p

    t.owner_home = prop("100-01", t.owner_person, t.served)
    t.other_home = prop("100-02", t.other_person, t.served)
    t.phase3_lot = prop("300-01", t.owner_person, t.phase3)
    t.other_phase3_lot = prop("300-02", t.other_person, t.phase3)
    shop = prop("100-03", t.owner_person, t.served, BuildingUse.FOOD_SERVICE)
    t.owner_shop_building = shop.buildings.get()
    t.owner_restaurant = Establishment.objects.create(
        name="Olive's Diner",
        operator=t.owner_person,
        building=t.owner_shop_building,
        kind=EstablishmentKind.RESTAURANT,
    )
    plant = prop("100-04", t.other_person, t.served, BuildingUse.INDUSTRIAL)
    t.other_plant = Establishment.objects.create(
        name="Otto Plating",
        operator=t.other_person,
        building=plant.buildings.get(),
        kind=EstablishmentKind.INDUSTRIAL,
    )
    t.tract = Property.objects.create(
        parcel_id="900-01",
        address="Tract A",
        city="Hopewell Junction",
        state="NY",
        zip="12533",
        owner=t.owner_person,
        service_area=t.served,
    )
    return t


def plan_file(name: str = "plans.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, b"%PDF-1.4 test plans\n", content_type="application/pdf")


def new_record(slug: str, t: Town, *, mine: bool = True, **kw: Any) -> Any:
    """A freshly filed record of ``slug`` (the owner's, or the other applicant's), filed by the clerk."""
    clerk = t.u("clerk")
    person = t.owner_person if mine else t.other_person
    home = t.owner_home if mine else t.other_home
    today = timezone.localdate()
    if slug == "building-sewer":
        return file_building_sewer_permit(
            clerk,
            applicant=person,
            prop=home,
            permit_class=1,
            design=kw.get("design", GOOD_DESIGN),
            building=home.buildings.first(),
            reuses_old_sewer=kw.get("reuse", False),
            files=[plan_file()],
        )
    if slug == "industrial":
        est = t.owner_restaurant if mine else t.other_plant
        return file_discharge_approval(
            clerk,
            applicant=person,
            establishment=est,
            discharge_kind=kw.get("discharge_kind", "new"),
            concentrations=kw.get("concentrations", {"bod5": "300", "ph": "7"}),
            flow_gpd=Decimal("1000"),
            temperature_f=Decimal("70"),
        )
    if slug == "private-system":
        lot = t.phase3_lot if mine else t.other_phase3_lot
        return file_private_system(clerk, applicant=person, prop=lot, system_type="septic")
    if slug == "subdivision":
        return file_subdivision(
            clerk,
            applicant=person,
            prop=t.tract if mine else t.other_home,
            name="Meadows",
            lots=10,
            smallest_lot_acres=Decimal("0.5"),
            estimated_cost=Decimal("100000"),
        )
    if slug == "grinder":
        return file_grinder(
            clerk,
            applicant=person,
            prop=home,
            make_model="G-1",
            motor_hp=Decimal(kw.get("hp", "1.0")),
        )
    if slug == "interceptor":
        est = t.owner_restaurant if mine else t.other_plant
        if mine:
            return require_interceptor(clerk, establishment=est, kind="grease_trap")
        return require_interceptor(
            t.u("superintendent"),
            establishment=est,
            kind="oil_sand_interceptor",
            basis="Oily floor drains.",
        )
    if slug == "flushing":
        building = t.owner_shop_building if mine else t.other_plant.building  # type: ignore[union-attr]
        return file_flushing_notice(
            clerk,
            applicant=person,
            building=building,
            planned_on=today + timedelta(days=5),
            water_source="Town water",
            water_unpolluted=True,
            tri_municipal_notified_on=today,
        )
    raise ValueError(slug)
