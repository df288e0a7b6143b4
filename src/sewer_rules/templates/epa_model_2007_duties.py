"""EPA's Model Pretreatment Ordinance (EPA 833-B-06-002, January 2007): Sections 1 to 9.

What the model asks of users and of the town's programme: its purpose and definitions, the
prohibited discharges and standards, pretreatment, permits, reports, monitoring, confidential
information and the yearly publication of users in significant noncompliance. Each section
and numbered subsection as the model numbers and titles it, with one line of our own saying
what it does; where the model leaves a number, a list or an official in brackets, the line
says so. The model's words are not copied: its text is public at
:data:`sewer_rules.templates.epa_model_2007.SOURCE_URL`. The enforcement sections are
:mod:`.epa_model_2007_enforcement`.

Why every subsection, though none is configured: a package's registry lists every provision
with its status, so that ``sewer-use sections`` shows a town from its first day what its law
holds and how little of it the software yet computes.
"""

from __future__ import annotations

from . import ModelSection

_ROWS: tuple[tuple[str, str, str], ...] = (
    (
        "Section 1",
        "General Provisions",
        "Who the ordinance governs, who administers it, and the words it uses.",
    ),
    (
        "Section 1.1",
        "Purpose and Policy",
        "Its aims: keep out of the sewer what would harm the treatment works, pass through it or "
        "spoil its sludge, and hold users to the federal and state pretreatment rules.",
    ),
    (
        "Section 1.2",
        "Administration",
        "Names the official who administers and enforces the ordinance (the model's bracketed "
        "Superintendent) and lets that official delegate to staff.",
    ),
    (
        "Section 1.3",
        "Abbreviations",
        "The abbreviations the ordinance uses (BOD, CFR, EPA, POTW, SIU and others).",
    ),
    (
        "Section 1.4",
        "Definitions",
        "The terms the ordinance uses: user, industrial and significant industrial user, pass "
        "through, interference, the Superintendent and others.",
    ),
    (
        "Section 2",
        "General Sewer Use Requirements",
        "What no user may discharge, and the standards and limits every discharge must meet.",
    ),
    (
        "Section 2.1",
        "Prohibited Discharge Standards",
        "A general ban on discharges causing pass through or interference, and a list of "
        "specific ones (fire and explosion hazards, corrosive wastes, obstructions, heat, and "
        "more) the town completes.",
    ),
    (
        "Section 2.2",
        "National Categorical Pretreatment Standards",
        "EPA's standards for industrial categories apply as part of the ordinance, with how "
        "equivalent and combined-stream limits are set.",
    ),
    (
        "Section 2.3",
        "State Pretreatment Standards",
        "The state's pretreatment standards apply as part of the ordinance (the town cites them).",
    ),
    (
        "Section 2.4",
        "Local Limits",
        "The town's own limits on pollutants at the point of discharge; the model leaves the "
        "pollutants and the numbers blank.",
    ),
    (
        "Section 2.5",
        "Right of Revision",
        "The town keeps the right to set stricter limits and requirements than the ordinance's.",
    ),
    (
        "Section 2.6",
        "Dilution",
        "Diluting a discharge in place of treating it, to meet a limit, is forbidden.",
    ),
    (
        "Section 3",
        "Pretreatment of Wastewater",
        "The treatment and precautions a user must provide before discharging.",
    ),
    (
        "Section 3.1",
        "Pretreatment Facilities",
        "Users build and run, at their own cost, the treatment needed to comply, and show the "
        "plans on request.",
    ),
    (
        "Section 3.2",
        "Additional Pretreatment Measures",
        "Further measures the Superintendent may require: flow equalization, separate sewers, "
        "interceptors for grease, oil and sand, and monitoring devices.",
    ),
    (
        "Section 3.3",
        "Accidental Discharge/Slug Discharge Control Plans",
        "Significant industrial users are evaluated for, and where needed keep, a plan to prevent "
        "and answer accidental and slug discharges.",
    ),
    (
        "Section 3.4",
        "Hauled Wastewater",
        "Waste brought by truck is discharged only where and as the town allows, with permits "
        "and manifests for haulers.",
    ),
    (
        "Section 4",
        "Individual Wastewater Discharge Permits",
        "Who needs a discharge permit, and how to apply for one.",
    ),
    (
        "Section 4.1",
        "Wastewater Analysis",
        "Any user reports on the character of its wastewater when asked, within a period the "
        "town fills in.",
    ),
    (
        "Section 4.2",
        "Individual Wastewater Discharge Permit Requirement",
        "A significant industrial user, and any other user the Superintendent names, discharges "
        "only under a permit.",
    ),
    (
        "Section 4.3",
        "Individual Wastewater Discharge Permitting: Existing Connections",
        "A user already discharging when the ordinance takes effect applies within a period the "
        "town fills in.",
    ),
    (
        "Section 4.4",
        "Individual Wastewater Discharge Permitting: New Connections",
        "A new discharger applies a number of days, filled in by the town, before it begins.",
    ),
    (
        "Section 4.5",
        "Individual Wastewater Discharge Permit Application Contents",
        "What an application holds: the user, its operations, flows, measured pollutants and "
        "planned treatment.",
    ),
    (
        "Section 4.6",
        "Application Signatories and Certifications",
        "Who signs applications and reports for a user, and the certification they sign.",
    ),
    (
        "Section 4.7",
        "Individual Wastewater Discharge Permit Decisions",
        "The Superintendent reviews a complete application and decides whether to issue a permit.",
    ),
    (
        "Section 5",
        "Individual Wastewater Discharge Permit Issuance",
        "How a permit is written, appealed, changed, transferred, revoked and reissued.",
    ),
    (
        "Section 5.1",
        "Individual Wastewater Discharge Permit Duration",
        "A permit is issued for a stated term of at most five years.",
    ),
    (
        "Section 5.2",
        "Individual Wastewater Discharge Permit Contents",
        "What a permit must and may hold: limits, monitoring, reporting, its term, penalties and "
        "schedules.",
    ),
    (
        "Section 5.3",
        "Individual Wastewater Discharge Permit Appeals",
        "The permittee, or anyone interested, may petition to reconsider a permit's terms within "
        "a period the town fills in.",
    ),
    (
        "Section 5.4",
        "Individual Wastewater Discharge Permit Modification",
        "The grounds on which the Superintendent may change a permit.",
    ),
    (
        "Section 5.5",
        "Individual Wastewater Discharge Permit Transfer",
        "A permit passes to a new owner or operator only with advance notice and the "
        "Superintendent's approval.",
    ),
    (
        "Section 5.6",
        "Individual Wastewater Discharge Permit Revocation",
        "The grounds on which a permit may be revoked, such as false reports or refused entry.",
    ),
    (
        "Section 5.7",
        "Individual Wastewater Discharge Permit Reissuance",
        "A permittee applies for reissuance a number of days, filled in by the town, before its "
        "permit expires.",
    ),
    (
        "Section 5.8",
        "Regulation of Waste Received from Other Jurisdictions",
        "Users of another municipality discharge into the town's works only under an agreement "
        "between the two.",
    ),
    (
        "Section 6",
        "Reporting Requirements",
        "The reports users owe, and how their samples are taken, analysed, dated and kept.",
    ),
    (
        "Section 6.1",
        "Baseline Monitoring Reports",
        "A categorical user's first report: its operations, flows, pollutants and whether it "
        "complies.",
    ),
    (
        "Section 6.2",
        "Compliance Schedule Progress Reports",
        "Reports on each milestone of a schedule for coming into compliance.",
    ),
    (
        "Section 6.3",
        "Reports on Compliance with Categorical Pretreatment Standard Deadline",
        "The report due after a categorical standard's final compliance date, or after a new "
        "source begins to discharge.",
    ),
    (
        "Section 6.4",
        "Periodic Compliance Reports",
        "Regular self-monitoring reports, at least twice a year, of pollutants and flows.",
    ),
    (
        "Section 6.5",
        "Reports of Changed Conditions",
        "Notice in advance of a significant change in the volume or character of a discharge.",
    ),
    (
        "Section 6.6",
        "Reports of Potential Problems",
        "Immediate notice of a discharge that may cause problems, such as a spill or slug, "
        "followed by a written report.",
    ),
    (
        "Section 6.7",
        "Reports from Unpermitted Users",
        "Users without a permit report as the Superintendent asks.",
    ),
    (
        "Section 6.8",
        "Notice of Violation/Repeat Sampling and Reporting",
        "A user whose own sampling shows a violation tells the town and samples again "
        "(40 CFR 403.12(g)(2)).",
    ),
    (
        "Section 6.9",
        "Notification of the Discharge of Hazardous Waste",
        "A user discharging what would be hazardous waste if disposed of otherwise tells the "
        "town, EPA and the state.",
    ),
    (
        "Section 6.10",
        "Analytical Requirements",
        "Analyses use the federally approved methods (40 CFR 136).",
    ),
    (
        "Section 6.11",
        "Sample Collection",
        "How samples are taken for each kind of pollutant: grab or composite.",
    ),
    (
        "Section 6.12",
        "Date of Receipt of Reports",
        "When a mailed or delivered report counts as received.",
    ),
    (
        "Section 6.13",
        "Recordkeeping",
        "Users keep their monitoring records for at least three years, longer during litigation.",
    ),
    (
        "Section 6.14",
        "Certification Statements",
        "The certification that permit applications and reports must carry.",
    ),
    (
        "Section 7",
        "Compliance Monitoring",
        "How the town enters, inspects and samples a user's premises.",
    ),
    (
        "Section 7.1",
        "Right of Entry: Inspection and Sampling",
        "The Superintendent may enter a user's premises to inspect, sample, copy records and "
        "install monitoring equipment.",
    ),
    (
        "Section 7.2",
        "Search Warrants",
        "Where entry is refused, the Superintendent may ask a court for a warrant.",
    ),
    (
        "Section 8",
        "Confidential Information",
        "What a user may ask the town to keep confidential, and what it may not (effluent data).",
    ),
    (
        "Section 9",
        "Publication of Users in Significant Noncompliance",
        "Once a year the town publishes the users that were in significant noncompliance "
        "(40 CFR 403.8(f)(2)(viii)).",
    ),
)

#: Sections 1 to 9 and their subsections, in the model's order.
DUTIES: tuple[ModelSection, ...] = tuple(ModelSection(c, h, s) for c, h, s in _ROWS)
