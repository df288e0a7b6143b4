"""Template tags that say a record was made outside the office and imported.

- ``{% imported_banner obj %}`` — on a detail page: "Imported record — made outside the office
  on <date>, from <source>, imported by <user> on <date>", the number on paper, the scans of
  the paper (links), the import's file and SHA-256, and the row as written (nothing when
  ``obj`` was made in the office).
- ``{% imported_record obj as imp %}`` — the provenance itself (or None), for a page that
  words something differently for an imported record.
- ``{% imported_among page as imported %}`` — once per list page (one query for its rows),
  then ``{% imported_badge r imported %}`` in each row: the "imported" badge, or nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from sewer_office.core.imported import ImportedSet, scans_of
from sewer_office.core.imported import imported_among as _imported_among
from sewer_office.core.imported import imported_record as _imported_record
from sewer_office.core.models import ImportedRecord

register = template.Library()

#: The badge's words on hover.
BADGE_TITLE = "Imported record: made outside the office, before it kept its records"


@register.simple_tag
def imported_record(obj: Any) -> ImportedRecord | None:
    """The provenance of ``obj`` (None: made in the office)."""
    return obj if isinstance(obj, ImportedRecord) else _imported_record(obj)


@register.inclusion_tag("includes/imported_banner.html")
def imported_banner(obj: Any) -> dict[str, Any]:
    """The banner of an imported record's page (empty for a record the office made), with
    links to the scans of its paper attached by the import."""
    imp = imported_record(obj)
    if imp is None:
        return {"imp": None}
    return {
        "imp": imp,
        "written": sorted((imp.as_written or {}).items()),
        "scans": list(scans_of(imp)),
    }


@register.simple_tag
def imported_among(rows: Iterable[Any]) -> ImportedSet:
    """Which rows of this page are imported records (one query)."""
    return _imported_among(rows)


@register.simple_tag
def imported_badge(row: Any, imported: ImportedSet | None) -> SafeString | str:
    """The "imported" badge for ``row`` when it is among ``imported``."""
    if imported is None or row not in imported:
        return ""
    return format_html(
        '<span class="badge tone-slate imported-badge" title="{}">imported</span>', BADGE_TITLE
    )
