"""What the industrial approval's page shows of the approval as a control mechanism (40 CFR
403.8(f)(1)(iii)(B)), and the forms of :mod:`.control_views` the user may use there."""

from __future__ import annotations

from typing import Any

from sewer_office.accounts.actors import Actor
from sewer_office.core.significance import is_significant

from .control_forms import IcisIdForm, SelfMonitoringForm, TermsForm
from .control_mechanism import CITATION, elements_of
from .models.industrial import DECISION_CONDITIONS
from .services.control_terms import may_record_icis_id, may_record_terms


def control_context(
    user: Actor, record: Any, bound: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What the industrial approval's page shows of the control mechanism: each element in
    order with what is recorded and what is missing, whether the user is an SIU (then issuing
    is refused while anything is missing), and the forms ``user`` may use."""
    bound = bound or {}
    standings = elements_of(record)
    ctx: dict[str, Any] = {
        "control": standings,
        "control_citation": CITATION,
        "control_complete": all(s.satisfied for s in standings),
        "siu": is_significant(record.establishment),
        "decision_conditions": [
            c for c in record.conditions.all() if c.kind in DECISION_CONDITIONS
        ],
    }
    if may_record_terms(user, record):
        ctx["terms_form"] = bound.get("terms") or TermsForm(approval=record)
        ctx["monitoring_form"] = bound.get("monitoring") or SelfMonitoringForm()
    if may_record_icis_id(user, record):
        ctx["icis_form"] = bound.get("icis") or IcisIdForm()
    return ctx
