"""The violations as every list and page reads them: one query with the records each row
shows (the person, the facility and its property, the finding), newest first.

Published for the apps and commands that list violations (billing's pages on a violation,
``sewer-use violations``): what they read is the enforcement's pages' own reading, without
importing the pages.
"""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Violation


def violations() -> QuerySet[Violation]:
    """Every violation, with what a row or a page reads of it, newest observed first."""
    return Violation.objects.select_related(
        "person", "establishment__building__property", "property", "finding"
    ).order_by("-observed_on", "-id")
