"""violations.csv: violations found in the past, open or closed.

A violation is imported at the workflow's start (open) or at one of its two ends (corrected,
dismissed): a notice served on paper, with its correction clock, is not re-created. The section
cited must be a duty of the article, and the kind one of the response guide in force on the day
it was found.
"""

from __future__ import annotations

from datetime import datetime, time

from django.utils import timezone

from sewer_office.core.errors import InvalidInput
from sewer_office.enforcement import grounds
from sewer_office.enforcement import rules as enforcement_rules
from sewer_office.enforcement.models import Violation
from sewer_rules.enforcement_guide import GuideError
from sewer_rules.hostile import shorten

from .context import Context, paper_record
from .values import RowError, choice, not_future, optional_date, past_day

#: The states a violation may be imported in: the workflow's start and its two ends. A notice
#: served on paper, with its correction clock, is not re-created: import the violation open and
#: record the notice in the office, or import it closed.
VIOLATION_STATES = ("open", "corrected", "dismissed")


def violation(ctx: Context, row_no: int, row: dict[str, str]) -> None:
    p = paper_record(
        ctx, "violations.csv", row_no, row, Violation, what="Violation", number_required=False
    )
    p.state = choice(row, "state", VIOLATION_STATES)
    observed = past_day(row, "observed_on", ctx.today)
    closed = optional_date(row, "closed_on")
    if closed is not None:
        if p.state == "open":
            raise RowError("closed_on", "an open violation is not closed: leave it empty")
        not_future("closed_on", closed, ctx.today)
        if closed < observed:
            raise RowError("closed_on", f"{closed} is before the violation was found ({observed})")
    try:
        cited = enforcement_rules.section(row.get("section", ""))
    except InvalidInput as e:  # the citation cannot be read
        raise RowError("section", " ".join(e.errors.get("section", [e.message]))) from None
    no_duty = grounds.section_refusal(cited)
    if no_duty is not None:
        raise RowError("section", no_duty)
    try:
        kinds = dict(enforcement_rules.kind_choices(observed))
    except GuideError as e:  # no response guide on that day (before the article)
        raise RowError("observed_on", shorten(str(e), 200)) from None
    kind = row.get("kind", "")
    if kind not in kinds:
        raise RowError(
            "kind",
            f"'{shorten(kind)}' is not a kind of the response guide (known: {', '.join(kinds)})",
        )
    damage = enforcement_rules.is_damage(cited)
    if damage and p.state == "open":
        raise RowError(
            "state",
            "§ 196-20 is referred for arrest at once, without a correction period: open it in "
            "the office (which records the referral), or import it corrected or dismissed",
        )
    person = ctx.registry.person(row, "person", "person_id")
    if person is None:
        raise RowError(
            "person", "required: the person responsible (§ 196-15 PERSON), as in the registry"
        )
    establishment = ctx.registry.facility(row)
    prop = ctx.registry.prop(row)
    if establishment is None and prop is None:
        raise RowError("facility", "name the facility or the property (parcel) concerned")
    description = row.get("description", "")
    if not description:
        raise RowError("description", "required: the nature of the violation")
    p.fields = {
        "kind": "damage" if damage else kind,
        "section": cited,
        "description": description,
        "person": person,
        "establishment": establishment,
        "property": prop,
        "observed_on": observed,
        "opened_by": None,
        "opened_at": timezone.make_aware(datetime.combine(observed, time())),
        "state": p.state,
    }
    p.made_on = observed
    p.citation = cited
    ctx.plan.records.append(p)
