"""The office's letters editor, ``/letters/``: the kinds of letter, their wording (a new
version per edit, with a preview on a real record) and the letterhead.

Every staff member may read the templates and preview them; only the Superintendent and the
clerk save (:data:`~.letter_edits.EDITORS`).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from sewer_office.accounts.jurisdictions import towns_of, within
from sewer_office.accounts.roles import STAFF_ROLES
from sewer_office.accounts.towns import several

from . import letter_edits, letter_pdf, letters
from .decorators import office_view
from .errors import InvalidInput
from .exports import Column, export
from .forms import add_input_errors
from .letter_versions import current_template
from .models import Letterhead, LetterTemplate

#: How many of a kind's records the preview offers.
PREVIEW_CHOICES = 50


class TemplateForm(forms.Form):
    body = forms.CharField(label="Template", widget=forms.Textarea(attrs={"rows": 24, "cols": 90}))
    note = forms.CharField(
        label="Why the wording changes",
        max_length=300,
        required=False,
        help_text="Kept with the version (required to save).",
    )


class LetterheadForm(forms.Form):
    town_name = forms.CharField(label="Town name", max_length=200)
    office_name = forms.CharField(label="Office name", max_length=200)
    address = forms.CharField(
        label="Mailing address",
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Street, town, state and ZIP code, one line per line.",
    )
    phone = forms.CharField(label="Phone", max_length=60, required=False)
    email = forms.CharField(label="E-mail", max_length=120, required=False)
    hours = forms.CharField(label="Office hours", max_length=200, required=False)
    payment_instructions = forms.CharField(
        label="How to pay",
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text="Printed on invoices and statements.",
    )
    logo = forms.FileField(
        label="Logo (PNG or JPEG)",
        required=False,
        help_text=f"At most {letter_edits.LOGO_MAX_BYTES // 1024} KB; leave empty to keep the current one.",
    )
    remove_logo = forms.BooleanField(label="Remove the logo", required=False)
    note = forms.CharField(label="Why it changes", max_length=300)


def _kind_or_404(key: str) -> letters.LetterKind:
    try:
        return letters.kind(key)
    except KeyError:
        raise Http404("No such kind of letter.") from None


def _town_records(kind: letters.LetterKind, town: str) -> Any:
    """The kind's records of ``town`` (in an office of several towns; the preview is on a
    record of the town whose wording is edited, never on another town's)."""
    records = kind.records()
    if not several() or not isinstance(records, QuerySet):
        return records
    cond = within(records.model, frozenset({town}))
    return records if cond is None else records.filter(cond)


def _preview_records(kind: letters.LetterKind, town: str) -> list[Any]:
    return list(_town_records(kind, town)[:PREVIEW_CHOICES])


def _preview_record(kind: letters.LetterKind, raw: str | None, town: str) -> Any:
    """The record chosen for the preview (among the town's records of the kind), else the
    newest."""
    records = _town_records(kind, town)
    if not raw:
        return next(iter(records[:1]), None)
    if isinstance(records, QuerySet):
        try:
            return records.filter(pk=int(raw)).first()
        except (TypeError, ValueError):
            return None
    return next((r for r in records if str(r.pk) == raw), None)


def _editor(row: dict[str, Any]) -> str:
    user = row["current"].created_by if row["current"] else None
    return (user.get_full_name() or user.get_username()) if user else ""


#: The letters' download (``/letters/?format=csv``): each kind and its current version.
LETTER_COLUMNS = (
    Column("Letter", lambda r: r["kind"].name),
    Column("Current version", lambda r: r["current"].version if r["current"] else 0),
    Column("Edited by", _editor),
    Column("When", lambda r: r["current"].created_at if r["current"] else None),
)


@office_view(*STAFF_ROLES)
def letter_list(request: HttpRequest) -> HttpResponse:
    """``/letters/``: every kind, its current version, who edited it and when (of a town,
    ``?jurisdiction=``: in an office of several towns each keeps its own wording)."""
    town = _town(request)
    newest: dict[str, LetterTemplate] = {}
    for t in (
        LetterTemplate.objects.filter(jurisdiction=town)
        .select_related("created_by")
        .order_by("kind", "-version")
    ):
        newest.setdefault(t.kind, t)
    rows = [{"kind": k, "current": newest.get(k.key)} for k in letters.kinds()]
    if (download := export(request, rows, LETTER_COLUMNS, "letters")) is not None:
        return download
    head = letter_pdf.current_letterhead(jurisdiction=town)
    return render(
        request,
        "core/letters/list.html",
        {
            "rows": rows,
            "letterhead": head,
            "missing": letter_pdf.head_of(head, town).missing,
            "may_edit": letter_edits.may_edit(request.user),
            "town": town,
            "towns": _towns(request),
        },
    )


@office_view(*STAFF_ROLES)
def letter_detail(request: HttpRequest, key: str) -> HttpResponse:
    """``/letters/<key>/``: the current template, its merge fields, a preview on a real record,
    a new version (Superintendent, clerk) and the history."""
    kind = _kind_or_404(key)
    town = _town(request)
    current = current_template(key, jurisdiction=town)
    body = current.body if current is not None else kind.default_body
    chosen = request.POST.get("record") or request.GET.get("record")
    record = _preview_record(kind, chosen, town)
    form = TemplateForm(initial={"body": body})
    problems: list[str] = []
    if request.method == "POST":
        form = TemplateForm(request.POST)
        if form.is_valid():
            body = form.cleaned_data["body"].replace("\r\n", "\n")
            if request.POST.get("action") == "save":
                if not letter_edits.may_edit(request.user):
                    raise PermissionDenied(
                        "Only the Superintendent or the clerk may change the letters."
                    )
                try:
                    saved = letter_edits.save_template(
                        key,
                        body,
                        form.cleaned_data["note"],
                        actor=request.user,
                        preview=record,
                        jurisdiction=town,
                    )
                except ValidationError as e:
                    add_input_errors(form, InvalidInput(e.message_dict))
                else:
                    messages.success(
                        request,
                        f"{kind.name}: version {saved.version} saved; the next letters use it.",
                    )
                    return redirect(_with_town(reverse("letters:detail", args=[key]), town))
            else:
                problems = letters.check_body(kind, body)
    composed: list[letter_pdf.Block] = []
    if record is not None and not problems and not form.errors:
        try:
            composed = [
                (s, t.replace("\t", " | ")) for s, t in letters.compose(key, record, body=body)
            ]
        except Exception as e:  # shown to the editor: the draft does not render
            problems = [f"The template fails on {record}: {e}"]
    history = list(
        LetterTemplate.objects.filter(kind=key, jurisdiction=town)
        .select_related("created_by")
        .order_by("-version")
    )
    return render(
        request,
        "core/letters/detail.html",
        {
            "kind": kind,
            "current": current,
            "fields": list(letters.iter_fields(kind)),
            "form": form,
            "body": body,
            "record": record,
            "records": _preview_records(kind, town),
            "composed": composed,
            "problems": problems,
            "history": history,
            "may_edit": letter_edits.may_edit(request.user),
            "draft": request.method == "POST",
            "town": town,
            "towns": _towns(request),
        },
    )


@office_view(*STAFF_ROLES)
def letter_preview(request: HttpRequest, key: str) -> HttpResponse:
    """The PDF of the template (a posted draft, else a stored version, else the current one)
    on a real record, inline. Nothing is stored."""
    kind = _kind_or_404(key)
    town = _town(request)
    chosen = request.POST.get("record") or request.GET.get("record")
    record = _preview_record(kind, chosen, town)
    if record is None:
        raise Http404("No record of this kind to preview on yet.")
    body: str | None = None
    if request.method == "POST":
        body = str(request.POST.get("body", "")).replace("\r\n", "\n")
        problems = letters.check_body(kind, body)
        if problems:
            return HttpResponse(
                "\n".join(problems), status=400, content_type="text/plain; charset=utf-8"
            )
    elif request.GET.get("version"):
        stored = LetterTemplate.objects.filter(
            kind=key, jurisdiction=town, version=request.GET["version"]
        ).first()
        if stored is None:
            raise Http404("No such version.")
        body = stored.body
    try:
        content = letters.render(key, record, body=body)
    except Exception as e:  # a draft that fails: say why, as text
        return HttpResponse(
            f"The template fails on {record}: {e}",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    return letters.bytes_response(content, f"preview-{kind.filename(record)}")


def _town(request: HttpRequest) -> str:
    """The member town whose letterhead the page shows (``?jurisdiction=``): one the user acts
    for, else 404; without one, the first of theirs (in an office of one town, the town)."""
    towns = towns_of(request.user)
    asked = request.GET.get("jurisdiction", "")
    if asked:
        if asked not in towns:
            raise Http404("No such town among yours.")
        return asked
    if not towns:
        raise PermissionDenied("Your account acts for no town of this office.")
    return towns[0]


def _towns(request: HttpRequest) -> list[str]:
    """The towns whose letterheads the user may switch between (none: an office of one)."""
    return list(towns_of(request.user)) if several() else []


@office_view(*STAFF_ROLES)
def letterhead_edit(request: HttpRequest) -> HttpResponse:
    """``/letters/letterhead/``: a town's letterhead (a new version per edit) and its history
    (``?jurisdiction=``: in an office of several towns, each has its own)."""
    town = _town(request)
    current = letter_pdf.current_letterhead(jurisdiction=town)
    head = letter_pdf.head_of(current, town)
    initial = {
        "town_name": head.town_name,
        "office_name": head.office_name,
        "address": "\n".join(head.address_lines),
        "phone": head.phone,
        "email": head.email,
        "hours": head.hours,
        "payment_instructions": head.payment_instructions,
    }
    form = LetterheadForm(initial=initial)
    if request.method == "POST":
        if not letter_edits.may_edit(request.user):
            raise PermissionDenied(
                "Only the Superintendent or the clerk may change the letterhead."
            )
        form = LetterheadForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            try:
                saved = letter_edits.save_letterhead(
                    data,
                    jurisdiction=town,
                    actor=request.user,
                    logo=data.get("logo"),
                    keep_logo=not data.get("remove_logo"),
                )
            except ValidationError as e:
                add_input_errors(form, InvalidInput(e.message_dict))
            else:
                messages.success(
                    request, f"Letterhead version {saved.version} saved; the next letters use it."
                )
                return redirect(_with_town(reverse("letters:letterhead"), town))
    history = list(
        Letterhead.objects.filter(jurisdiction=town)
        .select_related("created_by")
        .order_by("-version")
    )
    return render(
        request,
        "core/letters/letterhead.html",
        {
            "form": form,
            "current": current,
            "missing": head.missing,
            "history": history,
            "may_edit": letter_edits.may_edit(request.user),
            "town": town,
            "towns": _towns(request),
        },
    )


def _with_town(url: str, town: str) -> str:
    """``url`` naming the town when the office has several (else as it is)."""
    return f"{url}?{urlencode({'jurisdiction': town})}" if several() else url


@office_view(*STAFF_ROLES)
def letterhead_preview(request: HttpRequest) -> HttpResponse:
    """A sample page with the letterhead (a stored version with ``?version=``, else the current
    one), inline."""
    town = _town(request)
    chosen = None
    if request.GET.get("version"):
        chosen = Letterhead.objects.filter(
            jurisdiction=town, version=request.GET["version"]
        ).first()
        if chosen is None:
            raise Http404("No such letterhead version.")
    else:
        chosen = letter_pdf.current_letterhead(jurisdiction=town)
    head = letter_pdf.head_of(chosen, town)
    blocks: list[letter_pdf.Block] = [
        ("title", "Letterhead preview"),
        (
            "text",
            "The first page of every letter opens with this letterhead; every page's foot "
            "carries the office's contact and the page number.",
        ),
    ]
    if head.payment_instructions:
        blocks += [("gap", ""), ("heading", "How to pay"), ("text", head.payment_instructions)]
    content = letter_pdf.render_pdf(
        blocks,
        title=f"Letterhead version {head.version}",
        created=chosen.created_at if chosen is not None else timezone.now(),
        head=head,
    )
    return letters.bytes_response(content, f"letterhead-{head.version}.pdf")
