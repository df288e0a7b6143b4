"""The coverage of a provision in the registry of Article VII, and the table's shorthand.

Each provision is ``implemented`` (computed by a rule, or carried out by the office),
``not_formalized`` (with the reason: judgment, the courts, another agency) or
``informational`` (a definition or statement the rules read but which decides nothing); a
package written from a model ordinance's template starts with every provision
``not_configured`` (its local choices, amounts and lists not yet written by the town). The
table's modules (:mod:`.section_table`) write them ``I``, ``N`` and ``R`` to stay readable.
"""

from __future__ import annotations

from enum import StrEnum


class Coverage(StrEnum):
    IMPLEMENTED = "implemented"
    NOT_FORMALIZED = "not_formalized"
    INFORMATIONAL = "informational"
    NOT_CONFIGURED = "not_configured"


I = Coverage.IMPLEMENTED  # noqa: E741 - short names keep the table below readable
N = Coverage.NOT_FORMALIZED
R = Coverage.INFORMATIONAL

JUDGMENT = "left to the judgment of the engineer/Superintendent"
OTHER_AGENCY = "a requirement of another agency (DEC, County Health Department, state codes)"
OFFICE = "an administrative duty recorded by the office, not a computation"

#: One row of the table: citation, heading, coverage, reason (or note).
Entry = tuple[str, str, Coverage, str]
