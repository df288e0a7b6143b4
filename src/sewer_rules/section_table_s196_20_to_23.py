"""The registry's table, §§ 196-20 to 196-23: protection from damage, powers and authority of
inspectors, penalties for offenses, construction of sewer mains by developers
(:mod:`.section_table`)."""

from __future__ import annotations

from .section_coverage import Entry, I, N, R

INSPECTION_TO_DEVELOPERS: list[Entry] = [
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
