"""The row checks of a laboratory import, besides the engine's own: the facility and sampling
point, one time per sample, agreement with the samples already recorded, no result stored
twice, lengths that fit the stored fields, no control characters, the chain-of-custody times.

Each check returns the (row, field, message) errors of the whole file, so that the import's
report lists every failing row at once and nothing is stored while any row fails (§ 196-19 I).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, cast
from zoneinfo import ZoneInfo

import polars as pl

from sewer_engines.evaluation.times import parse_datetimes
from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.registry.models import Establishment
from sewer_rules.hostile import CONTROL_PATTERN, control_character

from .models import LabResult, SamplingEvent, SamplingPoint

if TYPE_CHECKING:
    from polars._typing import PolarsDataType


CUSTODY_TIMES = ("relinquished_at", "received_at")


#: Values per ``IN (...)`` list: SQLite bounds the parameters of one statement.
IN_CHUNK = 500


CUSTODY_TEXT = ("collected_by", "relinquished_by", "received_by", "laboratory")


#: The file's text columns and the field each is stored in: longer than the field is a row error
#: (at validation, with the row and column, never a failure of the database's insert).
STORED_TEXT: dict[str, tuple[type[Any], str]] = {
    "sample_id": (SamplingEvent, "sample_id"),
    "sample_type": (SamplingEvent, "sample_type"),
    **{name: (SamplingEvent, name) for name in CUSTODY_TEXT},
    "value": (LabResult, "value_text"),
    "unit": (LabResult, "unit"),
    "qualifier": (LabResult, "qualifier"),
    "reporting_limit": (LabResult, "reporting_limit"),
    "method": (LabResult, "method"),
}


def text_column(raw: pl.DataFrame, name: str) -> pl.Expr:
    if name in raw.columns:
        return pl.col(name).str.strip_chars().fill_null("")
    return pl.lit("")


def facilities(
    raw: pl.DataFrame, actor: Actor | None
) -> tuple[pl.DataFrame, list[tuple[int, str, str]]]:
    """Map facility codes to establishments the actor may report for (``est``) and each one's
    town (``town``: its results are evaluated under that town's law); errors for the rest."""
    codes = raw.select(text_column(raw, "facility").str.to_uppercase().alias("code")).get_column(
        "code"
    )
    wanted = sorted(c for c in codes.unique().to_list() if c)
    known: dict[str, int] = {}
    towns: dict[str, str] = {}
    for i in range(0, len(wanted), IN_CHUNK):  # a file may name any number of codes
        qs = Establishment.objects.filter(code__in=wanted[i : i + IN_CHUNK])
        if actor is not None:  # None: the command line at the server, which acts for the office
            qs = visible(qs, actor)
        for code, pk, town in qs.values_list("code", "id", "jurisdiction"):
            known[code], towns[code] = pk, town
    frame = raw.select("row").with_columns(
        codes.alias("code"),
        codes.replace_strict(known, default=None, return_dtype=pl.Int64).alias("est"),
        codes.replace_strict(towns, default=None, return_dtype=pl.String).alias("town"),
    )
    bad = frame.filter(pl.col("est").is_null())
    errors = [
        (
            r,
            "facility",
            "missing (the facility code of an establishment)"
            if not code
            else f"'{code}' is not a facility code you may report for",
        )
        for r, code in bad.select("row", "code").iter_rows()
    ]
    return frame, errors


def sampling_points(
    raw: pl.DataFrame, fac: pl.DataFrame
) -> tuple[pl.Series, list[tuple[int, str, str]]]:
    """Each row's sampling point id: its code at the facility, or — when blank — the facility's
    only active sampling point."""
    ids = [int(i) for i in fac.get_column("est").drop_nulls().unique().to_list()]
    points = pl.DataFrame(
        list(
            SamplingPoint.objects.filter(establishment_id__in=ids, active=True).values_list(
                "id", "establishment_id", "code"
            )
        ),
        schema={"sp": pl.Int64, "est": pl.Int64, "code": pl.String},
        orient="row",
    ).with_columns(pl.col("code").str.to_uppercase())
    single = (
        points.group_by("est")
        .agg(pl.col("sp").first(), pl.len().alias("n"))
        .filter(pl.col("n") == 1)
        .select("est", pl.col("sp").alias("only"))
    )
    rows = (
        fac.select("row", "est")
        .with_columns(
            raw.select(
                text_column(raw, "sampling_point").str.to_uppercase().alias("code")
            ).to_series()
        )
        .join(points, on=["est", "code"], how="left", maintain_order="left")
        .join(single, on="est", how="left", maintain_order="left")
        .with_columns(
            pl.when(pl.col("code") == "").then(pl.col("only")).otherwise(pl.col("sp")).alias("sp")
        )
    )
    bad = rows.filter(pl.col("est").is_not_null() & pl.col("sp").is_null())
    errors = [
        (
            r,
            "sampling_point",
            "missing (the facility has several sampling points, or none)"
            if not code
            else f"'{code}' is not a sampling point of the facility",
        )
        for r, code in bad.select("row", "code").iter_rows()
    ]
    return rows.get_column("sp"), errors


def sample_consistency(frame: pl.DataFrame) -> list[tuple[int, str, str]]:
    """One time and one sampling point per sample; no parameter twice in a sample."""
    errors: list[tuple[int, str, str]] = []
    # A row without a sample_id is already an error of its own: it belongs to no sample, so
    # it is compared with no other row (else every such row would also "differ" from the first).
    keyed = frame.filter(pl.col("est").is_not_null() & pl.col("sample_id").fill_null("").ne(""))
    first = keyed.group_by("est", "sample_id").agg(
        pl.col("sampled_at").first().alias("t0"),
        pl.col("sp").first().alias("sp0"),
        pl.col("row").first().alias("r0"),
    )
    joined = keyed.join(first, on=["est", "sample_id"])
    for r, r0 in (
        joined.filter(pl.col("sampled_at") != pl.col("t0")).select("row", "r0").iter_rows()
    ):
        errors.append((r, "sampled_at", f"differs from the same sample's time on row {r0}"))
    for r, r0 in joined.filter(pl.col("sp") != pl.col("sp0")).select("row", "r0").iter_rows():
        errors.append((r, "sampling_point", f"differs from the same sample's on row {r0}"))
    dup = keyed.filter(pl.col("analyte").is_not_null()).with_columns(
        pl.col("row").first().over("est", "sample_id", "analyte").alias("r0")
    )
    for r, r0 in dup.filter(pl.col("row") != pl.col("r0")).select("row", "r0").iter_rows():
        errors.append((r, "parameter", f"the sample's result for this parameter is on row {r0}"))
    return errors


#: How far from a file's sampling times a sample recorded beforehand is looked for.
RECORDED_SAMPLE_WINDOW = timedelta(days=60)


def recorded_samples(frame: pl.DataFrame) -> pl.DataFrame:
    """The samples of the file already recorded (by an earlier file, or when they were taken):
    ``est, sample_id, event, collected, event_sp, event_type, event_sampler``.

    Looked up among the facilities' samples around the file's time span, so the query stays
    small however large the file; a sample is recorded once per facility and sample id.
    """
    schema: dict[str, PolarsDataType] = {
        "event": pl.Int64,
        "est": pl.Int64,
        "sample_id": pl.String,
        "collected": pl.Datetime("us", "UTC"),
        "event_sp": pl.Int64,
        "event_type": pl.String,
        "event_sampler": pl.String,
    }
    keyed = frame.filter(pl.col("est").is_not_null() & pl.col("utc").is_not_null())
    if keyed.height == 0:
        return pl.DataFrame(schema=schema)
    ids = [int(i) for i in keyed.get_column("est").unique().to_list()]
    # a non-empty datetime column: its min and max are datetimes
    t0 = cast(datetime, keyed.get_column("utc").min()) - RECORDED_SAMPLE_WINDOW
    t1 = cast(datetime, keyed.get_column("utc").max()) + RECORDED_SAMPLE_WINDOW
    events = pl.DataFrame(
        list(
            SamplingEvent.objects.filter(
                establishment_id__in=ids, collected_at__gte=t0, collected_at__lte=t1
            ).values_list(
                "id",
                "establishment_id",
                "sample_id",
                "collected_at",
                "sampling_point_id",
                "sample_type",
                "sampler",
            )
        ),
        schema=schema,
        orient="row",
    )
    wanted = keyed.select("est", "sample_id").unique()
    return events.join(wanted, on=["est", "sample_id"])


def against_recorded(
    frame: pl.DataFrame, recorded: pl.DataFrame, zones: Mapping[int, str]
) -> list[tuple[int, str, str]]:
    """Rows that contradict their sample as recorded: another time, point or sample type (a
    recorded time said in the time zone of the facility's town, ``zones`` by facility id)."""
    matched = frame.filter(pl.col("utc").is_not_null()).join(recorded, on=["est", "sample_id"])
    errors = []
    for r, sid, at, est in (
        matched.filter(pl.col("utc") != pl.col("collected"))
        .select("row", "sample_id", "collected", "est")
        .iter_rows()
    ):
        local = at.astimezone(ZoneInfo(zones[est]))
        errors.append(
            (r, "sampled_at", f"sample {sid} was recorded as collected at {local:%Y-%m-%d %H:%M}")
        )
    for r, sid in (
        matched.filter(
            pl.col("event_sp").is_not_null()
            & pl.col("sp").is_not_null()
            & (pl.col("sp") != pl.col("event_sp"))
        )
        .select("row", "sample_id")
        .iter_rows()
    ):
        errors.append((r, "sampling_point", f"sample {sid} was recorded at another sampling point"))
    for r, sid, kind in (
        matched.filter(
            pl.col("sample_type").is_not_null() & (pl.col("sample_type") != pl.col("event_type"))
        )
        .select("row", "sample_id", "event_type")
        .iter_rows()
    ):
        errors.append((r, "sample_type", f"sample {sid} was recorded as a {kind} sample"))
    return errors


def already_stored(frame: pl.DataFrame, recorded: pl.DataFrame) -> list[tuple[int, str, str]]:
    """Rows whose sample and parameter already have a current stored result."""
    matched = frame.filter(pl.col("analyte").is_not_null()).join(
        recorded.select("est", "sample_id", "event"), on=["est", "sample_id"]
    )
    if matched.height == 0:
        return []
    event_ids = matched.get_column("event").unique().to_list()
    stored: list[tuple[int, str, int]] = []
    for i in range(0, len(event_ids), IN_CHUNK):
        stored += list(
            LabResult.objects.filter(event_id__in=event_ids[i : i + IN_CHUNK])
            .exclude(state="superseded")
            .values_list("event_id", "parameter", "id")
        )
    table = pl.DataFrame(
        stored, schema={"event": pl.Int64, "analyte": pl.String, "existing": pl.Int64}, orient="row"
    )
    hits = matched.join(table, on=["event", "analyte"])
    return [
        (r, "parameter", f"already stored as result #{e}: record a correction that supersedes it")
        for r, e in hits.select("row", "existing").iter_rows()
    ]


def too_long(raw: pl.DataFrame) -> list[tuple[int, str, str]]:
    """Rows with a text longer than the field it is stored in (:data:`STORED_TEXT`)."""
    errors: list[tuple[int, str, str]] = []
    for column, (model, name) in STORED_TEXT.items():
        if column not in raw.columns:
            continue
        limit = model._meta.get_field(name).max_length
        length = pl.col(column).str.strip_chars().str.len_chars()
        long = raw.filter(length > limit).select("row", length.alias("n"))
        errors += [
            (row, column, f"{n:,} characters, longer than the {limit} stored")
            for row, n in long.iter_rows()
        ]
    return errors


def control_characters(raw: pl.DataFrame) -> list[tuple[int, str, str]]:
    """Rows with a control character (NUL...) in a cell: no record may hold one (PostgreSQL
    refuses a NUL in text), so the row is refused with its field, not stored or failed."""
    errors: list[tuple[int, str, str]] = []
    for column in raw.columns:
        if column == "row" or raw.schema[column] != pl.String:
            continue
        bad = raw.filter(pl.col(column).str.contains(CONTROL_PATTERN).fill_null(False))
        for row, text in bad.select("row", column).iter_rows():
            errors.append(
                (row, column, f"holds the control character {control_character(text)}: remove it")
            )
    return errors


def custody_times(raw: pl.DataFrame, tz: str) -> tuple[pl.DataFrame, list[tuple[int, str, str]]]:
    cols: dict[str, pl.Series] = {}
    errors = []
    for name in CUSTODY_TIMES:
        if name not in raw.columns:
            cols[name] = pl.Series(name, [None] * raw.height, dtype=pl.Datetime("us", "UTC"))
            continue
        text = raw.get_column(name).str.strip_chars().fill_null("")
        parsed = parse_datetimes(text.replace("", None), tz).get_column("utc").alias(name)
        bad = raw.select("row").filter((text != "") & parsed.is_null())
        errors += [(r, name, "not a date and time (ISO 8601)") for (r,) in bad.iter_rows()]
        cols[name] = parsed
    text_cols = raw.select("row", *[text_column(raw, c).alias(c) for c in CUSTODY_TEXT]).drop("row")
    return pl.DataFrame(list(cols.values())).hstack(text_cols), errors
