"""The portal's pages: registration and e-mail verification (before sign-in), the account's
link requests, and the staff queue where identities are checked and links confirmed."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from sewer_office.accounts import registration_limits, throttle
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.forms import add_office_error
from sewer_office.core.models import Attachment
from sewer_office.core.paging import page_of

from . import services
from .access import visible_links
from .choices import LinkState
from .filters import LinkFilter
from .forms import ConfirmForm, LinkRequestForm, ReasonForm, RegistrationForm
from .models import LinkRequest

PAGE_SIZE = 25


def register(request: HttpRequest) -> HttpResponse:
    """Anyone may register (the account is inactive until its e-mail is verified).

    The answer does not depend on whether the name or the address is taken: "check your
    e-mail" (:func:`services.register` says the rest to the mailbox). Registrations from one
    client address are limited per window: beyond, a clear refusal (429) saying until when.
    Not through ``form_action`` (yet): a refused registration answers 200, which the portal's
    tests pin (``test_portal_permissions``); through it, it would answer 400."""
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = RegistrationForm(request.POST or None)
    if request.method == "POST":
        address = throttle.client_address(request)
        refusal = registration_limits.refusal(address)
        if refusal is not None:
            form.is_valid()  # the form as typed, above it why it is refused
            form.add_error(None, refusal.message())
            response = render(request, "portal/register.html", {"form": form}, status=429)
            response["Retry-After"] = str(refusal.seconds_left())
            return response
        if form.is_valid():
            d = form.cleaned_data
            url = request.build_absolute_uri(reverse("portal:verify", args=["TOKEN"]))
            try:
                services.register(
                    username=d["username"],
                    email=d["email"],
                    password=d["password"],
                    name=d["name"],
                    verify_url=url.replace("TOKEN", "{token}"),
                    register_url=request.build_absolute_uri(reverse("portal:register")),
                    address=address,
                )
            except OfficeError as e:
                add_office_error(form, e)
            else:
                return redirect("portal:register-sent")
    return render(request, "portal/register.html", {"form": form})


def register_sent(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "portal/register_sent.html",
        {
            "hours": services.verify_hours(),
            "per_recipient": settings.SEWER_USE_REGISTRATION_MAILS_PER_RECIPIENT,
            "window": settings.SEWER_USE_REGISTRATION_WINDOW_MINUTES,
        },
    )


def verify(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the verification mail, followed. Not through ``form_action``: a GET with a
    token, no form; an unknown or spent token answers 400 with why."""
    try:
        reg = services.verify(token)
    except OfficeError as e:
        return render(request, "portal/verify.html", {"error": str(e)}, status=400)
    return render(request, "portal/verify.html", {"registration": reg})


#: The link requests' download (``/portal/links/?format=csv``); "Account" for staff only.
LINK_COLUMNS = (
    Column("Request", lambda link: f"LINK-{link.pk}"),
    Column("Made", "created_at"),
    Column("Account", "user.username"),
    Column("Acting for", "person_name"),
    Column("Relation", "get_relation_display"),
    Column("Place", "place"),
    Column("State", "get_state_display"),
)


@office_view()
def link_list(request: HttpRequest) -> HttpResponse:
    base = visible_links(request.user)
    fs = LinkFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    staff = is_staff_member(request.user)
    columns = [c for c in LINK_COLUMNS if staff or c.header != "Account"]
    if (download := export(request, qs, columns, "account-links")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "portal/links.html",
        {
            "filter": fs,
            "page": page,
            "query": query,
            "staff": staff,
            "pending": base.filter(state=LinkState.PENDING).count() if staff else 0,
            "linked": services.is_linked(request.user),
        },
    )


@office_view()
def link_new(request: HttpRequest) -> HttpResponse:
    if is_staff_member(request.user):
        raise PermissionDenied("Staff accounts see every record: they need no link.")
    form = LinkRequestForm(request.POST or None, request.FILES or None)

    def sent(link: LinkRequest) -> HttpResponse:
        messages.success(request, "Your request is sent: the Town will check it.")
        return redirect("portal:link", link.pk)

    act = form_action(
        request,
        form,
        lambda d: services.request_link(
            request.user,
            relation=d["relation"],
            person_name=d["person_name"],
            place=d["place"],
            note=d["note"],
            document=d.get("document"),
        ),
    )
    return act.respond(
        then=sent,
        show=lambda status: render(request, "portal/link_new.html", {"form": form}, status=status),
    )


def _link(request: HttpRequest, pk: int) -> LinkRequest:
    return get_object_or_404(visible_links(request.user), pk=pk)


@office_view()
def link_detail(request: HttpRequest, pk: int) -> HttpResponse:
    link = _link(request, pk)
    context: dict[str, Any] = {
        "link": link,
        "may_decide": services.may_link(request.user) and link.state == LinkState.PENDING,
        "may_end": link.state == LinkState.CONFIRMED
        and (services.may_link(request.user) or request.user == link.user),
        "documents": Attachment.objects.filter(
            content_type__model="linkrequest", object_id=str(link.pk)
        )
        if is_staff_member(request.user)
        else [],
        "check": getattr(link, "identity_check", None),
        "confirm_form": ConfirmForm(),
        "reason_form": ReasonForm(),
    }
    return render(request, "portal/link.html", context)


def _redisplay(
    request: HttpRequest, link: LinkRequest, status: int = 400, **forms: Any
) -> HttpResponse:
    return render(
        request,
        "portal/link.html",
        {
            "link": link,
            "may_decide": True,
            "may_end": link.state == LinkState.CONFIRMED,
            "documents": Attachment.objects.filter(
                content_type__model="linkrequest", object_id=str(link.pk)
            ),
            "check": None,
            "confirm_form": forms.get("confirm_form", ConfirmForm()),
            "reason_form": forms.get("reason_form", ReasonForm()),
        },
        status=status,
    )


@office_view()
@require_POST
def link_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    link = _link(request, pk)
    if not services.may_link(request.user):
        raise PermissionDenied("Links are confirmed by the Town Clerk or the Superintendent.")
    form = ConfirmForm(request.POST)

    def confirm(d: dict[str, Any]) -> LinkRequest:
        return services.confirm(
            request.user,
            link,
            person=d["person"],
            document_kind=d["document_kind"],
            document_reference=d["document_reference"],
            note=d["note"],
        )

    def confirmed(done: LinkRequest) -> HttpResponse:
        messages.success(request, f"{link.user} now acts for {done.person}.")
        return redirect("portal:link", link.pk)

    return form_action(request, form, confirm).respond(
        then=confirmed,
        show=lambda status: _redisplay(request, link, status, confirm_form=form),
    )


@office_view()
@require_POST
def link_refuse(request: HttpRequest, pk: int) -> HttpResponse:
    link = _link(request, pk)
    if not services.may_link(request.user):
        raise PermissionDenied("Links are decided by the Town Clerk or the Superintendent.")
    form = ReasonForm(request.POST)

    def refused(_: LinkRequest) -> HttpResponse:
        messages.success(request, "The request is refused; the requester sees why.")
        return redirect("portal:link", link.pk)

    act = form_action(request, form, lambda d: services.refuse(request.user, link, d["reason"]))
    return act.respond(
        then=refused, show=lambda status: _redisplay(request, link, status, reason_form=form)
    )


@office_view()
@require_POST
def link_end(request: HttpRequest, pk: int) -> HttpResponse:
    link = _link(request, pk)
    form = ReasonForm(request.POST)

    def ended(_: object) -> HttpResponse:
        messages.success(request, "The link is ended.")
        return redirect("portal:link", link.pk)

    act = form_action(request, form, lambda d: services.end_link(request.user, link, d["reason"]))
    return act.respond(
        then=ended, show=lambda status: _redisplay(request, link, status, reason_form=form)
    )
