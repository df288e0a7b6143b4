"""The table of the registry of Article VII: each provision, its heading, its status and why.

Data, read by :mod:`sewer_rules.sections` (which builds the registry and checks it against the
law); kept apart so that the registry's logic stays short. The statuses are those of
:class:`Coverage`; :mod:`sewer_rules.section_office` names the office's functions that carry a
provision out.
"""

from __future__ import annotations

from enum import StrEnum


class Coverage(StrEnum):
    IMPLEMENTED = "implemented"
    NOT_FORMALIZED = "not_formalized"
    INFORMATIONAL = "informational"


I = Coverage.IMPLEMENTED  # noqa: E741 - short names keep the table below readable
N = Coverage.NOT_FORMALIZED
R = Coverage.INFORMATIONAL

_JUDGMENT = "left to the judgment of the engineer/Superintendent"
_OTHER_AGENCY = "a requirement of another agency (DEC, County Health Department, state codes)"
_OFFICE = "an administrative duty recorded by the office, not a computation"

ENTRIES: list[tuple[str, str, Coverage, str]] = [
    # § 196-15 Definitions
    ("§ 196-15", "Definitions", R, ""),
    ("§ 196-15 A", "Meaning of terms", R, ""),
    ("§ 196-15 BOD", "BOD", R, "fixes the analyte bod5 (5 days at 20 °C, mg/l)"),
    ("§ 196-15 BUILDING DRAIN", "Building drain", R, "read by the building sewer checks"),
    ("§ 196-15 BUILDING SEWER", "Building sewer", R, "read by the building sewer checks"),
    ("§ 196-15 COOLING WATER", "Cooling water", I, ""),
    ("§ 196-15 ENGINEER", "Engineer", R, "a role of the office"),
    ("§ 196-15 GARBAGE", "Garbage", R, ""),
    ("§ 196-15 INDUSTRIAL WASTES", "Industrial wastes", R, ""),
    ("§ 196-15 NATURAL OUTLET", "Natural outlet", R, ""),
    ("§ 196-15 NORMAL SEWAGE", "Normal sewage", I, ""),
    ("§ 196-15 PERSON", "Person", R, "the registry's persons"),
    ("§ 196-15 PH", "pH", R, "fixes the analyte ph (SU)"),
    ("§ 196-15 PROPERLY SHREDDED GARBAGE", "Properly shredded garbage", I, ""),
    ("§ 196-15 PUBLIC SEWER", "Public sewer", R, ""),
    ("§ 196-15 SANITARY SEWER", "Sanitary sewer", R, ""),
    ("§ 196-15 SEWER", "Sewer", R, ""),
    ("§ 196-15 SLUG", "Slug", I, ""),
    ("§ 196-15 STORM DRAIN", "Storm drain", R, ""),
    ("§ 196-15 SUBDIVISION", "Subdivision", R, ""),
    ("§ 196-15 SUPERINTENDENT", "Superintendent", R, "a role of the office"),
    ("§ 196-15 SUSPENDED SOLIDS", "Suspended solids", R, "fixes the analyte tss"),
    ("§ 196-15 TOWN", "Town", R, ""),
    ("§ 196-15 UNPOLLUTED WATER OR WASTE", "Unpolluted water or waste", I, ""),
    ("§ 196-15 WASTEWATER", "Wastewater", R, ""),
    ("§ 196-15 WASTEWATER, DOMESTIC", "Domestic wastewater", R, ""),
    ("§ 196-15 WASTEWATER FACILITIES", "Wastewater facilities", R, ""),
    ("§ 196-15 WASTEWATER, SANITARY", "Sanitary wastewater", R, ""),
    ("§ 196-15 WASTEWATER TREATMENT WORKS", "Wastewater treatment works", R, ""),
    ("§ 196-15 WATERCOURSE", "Watercourse", R, ""),
    ("§ 196-15 B", '"Shall" is mandatory; "may" is permissive', R, ""),
    # § 196-16 Use of public sewers required
    ("§ 196-16", "Use of public sewers required", R, ""),
    (
        "§ 196-16 A",
        "Unsanitary deposit of excrement, garbage, waste",
        N,
        "a fact found by inspection; enforced through notices (§ 196-22)",
    ),
    (
        "§ 196-16 B",
        "Discharge to natural outlets",
        N,
        "suitable treatment is judged under DEC and County Health rules",
    ),
    ("§ 196-16 C", "Privies, septic tanks, cesspools", N, _OFFICE + " (private systems, § 196-17)"),
    (
        "§ 196-16 D",
        "Industrial waste with consent of the engineer",
        I,
        "the engineer's consent is a decision the office records on the approval; the "
        "engineering judgment itself is not computed",
    ),
    (
        "§ 196-16 E",
        "Written approval of new industrial discharges",
        I,
        "the office files the request, evaluates the declared wastes and records the "
        "engineer's written approval with its term and letter; the judgment is the engineer's",
    ),
    (
        "§ 196-16 F",
        "Industrial cooling water by written approval",
        I,
        "the office files the request and records the engineer's specific written approval; "
        "the judgment is the engineer's",
    ),
    (
        "§ 196-16 G",
        "Subdivision sewers: when the owners shall construct them",
        I,
        "",
    ),
    (
        "§ 196-16 H",
        "Building drains and sewers of developed property",
        N,
        "plan approval by County Health and the engineer, recorded by the office",
    ),
    ("§ 196-16 I", "Other agencies' requirements preserved", R, ""),
    # § 196-17 Private wastewater disposal
    ("§ 196-17", "Private wastewater disposal", R, ""),
    (
        "§ 196-17 A",
        "Private system where public sewer is not available",
        I,
        "a private system is refused where the Town's dated act made public sewer available; "
        "the act itself is the Town's",
    ),
    ("§ 196-17 B", "Health Department approval before construction", N, _OTHER_AGENCY),
    ("§ 196-17 C", "Certificate of occupancy after completion", N, _OFFICE),
    ("§ 196-17 D", "Design per State and County health rules", N, _OTHER_AGENCY),
    (
        "§ 196-17 E",
        "Connection when public sewer becomes available",
        I,
        "the Town's act opens a connection requirement for every private system of the area "
        "and the office follows it to abandonment; the works are the owner's",
    ),
    (
        "§ 196-17 F",
        "Operation in a sanitary manner at the owner's expense",
        N,
        "a fact found by inspection",
    ),
    ("§ 196-17 G", "Health Officer's requirements preserved", R, ""),
    # § 196-18 Building sewers and connections
    ("§ 196-18", "Building sewers and connections", R, ""),
    (
        "§ 196-18 A",
        "Permission before uncovering or connecting",
        I,
        "permission is asked and given through the building sewer permit; work done without "
        "it is found by inspection",
    ),
    (
        "§ 196-18 B",
        "Two classes of building sewer permits",
        I,
        "the class is decided by the rule from the use and wastes the application states (a "
        "declared class that disagrees is flagged for the clerk) and its fee is due on filing; "
        "the amounts are the Town Board's resolutions",
    ),
    ("§ 196-18 B(1)", "Residential and commercial service", I, ""),
    ("§ 196-18 B(2)", "Establishments producing industrial wastes", I, ""),
    ("§ 196-18 C", "Costs borne by the owner; indemnity", N, "a matter of contract and the courts"),
    ("§ 196-18 D", "A separate building sewer for every building", I, ""),
    (
        "§ 196-18 E",
        "Old building sewers, on the Superintendent's examination",
        I,
        "an old building sewer is reused only after the Superintendent's recorded "
        "examination; the examination is his",
    ),
    ("§ 196-18 F", "Four-inch minimum, 1/4 inch per foot", I, ""),
    ("§ 196-18 G", "Elevation below the basement floor; lifting", I, ""),
    ("§ 196-18 H", "No roof, sump, foundation or surface connections", I, ""),
    ("§ 196-18 I", "Connection per State and County codes", N, _OTHER_AGENCY),
    (
        "§ 196-18 J",
        "Notice of readiness; connection under supervision",
        I,
        "the applicant's notice of readiness and the supervised connection are recorded "
        "steps of the permit",
    ),
    (
        "§ 196-18 K",
        "Road opening permit before excavation",
        I,
        "the Highway Superintendent's road opening permit (insurance, bond) is a recorded "
        "step before any digging",
    ),
    ("§ 196-18 L", "Guarding and restoring excavations", N, "a fact found by inspection"),
    # § 196-19 Use of public sewers
    ("§ 196-19", "Use of public sewers", R, ""),
    (
        "§ 196-19 A",
        "No storm or unpolluted water to sanitary sewers",
        N,
        "sources are found by inspection; see § 196-18 H for connections",
    ),
    ("§ 196-19 B", "Storm and unpolluted drainage to storm sewers", N, _OTHER_AGENCY),
    ("§ 196-19 C", "Absolute prohibitions", R, ""),
    ("§ 196-19 C(1)", "Flammable or explosive", N, "no numeric limit; found by inspection"),
    (
        "§ 196-19 C(2)",
        "Toxic substances; cyanides over 2 mg/l",
        I,
        "partial: only the cyanide limit (2 mg/l as CN) is computed; whether other toxic or "
        "poisonous wastes are in sufficient quantity to injure or interfere is found by "
        "inspection and judgment",
    ),
    ("§ 196-19 C(3)", "pH lower than 5.5", I, ""),
    ("§ 196-19 C(4)", "Obstructing solids", N, "no numeric limit; found by inspection"),
    (
        "§ 196-19 C(5)",
        "Plant influent above 40 °C",
        I,
        "computed from the plant's flow and influent temperature, which Wappinger has not "
        "configured: inert until they are",
    ),
    ("§ 196-19 D", "Prohibited where harm is likely", R, "findings under D are flagged `review`"),
    ("§ 196-19 D(1)", "Temperature over 150 °F", I, ""),
    ("§ 196-19 D(2)", "Fats, wax, grease or oils over 100 mg/l", I, ""),
    ("§ 196-19 D(3)", "Garbage not properly shredded; grinders of 3/4 hp", I, ""),
    (
        "§ 196-19 D(4)",
        "Iron pickling wastes, plating solutions",
        N,
        "no numeric limit; identified from the process",
    ),
    (
        "§ 196-19 D(5)",
        "Metals over the Superintendent's limits",
        I,
        "computed against the Superintendent's limits, none of which Wappinger has "
        "configured: inert until they are",
    ),
    (
        "§ 196-19 D(6)",
        "Phenols over the Superintendent's limits",
        I,
        "computed against the Superintendent's limit, not configured for Wappinger: inert "
        "until it is",
    ),
    (
        "§ 196-19 D(7)",
        "Radioactive wastes over the Superintendent's limits",
        I,
        "computed against the Superintendent's limits, not configured for Wappinger: inert "
        "until they are",
    ),
    ("§ 196-19 D(8)", "pH over 9.5", I, ""),
    ("§ 196-19 D(9)", "Materials exerting unusual loads", R, ""),
    (
        "§ 196-19 D(9)(a)",
        "Unusual inert suspended or dissolved solids",
        N,
        "'unusual' is " + _JUDGMENT,
    ),
    ("§ 196-19 D(9)(b)", "Excessive discoloration", N, "'excessive' is " + _JUDGMENT),
    (
        "§ 196-19 D(9)(c)",
        "Unusual BOD, COD or chlorine demand",
        N,
        "'significant load' is " + _JUDGMENT,
    ),
    ("§ 196-19 D(9)(d)", "Slugs; immediate report", I, ""),
    ("§ 196-19 D(10)", "Wastes not amenable to treatment", N, _JUDGMENT),
    ("§ 196-19 E", "Discharge of certain waters or wastes", R, ""),
    ("§ 196-19 E(1)", "The Superintendent's options", R, ""),
    (
        "§ 196-19 E(1)(a)",
        "Reject the wastes",
        N,
        "a decision of the Superintendent, recorded by the office",
    ),
    (
        "§ 196-19 E(1)(b)",
        "Require pretreatment",
        N,
        "a decision of the Superintendent, recorded by the office",
    ),
    (
        "§ 196-19 E(1)(c)",
        "Control quantities and rates",
        N,
        "a decision of the Superintendent, recorded by the office",
    ),
    (
        "§ 196-19 E(1)(d)",
        "Payment for added cost (surcharge)",
        I,
        "the surcharge is computed from daily-average strength (oil and grease from grab "
        "samples) and billed only for the days of the Superintendent's recorded decision; a "
        "facility of abnormal strength without one is listed for him, not billed",
    ),
    ("§ 196-19 E(2)", "Pretreatment plant approval", N, "design review by the Superintendent"),
    ("§ 196-19 F", "Oil and sand interceptors; grease traps", R, ""),
    (
        "§ 196-19 F(1)",
        "Oil and sand interceptors",
        N,
        "required in the Superintendent's opinion; recorded by the office",
    ),
    (
        "§ 196-19 F(2)",
        "Grease traps for food preparation",
        I,
        "partial: the law sizes grease traps by the NYS DEC Design Standards for Wastewater "
        "Treatment Works (1988), which is not implemented; the sizing shown (PDI G-101, the "
        "UPC table) is a reference for the engineer, not the law's method; County approval "
        "and accessibility are recorded by the office",
    ),
    (
        "§ 196-19 G",
        "Pretreatment maintained continuously",
        I,
        "partial: the pump-out clock of grease traps and interceptors is computed (the "
        "interval is a town choice, not a number of the law) and an overdue pump-out flagged; "
        "the operation of other pretreatment is found by inspection",
    ),
    (
        "§ 196-19 H",
        "Control manhole when required",
        I,
        "the Superintendent's requirement is recorded as the property's sampling point; "
        "construction and upkeep are found by inspection",
    ),
    (
        "§ 196-19 I",
        "Standard Methods; control manhole; sample type",
        I,
        "partial: the sampling point and the sample type are checked; the laboratory method "
        "a result reports is not checked against Standard Methods or the approved methods of "
        "40 CFR 136",
    ),
    (
        "§ 196-19 J",
        "Special agreements for unusual strength",
        I,
        "an agreement is recorded with its terms, days and rates and billed as agreed; its "
        "negotiation and the Town Board's approval are the Town's",
    ),
    (
        "§ 196-19 K",
        "National categorical standards",
        N,
        "categorical limits enter as permit limits (sewer-use check --limits)",
    ),
    (
        "§ 196-19 L",
        "Notice before flushing nonresidential building sewers",
        I,
        "the notice is filed before the flushing date and acknowledged; the quality of the "
        "flushing water is found by inspection",
    ),
    # § 196-20 .. § 196-23
    (
        "§ 196-20",
        "Protection from damage",
        I,
        "referred at once to the police for arrest (disorderly conduct), no notice and no "
        "correction clock; the arrest and the charge are for the police and the court",
    ),
    ("§ 196-21", "Powers and authority of inspectors", R, ""),
    (
        "§ 196-21 A",
        "Entry for inspection and sampling",
        I,
        "an inspection is recorded only by an inspector who presented credentials",
    ),
    (
        "§ 196-21 B",
        "Entry on easements",
        I,
        "an inspection of works on a Town easement is recorded with where they lie; the "
        "easement's terms are not read",
    ),
    ("§ 196-21 C", "Safety rules and indemnity", N, "a matter of contract and the courts"),
    (
        "§ 196-21 D",
        "Enforcement by the Superintendent of Highways and police",
        N,
        "not done: the Superintendent of Highways has no enforcement action in the office (no "
        "appearance ticket, no referral of his own); the office only refers § 196-20 matters to "
        "the police for arrest and others to the Town Attorney. How the Highway Superintendent "
        "or the police enforce the chapter (an appearance ticket, and before which court) is "
        "for the Town to set",
    ),
    ("§ 196-22", "Penalties for offenses", R, ""),
    (
        "§ 196-22 A",
        "Written notice; 10 days to correct",
        I,
        "the notice (PDF letter) states the nature, the section and the period (at least 10 "
        "days), is served by a recorded method, and its deadline runs from service",
    ),
    (
        "§ 196-22 B",
        "Daily fine beyond the time limit",
        I,
        "fines are accrued day by day at the amount in force, from the deadline to the day "
        "the violation ceased as the verification finds it (never past the verification), "
        "a later notice's period not counted; shown as accrued, subject to conviction (a court "
        "convicts and fines: the referral keeps the count, the office records the judgment and "
        "what was collected, a fine the Town collects on the person's statement). Wappinger's § 122-20 Y amount is not configured, and the text "
        "of § 196-22 B before L.L. No. 5-2004 (2004-03-22) is not on file, so no amount is "
        "known for earlier days",
    ),
    (
        "§ 196-22 C",
        "Liability for the Town's expense, loss or damage",
        I,
        "the Town's costs are recorded against the violation, itemised, totalled and billed to "
        "the person responsible on one invoice, each cost once, a line per cost with its "
        "evidence; collecting an unpaid bill in court is for the Town Attorney",
    ),
    (
        "§ 196-22 D",
        "Injunction in Supreme Court",
        I,
        "only the request: the office records the referral to the Town Attorney for an "
        "injunction; the proceeding is for the Supreme Court",
    ),
    ("§ 196-23", "Construction of sewer mains by developers", R, ""),
    (
        "§ 196-23 A",
        "Phases I/II subdivisions provide public sewer",
        I,
        "a subdivision filed where public sewer is available must provide it; the "
        "standards of construction are the County's and the Town's",
    ),
    (
        "§ 196-23 B",
        "Phase III subdivisions on private systems until available",
        I,
        "a subdivision filed where public sewer is not yet available provides private "
        "systems; the later sewer mains follow the Town's act of availability",
    ),
    ("§ 196-23 C", "Fee based on estimated construction cost", I, ""),
    ("§ 196-23 D", "Copies of the article; design criteria", R, ""),
]
