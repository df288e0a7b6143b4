"""Which provisions of Article VII impose a duty or a prohibition — what a person can violate.

§ 196-22 A speaks of "any person found to be violating any provision of this article", but
not every provision is one a person can violate: a definition (§ 196-15) says what a word
means, a fee sentence says what an application costs, a penalty section (§ 196-22) says what
follows a violation, a savings clause (§ 196-16 I, § 196-17 G) preserves other agencies'
requirements. None of them commands or forbids anything, so nothing can violate them, and a
violation (and its notice) is opened only under a provision that does.

Each provision is judged here by its own words, with the reason, keyed by citation. A
citation not listed takes the judgment of the provision that contains it (``§ 196-19 C(3)``
is under ``§ 196-19 C``; every defined term is under ``§ 196-15``). A whole section made of
subsections (``§ 196-19``) is refused: the notice must state the nature of the violation
(§ 196-22 A), so it cites the subsection that imposes the duty.

Federal requirements (40 CFR 403) that a finding may rest on are duties when they bind the
industrial user and the Town enforces them through the engineer's written approval
(§ 196-16 E) or an order: the prohibitions and categorical standards (403.5, 403.6),
compliance schedules (403.8(f)(1)(iv)), significant noncompliance (403.8(f)(2)(viii)) and
the user's reports (403.12). Analytical methods (40 CFR 136) govern the evidence, not the
user's conduct. Pure Python, no I/O but the bundled law text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .citations import Citation, CitationError
from .law import LawError, provision


class Nature(StrEnum):
    """What kind of rule a provision is."""

    DUTY = "duty"  # a command: "shall", "is required"
    PROHIBITION = "prohibition"  # "no person shall", "it shall be unlawful"
    FEDERAL = "federal"  # a federal pretreatment requirement the Town enforces
    DEFINITION = "definition"
    FEE = "fee"
    PENALTY = "penalty"  # penalties and the procedure that follows a violation
    SAVINGS = "savings"  # preserves others' requirements; imposes nothing itself
    POWER = "power"  # a power or duty of the Town or its officers, not of the user
    CHARGE = "charge"  # a payment billed (surcharge), not a prohibition
    EVIDENCE = "evidence"  # how measurements are made
    CONTAINER = "container"  # a section or heading made of subsections
    UNKNOWN = "unknown"  # not a provision of the article or of the federal rules accepted


#: The natures under which a person can be found violating the provision.
VIOLABLE = frozenset({Nature.DUTY, Nature.PROHIBITION, Nature.FEDERAL})


@dataclass(frozen=True)
class Duty:
    """The judgment on one cited provision: whether it can be violated, and why."""

    citation: str
    nature: Nature
    why: str
    #: The provision whose entry decided it (the citation itself or one containing it).
    decided_by: str

    @property
    def imposes(self) -> bool:
        return self.nature in VIOLABLE

    @property
    def refusal(self) -> str:
        """The sentence that refuses a violation under it (empty when it imposes a duty)."""
        if self.imposes:
            return ""
        return f"{self.citation} {self.why}"


P, D, N = Nature.PROHIBITION, Nature.DUTY, Nature.CONTAINER
_CITE_SUB = "is a section made of subsections: cite the subsection that imposes the duty"

#: Each provision's nature and the reason, in the words a refusal uses after the citation.
_ENTRIES: dict[str, tuple[Nature, str]] = {
    "§ 196-15": (
        Nature.DEFINITION,
        "is a definition: it imposes no duty, so nothing can violate it",
    ),
    # § 196-16 Use of public sewers required
    "§ 196-16": (N, _CITE_SUB),
    "§ 196-16 A": (P, "makes unsanitary deposits of excrement, garbage or waste unlawful"),
    "§ 196-16 B": (P, "makes untreated discharges to natural outlets unlawful"),
    "§ 196-16 C": (P, "makes privies, septic tanks and cesspools unlawful (save § 196-17)"),
    "§ 196-16 D": (D, "requires the engineer's consent before industrial waste is discharged"),
    "§ 196-16 E": (D, "requires the engineer's written approval of new industrial discharges"),
    "§ 196-16 F": (P, "forbids industrial cooling water without written approval"),
    "§ 196-16 G": (D, "requires developers of subdivisions to construct the sewers"),
    "§ 196-16 H": (D, "requires developers to construct building drains and sewers"),
    "§ 196-16 I": (
        Nature.SAVINGS,
        "is a savings clause: it preserves other agencies' requirements and imposes no duty "
        "of its own, so nothing can violate it",
    ),
    # § 196-17 Private wastewater disposal
    "§ 196-17": (N, _CITE_SUB),
    "§ 196-17 A": (D, "requires a complying private system where no public sewer is available"),
    "§ 196-17 B": (D, "requires Health Department approval before construction"),
    "§ 196-17 C": (
        Nature.POWER,
        "binds the Town (no certificate of occupancy until completion), not the owner: "
        "nothing a person can violate",
    ),
    "§ 196-17 D": (D, "requires State and County design; no septic tank to a natural outlet"),
    "§ 196-17 E": (D, "requires connection and abandonment once public sewer is available"),
    "§ 196-17 F": (D, "requires operation and maintenance in a sanitary manner"),
    "§ 196-17 G": (
        Nature.SAVINGS,
        "is a savings clause: it preserves the Health Officer's requirements and imposes no "
        "duty of its own, so nothing can violate it",
    ),
    # § 196-18 Building sewers and connections
    "§ 196-18": (N, _CITE_SUB),
    "§ 196-18 A": (P, "forbids work on the public sewer without permission"),
    "§ 196-18 B": (
        D,
        "requires the owner to apply for a building sewer permit on the Town's form (its fee "
        "sentences set what is paid with the application: a fee unpaid is collected, it is "
        "not a violation)",
    ),
    "§ 196-18 B(1)": (
        Nature.FEE,
        "is a class of building sewer permit and its fee: it imposes no duty (the duty to "
        "apply is § 196-18 B), so nothing can violate it",
    ),
    "§ 196-18 B(2)": (
        Nature.FEE,
        "is a class of building sewer permit and its fee: it imposes no duty (the duty to "
        "apply is § 196-18 B), so nothing can violate it",
    ),
    "§ 196-18 C": (
        Nature.CHARGE,
        "allocates costs and an indemnity to the owner: a civil liability recovered by "
        "claim, not a duty a notice can enforce",
    ),
    "§ 196-18 D": (D, "requires a separate building sewer for every building"),
    "§ 196-18 E": (P, "forbids reusing old building sewers unless examined and found fit"),
    "§ 196-18 F": (D, "requires four-inch pipe at 1/4 inch per foot, to code"),
    "§ 196-18 G": (D, "requires lifting where gravity flow is impossible"),
    "§ 196-18 H": (P, "forbids roof, sump, foundation and surface connections"),
    "§ 196-18 I": (D, "requires the connection to conform to State and County codes"),
    "§ 196-18 J": (D, "requires notice of readiness and connection under supervision"),
    "§ 196-18 K": (D, "requires a road opening permit before excavation"),
    "§ 196-18 L": (D, "requires excavations guarded and public property restored"),
    # § 196-19 Use of public sewers
    "§ 196-19": (N, _CITE_SUB),
    "§ 196-19 A": (P, "forbids storm, ground and unpolluted water in sanitary sewers"),
    "§ 196-19 B": (
        Nature.POWER,
        "directs storm and unpolluted water to storm sewers on the Town's or DEC's approval: "
        "it is not a prohibition of the article (that is § 196-19 A; discharges to storm "
        "sewers are DEC's to enforce), so nothing can violate it",
    ),
    "§ 196-19 C": (P, "forbids the listed discharges absolutely"),
    "§ 196-19 D": (
        P,
        "forbids the listed discharges where the engineer/Superintendent finds harm likely "
        "(the opinion is recorded under § 196-19 D, E)",
    ),
    "§ 196-19 E": (N, "is a heading made of subsections: cite the subsection"),
    "§ 196-19 E(1)": (
        D,
        "empowers the Superintendent to reject, require pretreatment or control rates: a "
        "requirement so imposed binds the user",
    ),
    "§ 196-19 E(1)(d)": (
        Nature.CHARGE,
        "is a payment for the added cost of treatment (a surcharge, § 196-19 J): it is "
        "billed, and abnormal strength is never a violation by itself",
    ),
    "§ 196-19 E(2)": (D, "requires pretreatment plants to be approved by the Superintendent"),
    "§ 196-19 F": (N, "is a heading made of subsections: cite the subsection"),
    "§ 196-19 F(1)": (D, "requires oil and sand interceptors where the Superintendent says"),
    "§ 196-19 F(2)": (D, "requires grease traps of food services, sized and accessible"),
    "§ 196-19 G": (D, "requires pretreatment maintained continuously in effective operation"),
    "§ 196-19 H": (D, "requires a control manhole when the Superintendent requires it"),
    "§ 196-19 I": (
        Nature.EVIDENCE,
        "says how measurements and samples are made: it governs the evidence, not the "
        "user's conduct, so nothing can violate it",
    ),
    "§ 196-19 J": (
        Nature.CHARGE,
        "permits special agreements for wastes of unusual strength, subject to payment: it "
        "imposes no duty (an agreement binds by its own terms), so nothing can violate it",
    ),
    "§ 196-19 K": (D, "requires categorical industries to conform to the national standard"),
    "§ 196-19 L": (D, "requires notice before flushing and unpolluted flushing water"),
    # § 196-20 .. § 196-23
    "§ 196-20": (P, "forbids damage to the works (referred at once for arrest)"),
    "§ 196-21": (N, _CITE_SUB),
    "§ 196-21 A": (D, "requires owners to admit the Town's, DEC's, County's and EPA's inspectors"),
    "§ 196-21 B": (D, "requires owners to admit Town staff to the Town's easements"),
    "§ 196-21 C": (
        Nature.POWER,
        "binds the Town's staff (safety rules) and allocates indemnity between the Town and "
        "the company: nothing a user can violate",
    ),
    "§ 196-21 D": (
        Nature.POWER,
        "names who enforces the chapter: it imposes no duty on a user, so nothing can violate it",
    ),
    "§ 196-22": (
        Nature.PENALTY,
        "is a penalty section: it says what follows a violation and imposes no duty of its "
        "own — cite the provision violated",
    ),
    "§ 196-23": (N, _CITE_SUB),
    "§ 196-23 A": (D, "requires Phase I/II subdivisions to provide public sewer"),
    "§ 196-23 B": (D, "requires Phase III subdivisions on private systems, then sewer mains"),
    "§ 196-23 C": (
        Nature.FEE,
        "is a fee section: it sets the fee of a sewer construction permit and imposes no "
        "duty, so nothing can violate it",
    ),
    "§ 196-23 D": (
        Nature.FEE,
        "is a fee section (copies of the article) and a reference to design standards: it "
        "imposes no duty, so nothing can violate it",
    ),
}

#: The federal requirements accepted (40 CFR 403), by prefix, each with its reason.
FEDERAL: dict[str, str] = {
    "40 CFR 403.5": "is a federal prohibition the Town enforces through the approval",
    "40 CFR 403.6": "is a categorical pretreatment standard binding the user",
    "40 CFR 403.8(f)(1)(iv)": "is a compliance schedule imposed on the user",
    "40 CFR 403.8(f)(2)(viii)": "is significant noncompliance with the user's requirements",
    "40 CFR 403.12": "is a reporting duty of the user, a condition of its approval",
}

#: The parsed entries; every section of the article is keyed, so a parent always decides.
_JUDGED: dict[Citation, tuple[Nature, str]] = {Citation.parse(k): v for k, v in _ENTRIES.items()}


def _federal(text: str) -> Duty:
    for prefix, why in FEDERAL.items():
        if text == prefix or text.startswith((prefix + "(", prefix + " ")):
            return Duty(text, Nature.FEDERAL, why, prefix)
    return Duty(
        text,
        Nature.UNKNOWN,
        "is not a provision of the article nor a federal requirement the Town enforces on "
        "the user (accepted: " + ", ".join(FEDERAL) + ")",
        "",
    )


def judge(citation: Citation) -> Duty:
    """The judgment on an article citation, from its own entry or the nearest containing one."""
    text = str(citation)
    try:
        provision(citation)
    except LawError:
        return Duty(text, Nature.UNKNOWN, "is not a provision of the article", "")
    current: Citation | None = citation
    while current is not None:
        if current in _JUDGED:
            nature, why = _JUDGED[current]
            if nature is Nature.CONTAINER and current != citation:
                break  # a heading decides nothing for what it contains
            return Duty(text, nature, why, str(current))
        current = current.parent
    # Under a heading (e.g. § 196-19 E) with no entry of its own: the heading's subsections
    # are judged one by one, so an unjudged one is a gap in this table, said plainly.
    return Duty(text, Nature.UNKNOWN, "is not judged by the table of duties", "")


def _one(text: str) -> Duty:
    if text.startswith("§"):
        try:
            return judge(Citation.parse(text))
        except CitationError as e:
            return Duty(text, Nature.UNKNOWN, f"is not a citation of the article ({e})", "")
    return _federal(text)


def duty_of(text: str) -> Duty:
    """The judgment on a cited provision, as text: ``§ 196-19 C(3)``, ``§ 196-15 TOWN``,
    ``40 CFR 403.12(e)``. A compound citation (``40 CFR 403.8(f)(2)(viii); § 196-19 C(3)``,
    a slug's ``§ 196-15 SLUG; § 196-19 D(9)(d)``) imposes a duty when one of its provisions
    does (a definition cited beside it explains, it is not what was violated); when none
    does, the first one's refusal is given."""
    parts = [p.strip() for p in text.split(";") if p.strip()] or [text.strip()]
    judged = [_one(p) for p in parts]
    return next((d for d in judged if d.imposes), judged[0])


def imposes_duty(text: str) -> bool:
    """Whether a person can be found violating the cited provision."""
    return duty_of(text).imposes
