"""Grease pages: the inventory, an interceptor (facts, sizing, pump-outs), registering an
installation, recording and voiding pump-outs, and the overdue list (§ 196-19 F)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.towns import several
from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import Forbidden, OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of

from . import installations, rules, services
from .filters import InterceptorFilter
from .forms import InterceptorForm, PumpOutForm, ReasonForm, RemovalForm
from .models import GreaseInterceptor, PumpOut

#: A pump-out clock's status in words (the page's words), for the download.
CLEANING_LABELS = {
    "overdue": "Overdue",
    "due": "Due",
    "no_record": "Never pumped, no installation date",
    "not_configured": "No interval configured",
    rules.OTHER_LAW: "Not under the article (the town's own law)",
}


PAGE_SIZE = 25

#: One row per interceptor with its cleaning clock (a ``services.Clocked``).
INTERCEPTOR_COLUMNS = (
    Column("Id", "trap.pk"),
    Column("Kind", "trap.get_kind_display"),
    Column("Establishment", "trap.establishment.name"),
    Column("Location", "trap.location"),
    Column("Capacity (gallons)", "trap.capacity_gal"),
    Column("Grease capacity (lb)", "trap.grease_capacity_lb"),
    Column("In place", "trap.active"),
    Column("Last pump-out", "status.last_pump_out"),
    Column("Next due", "status.next_due"),
    Column("Cleaning", lambda r: CLEANING_LABELS.get(r.status.status, r.status.status)),
    Column("Days overdue", "status.days_overdue"),
)


def _traps(request: HttpRequest) -> Any:
    return visible(
        GreaseInterceptor.objects.select_related("establishment__building__property"),
        request.user,
    )


@office_view()
def interceptor_list(request: HttpRequest) -> HttpResponse:
    base = _traps(request)
    fs = InterceptorFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    today = timezone.localdate()
    qs = services.with_last_pump_out(qs, today).order_by("establishment__name", "id")
    download = export(
        request,
        (services.Clocked(t, services.status_of(t, today)) for t in qs),
        INTERCEPTOR_COLUMNS,
        "grease-traps",
    )
    if download is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    rows = [services.Clocked(t, services.status_of(t, today)) for t in page]
    return render(
        request,
        "grease/list.html",
        {
            "filter": fs,
            "page": page,
            "rows": rows,
            "query": query,
            "may_register": services.may_register(request.user),
        },
    )


@office_view()
def interceptor_detail(
    request: HttpRequest,
    pk: int,
    pump_form: PumpOutForm | None = None,
    removal_form: RemovalForm | None = None,
    status: int = 200,
) -> HttpResponse:
    trap = get_object_or_404(_traps(request).select_related("requirement"), pk=pk)
    today = timezone.localdate()
    clock = services.status_of(trap, today)
    pump_outs = list(trap.pump_outs.select_related("recorded_by", "voided_by"))
    for p in pump_outs:
        p.may_void = services.may_void(request.user, p)
    may_record = services.may_record_pump_out(request.user, trap) and trap.active
    return render(
        request,
        "grease/detail.html",
        {
            "trap": trap,
            "clock": clock,
            "interval_sentence": services.interval_sentence(clock),
            "sizing": getattr(trap, "sizing_check", None),
            "pump_outs": pump_outs,
            "findings": visible(services.overdue_findings(trap), request.user)[:10],
            "pump_form": pump_form
            or (PumpOutForm(initial={"pumped_on": today}) if may_record else None),
            "removal_form": removal_form
            or (RemovalForm() if services.may_register(request.user) and trap.active else None),
            "void_form": ReasonForm(),
            "timeline": audit.timeline(trap),
        },
        status=status,
    )


@office_view(*services.STAFF_ROLES)
def interceptor_create(request: HttpRequest) -> HttpResponse:
    initial = {"establishment": request.GET.get("establishment")}
    form = InterceptorForm(request.POST or None, initial=initial)

    def register(d: dict[str, Any]) -> GreaseInterceptor:
        return installations.register_interceptor(
            request.user,
            establishment=d["establishment"],
            requirement=d.get("requirement"),
            kind=d["kind"],
            make_model=d.get("make_model") or "",
            rated_gpm=d.get("rated_gpm"),
            grease_capacity_lb=d.get("grease_capacity_lb"),
            capacity_gal=d.get("capacity_gal"),
            location=d["location"],
            accessible=bool(d.get("accessible")),
            access_note=d.get("access_note") or "",
            installed_on=d.get("installed_on"),
            cleaning_interval_days=d.get("cleaning_interval_days"),
            fixture_volume_in3=d.get("fixture_volume_in3"),
            drain_minutes=d.get("drain_minutes") or 1,
            dfu=d.get("dfu"),
        )

    def registered(trap: GreaseInterceptor) -> HttpResponse:
        messages.success(request, f"{trap} registered.")
        return redirect("grease:detail", pk=trap.pk)

    title = "Register a grease trap or interceptor"
    return form_action(request, form, register).respond(
        then=registered,
        show=lambda status: render(
            request, "grease/form.html", {"form": form, "title": title}, status=status
        ),
    )


@require_POST
@office_view()
def pump_out_create(request: HttpRequest, pk: int) -> HttpResponse:
    trap = get_object_or_404(_traps(request), pk=pk)
    if not services.may_record_pump_out(request.user, trap):
        raise Forbidden("Pump-outs are recorded by office staff or the establishment.")
    form = PumpOutForm(request.POST)

    def record(d: dict[str, Any]) -> PumpOut:
        return services.record_pump_out(
            request.user,
            trap,
            pumped_on=d["pumped_on"],
            hauler_name=d["hauler_name"],
            hauler_permit=d.get("hauler_permit") or "",
            volume_gal=d["volume_gal"],
            grease_depth_in=d.get("grease_depth_in"),
            grease_percent=d.get("grease_percent"),
            manifest_number=d.get("manifest_number") or "",
            notes=d.get("notes") or "",
        )

    def recorded(pump: PumpOut) -> HttpResponse:
        messages.success(request, f"Pump-out of {pump.pumped_on:%Y-%m-%d} recorded.")
        return redirect("grease:detail", pk=trap.pk)

    return form_action(request, form, record).respond(
        then=recorded,
        show=lambda status: interceptor_detail(request, pk, pump_form=form, status=status),
    )


@require_POST
@office_view()
def pump_out_void(request: HttpRequest, pk: int) -> HttpResponse:
    pump = get_object_or_404(
        visible(PumpOut.objects.select_related("interceptor"), request.user), pk=pk
    )
    try:
        services.void_pump_out(request.user, pump, request.POST.get("reason", ""))
    except OfficeError as e:
        messages.error(request, e.message)
        return redirect("grease:detail", pk=pump.interceptor_id)
    messages.success(request, "Pump-out voided; it stays on record, marked void.")
    return redirect("grease:detail", pk=pump.interceptor_id)


@require_POST
@office_view(*services.STAFF_ROLES)
def interceptor_remove(request: HttpRequest, pk: int) -> HttpResponse:
    trap = get_object_or_404(_traps(request), pk=pk)
    form = RemovalForm(request.POST)

    def removed(_: GreaseInterceptor) -> HttpResponse:
        messages.success(request, f"{trap} recorded removed.")
        return redirect("grease:detail", pk=trap.pk)

    act = form_action(
        request,
        form,
        lambda d: installations.remove_interceptor(
            request.user, trap, d["removed_on"], d["reason"]
        ),
    )
    return act.respond(
        then=removed,
        show=lambda status: interceptor_detail(request, pk, removal_form=form, status=status),
    )


#: The overdue list's download (``/grease/overdue/?format=csv``): rows as the page shows them.
OVERDUE_COLUMNS = (
    Column("Interceptor", lambda r: f"{r.trap.get_kind_display()} #{r.trap.pk}"),
    Column("Establishment", "trap.establishment.name"),
    Column("Last pump-out", "status.last_pump_out"),
    Column("Due", "status.next_due"),
    Column(
        "Days overdue",
        lambda r: r.status.days_overdue if r.status.status == "overdue" else None,
    ),
    Column("Interval (days)", "status.interval_days"),
    Column("Interval set by", "status.interval_basis"),
)


@office_view()
def overdue_list(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    rows = services.overdue(_traps(request), today)
    if (download := export(request, rows, OVERDUE_COLUMNS, "grease-overdue")) is not None:
        return download
    return render(
        request,
        "grease/overdue.html",
        {
            "rows": rows,
            "today": today,
            # each town's own interval, for the towns the user acts for
            "intervals": services.town_clocks(request.user, today),
            "several": several(),
            "citation": services.CITATION,
        },
    )
