"""The law and the permit limits in force: what every evaluation of a laboratory result reads.

The parameters are the jurisdiction's dated parameter set (``sewer_rules``); the limits are the
facilities' discharge limits as the engine reads them. An import, a correction, the month's
judgement and the pretreatment reports all evaluate against these two, so they live apart from
any one of those workflows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings

from sewer_rules.evaluation.permit_limits import PermitLimits
from sewer_rules.parameters import ParameterSet, load_jurisdiction

from .models import DischargeLimit

if TYPE_CHECKING:
    pass


def params_in_force() -> ParameterSet:
    return load_jurisdiction(settings.SEWER_USE_JURISDICTION)


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
