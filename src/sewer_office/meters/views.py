"""Meters pages: the list, a meter (readings, uploads, slugs and their reports, excursions,
the upload and report forms), and the meter's chart as PNG or SVG."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Count, Max, Min, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of

from . import charts, judging, services
from .baselines import BASELINE_ROLES, record_meter_baseline
from .files import stored_upload
from .forms import BaselineForm, MeterForm, ReportForm, UploadForm
from .judging import UploadResult
from .models import Meter, MeterBaseline, SlugEvent

PAGE_SIZE = 25

METER_COLUMNS = (
    Column("Meter", "ident"),
    Column("Facility", "sampling_point.establishment.name"),
    Column("Point", "sampling_point.code"),
    Column("Parameter", "parameter"),
    Column("Unit", "unit"),
    Column("Active", "active"),
    Column("Readings", "n_readings"),
    Column("Last reading", "last_at"),
    Column("Slugs", "n_slugs"),
    Column("Slugs not reported", "n_unreported"),
)
ROWS = 20


def _meters(request: HttpRequest) -> Any:
    return visible(Meter.objects.select_related("sampling_point__establishment"), request.user)


def slug_rows(slugs: Any) -> list[dict[str, Any]]:
    """Each slug with its first report, its deadline (office policy) and whether overdue."""
    window = services.report_window()
    now = timezone.now()
    out = []
    for s in slugs:
        reports = sorted(s.reports.all(), key=lambda r: (r.reported_at, r.pk))
        first = reports[0] if reports else None
        due = s.start + window
        on_time = first is not None and first.reported_at <= due
        out.append(
            {
                "slug": s,
                "report": first,
                "due": due,
                "on_time": on_time,
                "overdue": not on_time and (now > due or first is not None),
            }
        )
    return out


@office_view()
def meter_list(request: HttpRequest) -> HttpResponse:
    qs = (
        _meters(request)
        .order_by("ident")
        .annotate(
            n_readings=Count("readings", distinct=True),
            last_at=Max("readings__at"),
            n_slugs=Count("slugs", distinct=True),
            n_unreported=Count("slugs", filter=Q(slugs__reports__isnull=True), distinct=True),
        )
    )
    if (download := export(request, qs, METER_COLUMNS, "meters")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    may_create = has_role(request.user, *services.METER_ROLES)
    return render(
        request, "meters/list.html", {"page": page, "query": query, "may_create": may_create}
    )


@office_view(*services.METER_ROLES)
def meter_create(request: HttpRequest) -> HttpResponse:
    form = MeterForm(request.POST or None)

    def register(d: dict[str, Any]) -> Meter:
        return services.register_meter(
            request.user,
            sampling_point=d["sampling_point"],
            ident=d["ident"],
            parameter=d["parameter"],
            unit=d["unit"] or "",
            description=d["description"] or "",
            max_gap_seconds=d["max_gap_seconds"],
        )

    def registered(meter: Meter) -> HttpResponse:
        messages.success(request, f"Meter {meter.ident} registered.")
        return redirect("meters:detail", pk=meter.pk)

    return form_action(request, form, register).respond(
        then=registered,
        show=lambda status: render(request, "meters/create.html", {"form": form}, status=status),
    )


@office_view()
def meter_detail(
    request: HttpRequest,
    pk: int,
    upload_form: UploadForm | None = None,
    report_form: ReportForm | None = None,
    refused: services.UploadRefused | None = None,
    baseline_form: BaselineForm | None = None,
    status: int = 200,
) -> HttpResponse:
    meter = get_object_or_404(_meters(request), pk=pk)
    summary = meter.readings.aggregate(n=Count("id"), first=Min("at"), last=Max("at"))
    slugs = judging.current_slugs(meter).prefetch_related("reports")[:ROWS]
    may_upload = services.may_upload(request.user, meter)
    may_report = services.may_record_report(request.user, SlugEvent(meter=meter))
    return render(
        request,
        "meters/detail.html",
        {
            "meter": meter,
            "est": meter.sampling_point.establishment,
            "summary": summary,
            "uploads": meter.uploads.select_related("uploaded_by")[:ROWS],
            "slugs": slug_rows(slugs),
            "excursions": meter.excursions.all()[:ROWS],
            "window_hours": services.report_window().total_seconds() / 3600,
            "upload_form": upload_form or (UploadForm() if may_upload else None),
            "report_form": report_form or (ReportForm() if may_report else None),
            "refused": refused,
            "baseline_form": baseline_form
            or (BaselineForm() if has_role(request.user, *BASELINE_ROLES) else None),
        },
        status=status,
    )


@require_POST
@office_view()
def meter_upload(request: HttpRequest, pk: int) -> HttpResponse:
    """Append a readings file and judge it; a refusal keeps its status (a file refused row by
    row, 400, lists its rows; a conflict, 409) so that a client tells them apart."""
    meter = get_object_or_404(_meters(request), pk=pk)
    form = UploadForm(request.POST, request.FILES)
    rows_refused: list[services.UploadRefused] = []

    def upload(d: dict[str, Any]) -> UploadResult:
        file = d["file"]
        try:
            with stored_upload(file) as path:
                return services.upload_readings(meter, path, request.user, source_name=file.name)
        except services.UploadRefused as e:
            rows_refused.append(e)  # the page lists the refused rows under the form
            raise

    def stored(result: UploadResult) -> HttpResponse:
        u = result.upload
        messages.success(
            request,
            f"Stored {u.count} readings ({u.first_at:%Y-%m-%d %H:%M} to "
            f"{u.last_at:%Y-%m-%d %H:%M}): "
            f"{len(result.slugs)} slug(s), {len(result.excursions)} excursion(s).",
        )
        return redirect("meters:detail", pk=pk)

    return form_action(request, form, upload, error_status=True).respond(
        then=stored,
        show=lambda status: meter_detail(
            request,
            pk,
            upload_form=form,
            refused=rows_refused[0] if rows_refused else None,
            status=status,
        ),
    )


@require_POST
@office_view()
def slug_report(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a report of one of this meter's slugs (the slug's id in the form); a refusal
    keeps its status (a report the record does not admit: 409)."""
    meter = get_object_or_404(_meters(request), pk=pk)
    form = ReportForm(request.POST)

    def report(d: dict[str, Any]) -> SlugEvent:
        slug = get_object_or_404(
            visible(SlugEvent.objects.filter(meter=meter), request.user), pk=d["slug"]
        )
        services.record_slug_report(
            slug, request.user, reported_at=d["reported_at"], channel=d["channel"], text=d["text"]
        )
        return slug

    def recorded(slug: SlugEvent) -> HttpResponse:
        messages.success(request, f"Report of the slug of {slug.start:%Y-%m-%d %H:%M} recorded.")
        return redirect("meters:detail", pk=pk)

    return form_action(request, form, report, error_status=True).respond(
        then=recorded,
        show=lambda status: meter_detail(request, pk, report_form=form, status=status),
    )


@office_view()
def meter_chart(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    meter = get_object_or_404(_meters(request), pk=pk)
    if fmt not in charts.FORMATS:
        raise Http404("a chart is .png or .svg")
    try:
        days = int(request.GET.get("days", charts.DEFAULT_DAYS))
    except ValueError:
        days = charts.DEFAULT_DAYS
    response = HttpResponse(charts.chart(meter, fmt, days), content_type=charts.FORMATS[fmt])
    response["Cache-Control"] = "private, max-age=60"
    return response


@require_POST
@office_view(*BASELINE_ROLES)
def meter_baseline(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a fixed baseline of the meter (§ 196-15 SLUG), audited; past uploads are judged
    under it only by a re-evaluation (``sewer-use reevaluate-slugs``)."""
    meter = get_object_or_404(_meters(request), pk=pk)
    form = BaselineForm(request.POST)

    def record(d: dict[str, Any]) -> MeterBaseline:
        return record_meter_baseline(
            meter,
            request.user,
            value=d["value"],
            effective_from=d["effective_from"],
            authority=d["authority"],
        )

    def recorded(baseline: MeterBaseline) -> HttpResponse:
        messages.success(
            request,
            f"Baseline {baseline.value} {meter.unit} from "
            f"{baseline.effective_from:%Y-%m-%d %H:%M} "
            "recorded; run a re-evaluation to judge readings already stored under it.",
        )
        return redirect("meters:detail", pk=pk)

    return form_action(request, form, record, error_status=True).respond(
        then=recorded,
        show=lambda status: meter_detail(request, pk, baseline_form=form, status=status),
    )
