"""The demo town shows only real violations: none that the rule of grounds would refuse."""

from __future__ import annotations

from datetime import date
from typing import Any


def test_the_demo_has_no_violation_the_rule_would_refuse(load_demo: Any) -> None:
    from sewer_office.enforcement.grounds import refusal, refused_violations
    from sewer_office.enforcement.models import Violation
    from sewer_office.enforcement.summary import violation_summary

    load_demo(anchor=date(2026, 3, 2))
    violations = list(Violation.objects.select_related("finding"))
    assert len(violations) >= 8  # a violation at every stage (test_enforcement_demo)
    assert {v.number: refusal(v.section, v.finding) for v in violations} == {
        v.number: None for v in violations
    }
    assert not refused_violations(Violation.objects.all()).exists()
    assert all(violation_summary(v)["would_now_be_refused"] is None for v in violations)
    # the review results the demo opened from carry the Superintendent's opinion
    for v in violations:
        if (
            v.finding is not None
            and v.finding.status == "review"
            and v.finding.kind
            in (
                "lab_result",
                "monthly_average",
                "slug",
                "excursion",
            )
        ):
            assert v.finding.opinions.filter(harm_likely=True).exists()
