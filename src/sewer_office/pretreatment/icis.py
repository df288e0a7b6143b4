"""The annual pretreatment report sent to EPA: ICIS-NPDES XML (schema 5.14) of a period.

40 CFR 403.12(i) has the Control Authority report on its program each year, and the NPDES
electronic reporting rule (40 CFR 127) has that report sent electronically; ICIS-NPDES takes it
as a ``PretreatmentProgramReport``. The figures are those of the annual report's one
gathering (:func:`.annual.gather`), so the XML says what the PDF and the CSV say; the file is
written by :mod:`sewer_io.icis`; what the jurisdiction configured for it (codes, the treatment
works' permit number, dates) is read by :mod:`sewer_rules.icis_report`.

The report's inventory is the significant industrial users of the period (every user that was
an SIU on one of its days, categorical users included, 403.3(v)(1)(i)): the users whose
compliance 403.12(i) asks about and ICIS-NPDES keys by their control mechanism. The PDF and
CSV annual report list every industrial user; for those in both, the figures are the same.

The export is refused, with every problem listed at once (:class:`ExportRefused`), when the
treatment works' NPDES permit number is not configured, when an industrial user of the
inventory has no ICIS-NPDES identifier on its approval, when a parameter or an enforcement
response to report has no configured code, or when a month of SNC is to be written and its
form is not configured. Nothing missing is filled in.

How each figure becomes an element:

- ``IUSubjectLocalLimitsIndicator`` Y for every user: § 196-19 C and D say what "no person
  shall discharge" to a public sewer, so every user discharging under the article is subject
  to its numeric limits (the local limits: :func:`sewer_rules.icis_report.local_limit_analytes`);
- compliance monitoring: inspections completed and samples the Town took in the period; the
  self-monitoring samples the control mechanisms required
  (:func:`sewer_rules.icis_report.required_samples`), and whether the user's own samples
  reached that number (``IUComplyReqSelfMonRptingIndicator``; left out when samples of
  unrecorded sampler could make the difference), with the counts as its text;
- violations: for a user with a determination of SNC in force over the period, the indicators
  its criteria set (:data:`sewer_rules.icis_report.INDICATORS`), the parameters of its limit
  series in SNC, each month of the period in SNC, and ``SNCPublishedIndicator`` N — the office
  renders the yearly list for publication but records no publication; a user determined not
  in SNC gets every indicator N; a user with no determination gets none;
- enforcement: notices, orders and referrals of the period by the response of the guide,
  through the configured action type codes; the court's fines assessed and collected.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime

from django.utils import timezone

from sewer_io import icis as xml
from sewer_office.accounts.towns import primary
from sewer_office.core.errors import Blocked
from sewer_office.monitoring.in_force import params_in_force
from sewer_rules.analytes import ANALYTES
from sewer_rules.icis_report import (
    ACTION_CODE,
    PARAMETER_CODE,
    POTW_PERMIT_ID,
    SNC_MONTH_FORMAT,
    IcisData,
    icis_data,
    indicators,
    local_limit_analytes,
    month_text,
)

from .annual import AnnualReport, FacilityLine, gather, whole_gpd

LABELS = {a.name: a.label for a in ANALYTES}


class ExportRefused(Blocked):
    """What keeps the report from being written: ``problems``, every one of them."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__(
            "The ICIS-NPDES report cannot be written: " + " ".join(f"({i}) {p}" for i, p in
                                                                  enumerate(problems, 1))
        )  # fmt: skip


@dataclass(frozen=True)
class Export:
    """A written report: the gathering it came from, the XML, and what it lists."""

    report: AnnualReport
    content: bytes
    filename: str
    #: (ICIS-NPDES identifier, name) of each industrial user listed.
    users: tuple[tuple[str, str], ...]
    actions: int


def form_set_id(first: date, last: date) -> str:
    """The report's ProgramReportFormSetID: its period, so that a corrected report of the same
    period keys the same report (sent as a replacement)."""
    return f"PPR-{first:%Y%m%d}-{last:%Y%m%d}"


def listed(report: AnnualReport) -> list[FacilityLine]:
    """The users the XML lists: those that were SIUs on a day of the period."""
    return [f for f in report.facilities if f.siu_in_period]


def problems(report: AnnualReport, data: IcisData, local: tuple[str, ...]) -> list[str]:
    """Everything missing to write ``report`` (empty: it can be written)."""
    out: list[str] = []
    if data.potw_permit_id is None:
        out.append(
            f"{POTW_PERMIT_ID} is not configured: the NPDES permit number of the treatment "
            "works, the report's PermitIdentifier."
        )
    codes: dict[str, list[str]] = {a: ["a local limit"] for a in local}
    actions: dict[str, list[str]] = {}
    months = False
    for f in listed(report):
        who = f"{f.establishment.name} ({f.establishment.code})"
        if not f.icis_permit_id:
            where = (
                f"its industrial discharge approval {f.approval.number}"
                if f.approval is not None
                else "any of its industrial discharge applications"
            )
            out.append(
                f"{who}: no ICIS-NPDES permit identifier is recorded on {where} (record the "
                "one EPA or the State gave its control mechanism on the approval's page)."
            )
        for a in sorted(f.snc_parameters):
            codes.setdefault(a, []).append(f"in SNC at {f.establishment.code}")
        for code in sorted(f.actions):
            actions.setdefault(code, []).append(f"{f.actions[code]} at {f.establishment.code}")
        months = months or bool(f.months_in_snc(report.first, report.last))
    for a in sorted(codes):
        if a not in data.parameter_codes:
            out.append(
                f"{PARAMETER_CODE}{a} is not configured: the ICIS-NPDES parameter code of "
                f"{LABELS.get(a, a)} ({', '.join(codes[a])})."
            )
    for code in sorted(actions):
        if code not in data.action_codes:
            out.append(
                f"{ACTION_CODE}{code} is not configured: the ICIS-NPDES enforcement action type "
                f"code of the response {code!r} ({', '.join(actions[code])})."
            )
    if months and data.snc_month_format is None:
        out.append(
            f"{SNC_MONTH_FORMAT} is not configured: how a month of significant noncompliance "
            "is written (MM/YYYY or YYYY-MM)."
        )
    return out


def missing(report: AnnualReport) -> list[str]:
    """What keeps ``report`` from being written as XML (empty: nothing), with the
    jurisdiction's data in force on its last day."""
    params = params_in_force(primary())  # the plant's report to EPA: the primary town's data
    last = report.last
    return problems(report, icis_data(params, last), local_limit_analytes(params, last))


def _monitoring(f: FacilityLine) -> xml.ComplianceMonitoring:
    required, own = f.self_monitoring_required, f.samplings_user
    met: bool | None = None
    text = ""
    if required is not None:
        met = (
            True if own >= required else None if own + f.samplings_unrecorded >= required else False
        )
        text = (
            f"{own} samples taken by the user recorded in the period; {required} required by "
            "its control mechanism"
            + (
                f"; {f.samplings_unrecorded} of unrecorded sampler"
                if f.samplings_unrecorded
                else ""
            )
        )
    return xml.ComplianceMonitoring(
        inspections_by_ca=f.inspections,
        sampling_events_by_ca=f.samplings_town,
        required_self_monitoring_events=required,
        self_monitoring_reporting_met=met,
        self_monitoring_reporting_text=text,
    )  # fmt: skip


def _violations(f: FacilityLine, report: AnnualReport, data: IcisData) -> xml.Violations | None:
    if not f.snc_determined:
        return None
    found = indicators(f.snc_criteria)
    months = f.months_in_snc(report.first, report.last)
    form = data.snc_month_format or ""
    facts = "; ".join(f.snc_facts)[:4000]
    return xml.Violations(
        standards_limits="standards_limits" in found,
        standards_limits_parameter_codes=tuple(
            sorted({data.parameter_codes[a] for a in f.snc_parameters})
        ),
        reporting="reporting" in found,
        other_requirement="other_requirement" in found,
        potw_discharge_operations="potw_operations" in found,
        potw_discharge_operations_text=facts if "potw_operations" in found else "",
        listing_months=tuple(month_text(y, m, form) for y, m in months),
        published=False if f.snc else None,
    )


def _enforcement(f: FacilityLine, data: IcisData) -> xml.Enforcement:
    by_type: Counter[str] = Counter()
    for code, n in f.actions.items():
        by_type[data.action_codes[code]] += n
    return xml.Enforcement(
        actions=tuple(xml.ActionCount(t, n) for t, n in sorted(by_type.items())),
        penalties_assessed=f.penalties_assessed,
        penalties_collected=f.penalties_collected,
    )


def _user(
    f: FacilityLine, report: AnnualReport, data: IcisData, local: tuple[str, ...]
) -> xml.IndustrialUser:
    return xml.IndustrialUser(
        permit_identifier=f.icis_permit_id,
        average_daily_flow_gpd=whole_gpd(f.flow_gpd),
        average_daily_process_flow_gpd=whole_gpd(f.process_flow_gpd),
        subject_to_local_limits=True if local else None,
        monitoring=_monitoring(f),
        violations=_violations(f, report, data),
        enforcement=_enforcement(f, data),
    )


def build(
    first: date,
    last: date,
    *,
    submitter: str,
    author: str = "",
    transaction_type: str = "N",
    at: datetime | None = None,
) -> Export:
    """The XML of ``first``..``last``; :class:`ExportRefused` listing every problem."""
    params = params_in_force(primary())  # as missing(): the plant's report
    report = gather(first, last)
    data = icis_data(params, last)
    local = local_limit_analytes(params, last)
    found = problems(report, data, local)
    if found:
        raise ExportRefused(found)
    assert data.potw_permit_id is not None
    moment = at or timezone.now()
    program = xml.ProgramInformation(
        local_limits_adopted=data.local_limits_adopted,
        local_limits_evaluated=data.local_limits_evaluated,
        local_limits_parameter_codes=tuple(sorted({data.parameter_codes[a] for a in local})),
    )
    users = tuple(_user(f, report, data, local) for f in listed(report))
    doc = xml.ProgramReport(
        permit_identifier=data.potw_permit_id,
        form_set_id=form_set_id(first, last),
        start=first,
        end=last,
        program=program,
        industrial_users=users,
        transaction_type=transaction_type,
        transaction_timestamp=moment,
    )
    header = xml.Header(
        id=submitter,
        author=author,
        organization=params.name,
        title=f"Annual pretreatment report {report.label} (40 CFR 403.12(i))",
        creation_time=moment,
    )
    try:
        content = xml.write_document(doc, header)
    except xml.IcisValueError as e:
        raise ExportRefused(list(e.problems)) from None
    return Export(
        report=report,
        content=content,
        filename=f"icis-pretreatment-{report.label.replace('..', '_')}.xml",
        users=tuple((f.icis_permit_id, f.establishment.name) for f in listed(report)),
        actions=sum(sum(f.actions.values()) for f in listed(report)),
    )


def build_year(
    year: int,
    *,
    submitter: str,
    author: str = "",
    transaction_type: str = "N",
    at: datetime | None = None,
) -> Export:
    """The calendar year's report (see :func:`build`)."""
    return build(
        date(year, 1, 1),
        date(year, 12, 31),
        submitter=submitter,
        author=author,
        transaction_type=transaction_type,
        at=at,
    )
