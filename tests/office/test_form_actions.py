"""The office's one form action: shown (200), refused by the form or the service (400, the
errors on the form's fields), or done (the service's answer handed on)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpResponse
from django.test import RequestFactory

from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.form_actions import form_action


class _Form(forms.Form):
    name = forms.CharField()


def _page(status: int) -> HttpResponse:
    return HttpResponse("form", status=status)


def _respond(method: str, data: dict[str, Any], act: Any) -> tuple[HttpResponse, _Form]:
    request = getattr(RequestFactory(), method)("/", data)
    form = _Form(request.POST or None)
    answer = form_action(request, form, act).respond(
        then=lambda done: HttpResponse(f"done {done}", status=302), show=_page
    )
    return answer, form


def test_a_get_shows_the_form_without_acting() -> None:
    called: list[Any] = []
    answer, _ = _respond("get", {}, called.append)
    assert (answer.status_code, called) == (200, [])


def test_an_invalid_form_is_refused_without_acting() -> None:
    called: list[Any] = []
    answer, form = _respond("post", {"name": ""}, called.append)
    assert (answer.status_code, called) == (400, [])
    assert "name" in form.errors


def test_the_services_field_refusal_lands_on_the_field() -> None:
    def act(d: dict[str, Any]) -> None:
        raise InvalidInput({"name": ["Not a name the registry knows."]})

    answer, form = _respond("post", {"name": "x"}, act)
    assert answer.status_code == 400
    assert form.errors["name"] == ["Not a name the registry knows."]


def test_a_blocked_action_is_shown_above_the_form() -> None:
    def act(d: dict[str, Any]) -> None:
        raise Blocked("The fee is not configured.")

    answer, form = _respond("post", {"name": "x"}, act)
    assert answer.status_code == 400
    assert form.non_field_errors() == ["The fee is not configured."]


def test_done_hands_the_services_answer_on_even_when_it_is_none() -> None:
    answer, _ = _respond("post", {"name": "Acme"}, lambda d: d["name"])
    assert (answer.status_code, answer.content) == (302, b"done Acme")
    answer, _ = _respond("post", {"name": "Acme"}, lambda d: None)
    assert (answer.status_code, answer.content) == (302, b"done None")


def test_a_conflict_keeps_its_own_status_when_the_page_asks() -> None:
    def act(d: dict[str, Any]) -> None:
        raise Blocked("Completed already.")

    request = RequestFactory().post("/", {"name": "x"})
    form = _Form(request.POST)
    outcome = form_action(request, form, act, error_status=True)
    assert (outcome.acted, outcome.status, outcome.refused) == (False, 409, True)
    assert form.non_field_errors() == ["Completed already."]
    outcome = form_action(request, _Form(request.POST), act)
    assert outcome.status == 400
