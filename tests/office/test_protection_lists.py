"""The database guard of records of legal weight follows the models it guards.

The PostgreSQL triggers (:mod:`sewer_office.core.protection`) list what may still be filled
on an issued notice; the model (``Notice.SERVICE_FIELDS``) lists the same for ``save()``. A
field added to one and not the other is either refused below the application (the demo's
certified mail could not record its delivery) or left unguarded. The records written once
that the surcharge, the § 196-19 D opinion, § 196-21 A and the meters' fixed baselines added
are guarded too.
"""

from __future__ import annotations

import pytest

from sewer_office.core.protection import PROTECTED
from sewer_office.enforcement.models import Correction, Notice


def _spec(model: str):  # type: ignore[no-untyped-def]
    return next(p for p in PROTECTED if p.model == model)


def test_a_notice_fills_below_the_application_what_it_fills_above_it() -> None:
    assert set(_spec("enforcement.Notice").filled_once()) == set(Notice.SERVICE_FIELDS)


def test_a_correction_fills_below_the_application_what_it_fills_above_it() -> None:
    assert set(_spec("enforcement.Correction").filled_once()) == set(Correction.DECISION_FIELDS)


@pytest.mark.parametrize(
    "model",
    [
        "findings.HarmOpinion",
        "inspections.EntryRefusal",
        "inspections.AgencyInspector",
        "meters.MeterBaseline",
        "billing.SurchargeDecision",
        "billing.SurchargeAgreement",
        "billing.SurchargeEnding",
    ],
)
def test_records_written_once_are_guarded_whole(model: str) -> None:
    spec = _spec(model)
    assert spec.append_only and not spec.filled_once()
