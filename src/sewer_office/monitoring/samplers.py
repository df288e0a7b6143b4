"""Who took each sample of a laboratory file: the Town or the industrial user.

The program's oversight needs it: the Town must sample each significant industrial user itself
once a year (40 CFR 403.8(f)(2)(v)), and a violation shown by the user's own sampling calls for
a repeat sample (403.12(g)(2)). A file says it in an optional column ``sampler``:

- ``town`` or ``control_authority``: the Town took the sample;
- ``user`` or ``industrial_user``: the industrial user took it (self-monitoring);
- an empty cell or no column: the import's default — "who took these samples" on the upload
  form, else not recorded; ``unknown``: not recorded.

A facility's own upload (self-monitoring) is the user's sampling: its samples are the user's
whatever the default, and a row saying the Town took it is refused. The rows of one sample
must agree, and a sample recorded before (when it was taken, or by an earlier file) keeps who
took it: a row saying otherwise is refused (a recorded sample is never edited).
"""

from __future__ import annotations

import polars as pl

from sewer_office.core.errors import InvalidInput

from .choices import ImportSource, Sampler

COLUMN = "sampler"
#: The words a file may write, and the code each is stored as.
WORDS: dict[str, str] = {
    "town": Sampler.CONTROL_AUTHORITY,
    "control_authority": Sampler.CONTROL_AUTHORITY,
    "user": Sampler.INDUSTRIAL_USER,
    "industrial_user": Sampler.INDUSTRIAL_USER,
    "unknown": Sampler.UNKNOWN,
}
ALLOWED = "town, control_authority, user, industrial_user or unknown (empty: not recorded)"


def default_for(source: str, default: str) -> str:
    """The sampler of a row that names none: the user for a facility's own upload."""
    if default not in Sampler.values:
        raise InvalidInput({COLUMN: [f"'{default}' is not one of {', '.join(Sampler.values)}"]})
    return Sampler.INDUSTRIAL_USER if source == ImportSource.SELF_MONITORING else default


def read_samplers(
    raw: pl.DataFrame, default: str, source: str
) -> tuple[pl.Series, list[tuple[int, str, str]]]:
    """Each row's sampler code (``sampler``), and the rows whose word is refused."""
    fallback = default_for(source, default)
    # "unknown" written is not recorded — but a facility's own upload is always the user's
    unknown = Sampler.INDUSTRIAL_USER if source == ImportSource.SELF_MONITORING else Sampler.UNKNOWN
    if COLUMN not in raw.columns:
        return pl.Series(COLUMN, [fallback] * raw.height, dtype=pl.String), []
    words = raw.get_column(COLUMN).str.strip_chars().str.to_lowercase().fill_null("")
    known = words.replace_strict(WORDS, default=None, return_dtype=pl.String)
    codes = (
        pl.DataFrame({"w": words, "k": known})
        .select(
            pl.when(pl.col("w") == "")
            .then(pl.lit(fallback))
            .when(pl.col("k") == Sampler.UNKNOWN)
            .then(pl.lit(unknown))
            .otherwise(pl.col("k"))
            .alias(COLUMN)
        )
        .get_column(COLUMN)
    )
    errors: list[tuple[int, str, str]] = []
    checked = raw.select("row").with_columns(words.alias("w"), known.alias("k"))
    for row, word in (
        checked.filter((pl.col("w") != "") & pl.col("k").is_null()).select("row", "w").iter_rows()
    ):
        errors.append((row, COLUMN, f"'{word}' is not a sampler: write {ALLOWED}"))
    if source == ImportSource.SELF_MONITORING:
        town = checked.filter(pl.col("k") == Sampler.CONTROL_AUTHORITY)
        for row, word in town.select("row", "w").iter_rows():
            errors.append(
                (
                    row,
                    COLUMN,
                    f"'{word}': a facility's own upload is its self-monitoring, the samples "
                    "are the user's (the Town's samples come through the office)",
                )
            )
    return codes, errors


def sampler_consistency(keyed: pl.DataFrame) -> list[tuple[int, str, str]]:
    """Rows of one sample (``est``, ``sample_id``) naming another sampler than its first row."""
    rows = keyed.filter(pl.col("est").is_not_null() & pl.col("sample_id").fill_null("").ne(""))
    marked = rows.with_columns(
        pl.col(COLUMN).first().over("est", "sample_id").alias("s0"),
        pl.col("row").first().over("est", "sample_id").alias("r0"),
    )
    return [
        (r, COLUMN, f"differs from the same sample's on row {r0}")
        for r, r0 in marked.filter(pl.col(COLUMN) != pl.col("s0")).select("row", "r0").iter_rows()
    ]


def against_recorded(keyed: pl.DataFrame, recorded: pl.DataFrame) -> list[tuple[int, str, str]]:
    """Rows naming a sampler other than the one their sample was recorded with (an unknown
    on either side contradicts nothing: the recorded sample keeps what it has)."""
    matched = keyed.join(
        recorded.select("est", "sample_id", "event_sampler"), on=["est", "sample_id"]
    )
    clash = matched.filter(
        (pl.col(COLUMN) != Sampler.UNKNOWN)
        & (pl.col("event_sampler") != Sampler.UNKNOWN)
        & (pl.col(COLUMN) != pl.col("event_sampler"))
    )
    labels = dict(Sampler.choices)
    return [
        (r, COLUMN, f"sample {sid} was recorded as taken by {labels.get(s, s).lower()}")
        for r, sid, s in clash.select("row", "sample_id", "event_sampler").iter_rows()
    ]
