"""Slugs as the Town now reads § 196-15 SLUG (docs/interpretations.md, "Slugs", revised
2026-12-05), through ``sewer-use slugs``, by the compiled loop and by the numpy passes alike:

- a window of 24 hours with no normal-operation reading carries the baseline of the 24 hours
  ending with the last normal-operation reading (a discharge longer than a day stays one slug;
  a meter back from an outage is judged);
- the first 24 hours of a series are not judged, and the report says so and why — unless a
  fixed baseline is given, which judges them;
- the maximum gap follows the meter's logging: three usual intervals, never less than 5 min.

Every expected value is derived by hand in the test's docstring or comments.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from .test_slugs_cli import TZ, readings, run, run_json, write

START = datetime(2026, 3, 2, tzinfo=TZ)  # 00:00 EST (-05:00); no clock change until 8 March


def _both(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, dict]:  # type: ignore[type-arg]
    """The JSON report by the compiled loop and by the numpy passes: the same, byte for byte."""
    monkeypatch.setenv("SEWER_USE_NATIVE", "1")
    code, doc = run_json(capsys, *args)
    monkeypatch.setenv("SEWER_USE_NATIVE", "0")
    again = run_json(capsys, *args)
    assert again == (code, doc)
    return code, doc


def test_a_30_hour_discharge_is_one_30_hour_slug(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two days of steady one-minute flow (10), then 30 hours at 100, then 10 hours of 10.

    The discharge begins 2026-03-04 00:00. For its first 24 hours each reading's window holds
    readings of 10 that were normal operation (baseline 10, threshold 50, 100 exceeds). From
    minute 1440 of the discharge on, the window holds only discharge readings, none normal:
    the baseline is carried from the 24 hours ending with the last normal reading,
    03:23:59 (their mean, 10), so 100 still exceeds. The run lasts 1800 readings, from 00:00
    on the 4th to the first reading of 10, 06:00 on the 5th: one slug of 1800 minutes. Judged
    on the carried baseline: the 360 discharge readings of minutes 1440..1799 and the first
    reading of 10 after them (normal again): 361. Not judged: the first 1440 readings."""
    values = ["10"] * 2880 + ["100"] * 1800 + ["10"] * 600
    f = write(tmp_path, readings(values, start=START))
    code, doc = _both(capsys, monkeypatch, str(f))
    assert code == 1
    (s,) = doc["series"]
    (slug,) = s["slugs"]
    assert (slug["start"], slug["end"]) == (
        "2026-03-04T00:00:00-05:00",
        "2026-03-05T06:00:00-05:00",
    )
    assert slug["duration_minutes"] == 1800.0 and slug["readings"] == 1800
    assert (slug["baseline"], slug["threshold"]) == ("10", "50")
    assert slug["baseline_carried_from"] == "2026-03-03T23:59:00-05:00"
    assert s["baseline_carried_readings"] == 361
    assert (s["judged"], s["unjudged"]) == (len(values) - 1440, 1440)
    assert s["not_judged"]["count"] == s["not_judged"]["no_history"] == 1440
    assert s["not_judged"]["no_parameter"] == 0
    assert s["not_judged"]["reasons"] == [
        "1440 with less than 24 hours of history before them: no baseline (no fixed baseline "
        "given); counted as normal operation"
    ]
    # the text report says the same
    _, out, _ = run(capsys, str(f))
    assert "default flow: not judged: 1440 with less than 24 hours of history" in out
    assert "361 reading(s) judged on a baseline carried from the 24 hours" in out
    assert "baseline carried from the 24 hours ending at 2026-03-03T23:59:00-05:00" in out


def test_after_a_48_hour_discharge_the_next_slug_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A day of 10, 48 hours at 100 (3 and 4 March), then on day 4 (5 March) six hours of 10
    and an hour at 60 (six times the normal level), then 10.

    The discharge is one 2880-minute slug (carried baseline 10 for its second day). Back at 10,
    the readings are judged on the carried baseline (10 <= 50: normal again). At 06:00 on the
    5th the window [00:00 on the 4th's 06:00, 06:00) holds 360 normal readings of 10 and
    discharge readings (not normal): baseline 10, threshold 50, 60 exceeds for 60 readings: a
    60-minute slug. (Read the old way, the discharge had become "normal" after a day and
    raised the baseline far above 12: the second slug was missed.)"""
    values = ["10"] * 1440 + ["100"] * 2880 + ["10"] * 360 + ["60"] * 60 + ["10"] * 120
    f = write(tmp_path, readings(values, start=START))
    _, doc = _both(capsys, monkeypatch, str(f))
    first, second = doc["series"][0]["slugs"]
    assert (first["start"], first["duration_minutes"]) == ("2026-03-03T00:00:00-05:00", 2880.0)
    assert first["baseline_carried_from"] == "2026-03-02T23:59:00-05:00"
    assert (second["start"], second["end"]) == (
        "2026-03-05T06:00:00-05:00",
        "2026-03-05T07:00:00-05:00",
    )
    assert (second["baseline"], second["threshold"], second["peak"]) == ("10", "50", "60")
    assert second["baseline_carried_from"] is None


def test_a_15_minute_logger_shows_a_30_minute_discharge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Readings every 15 minutes: two days of 10, two readings of 100, then 10. The usual
    interval is 15 minutes, so the maximum gap is 3 x 15 = 45 minutes (more than 5). The two
    exceeding readings stand for 00:00-00:15 and 00:15-00:30 on the 4th: the run lasts to the
    next reading, 30 minutes > 15: one 30-minute slug. (A fixed 5-minute gap ended the run at
    each reading: 15 minutes, never a slug.)"""
    values = ["10"] * 192 + ["100", "100"] + ["10"] * 20
    f = write(tmp_path, readings(values, start=START, step=timedelta(minutes=15)))
    code, doc = _both(capsys, monkeypatch, str(f))
    assert code == 1
    (s,) = doc["series"]
    assert (s["interval_seconds"], s["max_gap_seconds"]) == (900.0, 2700.0)
    (slug,) = s["slugs"]
    assert (slug["start"], slug["end"]) == (
        "2026-03-04T00:00:00-05:00",
        "2026-03-04T00:30:00-05:00",
    )
    assert slug["duration_minutes"] == 30.0 and slug["readings"] == 2
    # one 100 alone stands for 15 minutes: not longer than 15, not a slug
    lone = ["10"] * 192 + ["100"] + ["10"] * 20
    f = write(tmp_path, readings(lone, start=START, step=timedelta(minutes=15)), "lone.csv")
    assert _both(capsys, monkeypatch, str(f))[1]["series"][0]["slugs"] == []


def test_the_shortest_maximum_gap_is_a_floor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One-minute data: three intervals are 3 minutes, so the 5-minute floor is the maximum
    gap; ``--max-gap 10min`` raises the floor to 10 minutes."""
    f = write(tmp_path, readings(["10"] * 1500, start=START))
    assert run_json(capsys, str(f))[1]["series"][0]["max_gap_seconds"] == 300.0
    got = run_json(capsys, str(f), "--max-gap", "10min")[1]
    assert got["series"][0]["max_gap_seconds"] == 600.0


def test_the_first_day_is_not_judged_without_a_fixed_baseline_and_judged_with_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 minutes at 100 from 02:00 on the first day, then 10 to 01:00 on the second (1500
    readings). Without a fixed baseline the first 1440 readings have less than 24 hours of
    history: not judged, no slug. With ``--baseline 10`` (recorded in the approval) every
    reading is judged against 50: one 20-minute slug at 02:00, nothing unjudged."""
    values = ["10"] * 120 + ["100"] * 20 + ["10"] * 1360
    f = write(tmp_path, readings(values, start=START))
    code, doc = _both(capsys, monkeypatch, str(f))
    (s,) = doc["series"]
    assert code == 0 and s["slugs"] == []
    assert (s["judged"], s["unjudged"], s["not_judged"]["no_history"]) == (60, 1440, 1440)
    code, doc = _both(capsys, monkeypatch, str(f), "--baseline", "10")
    (s,) = doc["series"]
    assert code == 1 and (s["judged"], s["unjudged"]) == (1500, 0)
    assert s["not_judged"] == {"count": 0, "no_history": 0, "no_parameter": 0, "reasons": []}
    (slug,) = s["slugs"]
    assert (slug["start"], slug["duration_minutes"]) == ("2026-03-02T02:00:00-05:00", 20.0)
    assert (slug["baseline"], slug["threshold"]) == ("10", "50")


def test_a_meter_back_from_an_outage_is_judged_on_the_carried_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two days of 10, no reading for 30 hours, then an hour at 100 and two hours of 10.

    The first reading after the outage has an empty window [t - 24 h, t): its baseline is
    carried from the 24 hours ending with the last reading before the outage (mean 10), so
    100 exceeds 50; so do the 59 after it (their windows hold only the discharge). The run
    ends at the next reading (10): a 60-minute slug from 2026-03-05 06:00 (48 h + 30 h after
    the start). Its baseline is the carried one, from 2026-03-03 23:59."""
    before = readings(["10"] * 2880, start=START)
    after = readings(["100"] * 60 + ["10"] * 120, start=START + timedelta(hours=78))
    f = write(tmp_path, before + after)
    _, doc = _both(capsys, monkeypatch, str(f))
    (s,) = doc["series"]
    (slug,) = s["slugs"]
    assert (slug["start"], slug["end"]) == (
        "2026-03-05T06:00:00-05:00",
        "2026-03-05T07:00:00-05:00",
    )
    assert (slug["baseline"], slug["threshold"]) == ("10", "50")
    assert slug["baseline_carried_from"] == "2026-03-03T23:59:00-05:00"
    # every reading after the outage is judged: the 60 of 100 and the first 10 on the carried
    # baseline, the others on their own windows
    assert (s["unjudged"], s["baseline_carried_readings"]) == (1440, 61)


def test_a_lasting_jump_stays_a_slug_until_a_new_normal_is_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two days of 10, then 100 for two days to the end of the file: one slug to the end (the
    last reading plus the usual interval, 00:00 on the 6th). With a fixed baseline of 100 from
    00:00 on the 5th (the Town's record of the new normal), readings from then are judged
    against 500 and do not exceed: the slug ends at 00:00 on the 5th, the first reading judged
    normal."""
    values = ["10"] * 2880 + ["100"] * 2880
    f = write(tmp_path, readings(values, start=START))
    _, doc = _both(capsys, monkeypatch, str(f))
    (slug,) = doc["series"][0]["slugs"]
    assert (slug["start"], slug["end"]) == (
        "2026-03-04T00:00:00-05:00",
        "2026-03-06T00:00:00-05:00",
    )
    _, doc = _both(
        capsys, monkeypatch, str(f), "--baseline", "100", "--baseline-from", "2026-03-05T00:00"
    )
    (s,) = doc["series"]
    (slug,) = s["slugs"]
    assert (slug["start"], slug["end"]) == (
        "2026-03-04T00:00:00-05:00",
        "2026-03-05T00:00:00-05:00",
    )
    # its last trailing reading, 23:59 on the 4th, still had 23:59 on the 3rd in its window:
    # no baseline of the slug was carried
    assert (slug["baseline"], slug["baseline_carried_from"]) == ("10", None)
    assert s["unjudged"] == 1440  # before the fixed baseline, the first day is still not judged


def test_baseline_from_needs_a_baseline_and_a_time_that_happened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = write(tmp_path, readings(["10"] * 100, start=START))
    code, _, err = run(capsys, str(f), "--baseline-from", "2026-03-05T00:00")
    assert code == 2 and "--baseline-from: give the fixed baseline with --baseline" in err
    code, _, err = run(capsys, str(f), "--baseline", "10", "--baseline-from", "2026-03-08T02:30")
    assert code == 2 and "never happened in town time" in err
    code, _, err = run(capsys, str(f), "--baseline", "10", "--baseline-from", "soon")
    assert code == 2 and "not an ISO 8601 time" in err
