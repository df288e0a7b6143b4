"""The annual pretreatment report as an ICIS-NPDES XML document (EPA's schema 5.14).

A pure writer: frozen dataclasses that hold the report's values, and :func:`write_document`,
which writes them as the schema's ``Document`` — a ``Header`` and one ``Payload``
(``Operation="PretreatmentProgramReportSubmission"``) holding a ``PretreatmentProgramReportData``
(its ``TransactionHeader`` and the ``PretreatmentProgramReport``). No Django, no database: the
office gathers the figures (``sewer_office.pretreatment.icis``), this module writes them.

How the file is written, and why:

- UTF-8, with the schema's namespace (``http://www.exchangenetwork.net/schema/icis/5``) as the
  default namespace, every element in the order of the schema's sequences (:data:`ORDER`).
- Only elements with a value are written: every element of the report is optional in the
  schema except the keys (``PermitIdentifier``, ``ProgramReportFormSetID``), the indicator of
  a contamination wrapper and the type code of an enforcement action type. A value the office
  does not know is left out, never filled with a guess; a wrapper left empty is not written.
- ``IndustrialUserIndicator`` says whether the report lists industrial users: ``Y`` with them,
  ``N`` with none.
- Indicators are ``Y``/``N``; dates ISO (YYYY-MM-DD); counts and flows whole numbers; money
  with two decimals. A value outside what the schema accepts (a count above 1000, a
  permit identifier not nine characters, a month not seven) is refused with every problem
  listed (:class:`IcisValueError`) rather than written into a file EPA would reject.
"""

from .values import (
    MAX_COUNT,
    MAX_FLOW,
    MAX_MONEY,
    NAMESPACE,
    OPERATION,
    ORDER,
    TRANSACTION_TYPES,
    ActionCount,
    ComplianceMonitoring,
    Contamination,
    Enforcement,
    Header,
    IcisValueError,
    IndustrialUser,
    ProgramInformation,
    ProgramReport,
    Violations,
    problems,
)
from .writer import document, write_document

__all__ = [
    "MAX_COUNT",
    "MAX_FLOW",
    "MAX_MONEY",
    "NAMESPACE",
    "OPERATION",
    "ORDER",
    "TRANSACTION_TYPES",
    "ActionCount",
    "ComplianceMonitoring",
    "Contamination",
    "Enforcement",
    "Header",
    "IcisValueError",
    "IndustrialUser",
    "ProgramInformation",
    "ProgramReport",
    "Violations",
    "document",
    "problems",
    "write_document",
]
