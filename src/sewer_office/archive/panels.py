"""What the archive app contributes to the pages of the apps below it (see core.panels): its
panel on the ``/imports/`` page, and the records found by the number written on their paper
in the header's search box."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.contenttypes.models import ContentType

from sewer_office.accounts.access import visible
from sewer_office.core.models import ImportedRecord
from sewer_office.core.panels import SEARCH_ROWS, Panel, SearchGroup, SearchHit

from .models import RecordImport
from .services import may_import

#: Imports listed on the /imports/ page.
LATEST = 3
#: Provenance rows read per search (their records are then narrowed to what the user sees).
SEARCH_SCAN = 200


def imports_panel(request: Any) -> Panel | None:
    """The import of records of the past, and the latest imports (for those who import)."""
    if not may_import(request.user):
        return None
    latest = list(RecordImport.objects.select_related("imported_by")[:LATEST])
    return Panel("Records of the past", "archive/_imports_panel.html", {"latest": latest}, order=60)


def search(request: Any, q: str) -> SearchGroup | None:
    """Imported records whose number on paper contains ``q``, among those the user may see."""
    found = list(
        ImportedRecord.objects.filter(original_number__icontains=q)
        .order_by("original_number", "id")
        .values_list("content_type_id", "object_id", "original_number", "source")[:SEARCH_SCAN]
    )
    if not found:
        return None
    by_type: dict[int, list[str]] = defaultdict(list)
    for type_id, object_id, _number, _source in found:
        by_type[type_id].append(object_id)
    records: dict[tuple[int, str], Any] = {}
    for type_id, ids in by_type.items():
        model = ContentType.objects.get_for_id(type_id).model_class()
        if model is None:
            continue
        for obj in visible(model._default_manager.filter(pk__in=ids), request.user):
            records[(type_id, str(obj.pk))] = obj
    hits = []
    for type_id, object_id, number, source in found:
        found_record = records.get((type_id, object_id))
        if found_record is None or not hasattr(found_record, "get_absolute_url"):
            continue
        office = str(getattr(found_record, "number", "") or found_record)
        hits.append(
            SearchHit(
                f"{number} (on paper) → {office}",
                found_record.get_absolute_url(),
                f"Imported {found_record._meta.verbose_name} · paper at {source}",
            )
        )
    if not hits:
        return None
    return SearchGroup(
        title="Imported records, by their number on paper",
        hits=hits[:SEARCH_ROWS],
        more=len(hits) > SEARCH_ROWS,
        order=16,
    )
