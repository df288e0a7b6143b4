"""Reading a county's tax parcel roll of 100,000 parcels in each format the office takes.

    .venv/bin/python bench/parcel_files.py [--parcels 100000] [--formats geojson gpkg shp.zip csv]

Writes a generated roll (tests/parcel_rolls.py: polygons of 5 to 12 vertices in EPSG:2260,
the State's columns) in each format into a temporary directory, then times
``sewer_io.parcels.read_parcels`` on it: wall time and CPU time of the process (the CPU time
says how much of the wall time was the reader's own work on a busy machine). Then
``district_of`` for every parcel against 20 districts, and ``shared_ground`` of 300 parcels
against the whole roll. Target: under 10 s a format.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))


def main() -> None:
    from tests.parcel_rolls import FORMATS, write_roll

    from sewer_io.parcels import district_of, read_parcels, shared_ground

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parcels", type=int, default=100_000)
    parser.add_argument("--formats", nargs="+", default=list(FORMATS), choices=FORMATS)
    parser.add_argument("--smoke", action="store_true", help="300 parcels: that it works")
    args = parser.parse_args()
    if args.smoke:
        args.parcels = 300
    with tempfile.TemporaryDirectory() as tmp:
        last = None
        for fmt in args.formats:
            directory = Path(tmp) / fmt.replace(".", "_")
            directory.mkdir()
            t0 = time.perf_counter()
            path = write_roll(directory, parcels=args.parcels, fmt=fmt)
            written = time.perf_counter() - t0
            wall, cpu = time.perf_counter(), time.process_time()
            roll = read_parcels(path, crs="EPSG:2260" if fmt == "csv" else None)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            size = path.stat().st_size / 1e6
            print(
                f"{fmt:8} {size:6.1f} MB  written {written:5.2f} s  read: wall {wall:5.2f} s, "
                f"CPU {cpu:5.2f} s  ({roll.parcels.height} parcels, {len(roll.refused)} refused)"
            )
            last = roll.parcels
        if last is None:
            return
        lon0, lon1 = last["lon"].min(), last["lon"].max()
        lat0, lat1 = last["lat"].min(), last["lat"].max()
        districts = []
        for k in range(20):  # 20 strips of 50 vertices each
            a = lon0 + (lon1 - lon0) * k / 20  # type: ignore[operator]
            b = lon0 + (lon1 - lon0) * (k + 1) / 20  # type: ignore[operator]
            ys = [lat0 + (lat1 - lat0) * i / 24 for i in range(25)]  # type: ignore[operator]
            ring = [[a, y] for y in ys] + [[b, y] for y in reversed(ys)] + [[a, ys[0]]]
            districts.append((f"d{k}", json.dumps({"type": "Polygon", "coordinates": [ring]})))
        t0 = time.perf_counter()
        codes = district_of(last, districts)
        print(
            f"district_of: {last.height} parcels x 20 districts {time.perf_counter() - t0:.2f} s"
            f" ({codes.null_count()} outside)"
        )
        shapes = dict(zip(last["parcel_id"], last["geometry"], strict=True))
        some = {k: shapes[k] for k in list(shapes)[:300]}
        t0 = time.perf_counter()
        pairs = shared_ground(some, shapes)
        print(
            f"shared_ground: 300 x {len(shapes)} {time.perf_counter() - t0:.2f} s ({len(pairs)} pairs)"
        )


if __name__ == "__main__":
    main()
