"""The kinds of application the office handles, and how pages and API reach each one.

A :class:`Kind` ties a model to its workflow, its filing form, its filing service, its
filterset and the roles that may file it; views, API, dashboard and tests iterate over
:data:`KINDS` rather than repeating themselves for every permit.

A model finds its workflow here: this module sets each model's ``WORKFLOW`` from its kind
(imported by the app's ``ready()``), so that the models import no workflow and a workflow may
import the services and models it drives at the top of its module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

from django.db import models

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import (
    APPLICANT,
    BUILDING_INSPECTOR,
    CLERK,
    SUPERINTENDENT,
    roles_of,
)
from sewer_office.core.workflow import Workflow
from sewer_office.registry.models import Person

from . import filters, notify
from . import forms as pforms
from .models import (
    BuildingSewerPermit,
    FlushingNotice,
    GrinderApproval,
    IndustrialDischargeApproval,
    InterceptorRequirement,
    PrivateDisposalSystem,
    SubdivisionSewer,
)
from .models.base import Application
from .services.building_sewer import file_building_sewer_permit
from .services.industrial import file_discharge_approval
from .services.minor import file_flushing_notice, file_grinder, require_interceptor
from .services.private_system import file_private_system
from .services.subdivision import file_subdivision
from .workflows import (
    building_sewer,
    flushing,
    grinder,
    industrial,
    interceptor,
    private_system,
    subdivision,
)

#: Files an application from its form's cleaned data as the actor. The cleaned data is the
#: one open dict (Django types it no further); each kind's lambda below hands it on key by key
#: as the keyword arguments of its filing service, which mypy checks.
Creator = Callable[[Actor, dict[str, Any]], Application]


@dataclass(frozen=True)
class Kind:
    slug: str
    model: type[Any]
    workflow: Workflow
    label: str
    plural: str
    citation: str
    form: type[pforms.ApplicationForm | pforms.InterceptorForm]
    create: Creator
    filterset: type[filters.ApplicationFilter]
    file_roles: frozenset[str]
    applicant_may_file: bool = True
    related: tuple[str, ...] = ("applicant", "property")

    def queryset(self) -> models.QuerySet[Any]:
        qs: models.QuerySet[Any] = self.model.objects.select_related(*self.related)
        return qs

    def list_queryset(self) -> models.QuerySet[Any]:
        """For lists: without the large JSON and text columns no list shows."""
        heavy = [
            f.name
            for f in self.model._meta.concrete_fields
            if isinstance(f, models.JSONField | models.TextField)
        ]
        return self.queryset().defer(*heavy)


class _Common(TypedDict):
    """What every filing form asks (the keyword arguments every filing service takes)."""

    applicant: Person
    description: str


def _common(d: dict[str, Any]) -> _Common:
    return {"applicant": d["applicant"], "description": d.get("description", "")}


KINDS: dict[str, Kind] = {
    k.slug: k
    for k in (
        Kind(
            "building-sewer",
            BuildingSewerPermit,
            building_sewer.WORKFLOW,
            "Building sewer permit",
            "Building sewer permits",
            "§ 196-18",
            pforms.BuildingSewerForm,
            lambda user, d: file_building_sewer_permit(
                user,
                **_common(d),
                prop=d["property"],
                building=d.get("building"),
                permit_class=d["permit_class"],
                use=d.get("service_use") or "",
                industrial_wastes=d.get("industrial_wastes") or "",
                reuses_old_sewer=d.get("reuses_old_sewer", False),
                design=d["design"],
                files=d.get("files"),
            ),
            filters.BuildingSewerPermitFilter,
            frozenset({CLERK}),
        ),
        Kind(
            "industrial",
            IndustrialDischargeApproval,
            industrial.WORKFLOW,
            "Industrial discharge approval",
            "Industrial discharge approvals",
            "§ 196-16 D–F",
            pforms.IndustrialForm,
            lambda user, d: file_discharge_approval(
                user,
                **_common(d),
                establishment=d["establishment"],
                discharge_kind=d["discharge_kind"],
                concentrations=d["concentrations"],
                flow_gpd=d.get("flow_gpd"),
                process_flow_gpd=d.get("process_flow_gpd"),
                temperature_f=d.get("temperature_f"),
                categorical_category=d.get("categorical_category", ""),
                renews=d.get("renews"),
                files=d.get("files"),
            ),
            filters.IndustrialDischargeApprovalFilter,
            frozenset({CLERK}),
            related=("applicant", "property", "establishment"),
        ),
        Kind(
            "private-system",
            PrivateDisposalSystem,
            private_system.WORKFLOW,
            "Private disposal system",
            "Private disposal systems",
            "§ 196-17",
            pforms.PrivateSystemForm,
            lambda user, d: file_private_system(
                user,
                **_common(d),
                prop=d["property"],
                system_type=d["system_type"],
                design_flow_gpd=d.get("design_flow_gpd"),
                files=d.get("files"),
            ),
            filters.PrivateDisposalSystemFilter,
            frozenset({CLERK, BUILDING_INSPECTOR}),
        ),
        Kind(
            "subdivision",
            SubdivisionSewer,
            subdivision.WORKFLOW,
            "Subdivision sewer",
            "Subdivision sewers",
            "§ 196-16 G; § 196-23",
            pforms.SubdivisionForm,
            lambda user, d: file_subdivision(
                user,
                **_common(d),
                prop=d["property"],
                name=d["name"],
                lots=d["lots"],
                smallest_lot_acres=d["smallest_lot_acres"],
                estimated_cost=d["estimated_cost"],
                files=d.get("files"),
            ),
            filters.SubdivisionSewerFilter,
            frozenset({CLERK}),
        ),
        Kind(
            "grinder",
            GrinderApproval,
            grinder.WORKFLOW,
            "Grinder approval",
            "Grinder approvals",
            "§ 196-19 D(3)",
            pforms.GrinderForm,
            lambda user, d: file_grinder(
                user,
                **_common(d),
                prop=d["property"],
                establishment=d.get("establishment"),
                make_model=d["make_model"],
                motor_hp=d["motor_hp"],
            ),
            filters.GrinderApprovalFilter,
            frozenset({CLERK}),
        ),
        Kind(
            "interceptor",
            InterceptorRequirement,
            interceptor.WORKFLOW,
            "Grease trap / interceptor",
            "Grease traps and interceptors",
            "§ 196-19 F",
            pforms.InterceptorForm,
            lambda user, d: require_interceptor(
                user, establishment=d["establishment"], kind=d["kind"], basis=d.get("basis", "")
            ),
            filters.InterceptorRequirementFilter,
            frozenset({CLERK, BUILDING_INSPECTOR, SUPERINTENDENT}),
            applicant_may_file=False,
            related=("applicant", "property", "establishment"),
        ),
        Kind(
            "flushing",
            FlushingNotice,
            flushing.WORKFLOW,
            "Flushing notice",
            "Flushing notices",
            "§ 196-19 L",
            pforms.FlushingForm,
            lambda user, d: file_flushing_notice(
                user,
                **_common(d),
                building=d["building"],
                planned_on=d["planned_on"],
                water_source=d["water_source"],
                water_unpolluted=d.get("water_unpolluted", False),
                tri_municipal_notified_on=d["tri_municipal_notified_on"],
            ),
            filters.FlushingNoticeFilter,
            frozenset({CLERK}),
        ),
    )
}


for _kind in KINDS.values():
    _kind.model.WORKFLOW = _kind.workflow
    # an application's change of state is told by e-mail to the applicant as it happens
    _kind.workflow.announce = notify.announcer(_kind.label)


def kind_of(record: Any) -> Kind:
    return KINDS[record.KIND_SLUG]


def may_file(user: Actor, kind: Kind) -> bool:
    roles = roles_of(user)
    return bool(roles & kind.file_roles) or (kind.applicant_may_file and APPLICANT in roles)
