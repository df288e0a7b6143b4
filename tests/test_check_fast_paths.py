"""The fast paths of ``sewer-use check`` give what the plain reading gives.

Each shortcut taken for speed (a million rows in three seconds) is checked against a
straightforward definition: times parsed once per run of equal lines and in the file's own form
first; § 196-15 classifications without a group when every result is its own sample; the
summary lines read from each result's nested findings; the table written as bytes by polars.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sewer_engines.evaluation import evaluate_table
from sewer_engines.evaluation.classify import classify_samples
from sewer_engines.evaluation.prepare import prepare
from sewer_engines.evaluation.text import format_text
from sewer_engines.evaluation.times import parse_datetimes
from sewer_io import check_io
from sewer_io.check_io import frame_with_rows, summary_frame, write_lines
from sewer_rules.parameters import load_jurisdiction

TOWN = "America/New_York"
UTC = ZoneInfo("UTC")

#: Texts of every accepted form, blanks, nonsense, the spring gap and the autumn repeated hour.
TEXTS = [
    "2024-01-05T08:30",
    "2024-01-05T08:30:15",
    "2024-01-05 08:30",
    "2024-01-05 08:30:15",
    "2024-01-05",
    "2024-01-05T08:30:15.250",
    "2024-07-04 23:59:59.5",
    "2024-07-04T23:30:00-04:00",
    "2024-07-05T01:30Z",
    "2024-07-04 22:00:00+00:00",
    "2024-07-04 22:00-05:00",
    "2024-07-04T03:30:00.125+02:00",
    "2024-07-04 03:30:00.5-07:00",
    " 2024-02-29T12:00 ",
    "2024-03-10T02:30",  # never happened in the town
    "2024-11-03T01:30",  # happened twice: the first (EDT) is taken
    "2024-02-30T10:00",
    "soon",
    "",
]


def plain(text: str | None) -> tuple[datetime | None, object]:
    """One text read on its own: the instant in UTC and the town's calendar date."""
    if text is None or not text.strip():
        return None, None
    t = text.strip().replace("Z", "+00:00")
    try:
        at = datetime.fromisoformat(t)
    except ValueError:
        return None, None
    if at.tzinfo is None:
        local = at.replace(tzinfo=ZoneInfo(TOWN), fold=0)
        if local.astimezone(UTC).astimezone(ZoneInfo(TOWN)).replace(tzinfo=None) != at:
            return None, None  # inside the spring-forward gap
        at = local
    return at.astimezone(UTC), at.astimezone(ZoneInfo(TOWN)).date()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([*TEXTS, None]), st.integers(min_value=1, max_value=4)),
        min_size=1,
        max_size=25,
    )
)
def test_times_read_as_each_text_alone(runs: list[tuple[str | None, int]]) -> None:
    """Runs of equal lines, repeats far apart, mixed forms in any order: each value is the
    reading of its own text."""
    texts = [t for t, n in runs for _ in range(n)]
    got = parse_datetimes(pl.Series("t", texts, dtype=pl.String), TOWN)
    for text, utc, day in zip(texts, got.get_column("utc"), got.get_column("day"), strict=True):
        want_utc, want_day = plain(text)
        assert (utc, day) == (want_utc, want_day), text


def _table(rows: list[tuple[str, str, str, str]]) -> pl.DataFrame:
    return frame_with_rows(
        pl.DataFrame(
            {
                "sample_id": [r[0] for r in rows],
                "sampled_at": ["2026-03-02T08:30"] * len(rows),
                "sample_type": ["grab"] * len(rows),
                "parameter": [r[1] for r in rows],
                "value": [r[2] for r in rows],
                "unit": [r[3] for r in rows],
                "source": ["cooling system"] * len(rows),
            }
        ),
        "generated",
    )


RESULTS = [
    ("BOD", "4", "mg/l"),
    ("BOD", "12", "mg/l"),
    ("TSS", "3", "mg/l"),
    ("TSS", "<2", "mg/l"),
    ("O&G", "<5", "mg/l"),
    ("O&G", "7", "mg/l"),
    ("pH", "7.1", "SU"),
    ("chloride", "30", "mg/l"),
    ("copper", "0.2", "mg/l"),
]


def test_classifications_do_not_depend_on_the_layout_of_the_file() -> None:
    """Each sample's classification is the same whether its results are on consecutive lines,
    scattered through the file, or each sample has one result (the shortcut without a group)."""
    params = load_jurisdiction("wappinger")
    rng = random.Random(196)
    rows = [(f"S{i % 40}", *rng.choice(RESULTS)) for i in range(400)]
    rows += [(f"single{i}", *rng.choice(RESULTS)) for i in range(60)]

    def classified(table: list[tuple[str, str, str, str]]) -> dict[str, tuple[object, object]]:
        valid = prepare(_table(table), TOWN, load_jurisdiction("wappinger").breakpoints()[0]).rows
        samples = classify_samples(valid, params)
        assert samples.get_column("sample_id").is_unique().all()
        return {s: (c, u) for s, c, u in samples.iter_rows()}

    whole = classified(rows)
    assert classified(sorted(rows)) == whole
    shuffled = rows[:]
    rng.shuffle(shuffled)
    assert classified(shuffled) == whole
    alone = {s: v for s, v in whole.items() if s.startswith("single")}
    assert classified([r for r in rows if r[0].startswith("single")]) == alone
    # one result per sample: every sample its own, against each read in a table of its own
    singles = [r for r in rows if r[0].startswith("single")]
    for row in singles[:10]:
        assert classified([row]) == {row[0]: alone[row[0]]}
    assert any(v != (None, None) for v in whole.values())


#: Composite samples on even rows, grab samples on odd ones: § 196-19 I advisories on some rows.
COMPOSITE_ON_EVEN_ROWS = (
    pl.when(pl.col("row") % 2 == 0)
    .then(pl.lit("composite"))
    .otherwise(pl.lit("grab"))
    .alias("sample_type")
)


def test_summary_lines_are_the_long_findings_grouped_by_row() -> None:
    """The CSV and table summary (read from nested findings) equals the long findings and
    advisories joined by row, as the office stores them."""
    params = load_jurisdiction("wappinger")
    rows = [(f"S{i // 3}", *RESULTS[i % len(RESULTS)]) for i in range(90)]
    rows += [("S90", "O&G", "127.5", "mg/l"), ("S91", "O&G", "130", "mg/l")]  # two findings each
    raw = _table(rows).with_columns(COMPOSITE_ON_EVEN_ROWS)
    ev = evaluate_table(raw, params)
    assert ev.findings.height and ev.advisories.height
    f = ev.findings.group_by("row", maintain_order=True).agg(
        pl.col("citation").str.join("; ").alias("citations"),
        pl.col("message").str.join("; ").alias("messages"),
    )
    a = ev.advisories.group_by("row", maintain_order=True).agg(
        format_text("{}: {}", pl.col("code"), pl.col("message")).str.join("; ").alias("advisories")
    )
    expected = (
        ev.results.select("row")
        .join(f, on="row", how="left")
        .join(a, on="row", how="left")
        .sort("row")
        .with_columns(pl.col(pl.String).fill_null(""))
    )
    got = summary_frame(ev).select("row", "citations", "messages", "advisories")
    assert got.equals(expected)
    # rows of no finding, of one (taken as it is) and of several (joined) are all here
    counts = ev.results.get_column("findings").list.len().fill_null(0)
    assert {0, 1} <= set(counts.to_list()) and int(counts.max() or 0) >= 2


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=" ab,\"'\\;µ°§–\t", max_size=8), min_size=1, max_size=30))
def test_lines_written_as_bytes_are_the_lines_joined(lines: list[str]) -> None:
    half = len(lines) // 2
    parts = [pl.Series("line", lines[:half], dtype=pl.String), pl.Series("line", lines[half:])]
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8")
    write_lines(parts, out)
    out.flush()
    assert raw.getvalue().decode() == "\n".join(lines) + "\n"
    text = io.StringIO()
    write_lines([*parts, pl.Series("line", [None], dtype=pl.String)], text)
    assert text.getvalue() == "\n".join(lines) + "\n"


@pytest.mark.parametrize("slice_rows", [1, 2, 250_000])
def test_null_nested_lists_are_written_empty_and_nothing_else_changes(
    monkeypatch: pytest.MonkeyPatch, slice_rows: int
) -> None:
    """``"items":null`` becomes ``"items":[]`` on the bytes, never inside a string value."""
    monkeypatch.setattr(check_io, "SLICE_ROWS", slice_rows)
    frame = pl.DataFrame(
        {
            "row": [2, 3, 4, 5],
            "text": ['"items":null', 'x\\"items":null', None, "§"],
            "items": [None, [{"k": '"items":null'}], None, []],
            "other": [None, [1], None, None],
        }
    )
    doc = json.loads(check_io.json_array(frame, ("items",)))
    filled = frame.with_columns(pl.col("items").fill_null(pl.lit([], dtype=frame["items"].dtype)))
    assert doc == filled.to_dicts()
    assert [d["other"] for d in doc] == [None, [1], None, None]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-5, 10_000), st.text(alphabet="ab §µ–", max_size=6)),
        min_size=0,
        max_size=25,
    ),
    st.integers(1, 4),
)
def test_tables_and_labelled_lines_worked_in_slices_are_the_plain_ones(
    rows: list[tuple[int, str]], slice_rows: int
) -> None:
    """The lines of the table and of the labelled sections, worked as slices side by side
    (:func:`check_io.in_slices`), are the plain layout of :func:`sewer_cli.output.table` and
    the template filled row by row, in order, whatever the slicing."""
    from sewer_cli.output import table

    frame = pl.DataFrame(rows, schema={"row": pl.Int64, "text": pl.String}, orient="row")
    plain_table = table(frame.columns, frame.rows()).split("\n")
    plain_lines = [f"  row {r}: {t}" for r, t in rows]
    old = check_io.SLICE_ROWS
    check_io.SLICE_ROWS = slice_rows
    try:
        assert check_io.text_table(frame).to_list() == plain_table
        labelled = check_io.labelled_lines(frame, "  row {}: {}", "row", "text")
        assert labelled.to_list() == plain_lines
    finally:
        check_io.SLICE_ROWS = old


def test_a_generator_of_parts_is_written_part_after_part() -> None:
    """Each part is written before the next is asked for (so it can be freed first)."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8")
    seen: list[bytes] = []

    def parts() -> Iterator[pl.Series]:
        yield pl.Series("line", ["a", "b"])
        out.flush()
        seen.append(raw.getvalue())
        yield pl.Series("line", ["c"])

    write_lines(parts(), out)
    out.flush()
    assert seen == [b"a\nb\n"]
    assert raw.getvalue() == b"a\nb\nc\n"


def test_each_wording_of_a_limit_finding_is_one_whole_message() -> None:
    """The words between the result and the limit are chosen per row (one text built per
    finding): each of the four wordings, pinned — measured, a non-detect whose reporting limit
    is itself beyond a lower limit, one that cannot be told, and no limit configured."""
    header = "sample_id,sampled_at,sample_type,parameter,value,unit\n"
    body = "".join(
        f"S{i},2026-03-02T08:30,{kind},{name},{value},{unit}\n"
        for i, (kind, name, value, unit) in enumerate(
            [
                ("composite", "BOD", "359.2", "mg/l"),
                ("grab", "pH", "4.9", "SU"),
                ("grab", "pH", "<5", "SU"),
                ("composite", "copper", "<3", "mg/l"),
                ("composite", "iron", "7", "mg/l"),
                ("grab", "pH", "<6", "SU"),
            ]
        )
    )
    raw = frame_with_rows(pl.read_csv(io.StringIO(header + body), infer_schema=False), "t.csv")
    findings = evaluate_table(raw, load_jurisdiction("demo")).findings
    assert findings.select("row", "status", "message").rows() == [
        (2, "abnormal_strength", "BOD, 5-day 359.2 mg/l is above the normal-strength 240 mg/l"),
        (3, "prohibited", "pH 4.9 SU is lower than 5.5 SU"),
        (4, "prohibited", "pH <5 SU: the reporting limit is itself lower than 5.5 SU"),
        (
            5,
            "inconclusive",
            "Copper, total <3 mg/l: the reporting limit is not below the limit "
            "(above the Superintendent's limit of 1 mg/l)",
        ),
        (6, "no_limit", "no limit for Iron, total is configured for this date"),
        (
            7,
            "inconclusive",
            "pH <6 SU: the reporting limit is not below the limit (lower than 5.5 SU)",
        ),
    ]


def test_a_long_result_is_quoted_in_its_message_as_before() -> None:
    """A quoted part of a limit finding's message is shortened as a whole (80 characters at
    most, :func:`sewer_rules.hostile.shorten`): the value inside the phrase "label value unit",
    then the phrase itself — the texts the four whole messages gave; a short result beside a
    long one of the same rule is written whole."""
    digits = "9" * 120
    text = (
        "sample_id,sampled_at,sample_type,parameter,value,unit\n"
        f"S1,2026-03-02T08:30,composite,BOD,{digits},mg/l\n"
        f"S2,2026-03-02T08:30,composite,copper,<{digits},mg/l\n"
        "S3,2026-03-02T08:30,composite,BOD,359.2,mg/l\n"
    )
    raw = frame_with_rows(pl.read_csv(io.StringIO(text), infer_schema=False), "t.csv")
    findings = evaluate_table(raw, load_jurisdiction("demo")).findings
    assert findings.get_column("message").to_list() == [
        "BOD, 5-day " + "9" * 68 + "… is above the normal-strength 240 mg/l",
        "Copper, total <" + "9" * 64 + "…: the reporting limit is not below the limit "
        "(above the Superintendent's limit of 1 mg/l)",
        "BOD, 5-day 359.2 mg/l is above the normal-strength 240 mg/l",
    ]


def test_results_do_not_depend_on_the_order_the_rows_come_in() -> None:
    """The engine tells polars that the row numbers are sorted (grouping and joining runs, not
    hashes) only when they are: rows handed over in another order (an office query, a merge)
    get each its own findings and status, the same as in file order."""
    params = load_jurisdiction("wappinger")
    rows = [(f"S{i // 3}", *RESULTS[(i * 7) % len(RESULTS)]) for i in range(120)]
    raw = _table(rows).with_columns(
        COMPOSITE_ON_EVEN_ROWS,
        pl.when(pl.col("row") % 5 == 0)
        .then(pl.lit("ph"))
        .otherwise("parameter")
        .alias("parameter"),
        pl.when(pl.col("row") % 5 == 0).then(pl.lit("3.1")).otherwise("value").alias("value"),
    )
    columns = ["row", "status", "findings", "advisories"]
    in_order = evaluate_table(raw, params).results.select(columns)
    assert in_order.get_column("findings").drop_nulls().len() > 10
    for seed in (1, 2, 3):
        shuffled = raw.sample(fraction=1.0, shuffle=True, seed=seed)
        assert not shuffled.get_column("row").is_sorted()
        got = evaluate_table(shuffled, params).results.select(columns)
        assert got.sort("row").equals(in_order)
