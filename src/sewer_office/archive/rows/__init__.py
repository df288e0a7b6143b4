"""The rows of an import of records of the past, read and checked: what each would create.

Every row of every file is checked before anything is written (:func:`plan`); a problem is
listed with its file, row (the header is row 1) and field, and one problem anywhere refuses the
whole import. The columns of each file, what each means and the rules are documented in
``docs/past-records.md``; :data:`~.columns.COLUMNS` is their list here (a column not listed
refuses the file, so that a misspelt column never silently loses what it holds).

Who and where are matched, never created (:mod:`.lookups`): a record that names someone the
registry lacks is refused, naming the row: register the person (or the facility) first, then
import.

The parts: :mod:`.columns` (the files and their columns, reading a CSV file), :mod:`.values`
(one cell as a value), :mod:`.lookups` (who and where), :mod:`.context` (the plan, and what
every row gives), one module per file of records (:mod:`.permits`, :mod:`.approvals` with its
conditions and limits, :mod:`.inspections`, :mod:`.violations`) and :mod:`.check` (the bundle
checked in full).
"""

from .check import plan
from .context import Plan, Planned, Problem

__all__ = ["Plan", "Planned", "Problem", "plan"]
