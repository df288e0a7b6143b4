"""What the parcels app contributes to the pages of the apps below it (see core.panels): the
property page's roll keys, retirement and ownership history (staff only), and its panel on the
``/imports/`` page."""

from __future__ import annotations

from typing import Any

from sewer_io.orpts import CODES
from sewer_office.accounts.roles import has_role, is_staff_member
from sewer_office.core.panels import Panel

from .choices import ReviewState
from .models import OwnerChange, ParcelReview, Retirement, RollImport
from .services import IMPORTERS


def property_panel(request: Any, prop: Any) -> Panel | None:
    """The parcel on the roll: SWIS/SBL, class, retirement, reviews, the owners it had."""
    if not is_staff_member(request.user):
        return None
    changes = list(
        OwnerChange.objects.filter(property=prop)
        .select_related("previous_owner", "new_owner", "roll_import")
        .order_by("-effective_on", "-id")
    )
    retirement = Retirement.objects.filter(property=prop).select_related("review").first()
    if not (changes or retirement or prop.sbl):
        return None
    key = f"{prop.swis}/{prop.sbl}"
    reviews = [
        r
        for r in ParcelReview.objects.filter(state=ReviewState.PENDING).order_by("id")
        if key in r.gone_keys() or key in {c["key"] for c in r.continuing}
    ]
    return Panel(
        "On the tax roll",
        "parcels/panel_property.html",
        {
            "prop": prop,
            "changes": changes,
            "retirement": retirement,
            "reviews": reviews,
            "class_label": CODES.get(prop.property_class, ""),
        },
        order=15,
    )


def imports_panel(request: Any) -> Panel | None:
    if not has_role(request.user, *IMPORTERS):
        return None
    return Panel(
        "Tax parcel roll and sewer districts",
        "parcels/panel_imports.html",
        {
            "last": RollImport.objects.order_by("-imported_at", "-id").first(),
            "pending": ParcelReview.objects.filter(state=ReviewState.PENDING).count(),
        },
        order=10,
    )
