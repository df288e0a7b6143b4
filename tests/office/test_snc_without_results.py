"""SNC for a period in which a facility has limits but no result: determined, not a crash.

A facility whose limits are in force but which was not sampled in the period (a new permit,
a quiet half-year) has nothing for criteria A, B, C or D to count: its determination says so,
and the run goes on for the others. The office once handed the rules a table without columns
for such a period, and the whole run stopped with an error.
"""

from __future__ import annotations

from sewer_office.pretreatment.snc import compute_snc

from .factories import Town
from .monitoring_factories import facilities
from .pretreatment_factories import limit, sup


def test_a_facility_with_limits_and_no_result_is_determined_not_in_snc(town: Town) -> None:
    f = facilities(town)
    limit(f.theirs, "copper", "1.0")
    run = compute_snc(sup(town), "2026H1")
    determinations = list(run.determinations)
    assert [d.establishment_id for d in determinations] == [f.theirs.pk]
    assert not determinations[0].snc
    assert run.in_snc == []
