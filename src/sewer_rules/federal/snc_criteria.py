"""40 CFR 403.8(f)(2)(viii) — the criteria of significant noncompliance, cited by letter.

40 CFR 403.8(f)(2)(viii): "... an Industrial User is in significant noncompliance if its
violation meets one or more of the following criteria:" (A) to (H). Each criterion is quoted
beside the code that computes it: (A) and (B) in :mod:`.snc_chronic_and_trc`, (F) in
:mod:`.snc_late_reports`. The others are determinations of staff, recorded in the office
(:data:`STAFF_CRITERIA`):

(C) Any other violation ... that the Control Authority determines has caused, alone or in
    combination with other Discharges, Interference or Pass Through, including endangering the
    health of POTW personnel or the general public;
(D) Any discharge of a pollutant that has caused imminent endangerment to the public or to the
    environment, or has resulted in the Control Authority's exercise of its emergency authority
    to halt or prevent such a discharge;
(E) Failure to meet, within 90 days of the scheduled date, a compliance schedule milestone ...;
(G) Failure to accurately report noncompliance;
(H) Any other violation(s) ... which the Control Authority determines will adversely affect
    the operation or implementation of the local pretreatment program.
"""

from __future__ import annotations

from sewer_rules.citations import ExternalReference

#: The criteria the software does not compute: staff determine them, the office records them.
STAFF_CRITERIA = ("C", "D", "E", "G", "H")


def criterion(letter: str) -> ExternalReference:
    """The citation of one criterion, ``40 CFR 403.8(f)(2)(viii)(A)``."""
    return ExternalReference(f"40 CFR 403.8(f)(2)(viii)({letter})")
