"""Generate the monitoring example: a month of one-minute data for two industrial users.

    python examples/monitoring/generate.py            # writes readings.parquet beside this file
    python examples/monitoring/generate.py --csv x.csv  # the same readings as CSV (about 14 MB)

March 2026 (clocks go forward on Sunday 2026-03-08, so that day has 23 hours), two meters at
control manholes (§ 196-19 H), each logging flow, pH and temperature every minute, seeded so
the file is the same on every machine. What is in it, on purpose:

- a daily cycle (production from about 7:00 to 19:00 town time) and sensor noise;
- IU-01: flow in gpm, temperature in °F; IU-02: temperature in °C, and its flow logger was
  reprogrammed on 2026-03-15 from gpm to gpd (one series in mixed units, converted exactly);
- slug 1: IU-01 flow, 2026-03-12 from 10:14, 16 one-minute readings above five times the
  trailing 24-hour mean — 16 minutes, the shortest slug there is;
- slug 2: IU-02 flow, 2026-03-09 from 02:40, 42 minutes, its 24-hour baseline reaching back
  across the change to daylight time (24 hours of elapsed time, 25 of clock time);
- near miss: IU-01 flow, 2026-03-24 from 15:05, exactly 15 readings above the threshold — 15
  minutes is not "longer than 15 minutes": no slug;
- a pH excursion: IU-01, 2026-03-18 from 14:05, pH 4.8 to 5.3 for 12 minutes (below 5.5,
  prohibited, § 196-19 C(3));
- a gap: IU-02's logger is off on 2026-03-16 from 13:00 to 15:29 (rows with empty values).
"""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import polars as pl

SEED = 196_15
TZ = ZoneInfo("America/New_York")
HERE = Path(__file__).resolve().parent
START = datetime(2026, 3, 1, tzinfo=TZ)
END = datetime(2026, 4, 1, tzinfo=TZ)
MINUTE_US = 60_000_000


def _us(dt: datetime) -> int:
    return int(dt.timestamp()) * 1_000_000


def _local(y: int, mo: int, d: int, h: int, mi: int) -> int:
    return _us(datetime(y, mo, d, h, mi, tzinfo=TZ))


def _index(t: np.ndarray, at: int) -> int:
    return int(np.searchsorted(t, at))


def _daily(t: np.ndarray) -> np.ndarray:
    """0..1 production cycle by town clock time (follows daylight time, as a plant does)."""
    hours = np.array(
        [
            (
                datetime.fromtimestamp(x / 1e6, TZ).hour
                + datetime.fromtimestamp(x / 1e6, TZ).minute / 60
            )
            for x in t[::60]
        ]
    )
    hours = np.repeat(hours, 60)[: t.size] + (np.arange(t.size) % 60) / 60
    ramp_up = np.clip((hours - 6.5) / 1.5, 0, 1)
    ramp_down = np.clip((19.5 - hours) / 1.5, 0, 1)
    return np.minimum(ramp_up, ramp_down)


def build() -> pl.DataFrame:
    rng = np.random.default_rng(SEED)
    t = np.arange(_us(START), _us(END), MINUTE_US, dtype=np.int64)
    n = t.size
    cycle = _daily(t)
    frames = []
    for meter, base, amp, temp_unit in (("IU-01", 18.0, 26.0, "°F"), ("IU-02", 22.0, 30.0, "°C")):
        flow = base + amp * cycle + rng.normal(0, 1.6, n)
        ph = 7.15 + 0.25 * cycle + rng.normal(0, 0.06, n)
        temp_f = 62 + 14 * cycle + rng.normal(0, 0.4, n)
        if meter == "IU-01":
            i = _index(t, _local(2026, 3, 12, 10, 14))
            flow[i : i + 16] = rng.uniform(205, 240, 16)  # slug 1: 16 minutes
            i = _index(t, _local(2026, 3, 24, 15, 5))
            flow[i : i + 15] = rng.uniform(215, 245, 15)  # near miss: exactly 15 minutes
            i = _index(t, _local(2026, 3, 18, 14, 5))
            ph[i : i + 12] = rng.uniform(4.8, 5.3, 12)  # pH excursion, § 196-19 C(3)
        else:
            i = _index(t, _local(2026, 3, 9, 2, 40))
            flow[i : i + 42] = rng.uniform(210, 260, 42)  # slug 2: 42 minutes, night shift dump
        flow_text = [f"{x:.1f}" for x in flow]
        units = ["gpm"] * n
        if meter == "IU-02":
            switch = _index(t, _local(2026, 3, 15, 0, 0))
            for k in range(switch, n):  # logger reprogrammed to gallons per day
                flow_text[k] = f"{round(flow[k] * 1440)}"
                units[k] = "gpd"
        if temp_unit == "°C":
            temp_text = [f"{(x - 32) * 5 / 9:.2f}" for x in temp_f]
        else:
            temp_text = [f"{x:.1f}" for x in temp_f]
        ph_text = [f"{x:.2f}" for x in ph]
        gap = np.zeros(n, dtype=bool)
        if meter == "IU-02":
            gap[_index(t, _local(2026, 3, 16, 13, 0)) : _index(t, _local(2026, 3, 16, 15, 30))] = (
                True
            )
        for parameter, texts, unit in (
            ("flow", flow_text, units),
            ("pH", ph_text, ["SU"] * n),
            ("temperature", temp_text, [temp_unit] * n),
        ):
            frames.append(
                pl.DataFrame(
                    {
                        "timestamp": t,
                        "meter": meter,
                        "parameter": parameter,
                        "unit": unit,
                        "value": [None if g else x for g, x in zip(gap, texts, strict=True)],
                    }
                )
            )
    df = pl.concat(frames).sort("timestamp", "meter", "parameter", maintain_order=True)
    return df.with_columns(
        pl.col("timestamp").cast(pl.Datetime("us", "UTC")).dt.convert_time_zone("America/New_York")
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(HERE / "readings.parquet"))
    ap.add_argument("--csv", help="also write the readings as CSV (ISO 8601 times with offsets)")
    args = ap.parse_args()
    df = build()
    df.write_parquet(args.out, compression="zstd", compression_level=19, statistics=False)
    print(f"{args.out}: {df.height} readings")
    if args.csv:
        df.with_columns(pl.col("timestamp").dt.strftime("%Y-%m-%dT%H:%M:%S%:z")).write_csv(args.csv)
        print(f"{args.csv}: {df.height} readings")


if __name__ == "__main__":
    main()
