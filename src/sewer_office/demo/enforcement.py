"""Demo enforcement (§ 196-22, § 196-20): violations at every stage, through the services.

Each violation is taken as far as its stage by the users the law names (the Superintendent
issues and escalates, the clerk records service, the inspector verifies, Acme Plating's own
representative reports its corrections), every step back-dated with ``at=`` and the daily
clock run on the days it would have run (``advance_clocks(day, at=...)``), so the records and
their audit trail are those a real office would have. The stages, by violation:

- **open** — Acme's monthly copper average, opened yesterday, no notice yet;
- **notice to serve** — Acme's pH excursion on the meter, notice issued, not yet served;
- **served, deadline this week** — Acme's copper over the Superintendent's limit;
- **fines accruing** — Acme's pH below 5.5 SU, deadline long passed, the Town's laboratory and
  staff costs recorded (§ 196-22 C);
- **escalated** — the plating solution in Acme's floor drain (failed inspection item): first
  notice, deadline passed, second notice, deadline passed, administrative order (the response
  guide's escalation), served;
- **correction rejected** — a restaurant's grease trap, notice stating 15 days, a correction
  reported and rejected on inspection, the clock still running;
- **corrected in time** — another restaurant's grease trap, corrected and verified before its
  deadline (no fine);
- **§ 196-20 referral** — a manhole cover pried off at a residential parcel: referred for
  arrest at once, no notice, the repair costs recorded;
- **the whole way to the money** — a restaurant's interceptor blocking the main: the Town's
  costs billed and paid, referred to the Town Attorney with the fine count, corrected, the
  court's judgment and part of the fine paid to the Town (:mod:`.enforcement_money`);
- **fine spanning a change of the daily amount** — a food preparer's interceptor, served before
  the latest change of ``fine.daily_amount`` of the demo parameters (EXAMPLE amounts) and
  verified corrected after it, so its fine is two segments at two amounts. This stage needs an
  anchor at least :data:`SPAN_MARGIN_DAYS` after such a change (the demo file has one on
  2026-01-18); with an earlier anchor it is left out, and :func:`load_demo_enforcement` says so
  in the returned list of stages.

Before any of them, the Town Board adopts the enforcement response plan (40 CFR 403.8(f)(5))
by an EXAMPLE resolution (:func:`_plan_adopted`), so that every proposal cites it; the daily
run of the anchor then finds the fines-accruing violation's next step late against the plan's
time frame (a RESPONSE_LATE finding: the Town's own lateness, not Acme's).

Findings come from the monitoring and inspections demos (Acme's); when a finding of the kind
is missing (another seed or anchor), the violation is opened by hand with the same section,
as an inspector would after seeing it.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from itertools import pairwise

from sewer_office.accounts.towns import primary
from sewer_office.core.services import perform
from sewer_office.enforcement import plan, rules, services
from sewer_office.enforcement.lateness import flag_late_responses
from sewer_office.enforcement.models import Violation
from sewer_office.registry.choices import EstablishmentKind
from sewer_office.registry.models import Establishment

from .enforcement_money import the_whole_way
from .story import Story, at
from .town import Town

ACME = "Acme Plating Corporation"
#: days between the amount change and the anchor needed for the spanning violation's story
SPAN_MARGIN_DAYS = 30


def amount_change_before(day: date) -> date | None:
    """The latest change of the daily fine amount at least SPAN_MARGIN_DAYS before ``day``."""
    values = rules.params(primary()).parameter(rules.DAILY_AMOUNT).values  # the demo town's
    changes = [
        b.effective
        for a, b in pairwise(values)
        if a.value is not None and b.value is not None and a.value != b.value
    ]
    fit = [c for c in changes if c <= day - timedelta(days=SPAN_MARGIN_DAYS)]
    return max(fit) if fit else None


def load_demo_enforcement(town: Town) -> dict[str, Violation]:
    """Create the demo violations (after monitoring and inspections); returns them by stage."""
    s = Story(town)
    acme = Establishment.objects.get(name=ACME)
    food = town.establishments[EstablishmentKind.RESTAURANT]
    prep = town.establishments.get(EstablishmentKind.FOOD_PREPARATION) or food

    _plan_adopted(s)
    _spanning_the_amount_change(s, prep[0])
    the_whole_way(s, food[5 % len(food)])
    _fines_accruing(s, acme)
    _escalated(s, acme)
    _corrected_in_time(s, food[2 % len(food)])
    _referral_for_damage(s)
    _correction_rejected(s, food[3 % len(food)])
    _served_this_week(s, acme)
    _notice_to_serve(s, acme)
    _mailed_not_delivered(s, food[4 % len(food)])
    _open(s, acme)
    s.clocks(s.anchor)
    flag_late_responses(s.anchor)
    for v in s.stages.values():
        v.refresh_from_db()
    return s.stages


#: The demo's resolution adopting the plan: an EXAMPLE, not a decision of the Town.
EXAMPLE_RESOLUTION = "EXAMPLE 41"
#: Days before the anchor the example adoption is dated (before every demo violation).
ADOPTED_DAYS_AGO = 200


def _plan_adopted(s: Story) -> None:
    """The Town Board adopts the plan in force by an EXAMPLE resolution, before the earliest
    demo violation (the amount-change story's may come earlier than the others)."""
    adopted = s.day(ADOPTED_DAYS_AGO)
    change = amount_change_before(s.anchor)
    if change is not None:
        adopted = min(adopted, change - timedelta(days=SPAN_MARGIN_DAYS))
    version = plan.version_on(adopted)
    if not version.is_plan:
        return
    plan.adopt_plan(
        s.su,
        effective=version.effective,
        adopted_on=adopted,
        adopted_by="Town Board",
        resolution=f"{EXAMPLE_RESOLUTION} of {adopted:%Y}",
        note="EXAMPLE for the demo town: not a resolution of the Town of Wappinger.",
        at=at(adopted + timedelta(days=1), 9),
    )


def _spanning_the_amount_change(s: Story, est: Establishment) -> None:
    change = amount_change_before(s.anchor)
    if change is None:
        return
    found = change - timedelta(days=22)
    v = services.open_violation(
        s.inspector,
        kind="overdue_pumpout",
        section="§ 196-19 G",
        description="Grease interceptor not pumped out since the summer; grease at the outlet "
        "baffle and in the downstream manhole.",
        person=est.operator,
        establishment=est,
        observed_on=found,
        at=at(found, 13),
    )
    v = s.issue(v, found + timedelta(days=1), "Grease interceptor overdue for cleaning", period=10)
    v = s.serve(v, found + timedelta(days=2), method="personal")
    deadline = s.deadline(v)
    s.clocks(deadline + timedelta(days=1))
    v.refresh_from_db()
    reported = change + timedelta(days=2)
    v = s.report(v, reported, "Interceptor pumped out (hauler's manifest 2026-114).")
    v = perform(
        v,
        "verify",
        s.inspector,
        {"verified_on": reported + timedelta(days=1), "note": "Outlet baffle clear on site."},
        at=at(reported + timedelta(days=1), 11),
    )
    s.stages["amount_change"] = v


def _fines_accruing(s: Story, acme: Establishment) -> None:
    found = s.day(85)
    v = s.open(
        acme,
        on=found,
        finding_kind="lab_result",
        kind="result_exceedance",
        section="§ 196-19 C(3)",
        description="pH 5.2 SU, below the 5.5 SU of § 196-19 C(3).",
    )
    v = s.issue(v, s.day(80), "Discharge with a pH below 5.5 SU (corrosive)")
    v = s.serve(v, s.day(78))
    s.clocks(s.deadline(v) + timedelta(days=1))
    services.record_cost(
        v,
        s.clerk,
        category="laboratory",
        description="Confirmation sample, pH and metals",
        amount=Decimal("185.00"),
        incurred_on=s.day(70),
        at=at(s.day(70), 16),
    )
    services.record_cost(
        v,
        s.su,
        category="staff_hours",
        description="Superintendent's follow-up visit and report",
        hours=Decimal("3.50"),
        amount=Decimal("262.50"),
        incurred_on=s.day(69),
        at=at(s.day(69), 16),
    )
    s.stages["fines_accruing"] = v


def _escalated(s: Story, acme: Establishment) -> None:
    found = s.day(40)
    v = s.open(
        acme,
        on=found,
        finding_kind="inspection",
        kind="failed_inspection_item",
        section="§ 196-19 D(4)",
        description="Concentrated plating solution reaches the sewer through a floor drain.",
    )
    v = s.issue(v, s.day(39), "Plating solution draining to the building sewer; contain it")
    v = s.serve(v, s.day(38))
    s.clocks(s.deadline(v) + timedelta(days=1))
    v.refresh_from_db()
    on = s.deadline(v) + timedelta(days=2)
    v = perform(v, "escalate", s.su, {"nature": "Second notice: drain still open"}, at=at(on))
    v = s.serve(v, on, method="personal")
    s.clocks(s.deadline(v) + timedelta(days=1))
    v.refresh_from_db()
    on = s.deadline(v) + timedelta(days=1)
    v = perform(
        v,
        "escalate",
        s.su,
        {
            "nature": "Administrative order: seal the floor drain and install containment",
            "period_days": 30,
        },
        at=at(on),
    )
    s.stages["escalated"] = s.serve(v, on, method="personal")


def _corrected_in_time(s: Story, est: Establishment) -> None:
    found = s.day(50)
    v = services.open_violation(
        s.inspector,
        kind="overdue_pumpout",
        section="§ 196-19 G",
        description="Grease trap full at the routine check; last pump-out 7 months ago.",
        person=est.operator,
        establishment=est,
        observed_on=found,
        at=at(found, 15),
    )
    v = s.issue(v, s.day(49), "Grease trap overdue for cleaning")
    v = s.serve(v, s.day(48), method="personal")
    v = s.report(v, s.day(44), "Trap pumped by Hudson Valley Grease Hauling.")
    s.stages["corrected_in_time"] = perform(
        v, "verify", s.inspector, {"verified_on": s.day(43)}, at=at(s.day(43), 11)
    )


def _referral_for_damage(s: Story) -> None:
    prop = s.town.properties["district-1"][12]
    found = s.day(25)
    v = services.open_violation(
        s.inspector,
        kind="damage",
        section="§ 196-20",
        description="Manhole cover in the easement pried off and yard debris pushed into the "
        "sewer main; seen by the highway crew.",
        person=prop.owner,
        property=prop,
        observed_on=found,
        at=at(found, 16),
    )
    services.record_cost(
        v,
        s.clerk,
        category="repairs",
        description="New frame and cover, jetting of the main",
        amount=Decimal("1840.00"),
        incurred_on=s.day(23),
        at=at(s.day(22), 10),
    )
    services.record_cost(
        v,
        s.clerk,
        category="staff_hours",
        description="Highway crew, 2 workers",
        hours=Decimal("6.00"),
        amount=Decimal("420.00"),
        incurred_on=s.day(23),
        at=at(s.day(22), 10),
    )
    v.refresh_from_db()
    s.stages["referred_196_20"] = v


def _correction_rejected(s: Story, est: Establishment) -> None:
    found = s.day(16)
    v = services.open_violation(
        s.inspector,
        kind="overdue_pumpout",
        section="§ 196-19 G",
        description="Grease interceptor lid rusted shut; not cleaned since installation.",
        person=est.operator,
        establishment=est,
        observed_on=found,
        at=at(found, 14),
    )
    v = s.issue(v, s.day(15), "Interceptor not accessible and not cleaned", period=15)
    v = s.serve(v, s.day(14), method="personal")
    v = s.report(v, s.day(9), "Owner says the trap was cleaned.")
    s.stages["correction_rejected"] = perform(
        v,
        "reject_correction",
        s.inspector,
        {"rejected_on": s.day(7)},
        reason="On site: the lid is still rusted shut and no hauler's manifest was shown.",
        at=at(s.day(7), 11),
    )


def _served_this_week(s: Story, acme: Establishment) -> None:
    found = s.day(15)
    v = s.open(
        acme,
        on=found,
        finding_kind="lab_result",
        kind="result_exceedance",
        section="§ 196-19 D(5)",
        description="Copper above the Superintendent's limit.",
    )
    v = s.issue(v, s.day(9), "Copper above the Superintendent's limit")
    s.stages["served"] = s.serve(v, s.day(8))


def _notice_to_serve(s: Story, acme: Establishment) -> None:
    found = s.day(3)
    v = s.open(
        acme,
        on=found,
        finding_kind="excursion",
        kind="excursion",
        section="§ 196-19 C(3)",
        description="pH below 5.5 SU on the continuous meter.",
    )
    s.stages["notice_issued"] = s.issue(v, s.day(1), "pH excursion below 5.5 SU")


def _mailed_not_delivered(s: Story, restaurant: Establishment) -> None:
    """A notice mailed by certified mail yesterday, its return receipt not yet back: the
    clerk's queue shows it, and no correction period runs yet."""
    found = s.day(4)
    v = s.open(
        restaurant,
        on=found,
        finding_kind="inspection",
        kind="failed_inspection_item",
        section="§ 196-19 F(2)",
        description="No grease trap for the kitchen's wastes at the re-inspection.",
    )
    v = s.issue(v, s.day(2), "No grease trap provided for the kitchen wastes")
    s.stages["mailed"] = s.mail(v, s.day(1))


def _open(s: Story, acme: Establishment) -> None:
    found = s.day(2)
    s.stages["open"] = s.open(
        acme,
        on=found,
        finding_kind="monthly_average",
        kind="monthly_average_exceedance",
        section="§ 196-16 E",
        description="Monthly average of copper above the permit's limit.",
    )
