"""A meter's fixed baseline recorded by clicks on the meter's page (§ 196-15 SLUG).

The Superintendent or the engineer records it (the form is shown to them only); anyone else is
refused (403 for other staff and outside users, the login page for anonymous users); a bad
value is refused with its field named and nothing written; a recorded baseline is written
once, audited, and shown on the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from sewer_office.core.models import AuditEvent
from sewer_office.meters import services
from sewer_office.meters.models import Meter, MeterBaseline

from .factories import Town
from .monitoring_factories import facilities

FORM = {
    "value": "1200.5",
    "effective_from": "2026-03-02T08:00",
    "authority": "Approval IDA-2026-004, condition 7",
}


@pytest.fixture
def meter(town: Town, tmp_path: Path) -> Meter:
    f = facilities(town)
    return services.register_meter(
        town.u("engineer"),
        sampling_point=f.my_point,
        ident="OWN-FLOW",
        parameter="flow",
        unit="gpd",
    )


def _url(m: Meter) -> str:
    return reverse("meters:baseline", args=[m.pk])


@pytest.mark.parametrize("username", ["superintendent", "engineer"])
def test_the_superintendent_or_engineer_records_it_from_the_page(
    town: Town, login: Any, meter: Meter, username: str
) -> None:
    c = login(username)
    page = c.get(reverse("meters:detail", args=[meter.pk])).content.decode()
    assert 'id="action-baseline"' in page and "Record the baseline" in page
    r = c.post(_url(meter), FORM)
    assert r.status_code == 302 and r["Location"] == reverse("meters:detail", args=[meter.pk])
    b = MeterBaseline.objects.get(meter=meter)
    # 08:00 town time on 2026-03-02 (EST, UTC−5) is 13:00 UTC
    assert (b.value, b.effective_from.isoformat()) == ("1200.5", "2026-03-02T13:00:00+00:00")
    assert b.authority == FORM["authority"] and b.recorded_by == town.u(username)
    assert AuditEvent.objects.filter(object_id=str(b.pk), citation="§ 196-15 SLUG").exists()
    shown = c.get(reverse("meters:detail", args=[meter.pk])).content.decode()
    assert "Fixed baselines" in shown and "(Approval IDA-2026-004, condition 7)" in shown


@pytest.mark.parametrize("username", ["inspector", "clerk", "highway", "viewer", "owner"])
def test_other_roles_see_no_form_and_are_refused(
    town: Town, login: Any, meter: Meter, username: str
) -> None:
    c = login(username)
    detail = c.get(reverse("meters:detail", args=[meter.pk]))
    assert 'id="action-baseline"' not in detail.content.decode()
    assert c.post(_url(meter), FORM).status_code == 403
    assert not MeterBaseline.objects.exists()


def test_anonymous_goes_to_the_login_page(login: Any, meter: Meter) -> None:
    r = login(None).post(_url(meter), FORM)
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("value", "-3", "not a positive decimal number in gpd"),
        ("value", "1e3", "not a positive decimal number in gpd"),
        ("authority", " ", "This field is required"),
    ],
)
def test_a_bad_baseline_is_refused_with_its_field_and_nothing_written(
    login: Any, meter: Meter, field: str, value: str, says: str
) -> None:
    r = login("superintendent").post(_url(meter), {**FORM, field: value})
    assert r.status_code == 400 and says in r.content.decode()
    assert not MeterBaseline.objects.exists()


def test_a_second_baseline_from_the_same_instant_is_refused(login: Any, meter: Meter) -> None:
    c = login("engineer")
    assert c.post(_url(meter), FORM).status_code == 302
    r = c.post(_url(meter), {**FORM, "value": "900"})
    assert r.status_code == 400 and "already recorded" in r.content.decode()
    assert MeterBaseline.objects.count() == 1
