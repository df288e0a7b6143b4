"""Importing the sewer districts' polygons: the service areas' boundaries, then each parcel's area.

A district of the file is the service area with its code (``ServiceArea.code``): an area on
record gets the file's boundary (**changed**, or **unchanged** when it is the same); a code the
register does not have is a **new** sewer district (its name from the file). A code that is no
slug (letters, digits, dashes, underscores, at most 40), the same code twice, a name longer
than kept: the row is **refused**, and nothing is applied.

Then every property with a point on record (from the roll) is placed: its area becomes the
district whose boundary holds it (:func:`sewer_io.parcels.district_of`, the smallest where
districts overlap); a property in none keeps the area it has. All in one transaction with one
audit event, recorded as an import (:class:`.models.RollImport` of kind districts); the same
bytes are not applied twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

import polars as pl
from django.db import transaction
from django.utils import timezone

from sewer_io.parcels import DistrictFile, district_of
from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.core import audit
from sewer_office.registry.choices import AreaKind
from sewer_office.registry.models import Property, ServiceArea

from . import store
from .choices import ImportKind, Outcome
from .import_reports import DistrictReport, DistrictRow
from .models import Retirement, RollImport
from .services import ImportPreview, Stale, check_importer, lock_register

CODE = re.compile(r"^[-a-zA-Z0-9_]+$")
CODE_LENGTH = 40
NAME_LENGTH = 200


@dataclass
class DistrictPreview(ImportPreview):
    """What applying a districts file would do."""

    file: DistrictFile
    taken_at: datetime
    previous: RollImport | None
    refusals: list[tuple[int, str, str]]
    rows: list[DistrictRow]
    #: ``id, service_area_id, old`` of the properties whose area changes
    moves: pl.DataFrame
    counts: dict[str, int] = field(default_factory=dict)
    #: code → the file's boundary (GeoJSON) of the new and changed districts
    geometry: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> DistrictReport:
        listed = [r for r in self.rows if r["outcome"] != Outcome.UNCHANGED]
        out: DistrictReport = {
            "new": self.counts.get("new", 0),
            "changed": self.counts.get("changed", 0),
            "unchanged": self.counts.get("unchanged", 0),
            "refused": self.counts.get("refused", 0),
            "rows": listed,
            "file": self.source,
            "sha256": self.file.sha256,
            "crs": self.file.crs,
            "properties_reassigned": self.moves.height,
        }
        if self.previous is not None:
            out["already_imported"] = {
                "import": self.previous.pk,
                "at": self.previous.imported_at.isoformat(),
                "source_name": self.previous.source_name,
            }
        return out


def _placed(drawn: list[tuple[str, str]]) -> pl.DataFrame:
    """``id, service_area_id, old`` of the properties a district's boundary moves (a district
    not yet on record has a negative id here, one per code: the preview counts its parcels)."""
    retired = set(Retirement.objects.values_list("property_id", flat=True))
    props = pl.DataFrame(
        list(
            Property.objects.filter(lon__isnull=False, lat__isnull=False)
            .order_by("id")
            .values_list("id", "lon", "lat", "service_area_id")
        ),
        schema={"id": pl.Int64, "lon": pl.Float64, "lat": pl.Float64, "old": pl.Int64},
        orient="row",
    )
    if retired:
        props = props.filter(~pl.col("id").is_in(sorted(retired)))
    empty = pl.DataFrame(schema={"id": pl.Int64, "service_area_id": pl.Int64, "old": pl.Int64})
    if props.height == 0 or not drawn:
        return empty
    ids: dict[str, int] = dict(ServiceArea.objects.values_list("code", "id"))
    for k, (code, _) in enumerate(drawn):
        ids.setdefault(code, -1 - k)
    codes = district_of(props, drawn)
    return (
        props.with_columns(
            codes.replace_strict(ids, default=None, return_dtype=pl.Int64).alias("service_area_id")
        )
        .filter(
            pl.col("service_area_id").is_not_null()
            & pl.col("service_area_id").ne_missing(pl.col("old"))
        )
        .select("id", "service_area_id", "old")
    )


def preview_districts(df: DistrictFile) -> DistrictPreview:
    """Classify every district of ``df`` and find the properties it moves; writes nothing."""
    taken_at = timezone.now()
    previous = RollImport.objects.filter(kind=ImportKind.DISTRICTS, sha256=df.sha256).first()
    refusals = [(int(r.row), r.field, r.message) for r in df.refused]
    areas = {a.code: a for a in ServiceArea.objects.all()}
    first_row: dict[str, int] = {}
    rows: list[DistrictRow] = []
    for rec in df.districts.iter_rows(named=True):
        row, code = int(rec["row"]), str(rec["code"] or "").strip()
        name, geometry = str(rec["name"] or "").strip(), str(rec["geometry"] or "")
        problem = None
        if not code:
            problem = ("code", "missing (the district's code is needed)")
        elif len(code) > CODE_LENGTH or not CODE.match(code):
            problem = (
                "code",
                f"'{code[:60]}' is not a code the office keeps (letters, digits, dashes and "
                f"underscores, at most {CODE_LENGTH})",
            )
        elif code in first_row:
            problem = ("code", f"the same code as row {first_row[code]}")
        elif len(name) > NAME_LENGTH:
            problem = ("name", f"{len(name):,} characters, longer than the {NAME_LENGTH} kept")
        if problem is not None:
            refusals.append((row, *problem))
            rows.append(
                {
                    "row": row,
                    "code": code,
                    "outcome": Outcome.REFUSED.value,
                    "field": problem[0],
                    "message": problem[1],
                }
            )
            continue
        first_row[code] = row
        area = areas.get(code)
        if area is None:
            rows.append(
                {
                    "row": row,
                    "code": code,
                    "name": name or code,
                    "outcome": Outcome.NEW.value,
                    "geometry": geometry,
                }
            )
        elif area.boundary != geometry:
            rows.append(
                {
                    "row": row,
                    "code": code,
                    "name": area.name,
                    "area": area.pk,
                    "outcome": Outcome.CHANGED.value,
                    "changed": ["boundary"],
                    "geometry": geometry,
                }
            )
        else:
            rows.append(
                {
                    "row": row,
                    "code": code,
                    "name": area.name,
                    "area": area.pk,
                    "outcome": Outcome.UNCHANGED.value,
                }
            )
    for refusal in df.refused:
        rows.append(
            {
                "row": int(refusal.row),
                "code": "",
                "outcome": Outcome.REFUSED.value,
                "field": refusal.field,
                "message": refusal.message,
            }
        )
    rows.sort(key=lambda x: x["row"])
    refusals = sorted(set(refusals))
    drawn = {code: a.boundary for code, a in areas.items() if a.boundary}
    drawn.update({r["code"]: r["geometry"] for r in rows if "geometry" in r})
    moves = _placed(sorted(drawn.items())) if not refusals and drawn else _placed([])
    counts = {k: sum(1 for r in rows if r["outcome"] == k) for k in Outcome.values}
    public_rows = [_without_geometry(r) for r in rows]
    drawn_now = {r["code"]: r["geometry"] for r in rows if "geometry" in r}
    return DistrictPreview(df, taken_at, previous, refusals, public_rows, moves, counts, drawn_now)


def _without_geometry(row: DistrictRow) -> DistrictRow:
    """The row as the report lists it; its boundary is kept apart (``DistrictPreview.geometry``)."""
    shown = row.copy()
    shown.pop("geometry", None)
    return shown


def apply_districts(preview: DistrictPreview, actor: Actor) -> RollImport:
    """Store the boundaries and the properties' areas (see the module), or nothing."""
    check_importer(actor)
    p = preview
    p.check_applicable()
    geometry = p.geometry
    now = timezone.now()
    with transaction.atomic():
        lock_register()
        if (
            ServiceArea.objects.filter(updated_at__gt=p.taken_at).exists()
            or RollImport.objects.filter(imported_at__gt=p.taken_at).exists()
            or Property.objects.filter(updated_at__gt=p.taken_at).exists()
        ):
            raise Stale(f"{p.source}: the register changed since the preview; preview again")
        created, changed = [], []
        for r in p.rows:
            if r["outcome"] == Outcome.NEW:
                area = ServiceArea.objects.create(
                    code=r["code"],
                    name=r["name"],
                    kind=AreaKind.SEWER_DISTRICT,
                    boundary=geometry[r["code"]],
                )
                created.append(area.code)
            elif r["outcome"] == Outcome.CHANGED:
                ServiceArea.objects.filter(pk=r["area"]).update(
                    boundary=geometry[r["code"]], updated_at=now
                )
                changed.append(r["code"])
        # the new districts' ids: a property placed in one is moved to it
        moves = _placed(
            list(
                ServiceArea.objects.exclude(boundary="")
                .order_by("code")
                .values_list("code", "boundary")
            )
        )
        store.update(
            Property,
            moves.select("id", "service_area_id", pl.lit(now).alias("updated_at")),
        )
        imp = RollImport.objects.create(
            kind=ImportKind.DISTRICTS,
            source_name=p.source[:300],
            sha256=p.file.sha256,
            crs=p.file.crs[:80],
            imported_at=now,
            imported_by=person_or_none(actor),
            rows=p.file.rows,
            new_count=len(created),
            changed_count=len(changed),
            unchanged_count=p.counts.get(Outcome.UNCHANGED, 0),
            areas_assigned=moves.height,
            changes=[
                {"property": pid, "fields": {"service_area": [old, new]}}
                for pid, new, old in moves.select("id", "service_area_id", "old").iter_rows()
            ],
        )
        audit.record(
            actor=actor,
            action="import_districts",
            obj=imp,
            after={
                "source_name": p.source,
                "sha256": p.file.sha256,
                "crs": p.file.crs,
                "rows": p.file.rows,
                "new": created,
                "changed": changed,
                "unchanged": imp.unchanged_count,
                "properties_reassigned": moves.height,
            },
            at=now,
        )
    return imp
