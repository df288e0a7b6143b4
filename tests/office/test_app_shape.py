"""Every app of the office has the same shape (docs/architecture.md): choices in choices.py,
filtersets in filters.py (one per list, shared by the page and the API), every model shown in
the back office, service errors mapped onto forms by core.forms, records created with their
audit event by core.audit.create_recorded."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import models

from sewer_office.core.models import AuditEvent
from sewer_office.monitoring.lab_import import import_lab_file

from .factories import Town
from .monitoring_factories import facilities

OFFICE = Path(__file__).resolve().parents[2] / "src" / "sewer_office"

#: The domain apps: each has a page, an API, its services and its back office.
DOMAIN_APPS = (
    "registry",
    "permits",
    "network",
    "monitoring",
    "grease",
    "inspections",
    "meters",
    "enforcement",
)
SHAPE = ("models", "services", "views", "urls", "admin", "api", "templates")


def _module_or_package(app: str, name: str) -> bool:
    return (OFFICE / app / f"{name}.py").is_file() or (OFFICE / app / name).is_dir()


@pytest.mark.parametrize("app", DOMAIN_APPS)
def test_domain_app_has_the_common_modules(app: str) -> None:
    missing = [m for m in SHAPE if not _module_or_package(app, m)]
    assert not missing, f"{app} lacks {missing}"


def _office_modules() -> list[Path]:
    return [p for p in OFFICE.rglob("*.py") if "migrations" not in p.parts]


def _classes_deriving(path: Path, bases: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for b in node.bases:
                name = b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")
                if name in bases:
                    found.append(node.name)
    return found


def test_choices_live_in_choices_modules() -> None:
    misplaced = {
        str(p.relative_to(OFFICE)): names
        for p in _office_modules()
        if p.name != "choices.py"
        and (names := _classes_deriving(p, {"TextChoices", "IntegerChoices"}))
    }
    assert not misplaced, misplaced


def test_filtersets_live_in_filters_modules() -> None:
    misplaced = {
        str(p.relative_to(OFFICE)): names
        for p in _office_modules()
        if p.name != "filters.py" and (names := _classes_deriving(p, {"FilterSet"}))
    }
    assert not misplaced, misplaced


def test_every_model_is_in_the_back_office() -> None:
    inlined = {
        inline.model
        for model_admin in admin.site._registry.values()
        for inline in model_admin.inlines
    }
    missing = [
        f"{m._meta.app_label}.{m.__name__}"
        for m in apps.get_models()
        if m.__module__.startswith("sewer_office.")
        and m not in admin.site._registry
        and m not in inlined
    ]
    assert not missing, missing


def test_the_loop_from_service_errors_to_form_errors_is_written_once() -> None:
    """Views map service errors through core.forms.add_input_errors/add_office_error."""
    offenders = [
        str(p.relative_to(OFFICE))
        for p in _office_modules()
        if p.name == "views.py" and "e.errors.items()" in p.read_text(encoding="utf-8")
    ]
    assert not offenders, offenders


def test_permit_models_import_no_workflow() -> None:
    """A permit model finds its workflow through permits/kinds.py (bound at start-up)."""
    from sewer_office.permits.kinds import KINDS

    for path in (OFFICE / "permits" / "models").glob("*.py"):
        assert "workflows" not in path.read_text(encoding="utf-8"), path.name
    for kind in KINDS.values():
        assert kind.model.WORKFLOW is kind.workflow


def test_enforcement_workflow_sits_above_its_services() -> None:
    """Models, services, filters and schedules read enforcement/states.py, not the workflow;
    the models' workflows are bound at start-up (EnforcementConfig.ready)."""
    from sewer_office.enforcement import workflow
    from sewer_office.enforcement.models import Milestone, Violation

    for name in ("models.py", "services.py", "filters.py", "schedules.py", "states.py"):
        text = (OFFICE / "enforcement" / name).read_text(encoding="utf-8")
        assert "from .workflow" not in text, name
    assert Violation.WORKFLOW is workflow.WORKFLOW
    assert Milestone.WORKFLOW is workflow.MILESTONE_WORKFLOW


def test_create_recorded_takes_the_citation_from_the_new_record(town: Town) -> None:
    from sewer_office.inspections.services import schedule

    inspection = schedule(
        town.u("superintendent"),
        kind="building_sewer",
        property=town.owner_home,
        location="rear yard easement",
        on_easement=True,
        unscheduled=True,
    )
    event = AuditEvent.objects.get(object_id=str(inspection.pk), action="schedule_inspection")
    assert event.citation == "§ 196-21 B"
    assert event.state_to == "scheduled"
    assert event.after is not None and event.after["location"] == "rear yard easement"


def test_filtersets_are_the_ones_the_pages_and_the_api_use() -> None:
    from sewer_office.grease import api as grease_api
    from sewer_office.grease import filters as grease_filters
    from sewer_office.meters import api as meters_api
    from sewer_office.meters import filters as meters_filters
    from sewer_office.monitoring import api as monitoring_api
    from sewer_office.monitoring import filters as monitoring_filters
    from sewer_office.monitoring import views as monitoring_views

    assert grease_api.InterceptorViewSet.filterset_class is grease_filters.InterceptorFilter
    assert meters_api.SlugEventViewSet.filterset_class is meters_filters.SlugFilter
    assert monitoring_api.LabResultViewSet.filterset_class is monitoring_filters.LabResultFilter
    assert monitoring_api.FindingViewSet.filterset_class is monitoring_filters.FindingFilter
    source = inspect.getsource(monitoring_views)
    assert "LabResultFilter(" in source and "FindingFilter(" in source


RESULTS = (
    "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"
    "S1,2026-03-02T10:42,grab,pH,5.3,SU,OTHER-PLANT,CM-1\n"
    "S2,2026-03-03T07:00,composite,Copper,1.4,mg/l,OTHER-PLANT,CM-1\n"
    "S3,2026-03-04T07:00,composite,Copper,0.2,mg/l,OWNER-CAFE,CM-1\n"
)


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"facility": "other-plant"},
        {"parameter": "COPPER"},
        {"state": "reported"},
        {"sampled_from": "2026-03-03"},
        {"sampled_to": "2026-03-02"},
    ],
)
def test_results_filter_alike_on_the_page_and_in_the_api(
    town: Town, login: Any, query: dict[str, str]
) -> None:
    facilities(town)
    report = import_lab_file(RESULTS.encode(), "march.csv", town.u("superintendent"))
    assert report.stored, report.errors
    client = login("superintendent")
    page = client.get("/monitoring/results/", query)
    api = client.get("/api/monitoring/results/", query)
    assert page.status_code == 200 and api.status_code == 200
    on_page = {r.pk for r in page.context["page"]}
    assert on_page == {r["id"] for r in api.json()["results"]}
    assert (
        len(on_page)
        == {
            (): 3,
            ("facility",): 2,
            ("parameter",): 2,
            ("state",): 3,
            ("sampled_from",): 2,
            ("sampled_to",): 1,
        }[tuple(query)]
    )


def test_findings_filter_alike_on_the_page_and_in_the_api(town: Town, login: Any) -> None:
    facilities(town)
    assert import_lab_file(RESULTS.encode(), "march.csv", town.u("superintendent")).stored
    client = login("superintendent")
    for query in ({"review": "open"}, {"review": "", "facility": "owner-cafe"}):
        page = client.get("/monitoring/findings/", query)
        api = client.get("/api/monitoring/findings/", query)
        assert page.status_code == 200 and api.status_code == 200
        assert {f.pk for f in page.context["page"]} == {f["id"] for f in api.json()["results"]}
    assert client.get("/api/monitoring/findings/", {"review": "open"}).json()["count"] >= 1


def test_models_use_the_choices_of_choices_py() -> None:
    from sewer_office.grease import choices as grease_choices
    from sewer_office.grease import models as grease_models

    field = grease_models.GreaseInterceptor._meta.get_field("kind")
    assert field.choices == grease_choices.InterceptorKind.choices
    assert issubclass(grease_choices.InterceptorKind, models.TextChoices)
