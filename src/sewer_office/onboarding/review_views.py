"""The review queue's pages: the rows of an import that named no parcel the registry knows,
each resolved to a property (the establishment then registered there) or dismissed with a
reason, by the staff who import."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of

from . import forms as oforms
from . import services
from .choices import ReviewState
from .filters import ReviewItemFilter
from .importing import BY_NAME
from .models import ReviewItem
from .services import IMPORT_ROLES
from .views import PAGE_SIZE

REVIEW_COLUMNS = (
    Column("Id", "pk"),
    Column("Import", "facility_import_id"),
    Column("File", "facility_import.source_name"),
    Column("Row", "row"),
    Column("Facility", lambda i: i.values.get("facility_name", "")),
    Column("Operator", lambda i: i.values.get("operator_name", "")),
    Column("SBL", lambda i: i.values.get("sbl_or_parcel", "")),
    Column("Address", lambda i: i.values.get("address", "")),
    Column("Reason", "reason"),
    Column("State", "get_state_display"),
    Column("Decided", "decided_at"),
    Column("Facility created", lambda i: str(i.resolved_establishment or "")),
    Column("Note", "decision_note"),
)


@office_view(*IMPORT_ROLES)
def review_list(request: HttpRequest) -> HttpResponse:
    data = request.GET.copy()
    data.setdefault("state", ReviewState.OPEN)
    fs = ReviewItemFilter(
        data,
        queryset=ReviewItem.objects.select_related("facility_import", "resolved_establishment"),
    )
    qs = fs.qs.order_by("facility_import_id", "row", "id")
    if (download := export(request, qs, REVIEW_COLUMNS, "review-queue")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request, "onboarding/review_list.html", {"page": page, "query": query, "filter": fs}
    )


def _item_page(
    request: HttpRequest,
    item: ReviewItem,
    resolve: oforms.ResolveForm | None = None,
    dismiss: oforms.DismissForm | None = None,
    status: int = 200,
) -> HttpResponse:
    fields = [(BY_NAME[t].label, item.values.get(t, "")) for t in BY_NAME if item.values.get(t, "")]
    initial = item.values.get("address", "") or item.values.get("sbl_or_parcel", "")
    return render(
        request,
        "onboarding/review_item.html",
        {
            "item": item,
            "fields": fields,
            "resolve": resolve or oforms.ResolveForm(initial={"property": initial}),
            "dismiss": dismiss or oforms.DismissForm(),
            "timeline": audit.timeline(item),
        },
        status=status,
    )


def _item(pk: int) -> ReviewItem:
    return get_object_or_404(
        ReviewItem.objects.select_related(
            "facility_import", "resolved_property", "resolved_establishment", "decided_by"
        ),
        pk=pk,
    )


@office_view(*IMPORT_ROLES)
def review_item(request: HttpRequest, pk: int) -> HttpResponse:
    return _item_page(request, _item(pk))


@require_POST
@office_view(*IMPORT_ROLES)
def review_resolve(request: HttpRequest, pk: int) -> HttpResponse:
    item = _item(pk)
    form = oforms.ResolveForm(request.POST)

    def resolved(done: ReviewItem) -> HttpResponse:
        est = done.resolved_establishment
        messages.success(request, f"{est} registered at {done.resolved_property}.")
        return redirect("onboarding:review-item", done.pk)

    act = form_action(
        request, form, lambda d: services.resolve_review_item(item, d["property"], request.user)
    )
    return act.respond(
        then=resolved, show=lambda status: _item_page(request, item, resolve=form, status=status)
    )


@require_POST
@office_view(*IMPORT_ROLES)
def review_dismiss(request: HttpRequest, pk: int) -> HttpResponse:
    item = _item(pk)
    form = oforms.DismissForm(request.POST)

    def dismissed(_: ReviewItem) -> HttpResponse:
        messages.success(request, f"Item #{item.pk} dismissed.")
        return redirect("onboarding:review")

    act = form_action(
        request, form, lambda d: services.dismiss_review_item(item, d["reason"], request.user)
    )
    return act.respond(
        then=dismissed, show=lambda status: _item_page(request, item, dismiss=form, status=status)
    )
