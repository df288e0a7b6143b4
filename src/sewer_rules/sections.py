"""The registry of Article VII: every section and subsection, and what the software does with it.

Learned from Catala: what cannot be computed is marked so, explicitly. Each entry is

- ``implemented`` — computed by the functions that declare it with :func:`implements`, or
  carried out by the office (``sewer_office``), whose functions are named in :data:`OFFICE`
  (names only: this package imports nothing of the office; tests/office checks they exist and
  cite the provision);
- ``not_formalized`` — a matter of judgment, of the courts, or of another agency, with the reason;
- ``informational`` — a definition or statement the rules read but which decides nothing itself.

``sewer-use sections`` prints the registry with its coverage. Tests fail when code cites a
subsection that is not here, when an ``implemented`` entry has no function, or when a
function implements an entry not marked ``implemented``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import TYPE_CHECKING, TypeVar

from .citations import Citation, CitationError
from .law import Provision, provision

if TYPE_CHECKING:  # the parameters (YAML, units) load only when a section is explained
    from .parameters import ParameterSet, ParameterValue


class Coverage(StrEnum):
    IMPLEMENTED = "implemented"
    NOT_FORMALIZED = "not_formalized"
    INFORMATIONAL = "informational"


@dataclass(frozen=True)
class Section:
    citation: Citation
    heading: str
    coverage: Coverage
    reason: str = ""
    #: The office's functions that carry the provision out (dotted names, :data:`OFFICE`).
    office: tuple[str, ...] = ()


_IMPLEMENTERS: dict[Citation, list[str]] = defaultdict(list)

F = TypeVar("F", bound=Callable[..., object])


def implements(*citations: str) -> Callable[[F], F]:
    """Declare that a function computes the cited subsections (recorded in the registry)."""

    def mark(func: F) -> F:
        name = f"{func.__module__}.{func.__qualname__}"
        for text in citations:
            _IMPLEMENTERS[Citation.parse(text)].append(name)
        return func

    return mark


def declare(citation: str, name: str) -> None:
    """Record a rule object (not a function) that implements ``citation``."""
    _IMPLEMENTERS[Citation.parse(citation)].append(name)


def implementers() -> dict[Citation, list[str]]:
    """Every cited subsection and the functions implementing it (after importing the rules)."""
    _load_rules()
    return {c: sorted(set(names)) for c, names in _IMPLEMENTERS.items()}


def _load_rules() -> None:
    import importlib
    import pkgutil

    from . import federal, ordinance

    for pkg in (ordinance, federal):
        for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            importlib.import_module(mod.name)
    importlib.import_module("sewer_rules.evaluation.classify")
    importlib.import_module("sewer_rules.monitoring")
    importlib.import_module("sewer_rules.network")


I = Coverage.IMPLEMENTED  # noqa: E741 - short names keep the table below readable
N = Coverage.NOT_FORMALIZED
R = Coverage.INFORMATIONAL

_JUDGMENT = "left to the judgment of the engineer/Superintendent"
_OTHER_AGENCY = "a requirement of another agency (DEC, County Health Department, state codes)"
_OFFICE = "an administrative duty recorded by the office, not a computation"

_ENTRIES: list[tuple[str, str, Coverage, str]] = [
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
        N,
        "the engineer's consent is a decision recorded by the office",
    ),
    (
        "§ 196-16 E",
        "Written approval of new industrial discharges",
        N,
        "the engineer's written approval is a decision recorded by the office",
    ),
    (
        "§ 196-16 F",
        "Industrial cooling water by written approval",
        N,
        "the engineer's written approval is a decision recorded by the office",
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
        N,
        "availability is a dated act of the Town recorded by the office",
    ),
    ("§ 196-17 B", "Health Department approval before construction", N, _OTHER_AGENCY),
    ("§ 196-17 C", "Certificate of occupancy after completion", N, _OFFICE),
    ("§ 196-17 D", "Design per State and County health rules", N, _OTHER_AGENCY),
    ("§ 196-17 E", "Connection when public sewer becomes available", N, _OFFICE),
    (
        "§ 196-17 F",
        "Operation in a sanitary manner at the owner's expense",
        N,
        "a fact found by inspection",
    ),
    ("§ 196-17 G", "Health Officer's requirements preserved", R, ""),
    # § 196-18 Building sewers and connections
    ("§ 196-18", "Building sewers and connections", R, ""),
    ("§ 196-18 A", "Permission before uncovering or connecting", N, _OFFICE),
    ("§ 196-18 B", "Two classes of building sewer permits", I, ""),
    ("§ 196-18 B(1)", "Residential and commercial service", I, ""),
    ("§ 196-18 B(2)", "Establishments producing industrial wastes", I, ""),
    ("§ 196-18 C", "Costs borne by the owner; indemnity", N, "a matter of contract and the courts"),
    ("§ 196-18 D", "A separate building sewer for every building", I, ""),
    (
        "§ 196-18 E",
        "Old building sewers, on the Superintendent's examination",
        N,
        "the Superintendent's examination is a decision recorded by the office",
    ),
    ("§ 196-18 F", "Four-inch minimum, 1/4 inch per foot", I, ""),
    ("§ 196-18 G", "Elevation below the basement floor; lifting", I, ""),
    ("§ 196-18 H", "No roof, sump, foundation or surface connections", I, ""),
    ("§ 196-18 I", "Connection per State and County codes", N, _OTHER_AGENCY),
    ("§ 196-18 J", "Notice of readiness; connection under supervision", N, _OFFICE),
    ("§ 196-18 K", "Road opening permit before excavation", N, _OFFICE),
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
    ("§ 196-19 C(2)", "Toxic substances; cyanides over 2 mg/l", I, ""),
    ("§ 196-19 C(3)", "pH lower than 5.5", I, ""),
    ("§ 196-19 C(4)", "Obstructing solids", N, "no numeric limit; found by inspection"),
    ("§ 196-19 C(5)", "Plant influent above 40 °C", I, ""),
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
    ("§ 196-19 D(5)", "Metals over the Superintendent's limits", I, ""),
    ("§ 196-19 D(6)", "Phenols over the Superintendent's limits", I, ""),
    ("§ 196-19 D(7)", "Radioactive wastes over the Superintendent's limits", I, ""),
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
    ("§ 196-19 E(1)(d)", "Payment for added cost (surcharge)", I, ""),
    ("§ 196-19 E(2)", "Pretreatment plant approval", N, "design review by the Superintendent"),
    ("§ 196-19 F", "Oil and sand interceptors; grease traps", R, ""),
    (
        "§ 196-19 F(1)",
        "Oil and sand interceptors",
        N,
        "required in the Superintendent's opinion; recorded by the office",
    ),
    ("§ 196-19 F(2)", "Grease traps for food preparation", I, ""),
    ("§ 196-19 G", "Pretreatment maintained continuously", N, "a fact found by inspection"),
    (
        "§ 196-19 H",
        "Control manhole when required",
        N,
        "required by the Superintendent; recorded by the office",
    ),
    ("§ 196-19 I", "Standard Methods; control manhole; sample type", I, ""),
    ("§ 196-19 J", "Special agreements for unusual strength", I, ""),
    (
        "§ 196-19 K",
        "National categorical standards",
        N,
        "categorical limits enter as permit limits (sewer-use check --limits)",
    ),
    ("§ 196-19 L", "Notice before flushing nonresidential building sewers", N, _OFFICE),
    # § 196-20 .. § 196-23
    (
        "§ 196-20",
        "Protection from damage",
        I,
        "referred at once to the police for arrest (disorderly conduct), no notice and no "
        "correction clock; the arrest and the charge are for the police and the court",
    ),
    ("§ 196-21", "Powers and authority of inspectors", R, ""),
    ("§ 196-21 A", "Entry for inspection and sampling", N, _OFFICE),
    ("§ 196-21 B", "Entry on easements", N, _OFFICE),
    ("§ 196-21 C", "Safety rules and indemnity", N, "a matter of contract and the courts"),
    (
        "§ 196-21 D",
        "Enforcement by the Superintendent of Highways and police",
        I,
        "only as referrals: the office records the matters it refers to the police (and the "
        "Town Attorney); the Highway Superintendent reads every violation but has no "
        "enforcement action of its own in the office",
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
        "fines are accrued day by day at the amount in force, to the verified correction, "
        "shown as accrued, subject to conviction (a court convicts and fines); Wappinger's "
        "daily amount is not configured",
    ),
    (
        "§ 196-22 C",
        "Liability for the Town's expense, loss or damage",
        I,
        "the Town's costs are recorded against the violation, itemised, and totalled; "
        "recovering them is a claim for the Town Attorney, not computed",
    ),
    (
        "§ 196-22 D",
        "Injunction in Supreme Court",
        I,
        "only the request: the office records the referral to the Town Attorney for an "
        "injunction; the proceeding is for the Supreme Court",
    ),
    ("§ 196-23", "Construction of sewer mains by developers", R, ""),
    ("§ 196-23 A", "Phases I/II subdivisions provide public sewer", N, _OFFICE),
    ("§ 196-23 B", "Phase III subdivisions on private systems until available", N, _OFFICE),
    ("§ 196-23 C", "Fee based on estimated construction cost", I, ""),
    ("§ 196-23 D", "Copies of the article; design criteria", R, ""),
]

_ENF = "sewer_office.enforcement"

#: What the office does with a provision: the functions (dotted names) that carry it out.
#: The office's records — notices served, corrections verified, costs, referrals — are how
#: these provisions are applied; nothing here is claimed beyond what those functions do.
OFFICE: dict[str, tuple[str, ...]] = {
    "§ 196-20": (f"{_ENF}.services.open_violation",),
    "§ 196-21 D": (f"{_ENF}.services.effect_refer",),
    "§ 196-22 A": (
        f"{_ENF}.services.open_violation",
        f"{_ENF}.services.effect_issue",
        f"{_ENF}.services.effect_serve",
        f"{_ENF}.letters.notice_pdf",
        f"{_ENF}.services.effect_report",
    ),
    "§ 196-22 B": (
        f"{_ENF}.services.fines",
        f"{_ENF}.services.advance_clocks",
        f"{_ENF}.services.effect_verify",
        f"{_ENF}.services.effect_escalate",
    ),
    "§ 196-22 C": (f"{_ENF}.services.record_cost", f"{_ENF}.services.costs_total"),
    "§ 196-22 D": (f"{_ENF}.services.effect_escalate", f"{_ENF}.services.effect_refer"),
}

REGISTRY: dict[Citation, Section] = {}
for _text, _heading, _coverage, _reason in _ENTRIES:
    _c = Citation.parse(_text)
    if _c in REGISTRY:
        raise RuntimeError(f"{_text} is registered twice")
    REGISTRY[_c] = Section(_c, _heading, _coverage, _reason, OFFICE.get(_text, ()))
for _text in OFFICE:
    if Citation.parse(_text) not in REGISTRY:
        raise RuntimeError(f"OFFICE names {_text}, which is not registered")


def coverage_counts() -> dict[Coverage, int]:
    counts = dict.fromkeys(Coverage, 0)
    for s in REGISTRY.values():
        counts[s.coverage] += 1
    return counts


class UnknownSection(LookupError):
    """A citation that names no provision of the article (or is not a citation at all)."""


@dataclass(frozen=True)
class Explanation:
    """One provision with everything the software knows of it: the law beside the code."""

    section: Section
    provision: Provision
    implemented_by: tuple[str, ...]
    parameters: tuple[ParameterValue, ...]

    @property
    def in_office(self) -> tuple[str, ...]:
        """The office's functions that carry the provision out."""
        return self.section.office


def section(citation: Citation | str) -> Section:
    """The registry entry of a citation; UnknownSection with a clear message otherwise."""
    try:
        c = Citation.parse(citation) if isinstance(citation, str) else citation
    except CitationError as e:
        raise UnknownSection(f'{e} (cite as "§ 196-19 C(3)" or "§ 196-15 SLUG")') from None
    try:
        return REGISTRY[c]
    except KeyError:
        raise UnknownSection(
            f"{c} is not a section or subsection of Article VII "
            "(`sewer-use sections` lists them all)"
        ) from None


def parameters_authorised_by(
    citation: Citation, params: ParameterSet, on: date
) -> tuple[ParameterValue, ...]:
    """The parameters whose authorising section (``reference``) is exactly ``citation``."""
    found = []
    for p in params:
        try:
            ref = Citation.parse(p.reference)
        except CitationError:
            continue  # a federal reference (40 CFR ...) authorises it, not the article
        if ref == citation:
            found.append(params.get(p.name, on))
    return tuple(found)


def explain(citation: Citation | str, params: ParameterSet, on: date) -> Explanation:
    """The text, status, implementing functions and parameters of one provision."""
    entry = section(citation)
    return Explanation(
        entry,
        provision(entry.citation),
        tuple(implementers().get(entry.citation, [])),
        parameters_authorised_by(entry.citation, params, on),
    )
