"""The signed-in user's e-mail: which reminders they get, and the messages the office sent
them (staff: every message, filterable)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from sewer_office.accounts.actors import signed_in
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of

from . import services
from .access import visible_messages
from .choices import ALWAYS_SENT, Topic
from .filters import MessageFilter
from .forms import PreferencesForm

PAGE_SIZE = 25


@office_view()
def preferences(request: HttpRequest) -> HttpResponse:
    current = services.preferences(signed_in(request.user))
    form = PreferencesForm(request.POST or None, current=current)
    always = [Topic(t).label for t in Topic.values if t in ALWAYS_SENT]

    def saved(_: object) -> HttpResponse:
        messages.success(request, "Your choice of reminders is saved.")
        return redirect("mail:preferences")

    act = form_action(
        request, form, lambda d: services.set_preferences(request.user, form.wanted())
    )
    return act.respond(
        then=saved,
        show=lambda status: render(
            request, "mail/preferences.html", {"form": form, "always": always}, status=status
        ),
    )


#: The messages' download (``/mail/messages/?format=csv``); "To" for staff only, as the page.
MESSAGE_COLUMNS = (
    Column("Sent", "sent_at"),
    Column("To", "to"),
    Column("Subject", "subject"),
    Column("Topic", "get_topic_display"),
    Column("Legal notice", "legal"),
    Column("Outcome", "get_status_display"),
    Column("Error", "error"),
)


@office_view()
def message_list(request: HttpRequest) -> HttpResponse:
    base = visible_messages(request.user)
    fs = MessageFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    staff = is_staff_member(request.user)
    columns = [c for c in MESSAGE_COLUMNS if staff or c.header != "To"]
    download = export(request, qs.order_by("-sent_at", "-id"), columns, "messages")
    if download is not None:
        return download
    page, query = page_of(request, qs.order_by("-sent_at", "-id"), PAGE_SIZE)
    return render(
        request,
        "mail/messages.html",
        {"filter": fs, "page": page, "query": query, "staff": is_staff_member(request.user)},
    )
