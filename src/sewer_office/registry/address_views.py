"""Pages to record a postal address: a person's mailing address and a property's postal
locality (the links the violation and invoice pages show when a letter's address has gaps)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from sewer_office.core.decorators import office_view
from sewer_office.core.errors import InvalidInput, OfficeError

from . import addresses
from .address_forms import MailingAddressForm, PostalAddressForm
from .models import Person, Property


def _page(
    request: HttpRequest, form: forms.Form, title: str, back: str, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "registry/address_form.html",
        {"form": form, "title": title, "back": back},
        status=status,
    )


@office_view(*addresses.EDIT_ROLES)
def person_address(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit where a person's mail goes."""
    person = get_object_or_404(Person, pk=pk)
    back = _safe(request, request.GET.get("next") or "")
    initial = {k: getattr(person, k) for k in MailingAddressForm.base_fields}
    form = MailingAddressForm(request.POST if request.method == "POST" else None, initial=initial)
    title = f"Mailing address of {person.name}"
    if request.method != "POST":
        return _page(request, form, title, back)
    if form.is_valid():
        d = form.cleaned_data
        try:
            addresses.set_mailing_address(
                person,
                request.user,
                street=d["mail_street"],
                city=d["mail_city"],
                state=d["mail_state"],
                zip_code=d["mail_zip"],
            )
        except OfficeError as e:
            _errors(form, e)
        else:
            messages.success(request, f"Mailing address of {person.name} recorded.")
            return redirect(_safe(request, back) or reverse("registry:person", args=[person.pk]))
    return _page(request, form, title, back, status=400)


@office_view(*addresses.EDIT_ROLES)
def property_address(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a property's street line and its postal town, state and ZIP code."""
    prop = get_object_or_404(Property, pk=pk)
    back = _safe(request, request.GET.get("next") or "")
    initial = {k: getattr(prop, k) for k in PostalAddressForm.base_fields}
    initial["state"] = prop.state or "NY"
    form = PostalAddressForm(request.POST if request.method == "POST" else None, initial=initial)
    title = f"Postal address of parcel {prop.parcel_id}"
    if request.method != "POST":
        return _page(request, form, title, back)
    if form.is_valid():
        d = form.cleaned_data
        try:
            addresses.set_postal_address(
                prop,
                request.user,
                address=d["address"],
                city=d["city"],
                state=d["state"],
                zip_code=d["zip"],
            )
        except OfficeError as e:
            _errors(form, e)
        else:
            messages.success(request, f"Postal address of {prop.parcel_id} recorded.")
            return redirect(_safe(request, back) or reverse("registry:property", args=[prop.pk]))
    return _page(request, form, title, back, status=400)


def _errors(form: forms.Form, error: OfficeError) -> None:
    if isinstance(error, InvalidInput):
        for key, msgs in error.errors.items():
            for msg in msgs:
                form.add_error(key if key in form.fields else None, msg)
    else:
        form.add_error(None, error.message)


def _safe(request: HttpRequest, url: str) -> str:
    """A return address on this site only, never another host."""
    ok = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if ok else ""
