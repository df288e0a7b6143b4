"""Pages of sampling and laboratory results, one module per subject: :mod:`.imports` (a
laboratory file uploaded, the imports and their approval), :mod:`.results` (results, manual
entry, corrections), :mod:`.findings` (the findings list and its review), :mod:`.facilities`
(sampling points, limits, samples and the per-parameter charts of a facility) and
:mod:`.lab_mappings` (the laboratories' column mappings)."""

from __future__ import annotations

from sewer_office.accounts.roles import APPLICANT, ENGINEER, SUPERINTENDENT
from sewer_office.monitoring.lab_import import RESULT_OFFICERS

PAGE_SIZE = 50
#: Who corrects, approves and reviews (§ 196-15 SUPERINTENDENT, ENGINEER).
OFFICERS = RESULT_OFFICERS
#: Who reports results: the officers, and a facility its own self-monitoring.
REPORTERS = (SUPERINTENDENT, ENGINEER, APPLICANT)
