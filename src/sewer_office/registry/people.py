"""Pages for choosing and keeping persons apart: the pickers' search endpoint, the clerk's list
of likely duplicates, and merging a duplicate into the person that survives."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render

from sewer_office.accounts.access import visible
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.pickers import MATCHES

from . import merge, pickers
from .models import Person

#: The longest search text taken (a name and an address fit well within it).
QUERY_LIMIT = 120


@office_view()
def pick(request: HttpRequest, kind: str) -> HttpResponse:
    """``/registry/pick/<kind>/?q=``: the records of ``kind`` a text names, among those the user
    may see (an outside user: their own), described so that namesakes can be told apart.

    JSON: ``{"kind", "q", "results": [{"id", "label", "detail"}], "more"}``."""
    entry = pickers.KINDS.get(kind)
    if entry is None:
        raise Http404("No such kind of record to pick.")
    picker, model = entry
    q = request.GET.get("q", "")[:QUERY_LIMIT].strip()
    found = picker.matches(visible(model._default_manager.all(), request.user), q, MATCHES + 1)
    return JsonResponse(
        {
            "kind": kind,
            "q": q,
            "results": [m.as_json() for m in found[:MATCHES]],
            "more": len(found) > MATCHES,
        }
    )


#: The likely duplicates' download (``/registry/persons/duplicates/?format=csv``): one row
#: per entry, with the group it belongs to (rows of ``(group, person, description)``).
DUPLICATE_COLUMNS = (
    Column("Group", lambda r: r[0].persons[0].name),
    Column("Why", lambda r: r[0].reason),
    Column("Person number", lambda r: r[1].pk),
    Column("Name", lambda r: r[1].name),
    Column("Who", lambda r: r[2]),
)


@office_view(*merge.MERGE_ROLES)
def duplicates(request: HttpRequest) -> HttpResponse:
    """The persons probably entered more than once, each described, with a merge for each."""
    groups = merge.likely_duplicates()
    described = {
        p.pk: pickers.describe_person(p)[1]
        for p in pickers.prepare_persons(
            Person.objects.filter(pk__in=[p.pk for g in groups for p in g.persons])
        )
    }
    rows = [(g, p, described.get(p.pk, "")) for g in groups for p in g.persons]
    if (download := export(request, rows, DUPLICATE_COLUMNS, "likely-duplicates")) is not None:
        return download
    return render(
        request,
        "registry/person_duplicates.html",
        {"groups": [(g, [(p, described.get(p.pk, "")) for p in g.persons]) for g in groups]},
    )


class MergeForm(forms.Form):
    survivor = pickers.PersonField(
        label="Merge into (the person that stays)",
        help_text="the same person's other entry; its records and this one's are then found "
        "under it",
    )
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="why they are the same person (written on the audit record)",
    )

    def __init__(self, *args: Any, duplicate: Person, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["survivor"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = pickers.active_persons().exclude(pk=duplicate.pk)


@office_view(*merge.MERGE_ROLES)
def merge_person(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge this person (the duplicate) into another: GET the form, POST the merge."""
    duplicate = get_object_or_404(Person, pk=pk)
    initial = {"survivor": request.GET.get("into")} if request.GET.get("into") else {}
    form = MergeForm(request.POST or None, duplicate=duplicate, initial=initial)

    def merged(survivor: Person) -> HttpResponse:
        messages.success(
            request,
            f"{duplicate.name} (#{duplicate.pk}) merged into {survivor.name} "
            f"(#{survivor.pk}); both records are kept.",
        )
        return redirect("registry:person", pk=survivor.pk)

    def merge_into(d: dict[str, Any]) -> Person:
        survivor: Person = d["survivor"]
        merge.merge_person(duplicate, survivor, request.user, reason=d["reason"])
        return survivor

    act = form_action(request, form, merge_into, error_status=True)
    return act.respond(
        then=merged, show=lambda status: _merge_page(request, duplicate, form, status)
    )


def _merge_page(
    request: HttpRequest, duplicate: Person, form: MergeForm, status: int
) -> HttpResponse:
    """The merge form under the duplicate's description (refused: with why, 400 or 409)."""
    prepared = pickers.prepare_persons(Person.objects.filter(pk=duplicate.pk)).get()
    return render(
        request,
        "registry/person_merge.html",
        {
            "person": duplicate,
            "detail": pickers.describe_person(prepared)[1],
            "form": form,
        },
        status=status,
    )
