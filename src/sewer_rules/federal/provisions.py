"""The federal provisions the software cites, each at the depth it is cited, with its subject.

The article's own text ships with the jurisdiction, so its citations are checked against the
words of the law (:mod:`sewer_rules.law`). The Code of Federal Regulations does not ship; what
the software relies on of it is this list: a citation of ``40 CFR …`` anywhere in the code must
name one of these provisions exactly (tests/test_citations_in_code.py), so that a typo, a
paragraph that does not exist in the rule or a citation one level too shallow or too deep is
caught like one of the article's. A new federal rule enters the code by being listed here
first, with its subject in a few words.

The subjects are those of the eCFR's headings and paragraphs as the software uses them (Title
40, Chapter I: Part 3 electronic reporting; Part 136 test procedures; Parts 141 and 143
drinking water, used only as stand-ins for "unpolluted water"; Part 401 general effluent
provisions; Part 403 general pretreatment regulations).
"""

from __future__ import annotations

from functools import cache

from sewer_rules.citations import CitationError, FederalCitation

#: Every federal provision the code cites, as written, and its subject.
SUBJECTS: dict[str, str] = {
    "40 CFR 3": "Cross-Media Electronic Reporting (CROMERR)",
    "40 CFR 3.2000": "CROMERR: electronic reporting to an authorized program",
    "40 CFR 3.2000(b)(5)": "electronic signatures: what a valid signature requires",
    "40 CFR 3.2000(b)(5)(vi)": "electronic signatures: the signatory's acknowledgment",
    "40 CFR 127": "NPDES electronic reporting (the annual pretreatment report to ICIS-NPDES)",
    "40 CFR 136": "test procedures for the analysis of pollutants",
    "40 CFR 136.3": "identification of test procedures (approved methods)",
    "40 CFR 136.3(e)": "sample preservation and maximum holding times (Table II)",
    "40 CFR 141.80": "lead and copper: general requirements and action levels",
    "40 CFR 143.3": "secondary maximum contaminant levels",
    "40 CFR 261": "identification and listing of hazardous waste",
    "40 CFR 261.30(d)": "acute hazardous wastes of the lists (marked H)",
    "40 CFR 261.33(e)": "acute hazardous commercial chemical products (the P list)",
    "40 CFR 401.17": "pH effluent limitations under continuous monitoring",
    "40 CFR 403": "general pretreatment regulations",
    "40 CFR 403.3(f)": "definition: Control Authority",
    "40 CFR 403.3(v)": "definition: significant industrial user",
    "40 CFR 403.3(v)(1)": "significant industrial user: who is one",
    "40 CFR 403.3(v)(1)(i)": "significant industrial user: subject to categorical standards",
    "40 CFR 403.3(v)(1)(ii)": "significant industrial user: 25,000 gpd, 5 % or reasonable potential",
    "40 CFR 403.3(v)(2)": "finding that an industrial user is not significant",
    "40 CFR 403.5": "national pretreatment standards: prohibited discharges",
    "40 CFR 403.5(c)": "specific prohibitions: local limits the POTW develops",
    "40 CFR 403.6": "national pretreatment standards: categorical standards",
    "40 CFR 403.6(a)(2)(ii)": "the certification statement of a signed submission",
    "40 CFR 403.8(f)(1)(iii)": "control mechanisms (permits) for industrial users, at most five years",
    "40 CFR 403.8(f)(1)(iii)(B)": "what an SIU's individual control mechanism contains, at a minimum",
    "40 CFR 403.8(f)(1)(iii)(B)(1)": "control mechanism: statement of duration, at most five years",
    "40 CFR 403.8(f)(1)(iii)(B)(2)": "control mechanism: statement of non-transferability",
    "40 CFR 403.8(f)(1)(iii)(B)(3)": "control mechanism: effluent limits, including BMPs",
    "40 CFR 403.8(f)(1)(iii)(B)(4)": "control mechanism: self-monitoring, reporting, recordkeeping",
    "40 CFR 403.8(f)(1)(iii)(B)(5)": "control mechanism: penalties and any compliance schedule",
    "40 CFR 403.8(f)(1)(iii)(B)(6)": "control mechanism: slug discharge control, where necessary",
    "40 CFR 403.8(f)(1)(iv)": "legal authority to require compliance schedules and reports",
    "40 CFR 403.8(f)(2)(v)": "the Control Authority inspects and samples each SIU once a year",
    "40 CFR 403.8(f)(2)(viii)": "significant noncompliance: criteria and annual publication",
    "40 CFR 403.8(f)(2)(viii)(A)": "significant noncompliance: chronic violations (66 %)",
    "40 CFR 403.8(f)(2)(viii)(B)": "significant noncompliance: technical review criteria (33 %)",
    "40 CFR 403.8(f)(2)(viii)(E)": "significant noncompliance: a milestone 90 days late",
    "40 CFR 403.8(f)(2)(viii)(F)": "significant noncompliance: a report 45 days late",
    "40 CFR 403.8(f)(5)": "the enforcement response plan",
    "40 CFR 403.8(f)(5)(i)": "enforcement response plan: how noncompliance is investigated",
    "40 CFR 403.8(f)(5)(ii)": "enforcement response plan: escalating responses, time periods",
    "40 CFR 403.8(f)(5)(iii)": "enforcement response plan: the officials responsible, by title",
    "40 CFR 403.12": "reporting requirements for POTWs and industrial users",
    "40 CFR 403.12(b)": "baseline monitoring reports",
    "40 CFR 403.12(b)(1)": "baseline report: identifying information",
    "40 CFR 403.12(b)(2)": "baseline report: environmental permits held",
    "40 CFR 403.12(b)(3)": "baseline report: description of operations",
    "40 CFR 403.12(b)(4)": "baseline report: flow measurement",
    "40 CFR 403.12(b)(5)": "baseline report: measurement of pollutants",
    "40 CFR 403.12(b)(6)": "baseline report: certification of compliance with the standards",
    "40 CFR 403.12(b)(7)": "baseline report: compliance schedule",
    "40 CFR 403.12(c)": "compliance schedule progress reports",
    "40 CFR 403.12(d)": "report on compliance with the categorical deadline",
    "40 CFR 403.12(e)": "periodic reports on continued compliance",
    "40 CFR 403.12(g)": "monitoring and analysis to demonstrate continued compliance",
    "40 CFR 403.12(g)(2)": "a violation in the user's own sampling: notice, repeat within 30 days",
    "40 CFR 403.12(g)(3)": "grab samples for pH, cyanide, phenols, oil and grease, sulfide, VOCs",
    "40 CFR 403.12(h)": "reports of industrial users not subject to categorical standards",
    "40 CFR 403.12(i)": "annual POTW reports",
    "40 CFR 403.12(l)": "signatories and certification of reports",
    "40 CFR 403.12(p)": "notification of the discharge of hazardous waste",
    "40 CFR 403.12(p)(1)": "hazardous waste notice: what it names, above 100 kg a month, 180 days",
    "40 CFR 403.12(p)(2)": "hazardous waste notice: months of 15 kg or less, acute wastes",
    "40 CFR 403.12(p)(4)": "hazardous waste notice: certification of a waste-reduction program",
}


@cache
def federal_provisions() -> dict[FederalCitation, str]:
    """The list as parsed citations (a malformed entry fails at once, naming it)."""
    out: dict[FederalCitation, str] = {}
    for text, subject in SUBJECTS.items():
        c = FederalCitation.parse(text)
        if str(c) != text:
            raise CitationError(f"federal provision {text!r} is not written as it reads back")
        out[c] = subject
    return out


def federal_subject(citation: FederalCitation | str) -> str:
    """The subject of a listed federal provision; CitationError naming it when unlisted."""
    c = FederalCitation.parse(citation) if isinstance(citation, str) else citation
    try:
        return federal_provisions()[c]
    except KeyError:
        raise CitationError(
            f"{c} is not among the federal provisions the software relies on "
            "(sewer_rules.federal.provisions lists them)"
        ) from None
