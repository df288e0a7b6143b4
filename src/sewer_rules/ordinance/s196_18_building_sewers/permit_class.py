"""§ 196-18 B — the two classes of building sewer permit and their fees.

§ 196-18 B: "There shall be two classes of building sewer permits: (1) For residential and
commercial service; and (2) For service to establishments producing industrial wastes. ... A
permit and inspection fee as set from time to time by resolution of the Town Board for a
residential or commercial building sewer permit shall be paid to the Town at the time the
application is filed. A permit and inspection fee as set from time to time by resolution of the
Town Board for an industrial permit shall be paid to the Town at the time the application is
filed."

The class is the rule's, from what the application states (its use, the industrial wastes it
declares, the sources its design connects), never the applicant's word alone: a declared class
that disagrees is the clerk's to see (the office flags it), and the fee is the rule's class
fee.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements

#: What an application may state as the use of the service (§ 196-18 B(1), B(2)).
RESIDENTIAL = "residential"
COMMERCIAL = "commercial"
INDUSTRIAL = "industrial"
USES = (RESIDENTIAL, COMMERCIAL, INDUSTRIAL)
#: The connected sources of a design that are industrial wastes (§ 196-15 INDUSTRIAL WASTES:
#: "the liquid wastes from industrial manufacturing processes ... as distinct from sanitary
#: sewage").
INDUSTRIAL_SOURCES = frozenset({"industrial_process_waste"})
CLASS_TEXT = {
    1: "class 1 — residential and commercial service, § 196-18 B(1)",
    2: "class 2 — service to an establishment producing industrial wastes, § 196-18 B(2)",
}


@dataclass(frozen=True)
class PermitClass:
    """The class a building sewer permit takes by the rule, and why (for the applicant and the
    clerk): ``text`` is "class 2 — service to an establishment producing industrial wastes,
    § 196-18 B(2)"."""

    permit_class: int
    reasons: tuple[str, ...]

    @property
    def citation(self) -> str:
        return f"§ 196-18 B({self.permit_class})"

    @property
    def text(self) -> str:
        return CLASS_TEXT[self.permit_class]


@implements("§ 196-18 B", "§ 196-18 B(1)", "§ 196-18 B(2)")
def permit_class(
    produces_industrial_wastes: bool = False,
    *,
    use: str = "",
    wastes: str = "",
    connected_sources: Iterable[str] = (),
) -> int:
    """The class of building sewer permit a service needs.

    § 196-18 B: "There shall be two classes of building sewer permits: (1) For residential and
    commercial service; and (2) For service to establishments producing industrial wastes."

    Class 2 when the establishment produces industrial wastes by what the application states:
    ``produces_industrial_wastes``; the use ``industrial``; industrial wastes it declares
    (``wastes``, any text describing them); or a connected source that is an industrial
    waste (``industrial_process_waste``). Otherwise class 1: a commercial use discharging
    sanitary sewage only is class 1, as the law names "commercial service" in class 1.
    """
    return classify_service(
        use=use,
        wastes=wastes,
        connected_sources=connected_sources,
        produces_industrial_wastes=produces_industrial_wastes,
    ).permit_class


@implements("§ 196-18 B", "§ 196-18 B(1)", "§ 196-18 B(2)")
def classify_service(
    *,
    use: str = "",
    wastes: str = "",
    connected_sources: Iterable[str] = (),
    produces_industrial_wastes: bool = False,
) -> PermitClass:
    """:func:`permit_class` with its reasons, for the application page and the clerk's flag."""
    if use and use not in USES:
        raise ValueError(f"use {use!r} is not one of {', '.join(USES)} (§ 196-18 B)")
    reasons: list[str] = []
    if produces_industrial_wastes:
        reasons.append("the application states that the establishment produces industrial wastes")
    if use == INDUSTRIAL:
        reasons.append("the stated use is an establishment producing industrial wastes")
    if wastes.strip():
        reasons.append(f"the application declares industrial wastes: {wastes.strip()}")
    sources = sorted(set(connected_sources) & INDUSTRIAL_SOURCES)
    if sources:
        reasons.append("the design connects " + ", ".join(s.replace("_", " ") for s in sources))
    if reasons:
        return PermitClass(2, tuple(reasons))
    stated = use or "not stated"
    return PermitClass(
        1, (f"use {stated}; no industrial wastes declared or connected (sanitary sewage only)",)
    )


@implements("§ 196-18 B", "§ 196-18 B(1)", "§ 196-18 B(2)")
def permit_fee(permit_class: int, params: ParameterSet, on: date) -> ParameterValue:
    """The permit and inspection fee of a building sewer permit of ``permit_class`` on ``on``.

    § 196-18 B: "... A permit and inspection fee as set from time to time by resolution of the
    Town Board for a residential or commercial building sewer permit shall be paid to the Town
    at the time the application is filed. A permit and inspection fee as set from time to time
    by resolution of the Town Board for an industrial permit shall be paid to the Town at the
    time the application is filed."

    Class 1 reads ``fee.building_sewer.class_1``, class 2 ``fee.building_sewer.class_2``, in
    force on ``on`` (the day the application is filed). A ``None`` value means the Town Board's
    resolution is not recorded: the fee is *not configured*, never assumed.
    """
    if permit_class not in (1, 2):
        raise ValueError(
            f"§ 196-18 B knows two classes of building sewer permit (1 and 2), not {permit_class!r}"
        )
    return params.get(f"fee.building_sewer.class_{permit_class}", on)
