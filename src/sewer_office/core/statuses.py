"""Plain words and one colour for every status the office shows.

A finding's status is stored as the rules' code (``abnormal_strength``) and the API keeps it;
a page shows its label (``Abnormal strength``) in the colour that means the same everywhere:
red for a prohibited discharge, amber for what needs review, grey-blue for abnormal strength
and no limit (surcharge-level or informative), green for compliant. The ``status`` template
tag (:mod:`sewer_office.core.templatetags.office`) draws its badge with
these; every page that shows a status uses it.

Severity orders the review queues: violations (prohibited, review) before surcharge-level
findings, the most severe first (:data:`SEVERITY`, the rules' own order).
"""

from __future__ import annotations

from typing import Final

from sewer_rules.findings import Status

#: code → label shown on pages.
STATUS_LABELS: Final[dict[str, str]] = {
    Status.PROHIBITED: "Prohibited",
    Status.REVIEW: "Needs review",
    Status.INCONCLUSIVE: "Inconclusive",
    Status.ABNORMAL_STRENGTH: "Abnormal strength",
    Status.NO_LIMIT: "No limit",
    Status.COMPLIANT: "Compliant",
}

#: code → tone (a CSS class ``tone-<tone>``): the same colour on every page.
STATUS_TONES: Final[dict[str, str]] = {
    Status.PROHIBITED: "red",
    Status.REVIEW: "amber",
    Status.INCONCLUSIVE: "amber",
    Status.ABNORMAL_STRENGTH: "slate",
    Status.NO_LIMIT: "slate",
    Status.COMPLIANT: "green",
}

#: code → rank, 0 the most severe (the rules' order: violations first).
SEVERITY: Final[dict[str, int]] = {s.value: s.rank for s in Status}

#: The statuses that are violations of the article (``sewer-use check`` exits 1 on them).
VIOLATIONS: Final[frozenset[str]] = frozenset(s.value for s in Status if s.is_violation)

#: Choices for a filter: (code, label), most severe first.
STATUS_CHOICES: Final[tuple[tuple[str, str], ...]] = tuple(
    (s.value, STATUS_LABELS[s]) for s in Status
)


def status_label(code: str) -> str:
    """The label of a status code; an unknown code in plain words (``a_b`` → ``A b``)."""
    if code in STATUS_LABELS:
        return STATUS_LABELS[code]
    text = str(code).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def status_tone(code: str) -> str:
    return STATUS_TONES.get(code, "neutral")
