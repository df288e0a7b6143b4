"""The data migration that gives the records already stored the town they now keep.

When a model starts keeping its parcel's town (:class:`~.models.KeepsItsTown`), the rows
already stored take it from their parcel, or from their facility, which keeps its parcel's
(the first of the model's sources a row has; a row with none keeps the primary town, as it
was judged before). The records of legal weight refuse any change below the application
(:mod:`.protection`): the copy is made with their guards suspended, in the migration's
transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import models
from django.db.models.functions import Coalesce

from sewer_office.accounts.towns import primary

from . import protection

#: What a source of a record's town leads to, in the registry's historical models.
_KEEPERS = {"property": "Property", "establishment": "Establishment"}


def sources_town(apps: Any, keys: tuple[str, ...]) -> Coalesce:
    """The town of a row, in SQL: from the first of ``keys`` (``"property"``, ``"establishment"``)
    the row has, else the primary town. ``apps``: a migration's historical models, or Django's
    (the benches, which write their records in bulk)."""
    towns = [
        models.Subquery(
            apps.get_model("registry", _KEEPERS[key])
            .objects.filter(pk=models.OuterRef(f"{key}_id"))
            .values("jurisdiction")[:1]
        )
        for key in keys
    ]
    return Coalesce(*towns, models.Value(primary()))


def copy_parcel_towns(app_label: str, sources: dict[str, tuple[str, ...]]) -> Callable[..., None]:
    """A ``RunPython`` function: for each model named in ``sources`` (``"BuildingSewerPermit"
    → ("property",)``), every row's ``jurisdiction`` from the first of its sources it has."""

    def run(apps: Any, schema_editor: Any) -> None:
        for name, keys in sources.items():
            model = apps.get_model(app_label, name)
            with protection.suspended(schema_editor.connection, f"{app_label}.{name}"):
                model.objects.update(jurisdiction=sources_town(apps, keys))

    return run
