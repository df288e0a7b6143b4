"""What an import of users and facilities would do, row by row: the plan.

A spreadsheet (:mod:`~sewer_office.onboarding.spreadsheet`) read through a column mapping
(:class:`MappingSpec`) gives each row its fields (:data:`TARGETS`). Every row is checked first;
then each valid row finds its parcel and its operator (:mod:`~sewer_office.onboarding.matching`)
and its facility:

- **refused**: bad data — a required field blank, a kind the mapping does not know, a state
  or ZIP code that is not one, a text longer than the registry keeps, a facility code given to
  two rows, a facility code registered at another parcel… One refused row stops the whole
  import: nothing is written until the file is right (every refusal listed by row and field).
- **unmatched**: valid, but no one parcel found (the reason says why): the row goes to the
  review queue (:class:`~sewer_office.onboarding.models.ReviewItem`), where the clerk picks
  the parcel; the other rows apply. A row already in the queue (the same values, from an
  earlier import) is not queued twice.
- **new**: a facility not yet in the registry, created on its parcel.
- **unchanged** / **changed**: the facility is already registered — by its facility code, or
  by its name on the same parcel — and the row changes nothing, or changes the fields listed
  (its name, kind, operator, a code it lacked; its operator's missing mailing address or a
  contact not yet recorded).

The operator: a person of the registry with the same name and mailing address is reused
(the survivor of a merge); one the registry lacks is registered once, however many rows name
it. The building: the parcel's building of the name the row gives, else its only building,
else a new building (named as the row says, or after the facility; its use as the row says,
or from the kind: a restaurant or food preparation is food service, a food processor or
industrial user industrial, and so on).

The plan reads the registry and writes nothing; :mod:`~sewer_office.onboarding.services`
computes it again inside the transaction that applies it (a preview is never trusted).

The parts: :mod:`.targets` (the fields, the column mapping, the comparison keys),
:mod:`.checks` (a row's values checked on their own), :mod:`.plan` (the plan as data) and
:mod:`.planner` (the plan decided against the registry).
"""

from .checks import check_row
from .plan import NewBuilding, NewPerson, PersonUpdate, Plan, RowPlan
from .planner import Planner, plan_import
from .targets import (
    BY_NAME,
    KIND_WORDS,
    REQUIRED,
    TARGETS,
    USE_WORDS,
    MappingSpec,
    Target,
    column_key,
    header_key,
    values_key,
    word_key,
)

__all__ = [
    "BY_NAME",
    "KIND_WORDS",
    "REQUIRED",
    "TARGETS",
    "USE_WORDS",
    "MappingSpec",
    "NewBuilding",
    "NewPerson",
    "PersonUpdate",
    "Plan",
    "Planner",
    "RowPlan",
    "Target",
    "check_row",
    "column_key",
    "header_key",
    "plan_import",
    "values_key",
    "word_key",
]
