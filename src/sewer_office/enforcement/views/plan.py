"""The enforcement response plan's page: the plan in force (kinds × severities × response, time
frame, official), its investigation procedure, its adoption, and — for the Superintendent — the
form that records the Town's adoption (:func:`..plan.adopt_plan`). A second adoption of a
version is refused with 409 (``Blocked``): :func:`core.form_actions.form_action` with
``error_status``."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from sewer_office.accounts.roles import STAFF_ROLES
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import Forbidden
from sewer_office.core.form_actions import form_action
from sewer_office.enforcement import plan, rules
from sewer_office.enforcement.forms import DATE
from sewer_office.enforcement.models import PlanAdoption
from sewer_office.enforcement.proposals import plan_words
from sewer_rules.enforcement_plan import INVESTIGATION, OFFICIALS, PLAN, TIME_FRAMES, plan_rows


class AdoptPlanForm(forms.Form):
    """The decision of the body that adopted a version of the plan."""

    effective = forms.TypedChoiceField(
        label="Plan version (effective date)",
        coerce=date.fromisoformat,
        help_text="the dated version of the plan the body adopted",
    )
    adopted_on = forms.DateField(widget=DATE, label="Adopted on")
    adopted_by = forms.CharField(max_length=120, initial="Town Board", label="Adopted by")
    resolution = forms.CharField(
        max_length=80, label="Resolution", help_text="the decision's reference, e.g. 2026-41"
    )
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args: Any, versions: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["effective"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(v.effective.isoformat(), f"{v.effective:%Y-%m-%d}") for v in versions]


def _versions() -> list[Any]:
    """The versions that are plans, newest first (an older-format guide is no plan)."""
    return [v for v in reversed(rules.guide().versions) if v.is_plan]


@office_view(*STAFF_ROLES)
def plan_page(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    version = plan.version_on(today)
    adoption = plan.adoption_of(version, today)
    may_adopt = plan.may_adopt(request.user)
    versions = _versions()
    form = None
    if may_adopt and versions:
        initial = {"effective": version.effective.isoformat(), "adopted_on": today}
        form = AdoptPlanForm(request.POST or None, initial=initial, versions=versions)

    def page(status: int) -> HttpResponse:
        context = {
            "version": version,
            "plan": version.plan,
            "rows": plan_rows(version),
            "kinds": list(version.kinds.values()),
            "significant_kinds": sorted(version.plan.severity.significant_kinds)
            if version.plan
            else [],
            "adoption": adoption,
            "words": plan_words(version, adoption),
            "fingerprint": plan.fingerprint(version) if version.is_plan else "",
            "adoptions": plan.adoptions(),
            "form": form,
            "citations": {
                "plan": PLAN,
                "investigation": INVESTIGATION,
                "time_frames": TIME_FRAMES,
                "officials": OFFICIALS,
            },
        }
        return render(request, "enforcement/plan.html", context, status=status)

    if form is None:
        if request.method == "POST":
            raise Forbidden(
                "Recording the adoption of the enforcement response plan: reserved to the "
                f"Superintendent ({PLAN})."
            )
        return page(200)

    def adopted(done: PlanAdoption) -> HttpResponse:
        messages.success(request, f"Enforcement response plan {done.reference}.")
        return redirect("enforcement:plan")

    return form_action(
        request, form, lambda d: plan.adopt_plan(request.user, **d), error_status=True
    ).respond(then=adopted, show=page)
