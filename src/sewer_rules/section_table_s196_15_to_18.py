"""The registry's table, §§ 196-15 to 196-18: definitions, use of public sewers required,
private wastewater disposal, building sewers and connections (:mod:`.section_table`)."""

from __future__ import annotations

from .section_coverage import OFFICE, OTHER_AGENCY, Entry, I, N, R

DEFINITIONS_TO_BUILDING_SEWERS: list[Entry] = [
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
    ("§ 196-16 C", "Privies, septic tanks, cesspools", N, OFFICE + " (private systems, § 196-17)"),
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
    ("§ 196-17 B", "Health Department approval before construction", N, OTHER_AGENCY),
    ("§ 196-17 C", "Certificate of occupancy after completion", N, OFFICE),
    ("§ 196-17 D", "Design per State and County health rules", N, OTHER_AGENCY),
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
    ("§ 196-18 I", "Connection per State and County codes", N, OTHER_AGENCY),
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
]
