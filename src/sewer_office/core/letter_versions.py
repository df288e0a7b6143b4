"""Which stored version of a letter's wording is current, for a town and a moment.

Each member town keeps its own versions of every letter's template (as of its letterhead,
:func:`.letter_pdf.current_letterhead`): the newest of the town's is current; a town that
stored none uses the bundled template ("version 0"), never another town's.
"""

from __future__ import annotations

from datetime import datetime

from sewer_office.accounts.towns import primary

from .models import LetterTemplate


def current_template(
    key: str, at: datetime | None = None, jurisdiction: str = ""
) -> LetterTemplate | None:
    """The newest stored version of ``key``'s template of the town (``jurisdiction``, else the
    primary), at ``at`` if given; None: the bundled one is current for that town."""
    found = LetterTemplate.objects.filter(kind=key, jurisdiction=jurisdiction or primary())
    if at is not None:
        found = found.filter(created_at__lte=at)
    return found.order_by("-version").first()
