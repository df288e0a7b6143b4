"""Pages of the permits: lists, detail with timeline and actions, filing, transitions, files.

Views parse requests and call services; every rule lives in the services and workflows.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import Any, cast

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import APPLICANT, is_staff_member, roles_of
from sewer_office.core import audit
from sewer_office.core.attachments import DOCUMENT_KINDS, attach_all
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import InvalidInput, OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.forms import add_office_error
from sewer_office.core.models import Attachment
from sewer_office.core.paging import page_of
from sewer_office.core.services import perform
from sewer_office.core.town_law import OtherLaw, town_of

from . import forms as pforms
from . import listing
from .control_page import control_context
from .kinds import KINDS, Kind, kind_of, may_file
from .services.building_sewer import class_preview, design_checks, next_steps, plan_checks
from .services.common import may_upload
from .services.subdivision import sewer_duty
from .waiting import waiting_on

PAGE_SIZE = 25


def export_columns(kind: Kind) -> list[Column]:
    """The columns of a kind's list download: the common ones, and the facility and the term
    of the kinds that have them."""
    fields = {f.name for f in kind.model._meta.concrete_fields}
    columns = [
        Column("Number", "number"),
        Column("Applicant", "applicant.name"),
        Column("Property", "property.address"),
        Column("Parcel", "property.parcel_id"),
        Column("Filed", "filed_on"),
        Column("State", "state_label"),
    ]
    if "establishment" in fields:
        columns.insert(3, Column("Establishment", "establishment.name"))
    for name, header in (
        ("decided_on", "Decided"),
        ("term_years", "Term (years)"),
        ("expires_on", "In force through"),
    ):
        if name in fields:
            columns.append(Column(header, name))
    if "rule_class" in fields:
        columns.append(Column("Class declared", "permit_class"))
        columns.append(Column("Class by the rule", "rule_class"))
        columns.append(Column("Class flagged", "class_disagrees"))
    return columns


#: The columns of the list of every permit and approval (``/permits/?format=csv``): rows of
#: :func:`.listing.labelled`, the kind and state by their labels.
ALL_COLUMNS = (
    Column("Kind", lambda r: r["kind"].label),
    Column("Number", lambda r: r["number"]),
    Column("Applicant", lambda r: r["applicant__name"]),
    Column("Property", lambda r: r["property__address"]),
    Column("Filed", lambda r: r["filed_on"]),
    Column("State", lambda r: r["state_label"]),
)


def _kind(slug: str) -> Kind:
    try:
        return KINDS[slug]
    except KeyError:
        raise Http404("No such kind of application.") from None


@dataclass(frozen=True)
class RefusedTransition:
    """A transition the service refused for its input: the transition's form bound to what
    was sent (``None`` when it has none) and the errors by field (the reason's among them),
    shown again on the page under that transition's button."""

    name: str
    form: Form | None
    errors: dict[str, list[str]]


def _record(request: HttpRequest, kind: Kind, pk: int) -> Any:
    return get_object_or_404(visible(kind.queryset(), request.user), pk=pk)


@office_view()
def index(request: HttpRequest) -> HttpResponse:
    """Counts per kind, and one list of every permit and approval the user may see."""
    form = pforms.AllPermitsForm(
        request.GET or None, kinds=[(k.slug, k.plural) for k in KINDS.values()]
    )
    data = listing.PermitFilters()
    if form.is_bound and form.is_valid():
        data = cast(
            listing.PermitFilters,
            {k: v for k, v in form.cleaned_data.items() if v not in (None, "")},
        )
    rows = listing.all_permits(request.user, data)
    if (download := export(request, listing.labelled(rows), ALL_COLUMNS, "permits")) is not None:
        return download
    page, query = page_of(request, rows, PAGE_SIZE)
    page.object_list = listing.labelled(page.object_list)
    return render(
        request,
        "permits/index.html",
        {
            "counts": listing.kind_counts(request.user, may_file),
            "form": form,
            "page": page,
            "query": query,
            "unlinked": unlinked(request.user),
        },
    )


def unlinked(user: Actor) -> bool:
    """An outside account not yet linked to any person: it files for no property until the
    Town links it (the page says how)."""
    if APPLICANT not in roles_of(user) or is_staff_member(user):
        return False
    return not signed_in(
        user
    ).represented_persons.exists()  # the registry's links (the portal makes them)


@office_view()
def record_list(request: HttpRequest, kind: str) -> HttpResponse:
    k = _kind(kind)
    base = visible(k.list_queryset(), request.user)
    fs = k.filterset(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    if (download := export(request, qs, export_columns(k), k.slug)) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "permits/list.html",
        {
            "kind": k,
            "filter": fs,
            "page": page,
            "query": query,
            "may_file": may_file(request.user, k),
        },
    )


def _detail_context(
    request: HttpRequest, record: Any, refused: RefusedTransition | None = None
) -> dict[str, Any]:
    """The record's page: its actions (the ``refused`` one with its form and errors), who it
    waits on, its timeline and files, and what its kind adds."""
    k = kind_of(record)
    wf = record.WORKFLOW
    actions = []
    for t in wf.available(request.user, record):
        mine = refused if refused is not None and refused.name == t.name else None
        form = (mine.form if mine else None) or (t.form() if t.form else None)
        actions.append({"t": t, "form": form, "errors": mine.errors if mine else None})
    extra: dict[str, Any] = {}
    if k.slug == "building-sewer":
        # the applicant sees the design checks staff see (§ 196-18 D, F, G, H)
        extra["plan_checks"] = record.plan_checks or plan_checks(record)["checks"]
        extra["plan_checks_live"] = not record.plan_checks
        if not is_staff_member(request.user):
            extra["next_steps"] = next_steps(record)
    if k.slug == "subdivision":
        # not computed for a parcel since passed to a town under a law of its own
        with suppress(OtherLaw):
            extra["sewer_duty"] = sewer_duty(record)
    if k.slug == "industrial":
        # each element of the control mechanism, and the forms to record them (staff)
        extra.update(control_context(request.user, record))
    return {
        "kind": k,
        "record": record,
        "workflow": wf,
        "waiting_on": waiting_on(wf, record, request.user),
        "actions": actions,
        "automatic": [t for t in wf.from_state(record.state) if t.automatic],
        "timeline": audit.timeline(record),
        "attachments": Attachment.objects.filter(
            content_type=ContentType.objects.get_for_model(record), object_id=str(record.pk)
        ),
        "may_upload": may_upload(request.user, record),
        "detail_template": f"permits/detail_{k.slug.replace('-', '_')}.html",
        **extra,
    }


@office_view()
def record_detail(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    record = _record(request, _kind(kind), pk)
    return render(request, "permits/detail.html", _detail_context(request, record))


@office_view()
def record_create(request: HttpRequest, kind: str) -> HttpResponse:
    """File a new record of ``kind``. Not through ``form_action``: a building sewer's filing
    is two steps, its design checks shown first (200) and filed once confirmed."""
    k = _kind(kind)
    if unlinked(request.user):
        messages.info(
            request, "Your account is not yet linked to a person: get it linked first (below)."
        )
        return redirect("permits:index")
    if not may_file(request.user, k):
        raise PermissionDenied(
            f"Filing a {k.label.lower()} is for the applicant or {', '.join(sorted(k.file_roles))}."
        )
    checks = None
    if request.method == "POST":
        form = k.form(request.POST, request.FILES, user=request.user)
        if form.is_valid() and k.slug == "building-sewer":
            # The design checks of § 196-18 D, F, G, H, shown before filing (and any fee):
            # "Check the design" only shows them; filing a failing design asks to confirm.
            # by the parcel's town's values; a town under a law of its own is refused here
            town = town_of(form.cleaned_data["property"])
            try:
                checks = design_checks(town, form.cleaned_data["design"])
                checks["class"] = class_preview(
                    town,
                    form.cleaned_data["design"],
                    form.cleaned_data.get("service_use") or "",
                    form.cleaned_data.get("industrial_wastes") or "",
                    form.cleaned_data.get("permit_class"),
                )
            except OfficeError as e:
                add_office_error(form, e)
            wants_check = "check" in request.POST
            unconfirmed = (
                checks is not None and checks["failed"] and "file_anyway" not in request.POST
            )
            if checks is not None and (
                wants_check or (unconfirmed and not is_staff_member(request.user))
            ):
                return render(
                    request,
                    "permits/create.html",
                    {"kind": k, "form": form, "checks": checks},
                    status=200,
                )
        if form.is_valid():
            data = dict(form.cleaned_data)
            if "files" in form.fields:
                data["files"] = request.FILES.getlist("files")
            try:
                record = k.create(request.user, data)
            except OfficeError as e:
                add_office_error(form, e)
            else:
                messages.success(request, f"{record.number} filed.")
                return redirect(record.get_absolute_url())
        status = 400
    else:
        form = k.form(initial={key: request.GET[key] for key in request.GET}, user=request.user)
        status = 200
    return render(
        request,
        "permits/create.html",
        {"kind": k, "form": form, "checks": checks},
        status=status,
    )


@require_POST
@office_view()
def record_transition(request: HttpRequest, kind: str, pk: int, name: str) -> HttpResponse:
    """Perform one of the record's transitions. Not through ``form_action``: the workflow
    binds and checks the transition's own form inside the service (``perform``), so the view
    has no form until the refusal brings it back."""
    k = _kind(kind)
    record = _record(request, k, pk)
    try:
        record = perform(
            record,
            name,
            request.user,
            data=request.POST,
            files=request.FILES,
            reason=request.POST.get("reason", ""),
        )
    except InvalidInput as e:
        form = e.form if isinstance(e.form, Form) else None
        refused = RefusedTransition(name, form, e.errors)
        messages.error(request, "Please correct the errors below.")
        return render(
            request, "permits/detail.html", _detail_context(request, record, refused), status=400
        )
    except OfficeError as e:
        messages.error(request, e.message)
        return render(
            request, "permits/detail.html", _detail_context(request, record), status=e.status_code
        )
    label = record.WORKFLOW.get(name).label
    messages.success(request, f"{record.number}: {label} — recorded.")
    return redirect(record.get_absolute_url())


@require_POST
@office_view()
def record_upload(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    record = _record(request, _kind(kind), pk)
    if not may_upload(request.user, record):
        raise PermissionDenied("You may not add files to this record.")
    files = request.FILES.getlist("files")
    if not files:
        messages.error(request, "Choose a file to upload.")
    try:
        attach_all(
            record,
            files,
            request.user,
            title=request.POST.get("title", ""),
            kinds=DOCUMENT_KINDS,
        )
    except InvalidInput as e:
        messages.error(request, e.message)
    else:
        if files:
            messages.success(request, f"{len(files)} file(s) added.")
    return redirect(record.get_absolute_url())


@office_view()
def approval_letter(request: HttpRequest, pk: int) -> HttpResponse:
    """The engineer's written approval (PDF) as issued, for an approved discharge (one decided
    before documents of record were kept is issued on this first request)."""
    from sewer_office.core import letters as engine

    from .letters import APPROVAL

    record = _record(request, KINDS["industrial"], pk)
    if not record.approved:
        raise Http404("There is no approval letter: the request is not approved.")
    return engine.pdf_response(engine.issued_or_issue(APPROVAL, record, actor=request.user))
