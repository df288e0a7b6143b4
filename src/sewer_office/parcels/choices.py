"""Choices of the parcels app: what a roll import brings in and how the clerk decides what the
roll cannot say by itself (a parcel split, merged or gone)."""

from __future__ import annotations

from django.db import models


class ImportKind(models.TextChoices):
    ROLL = "roll", "Tax parcel roll"
    DISTRICTS = "districts", "Sewer districts"


class ReviewKind(models.TextChoices):
    """How the parcels that left the roll relate to those that came onto it on the same ground."""

    SPLIT = "split", "Split (one parcel became several)"
    MERGE = "merge", "Merge (several parcels became one)"
    REDRAW = "redraw", "Redrawn (parcels renumbered or redrawn together)"
    GONE = "gone", "Gone (no longer on the roll, nothing new on its ground)"


class ReviewState(models.TextChoices):
    PENDING = "pending", "Waiting for the clerk"
    CONFIRMED = "confirmed", "Confirmed"
    REJECTED = "rejected", "Rejected"


class Outcome(models.TextChoices):
    """What an import does with one row of the file."""

    NEW = "new", "New"
    CHANGED = "changed", "Changed"
    UNCHANGED = "unchanged", "Unchanged"
    REFUSED = "refused", "Refused"
    REVIEW = "review", "Held for the clerk's review"
