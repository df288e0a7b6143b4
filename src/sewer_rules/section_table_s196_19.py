"""The registry's table, § 196-19: use of public sewers — what may be discharged, and the
Superintendent's options (:mod:`.section_table`)."""

from __future__ import annotations

from .section_coverage import JUDGMENT, OTHER_AGENCY, Entry, I, N, R

USE_OF_PUBLIC_SEWERS: list[Entry] = [
    # § 196-19 Use of public sewers
    ("§ 196-19", "Use of public sewers", R, ""),
    (
        "§ 196-19 A",
        "No storm or unpolluted water to sanitary sewers",
        N,
        "sources are found by inspection; see § 196-18 H for connections",
    ),
    ("§ 196-19 B", "Storm and unpolluted drainage to storm sewers", N, OTHER_AGENCY),
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
        "'unusual' is " + JUDGMENT,
    ),
    ("§ 196-19 D(9)(b)", "Excessive discoloration", N, "'excessive' is " + JUDGMENT),
    (
        "§ 196-19 D(9)(c)",
        "Unusual BOD, COD or chlorine demand",
        N,
        "'significant load' is " + JUDGMENT,
    ),
    ("§ 196-19 D(9)(d)", "Slugs; immediate report", I, ""),
    ("§ 196-19 D(10)", "Wastes not amenable to treatment", N, JUDGMENT),
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
]
