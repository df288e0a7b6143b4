"""The facts of a transition: what its guard and effect read is declared beside its form, and a
declaration whose facts do not name exactly the form's fields is refused when it is made (the
guard and effect are handed the form's cleaned data as those facts)."""

from __future__ import annotations

from datetime import date
from typing import Any, TypedDict

import pytest
from django import forms

from sewer_office.core.workflow import Transition
from sewer_office.permits.kinds import KINDS


class _PaidForm(forms.Form):
    paid_on = forms.DateField(required=False)
    receipt_number = forms.CharField()


class _Paid(TypedDict):
    paid_on: date | None
    receipt_number: str


class _PaidOnly(TypedDict):
    paid_on: date | None


def _transition(facts: type[Any]) -> Transition:
    return Transition("pay", "Pay", ("a",), "b", "§ 196-18 B", form=_PaidForm, facts=facts)


def test_facts_naming_the_forms_fields_are_accepted() -> None:
    assert _transition(_Paid).facts is _Paid


def test_facts_missing_a_field_of_the_form_are_refused() -> None:
    with pytest.raises(ValueError, match=r"facts _PaidOnly name \['paid_on'\].*receipt_number"):
        _transition(_PaidOnly)


def test_facts_without_a_form_are_refused() -> None:
    with pytest.raises(ValueError, match="its form records"):
        Transition("pay", "Pay", ("a",), "b", "§ 196-18 B", facts=_Paid)


@pytest.mark.parametrize("slug", sorted(KINDS))
def test_every_permit_transition_with_a_form_declares_its_facts(slug: str) -> None:
    """The permits' guards and effects read typed facts, never an open dict of cleaned data."""
    untyped = [
        t.name
        for t in KINDS[slug].workflow.transitions
        if t.form is not None and getattr(t, "facts", None) is None
    ]
    assert untyped == []
