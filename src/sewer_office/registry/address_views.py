"""Pages to record facts of the register that letters and the law rest on: a person's mailing
address and a property's postal locality (the links the violation and invoice pages show when
a letter's address has gaps), and the member town whose law governs a parcel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from sewer_office.accounts.access import visible
from sewer_office.core.decorators import office_view
from sewer_office.core.form_actions import form_action

from . import addresses, services
from .address_forms import MailingAddressForm, PostalAddressForm
from .forms import JurisdictionForm
from .models import Person, Property


def _page(
    request: HttpRequest,
    form: forms.Form,
    title: str,
    back: str,
    status: int = 200,
    button: str = "Save the address",
) -> HttpResponse:
    return render(
        request,
        "registry/address_form.html",
        {"form": form, "title": title, "back": back, "button": button},
        status=status,
    )


def _edit(
    request: HttpRequest,
    record: Any,
    form_class: type[forms.Form],
    initial: dict[str, Any],
    title: str,
    save: Callable[[dict[str, Any]], None],
    done: tuple[str, str],
    button: str = "Save the address",
) -> HttpResponse:
    """One address form's page: shown, checked, saved by ``save`` (a registry service, which
    audits it), then back to ``?next=`` or the record's page; ``done`` is the success message
    and the record's URL name."""
    back = _safe(request, request.GET.get("next") or "")
    form = form_class(request.POST if request.method == "POST" else None, initial=initial)

    def saved(_: None) -> HttpResponse:
        message, url_name = done
        messages.success(request, message)
        return redirect(_safe(request, back) or reverse(url_name, args=[record.pk]))

    return form_action(request, form, save).respond(
        then=saved,
        show=lambda status: _page(request, form, title, back, status=status, button=button),
    )


@office_view(*addresses.EDIT_ROLES)
def person_address(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit where a person's mail goes."""
    person = get_object_or_404(Person, pk=pk)

    def save(d: dict[str, Any]) -> None:
        addresses.set_mailing_address(
            person,
            request.user,
            street=d["mail_street"],
            city=d["mail_city"],
            state=d["mail_state"],
            zip_code=d["mail_zip"],
        )

    return _edit(
        request,
        person,
        MailingAddressForm,
        {k: getattr(person, k) for k in MailingAddressForm.base_fields},
        f"Mailing address of {person.name}",
        save,
        (f"Mailing address of {person.name} recorded.", "registry:person"),
    )


@office_view(*addresses.EDIT_ROLES)
def property_address(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a property's street line and its postal town, state and ZIP code."""
    prop = get_object_or_404(visible(Property.objects.all(), request.user), pk=pk)
    initial = {k: getattr(prop, k) for k in PostalAddressForm.base_fields}
    initial["state"] = prop.state or "NY"

    def save(d: dict[str, Any]) -> None:
        addresses.set_postal_address(
            prop,
            request.user,
            address=d["address"],
            city=d["city"],
            state=d["state"],
            zip_code=d["zip"],
        )

    return _edit(
        request,
        prop,
        PostalAddressForm,
        initial,
        f"Postal address of parcel {prop.parcel_id}",
        save,
        (f"Postal address of {prop.parcel_id} recorded.", "registry:property"),
    )


@office_view(*services.JURISDICTION_ROLES)
def property_jurisdiction(request: HttpRequest, pk: int) -> HttpResponse:
    """Record that a parcel passed under another member town's law, from a date, by an act."""
    prop = get_object_or_404(visible(Property.objects.all(), request.user), pk=pk)

    def save(d: dict[str, Any]) -> None:
        services.move_to_jurisdiction(
            request.user, prop, d["jurisdiction"], d["since"], d["reason"]
        )

    return _edit(
        request,
        prop,
        JurisdictionForm,
        {"jurisdiction": prop.jurisdiction},
        f"Jurisdiction of parcel {prop.parcel_id}",
        save,
        (f"Jurisdiction of {prop.parcel_id} recorded.", "registry:property"),
        button="Record the jurisdiction",
    )


def _safe(request: HttpRequest, url: str) -> str:
    """A return address on this site only, never another host."""
    ok = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if ok else ""
