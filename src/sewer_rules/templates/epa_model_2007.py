"""EPA's Model Pretreatment Ordinance (EPA 833-B-06-002, January 2007) as a template.

What the model fixes, and nothing it leaves to the town:

- its grammar: ``Section 10.1``, ``Section 2.1(B)(4)``, defined terms under Section 1.4;
- its outline, every section and subsection (:mod:`.epa_model_2007_duties`, Sections 1 to
  9, and :mod:`.epa_model_2007_enforcement`, Sections 10 to 15);
- one official, the model's bracketed "[Superintendent]": the town names its own;
- its administrative ladder, Sections 10.1 to 10.8. The notice of violation asks for an
  explanation of the violation and a plan to correct and prevent it, within a number of days
  of receipt that the model leaves in brackets: the clock runs from receipt, its days are the
  dated parameter ``notice.explanation_days``, null until the town adopts its number. A
  compliance order may end sewer service if it is not met (Section 10.4), an emergency
  suspension may sever the connection (Section 10.7) and a termination ends the discharge
  (Section 10.8). An administrative fine may be disputed by asking the Superintendent to
  reconsider it within bracketed days of being notified, paying it in full (Section 10.6);
- the fine's basis: administrative (Section 10.6), its amount not configured.

The judicial remedies (Section 11) and the supplemental actions (Section 12) are the town's
attorney's and the courts', not steps the software counts; they are in the registry only.
The permit's term (Section 5.1: at most five years) is the dated parameter
``industrial_approval.term_years``, null until the town states it.

Source: the model as EPA's National Service Center for Environmental Publications serves it
(:data:`SOURCE_URL`); the document number and date identify it wherever else it is found.
"""

from __future__ import annotations

from . import LawTemplate, TemplateParameter
from .epa_model_2007_duties import DUTIES
from .epa_model_2007_enforcement import ENFORCEMENT

KEY = "epa-model-2007"
SOURCE_TITLE = (
    "EPA Model Pretreatment Ordinance, EPA 833-B-06-002 (Office of Wastewater Management, "
    "January 2007)"
)
SOURCE_URL = "https://nepis.epa.gov/Exe/ZyPURL.cgi?Dockey=P10053I1.txt"

NOT_CONFIGURED = "not configured (EPA model template)"

_OFFICIALS = {
    "superintendent": {
        "title": "Superintendent (to be named by the town)",
        "citation": "Section 1.2",
    },
}

# In the model's order. A clock's ``parameter`` is dropped by the writer while the schema
# lacks the key (the clock then has neither days nor parameter: not configured).
_LADDER: dict[str, dict[str, object]] = {
    "notice_of_violation": {
        "label": "Notice of violation (explanation and plan of correction and prevention)",
        "citation": "Section 10.1",
        "issued_by": "superintendent",
        "found_by": "superintendent",
        "demand": "explain_and_plan",
        "clock": {"start": "receipt", "count": "calendar", "parameter": "notice.explanation_days"},
    },
    "consent_order": {
        "label": "Consent order",
        "citation": "Section 10.2",
        "issued_by": "superintendent",
        "demand": "comply_with_order",
    },
    "show_cause_hearing": {
        "label": "Show cause hearing",
        "citation": "Section 10.3",
        "issued_by": "superintendent",
    },
    "compliance_order": {
        "label": "Compliance order (sewer service may be discontinued if not met)",
        "citation": "Section 10.4",
        "issued_by": "superintendent",
        "demand": "comply_with_order",
        "may_end_service": True,
    },
    "cease_and_desist_order": {
        "label": "Cease and desist order",
        "citation": "Section 10.5",
        "issued_by": "superintendent",
        "demand": "comply_with_order",
    },
    "administrative_fine": {
        "label": "Administrative fine",
        "citation": "Section 10.6",
        "issued_by": "superintendent",
        "petition": {
            "start": "receipt",
            "count": "calendar",
            "parameter": "fine.reconsideration_days",
            "to": "superintendent",
            "citation": "Section 10.6",
        },
    },
    "emergency_suspension": {
        "label": "Emergency suspension of the discharge",
        "citation": "Section 10.7",
        "issued_by": "superintendent",
        "demand": "comply_with_order",
        "may_end_service": True,
    },
    "termination_of_discharge": {
        "label": "Termination of discharge",
        "citation": "Section 10.8",
        "issued_by": "superintendent",
        "may_end_service": True,
    },
}

_FINE = {
    "kind": "administrative",
    "citation": "Section 10.6",
    "reason": "imposed by the Superintendent, reconsidered at a hearing on the user's request; amount not configured",
}

_PARAMETERS = (
    TemplateParameter(
        key="notice.explanation_days",
        unit="day",
        description=(
            "Calendar days, from the day the user receives a notice of violation, within which "
            "it submits an explanation of the violation and a plan for its correction and "
            "prevention (left in brackets by the model)"
        ),
        reference="Section 10.1",
        used_by="ladder.notice_of_violation.clock",
    ),
    TemplateParameter(
        key="fine.reconsideration_days",
        unit="day",
        description=(
            "Calendar days, from the day the user is notified of an administrative fine, within "
            "which it may ask the Superintendent to reconsider the fine, paying it in full "
            "(left in brackets by the model)"
        ),
        reference="Section 10.6",
        used_by="ladder.administrative_fine.petition",
        proposed=(
            'fine.reconsideration_days: {type: integer, unit: day, min: "1", why: "a user\'s '
            'time to ask for a fine to be reconsidered is a whole number of days, at least one"}'
        ),
    ),
    TemplateParameter(
        key="fine.administrative_maximum",
        unit="USD",
        description=(
            "The most an administrative fine may be for one violation on one day (left in "
            "brackets by the model): a ceiling, not an amount the software counts"
        ),
        reference="Section 10.6",
        used_by="fine",
        proposed=(
            'fine.administrative_maximum: {type: money, unit: USD, why: "a ceiling on a fine '
            'is money, never below 0"}'
        ),
    ),
    TemplateParameter(
        key="notice.deadline_rollover",
        unit="1",
        description=(
            "Whether the last day of a period that falls on a Saturday, Sunday or public "
            "holiday moves to the next business day (1 = yes, 0 = no): the state's law on "
            "computing time decides, the model does not"
        ),
        reference="the state's law on computing periods of time (the model is silent)",
        used_by="every clock of the ladder",
    ),
    TemplateParameter(
        key="industrial_approval.term_years",
        unit="1",
        description=(
            "Term of an individual wastewater discharge permit, in whole years: at most five "
            "(40 CFR 403.8(f)(1)(iii)); the town may state a shorter one"
        ),
        reference="Section 5.1",
        used_by="the registry's Section 5.1",
    ),
)

_README_STEPS = (
    "Name your officials: in law.yaml, give `officials.superintendent` the title your "
    "ordinance uses (and add any hearing officer or board it names).",
    "Adopt the numbers the model leaves in brackets: in parameters.yaml, write each value "
    "with the date it took effect and its authority (the ordinance or resolution), replacing "
    "null; `sewer-use params --check parameters.yaml` checks the file.",
    "Say how your law counts periods: the holiday calendar (`holidays:`, e.g. US-NY) and "
    "`notice.deadline_rollover` follow your state's law on computing time.",
    "Read your adopted ordinance against sections.yaml, section by section: change each "
    "status from not_configured to implemented (naming what implements it), not_formalized "
    "(saying why) or informational; renumber, add or remove rows where your ordinance "
    "differs from the model, and point `source` to your own official text.",
    "Check the ladder in law.yaml against your Section 10: who issues each step, what it "
    "demands, from what its clock runs, and whether it may end service.",
    "Write cases in cases/, each worked by hand from your text, and run "
    "`sewer-use jurisdiction check DIR` until they pass.",
)

EPA_MODEL_2007 = LawTemplate(
    key=KEY,
    title="EPA Model Pretreatment Ordinance (January 2007)",
    source_title=SOURCE_TITLE,
    source_url=SOURCE_URL,
    grammar={"kind": "model-ordinance", "definitions": "1.4"},
    sections=DUTIES + ENFORCEMENT,
    officials=_OFFICIALS,
    ladder=_LADDER,
    fine=_FINE,
    parameters=_PARAMETERS,
    readme_steps=_README_STEPS,
    unset_authority=NOT_CONFIGURED,
)
