"""The reports' pages: the facility's dues and reports, a report's preview with its signing,
its PDF and data, the office's review and the verification page. The signatories (who may
sign for a facility) are :mod:`.signatory_views`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core import letters
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import Forbidden, InvalidInput, OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.moments import local
from sewer_office.core.paging import page_of
from sewer_office.pretreatment.choices import ReportKind
from sewer_office.pretreatment.models import ReportDue
from sewer_office.pretreatment.status import attach_status, status_of, with_status

from . import baseline, documents, services, statements
from .choices import CERTIFICATION, CERTIFICATION_CITATION
from .filters import ReportFilter
from .forms import AttachForm, ReviewForm, SignForm, StatementForm
from .models import BaselineStatement, Report
from .report_data import ReportData, stored

PAGE_SIZE = 25


def fail(request: HttpRequest, e: OfficeError) -> None:
    """A service's refusal as a message above the page; a refusal of permission as 403."""
    if isinstance(e, Forbidden):
        raise PermissionDenied(str(e))
    messages.error(request, e.message)


def _reports(request: HttpRequest) -> Any:
    return visible(
        Report.objects.select_related("establishment", "due", "signature", "review").defer(
            "pdf", "data"
        ),
        request.user,
    )


def _signed_at(report: Report) -> Any:
    signature = getattr(report, "signature", None)
    return signature.signed_at if signature is not None else None


def _review(report: Report) -> str:
    review = getattr(report, "review", None)
    if review is not None:
        return str(review.get_decision_display())
    return "to review" if getattr(report, "signature", None) is not None else "not signed"


#: The reports' download (``/reports/?format=csv``), filtered as the page.
REPORT_COLUMNS = (
    Column("Report", lambda r: f"RPT-{r.pk}"),
    Column("Version", "version"),
    Column("Facility", "establishment.name"),
    Column("Report due", lambda r: r.due.get_kind_display()),
    Column("Due on", "due.due_on"),
    Column("Period from", "period_start"),
    Column("Period to", "period_end"),
    Column("Signed at", _signed_at),
    Column("Review", _review),
)


@office_view()
def report_list(request: HttpRequest) -> HttpResponse:
    base = _reports(request)
    fs = ReportFilter(request.GET or None, queryset=base, request=request)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    if (download := export(request, qs, REPORT_COLUMNS, "reports")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    dues = attach_status(
        with_status(visible(ReportDue.objects.filter(received_on__isnull=True), request.user))
        .select_related("establishment")
        .order_by("due_on")[:50]
    )
    return render(
        request,
        "reports/list.html",
        {
            "filter": fs,
            "page": page,
            "query": query,
            "dues": dues,
            "staff": is_staff_member(request.user),
        },
    )


def _due(request: HttpRequest, pk: int) -> ReportDue:
    found: ReportDue = get_object_or_404(
        visible(ReportDue.objects.select_related("establishment", "requirement"), request.user),
        pk=pk,
    )
    return found


def _fail_all(request: HttpRequest, e: OfficeError) -> None:
    """Each message of the error (every missing item of a baseline report)."""
    if isinstance(e, InvalidInput):
        for msgs in e.errors.values():
            for m in msgs:
                messages.error(request, m)
        return
    fail(request, e)


@office_view()
@require_POST
def assemble(request: HttpRequest, pk: int) -> HttpResponse:
    due = _due(request, pk)
    try:
        report = services.assemble(request.user, due)
    except OfficeError as e:
        _fail_all(request, e)
        return redirect("reports:due", due.pk)
    messages.success(request, f"{report} assembled: check it, then sign it.")
    return redirect("reports:detail", report.pk)


def _statement_initial(due: ReportDue) -> dict[str, object]:
    found = BaselineStatement.objects.filter(due=due).first()
    if found is None:
        return {}
    initial: dict[str, object] = {f: getattr(found, f) for f in statements.STATEMENT_FIELDS}
    for code, why in (found.explanations or {}).items():
        initial[f"explain_{code}"] = why
    return initial


@office_view()
def due_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One due date: where it stands, its versions, what a baseline report still lacks (40 CFR
    403.12(b)), the facility's statement and files, and the button that assembles it."""
    due = _due(request, pk)
    standing = status_of(due)
    reports = list(
        Report.objects.filter(due=due)
        .select_related("signature", "review")
        .defer("pdf")
        .order_by("-version")
    )
    is_baseline = due.kind == ReportKind.BASELINE
    staff = is_staff_member(request.user)
    writable = not staff and due.received_on is None and not standing.in_review
    data = documents.report_data(due) if is_baseline else None
    gaps = baseline.missing(data) if data is not None and writable else []
    answers = baseline.checklist(data, "this report") if data is not None else {}
    statement_form = StatementForm(request.POST or None, initial=_statement_initial(due))
    if request.method == "POST" and not writable:
        raise PermissionDenied("This report's statement is not open to you.")

    def saved(_: object) -> HttpResponse:
        messages.success(request, "The statement is saved.")
        return redirect("reports:due", due.pk)

    def show(status: int) -> HttpResponse:
        return render(
            request,
            "reports/due.html",
            {
                "due": due,
                "standing": standing,
                "reports": reports,
                "is_baseline": is_baseline,
                "items": baseline.ITEMS,
                "rows": [(i, answers.get(i.code, {})) for i in baseline.ITEMS],
                "rule": baseline.RULE,
                "gaps": gaps,
                "writable": writable,
                "statement_form": statement_form,
                "attach_form": AttachForm(),
                "attachments": baseline.attachments_of(due),
                "staff": staff,
            },
            status=status,
        )

    return form_action(
        request, statement_form, lambda d: statements.save_statement(request.user, due, d)
    ).respond(then=saved, show=show)


@office_view()
@require_POST
def attach_file(request: HttpRequest, pk: int) -> HttpResponse:
    due = _due(request, pk)
    try:
        statements.attach_files(
            request.user, due, request.FILES.getlist("document"), request.POST.get("kind", "")
        )
    except OfficeError as e:
        _fail_all(request, e)
    else:
        messages.success(request, "The file is stored with the report.")
    return redirect("reports:due", due.pk)


def _report(request: HttpRequest, pk: int) -> Report:
    found: Report = get_object_or_404(_reports(request), pk=pk)
    return found


def _readable(data: ReportData) -> dict[str, object]:
    """The data as the page shows them (for the template, beside the stored keys): each
    sample's moment (stored in UTC, ISO 8601) in the Town's time, and each explanation of a
    baseline report under its element's title and citation."""
    readable: dict[str, object] = {
        **data,
        "results": [
            {**r, "sampled_local": local(datetime.fromisoformat(r["sampled_at"]))}
            for r in data.get("results", [])
        ],
    }
    if "baseline" in data:
        why = data["baseline"].get("explanations") or {}
        readable["baseline"] = {
            **data["baseline"],
            "explained_rows": [
                (i.element.label, why[i.code]) for i in baseline.ITEMS if i.code in why
            ],
        }
    return readable


@office_view()
def report_detail(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    signed = getattr(report, "signature", None)
    signer = services.signatory_of(request.user, report.establishment, timezone.localdate())
    latest = (
        Report.objects.filter(due=report.due).order_by("-version").values_list("pk", flat=True)[0]
    )
    return render(
        request,
        "reports/detail.html",
        {
            "report": report,
            "data": _readable(
                stored(Report.objects.values_list("data", flat=True).get(pk=report.pk))
            ),
            "signature": signed,
            "review": getattr(report, "review", None),
            "may_sign": signer is not None and signed is None and latest == report.pk,
            "superseded": latest != report.pk,
            "may_review": services.may_manage(request.user)
            and signed is not None
            and not hasattr(report, "review"),
            "certification": CERTIFICATION,
            "certification_citation": CERTIFICATION_CITATION,
            "sign_form": SignForm(),
            "review_form": ReviewForm(),
        },
    )


@office_view()
def report_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The report's PDF: the copy of record once signed (one signed before documents of record
    were kept is issued on this first request, from the signed bytes), else the draft."""
    report = _report(request, pk)
    if hasattr(report, "signature"):
        return letters.pdf_response(documents.issue_copy(report, request.user))
    body = bytes(Report.objects.values_list("pdf", flat=True).get(pk=report.pk))
    return letters.bytes_response(body, f"RPT-{report.pk}-v{report.version}.pdf")


@office_view()
def report_json(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    body = Report.objects.values_list("data", flat=True).get(pk=report.pk)
    return HttpResponse(body.encode(), content_type="application/json")


@office_view()
@require_POST
def send_code(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    try:
        services.send_code(request.user, report)
    except OfficeError as e:
        fail(request, e)
    else:
        messages.success(request, f"A code was e-mailed to {getattr(request.user, 'email', '')}.")
    return redirect("reports:detail", report.pk)


@office_view()
@require_POST
def sign(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    form = SignForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give your password and the code.")
        return redirect("reports:detail", report.pk)
    try:
        services.sign(
            request.user,
            report,
            password=form.cleaned_data["password"],
            code=form.cleaned_data["code"],
        )
    except OfficeError as e:
        _fail_all(request, e)
    else:
        messages.success(request, f"{report} is signed; an acknowledgment was e-mailed to you.")
    return redirect("reports:detail", report.pk)


@office_view()
@require_POST
def review(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    form = ReviewForm(request.POST)
    if form.is_valid():
        try:
            services.review(
                request.user,
                report,
                accept=form.cleaned_data["decision"] == "accept",
                reason=form.cleaned_data["reason"],
            )
        except OfficeError as e:
            fail(request, e)
        else:
            messages.success(request, "The review is recorded.")
    return redirect("reports:detail", report.pk)


@office_view()
def verify(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    return render(
        request,
        "reports/verify.html",
        {
            "report": report,
            "signature": getattr(report, "signature", None),
            "check": services.check_bytes(report),
        },
    )
