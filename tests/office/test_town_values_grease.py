"""Grease interceptors under their own town's values: the sizing method and the pump-out
interval of the interceptor's establishment's town, never the primary town's; and an
establishment of a town whose law is its own is refused the article's grease determinations
(§ 196-19 F(2), § 196-19 G)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest

from sewer_office.core.town_law import OtherLaw
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.grease import installations, services
from sewer_office.grease.choices import InterceptorKind
from sewer_office.grease.models import GreaseInterceptor, PumpOut
from sewer_office.registry.models import Establishment

from .factories import Town
from .jurisdiction_support import OTHER, moved

INSTALLED = date(2026, 1, 2)
AS_OF = date(2026, 5, 1)


def trap(town: Town, est: Establishment, **kw: Any) -> GreaseInterceptor:
    """A hydromechanical trap rated 4 gpm for a 13,824 in³ fixture (50 gpm by PDI G-101)."""
    args: dict[str, Any] = {
        "establishment": est,
        "kind": InterceptorKind.HYDROMECHANICAL,
        "location": "Kitchen",
        "accessible": True,
        "rated_gpm": Decimal("4"),
        "fixture_volume_in3": Decimal("13824"),
        "installed_on": INSTALLED,
        "today": AS_OF,
    }
    args.update(kw)
    return installations.register_interceptor(town.u("inspector"), **args)


def test_each_interceptor_is_sized_by_its_own_towns_method(article_towns: Town) -> None:
    t = article_towns
    demo = trap(t, t.owner_restaurant).sizing_check  # type: ignore[arg-type]
    wapp = trap(t, t.other_plant).sizing_check  # type: ignore[arg-type]
    # the demo town's method 3 (PDI G-101) decides: 4 gpm does not meet 50 gpm
    assert (demo.passed, demo.determination, demo.computed_size) == (False, True, "50 gpm")
    assert demo.parameters_version.startswith("demo@")
    # Wappinger's method 0 (DEC 1988, not formalized): the same figures are a reference only
    assert (wapp.passed, wapp.determination, wapp.computed_size) == (None, False, "50 gpm")
    assert wapp.parameters_version.startswith("wappinger@")
    assert wapp.effective == date(1992, 9, 28) and demo.effective == date(2015, 1, 1)


def test_each_clock_runs_on_its_own_towns_interval(article_towns: Town) -> None:
    t = article_towns
    demo, wapp = trap(t, t.owner_restaurant), trap(t, t.other_plant)  # type: ignore[arg-type]
    d, w = services.status_of(demo, AS_OF), services.status_of(wapp, AS_OF)
    # the demo town pumps every 90 days: due 2026-04-02, overdue 29 days on 2026-05-01
    assert (d.status, d.interval_days, d.next_due, d.days_overdue) == (
        "overdue",
        90,
        date(2026, 4, 2),
        29,
    )
    # Wappinger sets no interval: nothing is due
    assert (w.status, w.interval_days, w.next_due) == ("not_configured", None, None)
    assert services.flag_overdue_pump_outs(AS_OF) == 1
    [finding] = Finding.objects.filter(kind=FindingKind.PUMP_OUT_OVERDUE)
    assert finding.establishment_id == t.owner_restaurant.pk  # type: ignore[union-attr]
    assert finding.parameters_version.startswith("demo@") and finding.limit == "90"


def test_the_towns_intervals_are_each_towns(article_towns: Town) -> None:
    names = dict(services.town_clocks(article_towns.u("superintendent"), AS_OF))
    assert {n.split(" ")[0]: st.interval_days for n, st in names.items()} == {
        "Demo": 90,
        "Town": None,
    }
    sentence = services.towns_sentence(list(names.items()))
    assert "Demo" not in sentence and "no pump-out interval is configured" in sentence


def test_the_sizing_api_reads_the_town_named(article_towns: Town, login: Any) -> None:
    c = login("coordinator")
    body = {"method": "hydromechanical", "fixture_volume_in3": "13824", "installed": "4"}
    r = c.post("/api/grease/sizing-check/", body, content_type="application/json")
    assert r.status_code == 400 and "jurisdiction" in r.json()["errors"]  # two towns: say which
    out = {}
    for town in ("demo", "wappinger"):
        r = c.post(
            "/api/grease/sizing-check/",
            {**body, "jurisdiction": town},
            content_type="application/json",
        )
        assert r.status_code == 200, r.content
        out[town] = r.json()
    assert out["demo"]["check"]["passed"] is False
    assert out["wappinger"]["check"]["passed"] is None
    assert out["wappinger"]["parameters_version"].startswith("wappinger@")
    assert out["demo"]["jurisdiction"] == "demo"


# --- a town whose law is its own -----------------------------------------------------------


def test_an_interceptor_of_an_own_law_town_is_refused(two_towns: Town) -> None:
    plant = Establishment.objects.get(pk=two_towns.other_plant.pk)  # type: ignore[union-attr]
    assert plant.jurisdiction == OTHER
    with pytest.raises(OtherLaw) as refused:
        trap(two_towns, plant)
    assert "Town of Poughkeepsie" in refused.value.message
    assert "§ 196-19 F(2)" in refused.value.message
    assert "Article VII" in refused.value.message
    assert not GreaseInterceptor.objects.exists()


def test_a_trap_whose_parcel_moved_to_an_own_law_town_runs_no_clock(
    two_towns: Town, login: Any
) -> None:
    t = two_towns
    diner = t.owner_restaurant
    assert diner is not None
    kept = trap(t, diner)  # registered while the diner was the demo town's
    assert services.status_of(kept, AS_OF).status == "overdue"
    diner = moved(t, diner, OTHER, date(2026, 2, 1))
    kept = GreaseInterceptor.objects.select_related("establishment").get(pk=kept.pk)
    st = services.status_of(kept, AS_OF)
    assert (st.status, st.overdue, st.next_due) == ("other_law", None, None)
    assert "Town of Poughkeepsie" in st.message and "§ 196-19 G" in st.message
    assert services.overdue(GreaseInterceptor.objects.all(), AS_OF) == []
    assert services.flag_overdue_pump_outs(AS_OF) == 0
    with pytest.raises(OtherLaw):
        services.record_pump_out(
            t.u("inspector"),
            kept,
            pumped_on=AS_OF - timedelta(days=1),
            hauler_name="HV",
            volume_gal=Decimal("500"),
            today=AS_OF,
        )
    assert not PumpOut.objects.exists()
    page = login("superintendent").get(f"/grease/{kept.pk}/")
    assert page.status_code == 200 and b"none: the town's own law" in page.content
