"""The federal pretreatment program's records: SIU designations and SNC determinations
(:mod:`.determinations`), required reports, their due dates and baseline checklists
(:mod:`.reports`), hazardous waste notices (:mod:`.hazardous`), and the annual report's
editions as prepared (:mod:`.editions`). Django finds the app's
models here, and the app's code names every model through this package.

Records of legal weight are never edited (:mod:`.immutability`). A :class:`Designation` or an
:class:`SNCDetermination` is replaced by a newer one that ``supersedes`` it (the old one stays,
with its reason); a :class:`ReportDue` receives its received date once, then nothing; a
:class:`ReportRequirement` receives its end date once. Their ``save`` refuses anything else.
"""

from __future__ import annotations

from sewer_office.pretreatment.models.determinations import Designation, SNCDetermination
from sewer_office.pretreatment.models.editions import AnnualReportEdition
from sewer_office.pretreatment.models.hazardous import HazardousWasteNotification
from sewer_office.pretreatment.models.reports import (
    BaselineChecklist,
    ReportDue,
    ReportRequirement,
)

__all__ = [
    "AnnualReportEdition",
    "BaselineChecklist",
    "Designation",
    "HazardousWasteNotification",
    "ReportDue",
    "ReportRequirement",
    "SNCDetermination",
]
