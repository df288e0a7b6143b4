"""A review's page: a split or a merge the roll import held for the clerk, its timeline, and
its decision (confirm or reject). Staff read it; deciding is the clerk's, the engineer's and
the Superintendent's (anyone else's POST: 403)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from sewer_office.accounts.roles import STAFF_ROLES, has_role
from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.form_actions import form_action
from sewer_office.parcels import reviews, services
from sewer_office.parcels.choices import ReviewState
from sewer_office.parcels.forms import DecisionForm
from sewer_office.parcels.models import ParcelReview
from sewer_office.registry.models import Property

IMPORTERS = services.IMPORTERS


class _ReviewStates:
    """A review's states by their labels on the timeline (its moves are the services')."""

    @staticmethod
    def label(value: str) -> str:
        return str(dict(ReviewState.choices).get(value, value))


@office_view(*STAFF_ROLES)
def review_detail(request: HttpRequest, pk: int) -> HttpResponse:
    review = get_object_or_404(
        ParcelReview.objects.select_related("roll_import", "decided_by"), pk=pk
    )
    if request.method == "POST" and not has_role(request.user, *IMPORTERS):
        raise PermissionDenied(
            "Deciding a review is for the clerk, the engineer and the Superintendent."
        )
    form = DecisionForm(request.POST or None)

    def decide(data: dict[str, Any]) -> ParcelReview:
        act = reviews.confirm if data["decision"] == "confirm" else reviews.reject
        return act(review, request.user, data["note"])

    def decided(done: ParcelReview) -> HttpResponse:
        messages.success(request, f"{done}: {done.get_state_display().lower()}.")
        return redirect("parcels:review", done.pk)

    def show(status: int) -> HttpResponse:
        created = Property.objects.filter(pk__in=review.created).order_by("parcel_id")
        return render(
            request,
            "parcels/review.html",
            {
                "review": review,
                "form": form,
                "created": created,
                "may_decide": has_role(request.user, *IMPORTERS)
                and review.state == ReviewState.PENDING,
                "timeline": audit.timeline(review),
                "workflow": _ReviewStates(),
            },
            status=status,
        )

    # the service's refusal keeps its status (409 for a review already decided)
    outcome = form_action(request, form, decide, error_status=True)
    return outcome.respond(then=decided, show=show)
