"""§ 196-19 E(1): where wastes of the kinds of Subsection D are discharged "the Superintendent
may: (a) Reject the wastes; (b) Require pretreatment ...; (c) Require control over the
quantities and rates of discharge" — the Superintendent, not only the engineer, rejects or
approves on conditions; the plain approval (§ 196-16 E) stays the engineer's."""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.core.errors import Forbidden
from sewer_office.core.models import AuditEvent
from sewer_office.core.services import perform
from sewer_office.permits.models import ApprovalCondition

from .factories import Town, new_record
from .test_approval_terms import _pdf_text

pytestmark = pytest.mark.django_db


def test_superintendent_imposes_pretreatment_and_flow_control(town: Town) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    boss = town.u("superintendent")
    a = perform(
        a,
        "approve_with_conditions",
        boss,
        {"pretreatment": "neutralization before discharge", "flow_equalization": "≤ 20 gpm"},
    )
    assert a.state == "approved_with_conditions" and a.decided_by == boss
    cites = set(ApprovalCondition.objects.filter(approval=a).values_list("citation", flat=True))
    assert cites == {"§ 196-19 E(1)(b)", "§ 196-19 E(1)(c)"}
    ev = AuditEvent.objects.filter(object_id=str(a.pk), state_to="approved_with_conditions").get()
    assert ev.actor == boss


def test_superintendent_rejects_the_wastes(town: Town) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    a = perform(a, "reject", town.u("superintendent"), reason="toxic to the plant's process")
    assert a.state == "rejected"


@pytest.mark.parametrize("name", ["clerk", "inspector", "viewer", "owner"])
def test_others_still_may_not(town: Town, name: str) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    with pytest.raises(Forbidden):
        perform(a, "approve_with_conditions", town.u(name), {"sampling": "weekly"})
    with pytest.raises(Forbidden):
        perform(a, "reject", town.u(name), reason="x")


def test_the_plain_approval_stays_the_engineers(town: Town) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    with pytest.raises(Forbidden, match="Engineer"):
        perform(a, "approve", town.u("superintendent"))


def test_the_letter_of_a_superintendents_conditions_is_his(town: Town, login: Any) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    a = perform(a, "approve_with_conditions", town.u("superintendent"), {"pretreatment": "pH"})
    text = _pdf_text(login("owner").get(f"/permits/industrial/{a.pk}/letter.pdf").content)
    assert "the superintendent approves the discharge subject to the conditions" in text
    assert "Engineer to the Sewer Districts" not in text
    b = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    b = perform(b, "approve", town.u("engineer"))
    text = _pdf_text(login("owner").get(f"/permits/industrial/{b.pk}/letter.pdf").content)
    assert "the engineer approves the discharge" in text
    assert "Engineer to the Sewer Districts" in text
