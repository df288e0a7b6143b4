"""The grease app: sizing checks under each method, cleaning clocks, pump-outs, voiding, the
overdue list and its cron flagging, panels, API, and the demo loader."""

from __future__ import annotations

import csv
import io
import random
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.core.services import perform
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import findings_of
from sewer_office.grease import installations, services
from sewer_office.grease.choices import InterceptorKind
from sewer_office.grease.models import GreaseInterceptor, PumpOut, SizingCheck
from sewer_office.permits.services.minor import require_interceptor
from sewer_office.registry.models import Establishment, Property

from .factories import Town

#: The clocks are computed on the real day by the pages: the tests use it too.
TODAY = timezone.localdate()


def trap(town: Town, **kw: Any) -> GreaseInterceptor:
    """A hydromechanical 50 gpm trap at the owner's restaurant (overridable)."""
    args: dict[str, Any] = {
        "establishment": town.owner_restaurant,
        "kind": InterceptorKind.HYDROMECHANICAL,
        "location": "Kitchen, under the 3-bay sink",
        "accessible": True,
        "rated_gpm": Decimal("50"),
        "installed_on": TODAY - timedelta(days=200),
        "today": TODAY,
    }
    args.update(kw)
    return installations.register_interceptor(town.u("inspector"), **args)


def as_wappinger(town: Town, settings: Any) -> None:
    """A one-town Wappinger office: its records are Wappinger's (each is computed under its
    own town's values, not the primary setting's)."""
    settings.SEWER_USE_JURISDICTION = "wappinger"
    Property.objects.update(jurisdiction="wappinger")
    Establishment.objects.update(jurisdiction="wappinger")
    assert town.owner_restaurant is not None
    town.owner_restaurant.refresh_from_db()


def pump(town: Town, t: GreaseInterceptor, days_ago: int, who: str = "inspector") -> PumpOut:
    return services.record_pump_out(
        town.u(who),
        t,
        pumped_on=TODAY - timedelta(days=days_ago),
        hauler_name="Hudson Valley Grease",
        hauler_permit="3A-114",
        volume_gal=Decimal("500"),
        today=TODAY,
    )


# --- sizing ------------------------------------------------------------------------------------


def test_pdi_sizing_passes_and_fails_under_the_demo_method(town: Town) -> None:
    ok = trap(town, fixture_volume_in3=Decimal("13824"))  # 44.89 gpm → 50 gpm unit
    check = ok.sizing_check
    assert check.method == "hydromechanical" and check.computed_size == "50 gpm"
    assert check.passed is True and check.determination is True
    assert check.citation == "§ 196-19 F(2)" and check.parameters_version.startswith("demo@")
    assert check.parameter == "grease_interceptor.sizing_method"
    assert check.effective == date(2015, 1, 1)
    small = trap(town, rated_gpm=Decimal("35"), fixture_volume_in3=Decimal("13824"))
    assert small.sizing_check.passed is False
    assert "does not meet" in small.sizing_check.message
    huge = trap(town, fixture_volume_in3=Decimal("20000"))  # 64.9 gpm: no listed size
    assert huge.sizing_check.computed_size == "none" and huge.sizing_check.passed is False


def test_upc_gravity_sizing_under_the_demo_method(town: Town) -> None:
    kw = {"kind": InterceptorKind.GRAVITY, "rated_gpm": None, "dfu": 30}
    good = trap(town, capacity_gal=Decimal("1000"), **kw)  # up to 35 DFU → 1,000 gal
    assert good.sizing_check.computed_size == "1000 gal" and good.sizing_check.passed is True
    bad = trap(town, capacity_gal=Decimal("750"), **kw)
    assert bad.sizing_check.passed is False


def test_under_wappinger_the_computation_is_a_reference(town: Town, settings: Any) -> None:
    as_wappinger(town, settings)
    t = trap(town, rated_gpm=Decimal("4"), fixture_volume_in3=Decimal("13824"))
    check = t.sizing_check
    assert check.passed is None and check.determination is False
    assert check.computed_size == "50 gpm"
    assert "not a determination" in check.message and "DEC" in check.message
    g = trap(
        town, kind=InterceptorKind.GRAVITY, rated_gpm=None, capacity_gal=Decimal("500"), dfu=300
    )
    assert g.sizing_check.passed is None and g.sizing_check.computed_size == "2500 gal"


def test_demo_before_its_method_took_effect_is_a_reference(town: Town) -> None:
    t = trap(town, installed_on=date(2012, 5, 1), fixture_volume_in3=Decimal("13824"))
    assert t.sizing_check.passed is None and t.sizing_check.judged_on == date(2012, 5, 1)


def test_sizing_check_is_immutable_and_inputs_are_validated(town: Town) -> None:
    t = trap(town, fixture_volume_in3=Decimal("13824"))
    check = SizingCheck.objects.get(interceptor=t)
    check.computed_size = "7 gpm"
    with pytest.raises(ImmutableRecord):
        check.save()
    with pytest.raises(ImmutableRecord):
        check.delete()
    with pytest.raises(InvalidInput) as e:
        trap(town, fixture_volume_in3=Decimal("100"), dfu=10)
    assert "dfu" in e.value.errors
    with pytest.raises(InvalidInput) as e:
        trap(town, kind=InterceptorKind.OIL_SAND, capacity_gal=Decimal("1000"), dfu=10)
    assert "F(1)" in e.value.message
    with pytest.raises(InvalidInput):
        trap(town, rated_gpm=None)  # a hydromechanical unit's rating is needed
    req = require_interceptor(
        town.u("superintendent"),
        establishment=town.other_plant,
        kind="oil_sand_interceptor",
        basis="Floor drains.",
    )
    with pytest.raises(InvalidInput) as e:
        trap(town, requirement=req)
    assert "requirement" in e.value.errors
    with pytest.raises(Forbidden):
        installations.register_interceptor(
            town.u("clerk"),
            establishment=town.owner_restaurant,
            kind="grease_trap",
            location="x",
            accessible=True,
            rated_gpm=Decimal("7"),
        )


# --- the cleaning clock ------------------------------------------------------------------------


def test_pump_out_resets_the_clock(town: Town) -> None:
    t = trap(town)  # installed 200 days ago, demo interval 90 days
    st = services.status_of(t, TODAY)
    assert st.status == "overdue" and st.days_overdue == 110 and st.last_pump_out is None
    pump(town, t, 10)
    st = services.status_of(t, TODAY)
    assert st.status == "due" and st.next_due == TODAY + timedelta(days=80)
    assert st.interval_days == 90 and "cleaning_interval_days" in st.interval_basis


def test_own_interval_overrides_the_towns(town: Town) -> None:
    t = trap(town, cleaning_interval_days=30)
    pump(town, t, 40)
    st = services.status_of(t, TODAY)
    assert st.status == "overdue" and st.days_overdue == 10
    assert "approval" in services.interval_sentence(st)


def test_wappinger_has_no_interval_configured(town: Town, settings: Any, login: Any) -> None:
    as_wappinger(town, settings)
    t = trap(town)
    assert services.status_of(t, TODAY).status == "not_configured"
    assert services.overdue(GreaseInterceptor.objects.all(), TODAY) == []
    assert services.flag_overdue_pump_outs(TODAY) == 0
    page = login("engineer").get("/grease/overdue/").content.decode()
    assert "No pump-out interval is configured" in page
    detail = login("engineer").get(f"/grease/{t.pk}/").content.decode()
    assert "no interval configured" in detail
    own = trap(town, cleaning_interval_days=60)
    assert [c.trap for c in services.overdue(GreaseInterceptor.objects.all(), TODAY)] == [own]


def test_overdue_list_contents(town: Town, login: Any) -> None:
    late = trap(town)  # never pumped, installed 200 days ago
    fresh = trap(town)
    pump(town, fresh, 20)
    undated = trap(town, installed_on=None)  # never pumped, no date: listed apart
    gone = trap(town)
    installations.remove_interceptor(town.u("engineer"), gone, TODAY, "Replaced by a larger unit.")
    rows = services.overdue(GreaseInterceptor.objects.all(), TODAY)
    assert [r.trap for r in rows] == [late, undated]
    assert rows[0].status.days_overdue == 110 and rows[1].status.status == "no_record"
    c = login("inspector")
    page = c.get("/grease/overdue/").content.decode()
    assert f"/grease/{late.pk}/" in page and f"/grease/{fresh.pk}/" not in page
    assert "not a number of the law" in page and "§ 196-19 F(2)" in page
    body = c.get("/api/grease/overdue/").json()
    assert {r["interceptor"] for r in body["results"]} == {late.pk, undated.pk}
    listed = c.get("/grease/?overdue=true").content.decode()
    assert f"/grease/{late.pk}/" in listed and f"/grease/{fresh.pk}/" not in listed


def test_flag_overdue_is_idempotent_per_period(town: Town) -> None:
    t = trap(town)
    trap(town, installed_on=TODAY - timedelta(days=10))  # not overdue
    assert services.flag_overdue_pump_outs(TODAY) == 1
    assert services.flag_overdue_pump_outs(TODAY) == 0
    assert services.flag_overdue_pump_outs(TODAY + timedelta(days=3)) == 0  # same period
    (f,) = findings_of(t)
    assert f.kind == FindingKind.PUMP_OUT_OVERDUE and f.status == "review"
    # the maintenance duty of pretreatment (§ 196-19 G), not F(2)'s sizing and access
    assert f.citation == "§ 196-19 G" and f.limit == "90" and f.limit_unit == "day"
    assert "town" in f.message and "not a number of the law" in f.message
    assert f.establishment == town.owner_restaurant and f.review == "new"
    assert f.parameter == "grease_interceptor.cleaning_interval_days"
    pump(town, t, 0)  # cleaned today: next due in 90 days
    assert services.flag_overdue_pump_outs(TODAY + timedelta(days=90)) == 1  # the other trap
    assert findings_of(t).count() == 1
    assert services.flag_overdue_pump_outs(TODAY + timedelta(days=91)) == 1  # a new period
    assert findings_of(t).count() == 2
    assert AuditEvent.objects.filter(action="flag_pump_out_overdue").count() == 3


# --- pump-outs ---------------------------------------------------------------------------------


def test_void_keeps_the_history_and_the_clock_goes_back(town: Town, login: Any) -> None:
    t = trap(town)
    p = pump(town, t, 5)
    assert services.status_of(t, TODAY).status == "due"
    with pytest.raises(InvalidInput):
        services.void_pump_out(town.u("engineer"), p, "  ")
    services.void_pump_out(town.u("engineer"), p, "Wrong trap on the manifest.")
    p.refresh_from_db()
    assert p.voided and p.void_reason == "Wrong trap on the manifest." and p.voided_by
    assert PumpOut.objects.filter(pk=p.pk).exists()
    assert services.status_of(t, TODAY).status == "overdue"
    p.hauler_name = "Someone else"
    with pytest.raises(ImmutableRecord):
        p.save()
    with pytest.raises(ImmutableRecord):
        PumpOut.objects.get(pk=p.pk).delete()
    actions = set(AuditEvent.objects.filter(object_id=str(p.pk)).values_list("action", flat=True))
    assert {"record_pump_out", "void_pump_out"} <= actions
    page = login("viewer").get(f"/grease/{t.pk}/").content.decode()
    assert "Wrong trap on the manifest." in page and "void" in page


def test_pump_out_validation(town: Town) -> None:
    t = trap(town)
    with pytest.raises(InvalidInput) as e:
        services.record_pump_out(
            town.u("inspector"),
            t,
            pumped_on=TODAY + timedelta(days=1),
            hauler_name="",
            volume_gal=Decimal("0"),
            today=TODAY,
        )
    assert set(e.value.errors) == {"pumped_on", "hauler_name", "volume_gal"}
    with pytest.raises(InvalidInput):
        pump(town, t, 300)  # before the installation
    with pytest.raises(Forbidden):
        pump(town, t, 3, who="clerk")
    with pytest.raises(Forbidden):
        pump(town, t, 3, who="other")


def test_owner_records_its_own_pump_out_on_the_page(town: Town, login: Any) -> None:
    t = trap(town)
    c = login("owner")
    r = c.post(
        f"/grease/{t.pk}/pump-outs/",
        {"pumped_on": str(TODAY - timedelta(days=3)), "hauler_name": "HV", "volume_gal": "300"},
    )
    assert r.status_code == 302
    p = PumpOut.objects.get(interceptor=t)
    assert p.recorded_by == town.u("owner") and str(p.volume_gal) == "300.0"
    bad = c.post(f"/grease/{t.pk}/pump-outs/", {"pumped_on": "", "hauler_name": "x"})
    assert bad.status_code == 400
    r = c.post(f"/grease/pump-outs/{p.pk}/void/", {"reason": "Typo in the date."})
    assert r.status_code == 302
    p.refresh_from_db()
    assert p.voided


# --- pages, panels, API ------------------------------------------------------------------------


def test_register_page_stores_the_sizing_check(town: Town, login: Any) -> None:
    c = login("engineer")
    assert c.get(f"/grease/new/?establishment={town.owner_restaurant.pk}").status_code == 200
    data = {
        "establishment": town.owner_restaurant.pk,
        "kind": "hydromechanical",
        "rated_gpm": "50",
        "location": "Kitchen",
        "accessible": "on",
        "installed_on": str(TODAY - timedelta(days=30)),
        "fixture_volume_in3": "13824",
        "drain_minutes": "1",
    }
    r = c.post("/grease/new/", data)
    assert r.status_code == 302
    t = GreaseInterceptor.objects.get()
    assert t.sizing_check.passed is True and t.registered_by == town.u("engineer")
    page = c.get(r["Location"]).content.decode()
    assert "meets the method in force" in page and "50 gpm" in page
    r = c.post("/grease/new/", {**data, "rated_gpm": "", "fixture_volume_in3": ""})
    assert r.status_code == 400 and "rated flow" in r.content.decode()


def test_facility_panel_warns_food_establishments_without_a_trap(town: Town, login: Any) -> None:
    c = login("inspector")
    url = f"/registry/establishments/{town.owner_restaurant.pk}/"
    assert "§ 196-19 F(2) requires a grease trap" in c.get(url).content.decode()
    plant = c.get(f"/registry/establishments/{town.other_plant.pk}/").content.decode()
    assert "requires a grease trap" not in plant
    t = trap(town)
    page = c.get(url).content.decode()
    assert "requires a grease trap" not in page and f"/grease/{t.pk}/" in page
    assert "overdue" in page


def test_dashboard_panel_is_for_staff(town: Town, login: Any) -> None:
    t = trap(town)  # overdue
    soon = trap(town)
    pump(town, soon, 80)
    staff = login("superintendent").get("/").content.decode()
    assert "Grease pump-outs" in staff and f"/grease/{t.pk}/" in staff
    assert "Grease pump-outs" not in login("owner").get("/").content.decode()


def test_api_create_and_sizing_check(town: Town, login: Any) -> None:
    c = login("inspector")
    r = c.post(
        "/api/grease/interceptors/",
        {
            "establishment": town.owner_restaurant.pk,
            "kind": "gravity",
            "capacity_gal": "1000",
            "location": "Rear yard",
            "accessible": True,
            "installed_on": str(TODAY - timedelta(days=30)),
            "dfu": 30,
        },
        content_type="application/json",
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["sizing_check"]["passed"] is True and body["cleaning"]["status"] == "due"
    r = c.post(
        "/api/grease/sizing-check/",
        {"method": "hydromechanical", "fixture_volume_in3": "13824", "installed": "35"},
        content_type="application/json",
    )
    assert r.status_code == 200
    out = r.json()
    assert out["computed_size"] == "50 gpm" and out["check"]["passed"] is False
    assert out["check"]["citation"] == "§ 196-19 F(2)"
    assert not GreaseInterceptor.objects.exclude(pk=body["id"]).exists()  # nothing stored
    r = c.post(
        "/api/grease/sizing-check/",
        {"method": "gravity"},
        content_type="application/json",
    )
    assert r.status_code == 400 and "dfu" in r.json()["errors"]
    r = c.post(
        "/api/grease/pump-outs/",
        {
            "interceptor": body["id"],
            "pumped_on": str(TODAY - timedelta(days=2)),
            "hauler_name": "HV",
            "volume_gal": "500",
        },
        content_type="application/json",
    )
    assert r.status_code == 201
    r = c.post(
        f"/api/grease/pump-outs/{r.json()['id']}/void/",
        {"reason": "duplicate"},
        content_type="application/json",
    )
    assert r.status_code == 200 and r.json()["voided"] is True


def test_demo_loader(town: Town) -> None:
    from sewer_office.demo.build import Town as DemoTown
    from sewer_office.demo.grease import load_demo_grease
    from sewer_office.registry.choices import EstablishmentKind

    req = require_interceptor(
        town.u("clerk"), establishment=town.owner_restaurant, kind="grease_trap"
    )
    perform(
        req,
        "record_installation",
        town.u("inspector"),
        {
            "unit_type": "hydromechanical",
            "capacity": "50 gpm",
            "location": "Kitchen",
            "accessible": True,
            "installed_on": timezone.localdate() - timedelta(days=700),
        },
    )
    demo = DemoTown(
        anchor=timezone.localdate(),
        rng=random.Random(4),
        users=town.users,
        establishments={EstablishmentKind.RESTAURANT: [town.owner_restaurant]},
    )
    load_demo_grease(demo)
    (t,) = GreaseInterceptor.objects.all()
    assert t.requirement == req and t.sizing_check.passed is True
    assert t.pump_outs.filter(voided=False).count() >= 6
    assert services.status_of(t, demo.anchor).status == "due"


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_list_downloads_with_a_trap_in_it(town: Town, login: Any, fmt: str) -> None:
    """Every column of the download names a field the interceptor has: the list's download
    failed with a server error as soon as a trap was registered (an empty list hid it)."""
    t = trap(town, capacity_gal=Decimal("1000"), grease_capacity_lb=Decimal("100"))
    r = login("inspector").get(f"/grease/?format={fmt}")
    assert r.status_code == 200 and "attachment" in r["Content-Disposition"]
    if fmt == "csv":
        header, row = list(csv.reader(io.StringIO(r.content.decode("utf-8"))))
        got = dict(zip(header, row, strict=True))
        assert (got["Id"], got["Capacity (gallons)"], got["Grease capacity (lb)"]) == (
            str(t.pk),
            "1000.0",
            "100.0",
        )
