"""Facilities with codes and sampling points, for the monitoring apps' tests.

``owner`` (Olive Owner) operates ``town.owner_restaurant``; ``other`` (Otto Other) operates
``town.other_plant``. :func:`facilities` gives both a facility code and a sampling point.
"""

from __future__ import annotations

from dataclasses import dataclass

from sewer_office.monitoring.choices import SamplingBasis
from sewer_office.monitoring.models import SamplingPoint
from sewer_office.registry.models import Establishment

from .factories import Town


@dataclass
class Facilities:
    mine: Establishment  # the owner's restaurant, code OWNER-CAFE, point CM-1
    theirs: Establishment  # the other's plant, code OTHER-PLANT, point CM-1
    my_point: SamplingPoint
    their_point: SamplingPoint


def sampling_point(est: Establishment, code: str = "CM-1", manhole: str = "MH01") -> SamplingPoint:
    return SamplingPoint.objects.create(
        establishment=est, code=code, manhole=manhole, basis=SamplingBasis.CONTROL_MANHOLE
    )


def facilities(town: Town) -> Facilities:
    mine, theirs = town.owner_restaurant, town.other_plant
    assert mine is not None and theirs is not None
    mine.code, theirs.code = "OWNER-CAFE", "OTHER-PLANT"
    mine.save(update_fields=["code"])
    theirs.save(update_fields=["code"])
    return Facilities(mine, theirs, sampling_point(mine), sampling_point(theirs, manhole="MH02"))
