"""Choices of the onboarding app: the state of a row waiting in the review queue, and what an
import does with each row of a spreadsheet."""

from __future__ import annotations

from django.db import models


class ReviewState(models.TextChoices):
    """A row that matched no parcel: open until the clerk creates its facility on the parcel
    chosen (resolved) or sets it aside with a reason (dismissed). Nothing is dropped."""

    OPEN = "open", "Open"
    RESOLVED = "resolved", "Resolved"
    DISMISSED = "dismissed", "Dismissed"


class RowOutcome(models.TextChoices):
    """What an import does (or would do) with one row of the spreadsheet."""

    NEW = "new", "New facility"
    CHANGED = "changed", "Matched, changed"
    UNCHANGED = "unchanged", "Matched, unchanged"
    UNMATCHED = "unmatched", "No parcel found: to the review queue"
    QUEUED_BEFORE = "queued_before", "No parcel found: already in the review queue"
    REFUSED = "refused", "Refused"
