"""The enforcement app's panels on the facility and property pages and the dashboard (see
core.panels).

The facility and property panels list the open violations of the facility, or of the
property and the facilities in its buildings (outside users: those they may see, once
noticed). The dashboard panel shows staff the open violations by stage and what waits on
them: the notices to serve (for those who serve them, § 196-22 A), the correction deadlines
this week, the violations with fines accruing (§ 196-22 B) and the corrections to verify; an
outside user sees its own violations and notices, each with its letter and what it may do.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role, is_staff_member
from sewer_office.core.links import link
from sewer_office.core.panels import Action, Panel

from . import grounds, liability, notices, schedules, services
from .models import ComplianceSchedule, Notice, Violation
from .states import OPEN_STATES, SERVERS, VERIFIERS
from .workflow import WORKFLOW

#: Rows of each list on the dashboard; the rest are one click away on /enforcement/.
DASHBOARD_ROWS = 8
WEEK = 7


def _open_rows(qs: Any, request: Any) -> list[Violation]:
    return list(
        services.visible_violations(
            qs.filter(state__in=OPEN_STATES).select_related("person"), request.user
        ).order_by("-observed_on", "-id")
    )


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    open_ = _open_rows(Violation.objects.filter(establishment=establishment), request)
    return Panel(
        "Violations",
        "enforcement/panel_facility.html",
        {
            "establishment": establishment,
            "open": list(open_),
            "schedules": list(
                schedules.visible_schedules(
                    ComplianceSchedule.objects.filter(establishment=establishment),
                    request.user,
                ).prefetch_related("milestones")
            ),
        },
        order=70,
    )


def property_panel(request: Any, prop: Any) -> Panel | None:
    """Open violations of the property itself and of the facilities in its buildings."""
    here = Q(property=prop) | Q(establishment__building__property=prop)
    open_ = _open_rows(Violation.objects.filter(here), request)
    return Panel(
        "Violations",
        "enforcement/panel_property.html",
        {"prop": prop, "open": open_},
        order=70,
    )


def dashboard_panel(request: Any) -> Panel | None:
    if not is_staff_member(request.user):
        return _outside_panel(request)
    user = request.user
    counts = dict(
        visible(Violation.objects.filter(state__in=OPEN_STATES), user)
        .order_by()
        .values("state")
        .annotate(n=Count("id"))
        .values_list("state", "n")
    )
    stages = [(s, WORKFLOW.label(s), counts.get(s, 0)) for s in OPEN_STATES]
    today = timezone.localdate()
    # the cards show each notice's violation number and person: joining the facility and the
    # property too made these two queries cost more to plan than to run
    in_force = visible(Notice.objects.filter(Notice.in_force()), user).select_related(
        "violation__person"
    )
    to_serve: list[Notice] = []
    if has_role(request.user, *SERVERS):
        # with those mailed by certified mail whose delivery the clerk has still to record
        # (one query: a mailed notice is not served until then)
        to_serve = list(
            in_force.filter(
                served_on__isnull=True, violation__state__in=("notice_issued", "mailed")
            ).order_by("issued_on", "id")[:DASHBOARD_ROWS]
        )
    this_week = list(
        in_force.filter(
            violation__state="served", deadline__gte=today, deadline__lte=today + timedelta(WEEK)
        ).order_by("deadline", "id")[:DASHBOARD_ROWS]
    )
    accruing = [
        (v, liability.fines(v, today))
        for v in visible(Violation.objects.filter(state="fines_accruing"), user)
        .select_related("person", "establishment", "property")  # the town each is counted in
        .prefetch_related("notices__superseded_by", "corrections")
        .order_by("observed_on", "id")[:DASHBOARD_ROWS]
    ]
    to_verify: list[Violation] = []
    if has_role(request.user, *VERIFIERS):
        to_verify = list(
            visible(Violation.objects.filter(state="correction_reported"), user)
            .select_related("person")
            .order_by("observed_on", "id")[:DASHBOARD_ROWS]
        )
    return Panel(
        "Enforcement",
        "enforcement/panel_dashboard.html",
        {
            "stages": stages,
            "total": sum(counts.values()),
            "counts": counts,
            "to_serve": to_serve,
            "to_serve_count": counts.get("notice_issued", 0) + counts.get("mailed", 0),
            "this_week": this_week,
            "accruing": accruing,
            "to_verify": to_verify,
            "may_serve": has_role(request.user, *SERVERS),
            "may_verify": has_role(request.user, *VERIFIERS),
        },
        order=70,
    )


def _outside_panel(request: Any) -> Panel | None:
    """An outside user's own violations (once noticed) with their notices and letters."""
    mine = list(
        services.visible_violations(
            Violation.objects.filter(state__in=OPEN_STATES)
            .select_related("person", "establishment", "property")
            .prefetch_related("notices__superseded_by", "corrections"),
            request.user,
        ).order_by("-observed_on", "-id")[:DASHBOARD_ROWS]
    )
    if not mine:
        return None
    today = timezone.localdate()
    rows = []
    for v in mine:
        notice = notices.current_notice(v)
        may_report = any(
            t.name == "report_correction" for t in WORKFLOW.available(request.user, v, owned=True)
        )
        rows.append(
            {
                "violation": v,
                "notice": notice,
                "fines": liability.fines(v, today),
                "may_report": may_report,
            }
        )
    return Panel("My violations", "enforcement/panel_mine.html", {"rows": rows}, order=20)


def finding_actions(request: Any, findings: list[Any]) -> dict[int, list[Action]]:
    """On each finding: the violation already open from it (to whoever may see it), else
    "Open a violation" where the finding is a violation (:func:`grounds.finding_refusal`, the
    rule the service applies) and the user may open one."""
    ids = [f.pk for f in findings]
    if not ids:
        return {}
    opened: dict[int, Violation] = {}
    for v in services.visible_violations(
        Violation.objects.filter(finding_id__in=ids, state__in=OPEN_STATES), request.user
    ).order_by("id"):
        if v.finding_id is not None:
            opened.setdefault(v.finding_id, v)
    may_open = services.may_open(request.user)
    out: dict[int, list[Action]] = {}
    for f in findings:
        if f.pk in opened:
            v = opened[f.pk]
            out[f.pk] = [Action(f"Violation {v.number}", v.get_absolute_url(), "already open")]
        elif may_open and grounds.finding_refusal(f) is None:
            out[f.pk] = [Action("Open a violation", f"{link('enforcement:open')}?finding={f.pk}")]
    return out
