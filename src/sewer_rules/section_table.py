"""The table of the registry of Article VII: each provision, its heading, its status and why.

Data, read by :mod:`sewer_rules.sections` (which builds the registry and checks it against the
law); kept apart so that the registry's logic stays short. The statuses are those of
:class:`~.section_coverage.Coverage`; :mod:`sewer_rules.section_office` names the office's
functions that carry a provision out. The rows are kept in one module per group of sections,
in the article's order, so that each stays short enough to read against the text.
"""

from __future__ import annotations

from .section_coverage import Entry
from .section_table_s196_15_to_18 import DEFINITIONS_TO_BUILDING_SEWERS
from .section_table_s196_19 import USE_OF_PUBLIC_SEWERS
from .section_table_s196_20_to_23 import INSPECTION_TO_DEVELOPERS

ENTRIES: list[Entry] = [
    *DEFINITIONS_TO_BUILDING_SEWERS,
    *USE_OF_PUBLIC_SEWERS,
    *INSPECTION_TO_DEVELOPERS,
]
