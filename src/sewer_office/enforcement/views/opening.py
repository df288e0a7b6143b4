"""Opening a violation: by hand, or from a finding (the form filled from what the finding
shows, every field editable), and recording the § 196-19 D opinion a finding may need first.

The open form's refusals keep the service's status (409 when the finding is already a
violation or no violation): :func:`core.form_actions.form_action` with ``error_status``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import InvalidInput, OfficeError
from sewer_office.core.form_actions import form_action
from sewer_office.enforcement import forms as eforms
from sewer_office.enforcement import grounds, rules, services
from sewer_office.enforcement.choices import FINDING_KINDS
from sewer_office.enforcement.models import Finding, Violation
from sewer_office.enforcement.states import OPEN_STATES, OPENERS
from sewer_office.findings.opinions import (
    OPINION_STATUSES,
    current_opinion,
    may_record_opinion,
    record_opinion,
)
from sewer_office.findings.words import capitalized, describe


@office_view(*OPENERS)
def violation_open(request: HttpRequest) -> HttpResponse:
    """Open a violation by hand, or from a finding (``?finding=<id>``): the form filled from
    the finding (facility, person responsible, section, nature in plain words), every field
    editable. A POST of the finding alone opens it as the finding shows it. The form goes
    through ``form_action``; that one-button POST has no form to show errors on, so it refuses
    by hand, with the finding's page and the service's own status."""
    today = timezone.localdate()
    finding = None
    if request.GET.get("finding") or request.POST.get("finding"):
        try:
            fid = int(request.GET.get("finding") or request.POST.get("finding") or "")
        except ValueError:
            raise Http404("no such finding") from None
        finding = get_object_or_404(
            visible(Finding.objects.select_related("establishment__operator"), request.user),
            pk=fid,
        )
    if finding is not None and request.method == "POST" and "opinion" in request.POST:
        return _record_opinion(request, finding)
    if finding is not None and request.method == "POST" and "section" not in request.POST:
        try:
            v = services.open_from_finding(request.user, finding)
        except OfficeError as e:
            messages.error(request, e.message)
            return render(
                request,
                "enforcement/open.html",
                _finding_context(request, finding),
                status=e.status_code,
            )
        messages.success(request, f"{v.number} opened from finding #{finding.pk}.")
        return redirect(v.get_absolute_url())
    context: dict[str, Any] = _finding_context(request, finding) if finding is not None else {}
    if context.get("refusal") or context.get("opened"):
        return render(request, "enforcement/open.html", context)
    form = eforms.OpenForm(
        request.POST or None,
        kinds=rules.kind_choices(today),
        finding_section=services._violated_section(finding) if finding is not None else "",
        initial=_from_finding(finding) if finding is not None else None,
    )
    source = f" from finding #{finding.pk}" if finding is not None else ""

    def opened(v: Violation) -> HttpResponse:
        messages.success(request, f"{v.number} opened{source}.")
        return redirect(v.get_absolute_url())

    return form_action(
        request,
        form,
        lambda d: services.open_violation(request.user, finding=finding, **d),
        error_status=True,
    ).respond(
        then=opened,
        show=lambda status: render(
            request, "enforcement/open.html", {**context, "form": form}, status=status
        ),
    )


def _from_finding(finding: Finding) -> dict[str, Any]:
    """The open form's values from ``finding``: what the service would open by default (the
    guide's kind, the section it shows violated, the facility, its operator as the person
    responsible, the day observed), with the nature in plain words (:mod:`findings.words`)."""
    establishment = finding.establishment
    return {
        "kind": FINDING_KINDS.get(finding.kind, ""),
        "section": services._violated_section(finding),
        "description": describe(finding),
        "person": establishment.operator.current().pk if establishment is not None else None,
        "establishment": establishment.pk if establishment is not None else None,
        "observed_on": timezone.localdate(finding.observed_at),
    }


def _finding_context(request: HttpRequest, finding: Finding) -> dict[str, Any]:
    """The finding in plain words, whether it is a violation to open (and why not), the
    violation already open from it, and its opinion."""
    opened = services.visible_violations(
        Violation.objects.filter(finding=finding, state__in=OPEN_STATES), request.user
    ).first()
    return {
        "finding": finding,
        "plain": capitalized(describe(finding)),
        "refusal": grounds.finding_refusal(finding),
        "opened": opened,
        "opinion": current_opinion(finding),
        "may_record_opinion": finding.status in OPINION_STATUSES
        and may_record_opinion(request.user),
    }


def _record_opinion(request: HttpRequest, finding: Finding) -> HttpResponse:
    """Record the engineer's/Superintendent's § 196-19 D opinion, then back to the finding.

    Not :func:`~sewer_office.core.form_actions.form_action`: no form of its own (two buttons
    on the finding's panel), its refusal is a message above the finding, not a form's error."""
    choice = request.POST.get("opinion", "")
    try:
        if choice not in ("harm_likely", "harm_not_likely"):
            raise InvalidInput({"opinion": ["Say whether harm appears likely."]})
        record_opinion(
            finding,
            request.user,
            harm_likely=choice == "harm_likely",
            reasons=request.POST.get("reasons", ""),
        )
    except OfficeError as e:
        messages.error(request, e.message)
        return render(
            request,
            "enforcement/open.html",
            _finding_context(request, finding),
            status=e.status_code,
        )
    messages.success(request, f"Opinion recorded on finding #{finding.pk}.")
    return redirect(f"{request.path}?finding={finding.pk}")
