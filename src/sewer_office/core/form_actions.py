"""One way for a page to take a form, act through a service and answer: the office's generic
form action (NetBox's generic edit views, as a function every app's views call).

A page that records something follows the same steps: bind the form to the POST, validate
it, hand the cleaned data to a service, and either go on (a redirect, with a message) or show
the form again with the service's refusal on its fields and status 400 — so that a browser
test, a screen reader and a script all see that the request was refused. Written by hand in
each view, those steps drifted (a missing ``status = 400``, an ``OfficeError`` shown as a
server error). :func:`form_action` is them, once.

Usage::

    form = InterceptorForm(request.POST or None, initial=initial)
    def registered(trap: Interceptor) -> HttpResponse:
        messages.success(request, f"{trap} registered.")
        return redirect("grease:detail", pk=trap.pk)

    return form_action(request, form, lambda d: services.register(request.user, **d)).respond(
        then=registered,
        show=lambda status: render(request, "grease/form.html", {"form": form}, status=status),
    )
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from django import forms
from django.http import HttpRequest, HttpResponse

from .errors import OfficeError
from .forms import add_office_error

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What became of a form: ``acted`` when the service did what was asked, and ``done`` its
    answer (``None`` when the form was only shown, or refused); ``status`` is the page's HTTP
    status — 200 to show the form, 400 when the form or the service refused what was sent (or
    the refusal's own status, 409 say, with ``form_action(..., error_status=True)``)."""

    acted: bool
    done: T | None
    status: int

    @property
    def refused(self) -> bool:
        return self.status >= 400

    def respond(
        self, then: Callable[[T], HttpResponse], show: Callable[[int], HttpResponse]
    ) -> HttpResponse:
        """``then(answer)`` when the service acted (a redirect, usually), else ``show(status)``
        (the page with the form, and its errors when refused)."""
        if self.acted:
            return then(cast(T, self.done))
        return show(self.status)


def form_action(
    request: HttpRequest,
    form: forms.Form,
    act: Callable[[dict[str, Any]], T],
    *,
    prefix: str = "",
    error_status: bool = False,
) -> Outcome[T]:
    """Validate ``form`` on a POST and call ``act`` with its cleaned data.

    A GET (or any method but POST) shows the form: ``Outcome(False, None, 200)``. An invalid form,
    or a service that raises :class:`OfficeError`, refuses: the errors go on the form's
    fields (``prefix`` as in :func:`~sewer_office.core.forms.add_input_errors`) and the
    outcome is ``Outcome(False, None, 400)`` — or, with ``error_status``, the service's refusal
    keeps its own status (:class:`~sewer_office.core.errors.Blocked`: 409), for pages whose
    clients tell a conflict from bad input (an inspection completed by a tablet). Otherwise
    ``Outcome(True, answer, 200)``. The service runs in its own transaction (services do), so a refusal leaves nothing half written.
    """
    if request.method != "POST":
        return Outcome(False, None, 200)
    if not form.is_valid():
        return Outcome(False, None, 400)
    try:
        answer = act(form.cleaned_data)
    except OfficeError as error:
        add_office_error(form, error, prefix)
        return Outcome(False, None, error.status_code if error_status else 400)
    return Outcome(True, answer, 200)
