"""The pretreatment program page's context: the SNC determinations in force (filtered and
paged), the significant industrial users, those never designated (the first named, the rest
counted), the reports not received, the program year's inspections and samplings by the
Town, and the form that determines SNC."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import HttpRequest
from django.utils import timezone

from sewer_office.accounts.access import sees_every_record, visible
from sewer_office.core.paging import page_of
from sewer_office.registry.choices import EstablishmentKind
from sewer_office.registry.models import Establishment

from . import oversight, report_dues, services, snc
from .filters import SNCFilter
from .forms import RunForm

LATE_SHOWN = 50
#: Industrial users never designated named on the program page; the rest are counted, and
#: listed on the establishments list (industrial), so that the page costs the same for a
#: town's ten users and a county's thousands.
UNDESIGNATED_SHOWN = 25


def context(request: HttpRequest, run_form: RunForm | None = None) -> dict[str, Any]:
    base = snc.visible_determinations(request.user)
    fs = SNCFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    page, query = page_of(request, qs)
    today = timezone.localdate()
    undesignated = visible(
        Establishment.objects.filter(kind=EstablishmentKind.INDUSTRIAL, siu_designations=None),
        request.user,
    ).order_by("name", "id")
    named = list(undesignated[:UNDESIGNATED_SHOWN])
    return {
        "filter": fs,
        "page": page,
        "query": query,
        "sius": visible(services.current_designations(), request.user).filter(status="siu"),
        # the first names, and how many: a county's thousands are the establishments list's
        "undesignated": named,
        "undesignated_more": undesignated.count() - len(named)
        if len(named) == UNDESIGNATED_SHOWN
        else 0,
        "late": visible(report_dues.late_dues(today), request.user).order_by("due_on")[:LATE_SHOWN],
        "run_form": run_form or RunForm(initial={"period": _last_half(today)}),
        "may_run": services.may_decide(request.user),
        "staff": services.is_staff(request.user),
        "year": today.year - 1,
        # the Town's own inspection and sampling of each SIU this program year (staff only)
        "oversight": oversight.year_status(today, _seen_establishments(request))
        if services.is_staff(request.user)
        else None,
    }


def _seen_establishments(request: HttpRequest) -> Any:
    """The establishments the staff member sees (``None``: every one, nothing to narrow)."""
    if sees_every_record(request.user):
        return None
    return visible(Establishment.objects.all(), request.user)


def _last_half(today: date) -> str:
    return f"{today.year}H1" if today.month > 6 else f"{today.year - 1}H2"
