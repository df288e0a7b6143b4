"""Every app of the office has the same shape (docs/architecture.md): the modules of its kind
(a domain app: models, services, views, urls, admin, api, templates; the other kinds listed
with the reason they lack a part), choices in choices.py,
filtersets in filters.py (one per list, shared by the page and the API), every model shown in
the back office, service errors mapped onto forms by core.forms, records created with their
audit event by core.audit.create_recorded."""

from __future__ import annotations

import ast
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

#: What each kind of app must have. A domain app keeps records the law names: its models, the
#: services that change them (each with its audit event), pages (views, urls, templates), an
#: API over the same services, and its back office (admin). The other kinds lack a part for a
#: reason, written beside the app below.
SHAPES: dict[str, tuple[str, ...]] = {
    "domain": ("models", "services", "views", "urls", "admin", "api", "templates"),
    "pages without an API": ("models", "services", "views", "urls", "admin", "templates"),
    "foundation": ("models", "services", "views", "admin", "templates"),
    "API frame": ("views", "templates"),
    "ledger": ("models", "services", "admin"),
    "builder": ("build",),
}

#: Every installed app of the office, its kind, and why it has the shape it has.
APPS: dict[str, tuple[str, str]] = {
    "registry": ("domain", "properties, persons, establishments"),
    "network": ("domain", "the sewer network's versions and its sampling points"),
    "permits": ("domain", "permits and approvals"),
    "portal": ("domain", "outside users and the persons they act for"),
    "monitoring": ("domain", "laboratory results and their evaluation"),
    "meters": ("domain", "meters, readings and slug events"),
    "grease": ("domain", "grease interceptors and their cleanings"),
    "inspections": ("domain", "inspections and their reports"),
    "enforcement": ("domain", "violations, notices, fines, referrals"),
    "pretreatment": ("domain", "the pretreatment program: SNC, annual report, filings"),
    "billing": ("domain", "charges, invoices, payments"),
    "reports": ("domain", "reports signed by an establishment's signatory"),
    "mail": ("domain", "the message log and each user's preferences"),
    "accounts": (
        "pages without an API",
        "signing in and the second factor are pages; an API client signs in with a token "
        "(the API frame), so there is no resource to serve",
    ),
    "archive": (
        "pages without an API",
        "a bundle of paper records is checked, then applied by a person who reads the check; "
        "the operator's command line does the same without a page",
    ),
    "onboarding": (
        "pages without an API",
        "setting a town up is walked once, page by page, by its staff",
    ),
    "parcels": (
        "pages without an API",
        "the assessor's roll is previewed and applied on a page, or imported by the command "
        "line; the parcels themselves are served as registry properties",
    ),
    "core": (
        "foundation",
        "the audit trail, attachments, letters, the dashboard and search: its pages are "
        "mounted by config's URL table, it serves no API of its own",
    ),
    "api": (
        "API frame",
        "tokens, the schema and its documentation pages; each domain app's api.py holds its "
        "resources, and config holds the API's URL table",
    ),
    "findings": (
        "ledger",
        "every app's determinations stored in one place: they are shown on the pages and in "
        "the API of the app that determined them",
    ),
    "demo": (
        "builder",
        "builds the demo town through the other apps' services; nothing imports it",
    ),
}

#: Packages of the office that are not apps, and why.
NOT_APPS = {
    "config": "settings and the URL tables of the pages and the API",
    "reminders": "the daily run that sends what the apps register; no records of its own",
}


def _module_or_package(app: str, name: str) -> bool:
    return (OFFICE / app / f"{name}.py").is_file() or (OFFICE / app / name).is_dir()


def test_every_app_of_the_office_has_a_declared_shape() -> None:
    installed = {
        c.name.split(".")[1] for c in apps.get_app_configs() if c.name.startswith("sewer_office.")
    }
    assert installed == set(APPS), installed ^ set(APPS)
    packages = {p.parent.name for p in OFFICE.glob("*/__init__.py")}
    assert packages == set(APPS) | set(NOT_APPS), packages ^ (set(APPS) | set(NOT_APPS))
    assert {kind for kind, _ in APPS.values()} == set(SHAPES)


@pytest.mark.parametrize("app", sorted(APPS))
def test_every_app_has_the_modules_of_its_kind(app: str) -> None:
    kind, _why = APPS[app]
    missing = [m for m in SHAPES[kind] if not _module_or_package(app, m)]
    assert not missing, f"{app} ({kind}) lacks {missing}"


@pytest.mark.parametrize("app", sorted(a for a, (kind, _) in APPS.items() if kind != "domain"))
def test_an_app_without_a_part_says_so_truly(app: str) -> None:
    """An app that grows the part its kind lacks (an API, pages) is a domain app now: move it,
    so that the list above stays the office's map."""
    kind, _why = APPS[app]
    grown = [m for m in SHAPES["domain"] if m not in SHAPES[kind] and _module_or_package(app, m)]
    assert not grown, f"{app} ({kind}) has {grown}: declare it a domain app"


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
    """Models, services (and the effects of the workflow's transitions: notices, corrections,
    referrals), filters and schedules read enforcement/states.py, not the workflow; the
    models' workflows are bound at start-up (EnforcementConfig.ready)."""
    from sewer_office.enforcement import workflow
    from sewer_office.enforcement.models import Milestone, Violation

    for name in (
        "models/__init__.py",
        "models/violations.py",
        "models/outcomes.py",
        "models/schedules.py",
        "services.py",
        "notices.py",
        "corrections.py",
        "referrals.py",
        "filters.py",
        "schedules.py",
        "states.py",
    ):
        text = (OFFICE / "enforcement" / name).read_text(encoding="utf-8")
        assert "from .workflow" not in text, name
        assert "from sewer_office.enforcement.workflow" not in text, name
        assert "from sewer_office.enforcement import workflow" not in text, name
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

    assert grease_api.InterceptorViewSet.filterset_class is grease_filters.InterceptorFilter
    assert meters_api.SlugEventViewSet.filterset_class is meters_filters.SlugFilter
    assert monitoring_api.LabResultViewSet.filterset_class is monitoring_filters.LabResultFilter
    assert monitoring_api.FindingViewSet.filterset_class is monitoring_filters.FindingFilter
    views = OFFICE / "monitoring" / "views"  # a module or a package of page modules
    paths = sorted(views.glob("*.py")) if views.is_dir() else [views.with_suffix(".py")]
    source = "".join(path.read_text(encoding="utf-8") for path in paths)
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
