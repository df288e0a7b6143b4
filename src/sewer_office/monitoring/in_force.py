"""The law and the permit limits in force: what every evaluation of a laboratory result reads.

The parameters are the dated parameter set (``sewer_rules``) of the facility's town — a result
is judged under its own town's values, never the primary town's; the limits are the
facilities' discharge limits as the engine reads them. An import, a correction, the month's
judgement and the pretreatment reports all evaluate against these two, so they live apart from
any one of those workflows.
"""

from __future__ import annotations

from sewer_office.accounts.towns import values_of
from sewer_rules.evaluation.permit_limits import PermitLimits
from sewer_rules.parameters import ParameterSet

from .models import DischargeLimit

#: The determination a laboratory result's evaluation is, as a refusal for another law names it.
ARTICLE_LIMITS = "Evaluating laboratory results against the article's limits (§ 196-19)"


def params_in_force(town: str) -> ParameterSet:
    """The dated values of ``town``: the results of a facility are evaluated under its town's
    (``Establishment.jurisdiction``)."""
    return values_of(town)


def permit_limits(
    establishment_ids: list[int], *, monthly: bool = True, only_monthly: bool = False
) -> PermitLimits | None:
    """The facilities' discharge limits as the engine reads them (None when there are none).

    ``monthly=False`` leaves out monthly averages: an import judges them separately, on
    complete months and over every stored result of the month, not only the file's.
    """
    limits = DischargeLimit.objects.filter(establishment_id__in=establishment_ids)
    if not monthly:
        limits = limits.exclude(limit_type="monthly_average")
    if only_monthly:
        limits = limits.filter(limit_type="monthly_average")
    records = [
        lim.as_record() for lim in limits.select_related("establishment", "approval").order_by("id")
    ]
    return PermitLimits.from_records(records, "discharge limits") if records else None
