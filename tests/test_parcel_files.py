"""County tax parcel rolls and sewer district files read by ``sewer_io.parcels``.

The rolls are generated (tests/parcel_rolls.py) in each format the office takes; the edge
cases are small files written here.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import shapely
from pyogrio.raw import write as ogr_write
from pyproj import Transformer

from sewer_io import orpts
from sewer_io.parcels import (
    PARCEL_COLUMNS,
    ParcelFileError,
    district_of,
    read_districts,
    read_parcels,
    shared_ground,
)
from tests.parcel_rolls import (
    CENTER_FT,
    FORMATS,
    SWIS,
    bad_rows,
    expected_district,
    next_year,
    write_districts,
    write_roll,
)

PARCELS = 160
#: The Town of Wappinger, generously: every generated parcel lies inside.
TOWN_BOX = (-73.98, 41.52, -73.84, 41.65)


def crs_of(fmt: str) -> str | None:
    return "EPSG:2260" if fmt == "csv" else None


@pytest.fixture(scope="module")
def rolls(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for fmt in FORMATS:
        directory = tmp_path_factory.mktemp(fmt.replace(".", "_"))
        out[fmt] = write_roll(directory, parcels=PARCELS, fmt=fmt)
    return out


# --- a roll in each format -----------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_roll_is_read_and_its_three_bad_rows_refused(rolls: dict[str, Path], fmt: str) -> None:
    roll = read_parcels(rolls[fmt], crs=crs_of(fmt))
    assert roll.source == rolls[fmt].name
    assert len(roll.sha256) == 64
    assert roll.crs == "EPSG:2260"
    assert roll.rows == PARCELS + 3
    assert roll.parcels.height == PARCELS
    assert roll.parcels.columns == list(PARCEL_COLUMNS)
    assert {(r.row, r.field) for r in roll.refused} == set(bad_rows(PARCELS, fmt).items())
    messages = sorted(r.message for r in roll.refused)
    assert messages == [
        "no SBL or print key",
        "the polygon's ring does not close (its last point is not its first)",
        "unknown property class '999'",
    ]
    refused_rows = {r.row for r in roll.refused}
    assert not refused_rows & set(roll.parcels["row"].to_list())


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_values_of_a_roll(rolls: dict[str, Path], fmt: str) -> None:
    p = read_parcels(rolls[fmt], crs=crs_of(fmt)).parcels
    assert p.schema["row"] == pl.Int64 and p.schema["lon"] == pl.Float64
    assert set(p["swis"]) == {SWIS}
    assert set(p["state"]) == {"NY"}  # a SWIS is New York's
    assert set(p["city"]) == {"Wappinger"}
    assert (p["parcel_id"] == p["print_key"]).all()
    assert (p["sbl"] == p["print_key"].str.replace_all("-", "")).all()
    assert p["parcel_id"].str.contains(r"^\d{4}-\d{2}-\d{6}$").all()
    assert p["property_class"].is_in(list(orpts.CODES)).all()
    assert p["zip"].is_in(["12590", "12603", "12533"]).all()
    assert p["acreage"].str.contains(r"^\d+\.\d+$").all()
    assert p["owner"].null_count() == 0  # PRIMARY_OWNER, cut to PRIMARY_OW in a Shapefile
    assert p["address"].null_count() == 0
    # owners of several parcels, with one mailing address; absentee owners
    several = p.group_by("owner").agg(pl.len(), pl.col("mail_street").n_unique().alias("mails"))
    assert several.filter(pl.col("len") > 1).height > 0
    assert (p["mail_street"] != p["address"]).sum() > 0
    assert p["mail_zip"].str.contains(r"^\d{5}$").all()  # 06811 and 07030 kept whole
    # WGS 84 polygons and points in the Town of Wappinger
    lo0, la0, lo1, la1 = TOWN_BOX
    assert p["lon"].is_between(lo0, lo1).all() and p["lat"].is_between(la0, la1).all()
    geoms = shapely.from_geojson(p["geometry"].to_list())
    assert set(shapely.get_type_id(geoms)) == {3}
    assert shapely.contains_xy(geoms, p["lon"].to_numpy(), p["lat"].to_numpy()).all()
    coords = shapely.get_coordinates(geoms)
    assert np.allclose(coords, np.round(coords, 7), rtol=0, atol=1e-12)
    first = json.loads(p["geometry"][0])
    assert first["type"] == "Polygon" and " " not in p["geometry"][0]


def test_every_format_gives_the_same_parcels(rolls: dict[str, Path]) -> None:
    frames = {fmt: read_parcels(rolls[fmt], crs=crs_of(fmt)).parcels for fmt in FORMATS}
    base = frames["geojson"]
    for fmt, frame in frames.items():
        assert frame.drop("row", "geometry").equals(base.drop("row", "geometry")), fmt
        same = shapely.equals(
            shapely.from_geojson(frame["geometry"].to_list()),
            shapely.from_geojson(base["geometry"].to_list()),
        )
        assert same.all(), fmt
    # a CSV counts its header as line 1
    assert (frames["csv"]["row"] == frames["geojson"]["row"] + 1).all()


# --- districts -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["geojson", "shp.zip", "gpkg"])
def test_districts_are_read_and_assigned(rolls: dict[str, Path], tmp_path: Path, fmt: str) -> None:
    districts = read_districts(write_districts(tmp_path, fmt=fmt))
    assert districts.crs == "EPSG:2260"
    assert districts.refused == ()
    assert districts.districts["code"].to_list() == [
        "wsttia",
        "wsttia-phase-1",
        "united-wappinger-sd",
    ]
    assert districts.districts["name"][2] == "United Wappinger Sewer District"
    parcels = read_parcels(rolls["geojson"]).parcels
    got = district_of(parcels, list(districts.districts.select("code", "geometry").iter_rows()))
    to_feet = Transformer.from_crs("EPSG:4326", "EPSG:2260", always_xy=True)
    x, y = to_feet.transform(parcels["lon"].to_numpy(), parcels["lat"].to_numpy())
    expected = [expected_district(a, b) for a, b in zip(x, y, strict=True)]
    assert got.to_list() == expected
    assert set(expected) == {"wsttia", "wsttia-phase-1", "united-wappinger-sd", None}
    assert got.dtype == pl.String and got.len() == parcels.height


def test_the_smaller_district_wins_whatever_the_order() -> None:
    big = json.dumps({"type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]]})
    small = json.dumps(
        {"type": "Polygon", "coordinates": [[[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]]]}
    )
    points = pl.DataFrame({"lon": [1.5, 3.5, 9.0, None], "lat": [1.5, 3.5, 9.0, None]})
    for order in ([("big", big), ("small", small)], [("small", small), ("big", big)]):
        assert district_of(points, order).to_list() == ["small", "big", None, None]
    assert district_of(points, []).to_list() == [None] * 4


def test_a_district_file_with_bad_rows(tmp_path: Path) -> None:
    square = [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]
    features = [
        {
            "CODE": "North Area",
            "NAME": None,
            "geometry": {"type": "Polygon", "coordinates": square},
        },
        {
            "CODE": "north area",
            "NAME": "again",
            "geometry": {"type": "Polygon", "coordinates": square},
        },
        {"CODE": "", "NAME": "no code", "geometry": {"type": "Polygon", "coordinates": square}},
        {"CODE": "x" * 41, "NAME": "long", "geometry": {"type": "Polygon", "coordinates": square}},
        {
            "CODE": "line",
            "NAME": "a line",
            "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]},
        },
    ]
    path = tmp_path / "areas.geojson"
    path.write_text(
        json.dumps(
            {
                "type": "FeatureCollection",
                "features": [
                    {
                        "type": "Feature",
                        "properties": {k: v for k, v in f.items() if k != "geometry"},
                        "geometry": f["geometry"],
                    }
                    for f in features
                ],
            }
        )
    )
    got = read_districts(path)
    assert got.crs == "EPSG:4326"
    assert got.districts.select("row", "code", "name").rows() == [(1, "north-area", "North Area")]
    assert [(r.row, r.field) for r in got.refused] == [
        (2, "CODE"),
        (3, "CODE"),
        (4, "CODE"),
        (5, "geometry"),
    ]
    assert got.refused[0].message == "district north-area appears twice: first at row 1"
    assert got.refused[3].message == "not a polygon but a line"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"NAME": "x"}, "geometry": {"type": "Polygon", "coordinates": square}}
    ]}))  # fmt: skip
    with pytest.raises(ParcelFileError, match=r"areas.geojson: missing column CODE"):
        read_districts(path)


# --- the following year: sales, a split, a merge --------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_next_year_splits_merges_and_sells(tmp_path: Path, fmt: str) -> None:
    first = write_roll(tmp_path, parcels=400, fmt=fmt)
    second = next_year(first, tmp_path, owner_changes=25, fmt=fmt)
    assert second.name == f"roll-2027.{fmt}"
    before = read_parcels(first, crs=crs_of(fmt))
    after = read_parcels(second, crs=crs_of(fmt))
    assert after.refused == ()
    old = before.parcels.drop("row")
    new = after.parcels.drop("row")
    gone = set(old["parcel_id"]) - set(new["parcel_id"])
    added = set(new["parcel_id"]) - set(old["parcel_id"])
    assert len(gone) == 3 and len(added) == 3
    common = old.join(new, on="parcel_id", suffix="_new")
    assert common.height == 397
    sale_columns = ("owner", "mail_street", "mail_city", "mail_state", "mail_zip")
    sold = common.filter(pl.col("owner") != pl.col("owner_new"))
    assert sold.height == 25
    mail = ("mail_street", "mail_city", "mail_zip")  # a new owner, and mail going elsewhere
    before_mail = sold.select(pl.concat_str(list(mail), separator="|", ignore_nulls=True))
    after_mail = sold.select(
        pl.concat_str([f"{c}_new" for c in mail], separator="|", ignore_nulls=True)
    )
    assert (before_mail.to_series() != after_mail.to_series()).all()
    unchanged = common.filter(pl.col("owner") == pl.col("owner_new"))
    for column in old.columns:
        if column == "parcel_id":
            continue
        a, b = unchanged[column], unchanged[f"{column}_new"]
        assert (a.is_null() & b.is_null() | (a == b).fill_null(False)).all(), column
    for column in old.columns:
        if column in (*sale_columns, "parcel_id"):
            continue
        a, b = sold[column], sold[f"{column}_new"]
        assert (a.is_null() & b.is_null() | (a == b).fill_null(False)).all(), column

    shapes_before = dict(
        old.filter(pl.col("parcel_id").is_in(list(gone)))
        .select("parcel_id", "geometry")
        .iter_rows()
    )
    shapes_after = dict(
        new.filter(pl.col("parcel_id").is_in(list(added)))
        .select("parcel_id", "geometry")
        .iter_rows()
    )
    pairs = shared_ground(shapes_before, shapes_after)
    by_old: dict[str, set[str]] = {}
    by_new: dict[str, set[str]] = {}
    for a, b, share in pairs:
        assert share == pytest.approx(1.0, abs=1e-3)
        by_old.setdefault(a, set()).add(b)
        by_new.setdefault(b, set()).add(a)
    splits = [a for a, bs in by_old.items() if len(bs) == 2]
    merges = [b for b, as_ in by_new.items() if len(as_) == 2]
    assert len(splits) == 1 and len(merges) == 1
    assert len(pairs) == 4
    assert set(by_old) == gone and set(by_new) == added


def test_shared_ground_measures_shares_of_the_smaller() -> None:
    def square(x0: float, y0: float, size: float) -> str:
        ring = [[x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size], [x0, y0]]
        return json.dumps({"type": "Polygon", "coordinates": [ring]})

    d = 0.001  # about 100 m at this latitude
    before = {"A": square(-73.9, 41.6, 2 * d), "B": square(-73.8, 41.6, d)}
    after = {
        "A1": square(-73.9, 41.6, d),  # inside A
        "edge": square(-73.9 + 2 * d, 41.6, d),  # touches A only
        "sliver": square(-73.8 + 0.98 * d, 41.6, d),  # overlaps B by 2 %
    }
    pairs = shared_ground(before, after)
    assert [(a, b) for a, b, _ in pairs] == [("A", "A1")]
    assert pairs[0][2] == pytest.approx(1.0)
    lenient = shared_ground(before, after, least=0.01)
    assert [(a, b) for a, b, _ in lenient] == [("A", "A1"), ("B", "sliver")]
    assert lenient[1][2] == pytest.approx(0.02, rel=0.02)
    assert shared_ground({}, after) == []


# --- unusable files ----------------------------------------------------------------------------


def test_unusable_files_name_the_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.geojson"
    empty.write_bytes(b"")
    with pytest.raises(ParcelFileError, match=r"^empty.geojson: the file is empty"):
        read_parcels(empty)
    header_only = tmp_path / "header.csv"
    header_only.write_text("SBL,PROP_CLASS\n")
    with pytest.raises(ParcelFileError, match=r"header.csv: the file holds a header but no rows"):
        read_parcels(header_only)
    no_features = tmp_path / "none.geojson"
    no_features.write_text('{"type": "FeatureCollection", "features": []}')
    with pytest.raises(ParcelFileError, match=r"none.geojson: the file holds no features"):
        read_parcels(no_features)
    no_key = tmp_path / "nokey.csv"
    no_key.write_text("OWNER,PROP_CLASS\nSmith,210\n")
    with pytest.raises(ParcelFileError, match=r"nokey.csv: missing column SBL or PRINT_KEY"):
        read_parcels(no_key)
    no_class = tmp_path / "noclass.csv"
    no_class.write_text("SBL,OWNER\n1,Smith\n")
    with pytest.raises(ParcelFileError, match=r"noclass.csv: missing column PROP_CLASS"):
        read_parcels(no_class)
    other = tmp_path / "roll.xlsx"
    other.write_bytes(b"PK")
    with pytest.raises(ParcelFileError, match=r"roll.xlsx: a '.xlsx' file cannot be read"):
        read_parcels(other)
    zipped = tmp_path / "parcels.zip"
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("readme.txt", "no shapefile here")
    with pytest.raises(ParcelFileError, match=r"parcels.zip: the zip archive holds no Shapefile"):
        read_parcels(zipped)
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("parcels.shp", b"x")
    with pytest.raises(
        ParcelFileError, match=r"parcels.zip: the Shapefile parcels.shp .* lacks its .dbf"
    ):
        read_parcels(zipped)
    not_zip = tmp_path / "fake.zip"
    not_zip.write_text("plain text")
    with pytest.raises(ParcelFileError, match=r"fake.zip: not a zip archive"):
        read_parcels(not_zip)
    garbage = tmp_path / "garbage.geojson"
    garbage.write_text("{ this is not json")
    with pytest.raises(ParcelFileError, match=r"garbage.geojson: unreadable"):
        read_parcels(garbage)
    with pytest.raises(ParcelFileError, match=r"missing.csv: no such file"):
        read_parcels(tmp_path / "missing.csv")
    # the name given is the one the messages use
    with pytest.raises(ParcelFileError, match=r"^upload 7: the file is empty"):
        read_parcels(empty, name="upload 7")


def test_a_csv_with_wkt_needs_its_crs(rolls: dict[str, Path]) -> None:
    with pytest.raises(ParcelFileError, match=r"roll-2026.csv: .*WKT.*give it \(--crs"):
        read_parcels(rolls["csv"])
    with pytest.raises(ParcelFileError, match=r"not one pyproj knows"):
        read_parcels(rolls["csv"], crs="EPSG:nonsense")


def test_a_declared_crs_is_not_overridden(rolls: dict[str, Path]) -> None:
    with pytest.raises(
        ParcelFileError, match=r"declares the CRS EPSG:2260 but EPSG:2263 was given"
    ):
        read_parcels(rolls["gpkg"], crs="EPSG:2263")
    assert read_parcels(rolls["gpkg"], crs="EPSG:2260").crs == "EPSG:2260"


def test_a_shapefile_without_prj(rolls: dict[str, Path], tmp_path: Path) -> None:
    stripped = tmp_path / "noprj.zip"
    with zipfile.ZipFile(rolls["shp.zip"]) as src, zipfile.ZipFile(stripped, "w") as dst:
        for member in src.namelist():
            if not member.endswith(".prj"):
                dst.writestr(member, src.read(member))
    with pytest.raises(ParcelFileError, match=r"noprj.zip: the file does not say which coordinate"):
        read_parcels(stripped)
    roll = read_parcels(stripped, crs="EPSG:2260")
    assert roll.crs == "EPSG:2260" and roll.parcels.height == PARCELS


def test_geojson_in_state_plane_without_its_crs_member(
    rolls: dict[str, Path], tmp_path: Path
) -> None:
    data = json.loads(rolls["geojson"].read_text())
    del data["crs"]
    bare = tmp_path / "bare.geojson"
    bare.write_text(json.dumps(data))
    with pytest.raises(
        ParcelFileError,
        match=r"bare.geojson: no polygon's coordinates are a place on Earth in EPSG:4326",
    ):
        read_parcels(bare)
    assert read_parcels(bare, crs="EPSG:2260").parcels.height == PARCELS  # RFC 7946 default given


# --- rows refused one by one -------------------------------------------------------------------

BOWTIE = "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))"
SQUARE = "POLYGON (({x} 0, {x1} 0, {x1} 10, {x} 10, {x} 0))"


def test_rows_refused_one_by_one(tmp_path: Path) -> None:
    rows = [
        # SWIS, SBL, PRINT_KEY, PROP_CLASS, LOC_ZIP, MAIL_ZIP, ACRES, WKT
        ("135689", "1", "1-1-1", "210", "12590", "12590", "0.5", SQUARE.format(x=0, x1=1)),
        ("135689", "2", "1-1-1", "220", "12590", "", "", SQUARE.format(x=2, x1=3)),  # twice
        ("135689", "3", "", "2101", "1259", "12590", "", SQUARE.format(x=4, x1=5)),  # bad ZIP
        ("135689", "4", "", "21", "12590", "K1A 0B1", "1,5", SQUARE.format(x=6, x1=7)),
        ("13568", "5", "", "", "12590-1234", "125901234", ".25", BOWTIE),
        ("135689", "6", "", "483", "12590", "12590", "2.", "POINT (1 1)"),
        ("135689", "", "", "483", "12590", "12590", "2", SQUARE.format(x=8, x1=9)),
        ("135689", "8", "", "999", "12590", "12590", "2", ""),
    ]
    header = "SWIS,SBL,PRINT_KEY,PROP_CLASS,LOC_ZIP,MAIL_ZIP,ACRES,WKT"
    text = header + "\n" + "\n".join(",".join(f'"{v}"' for v in r) for r in rows) + "\n"
    path = tmp_path / "cases.csv"
    path.write_text(text)
    roll = read_parcels(path, crs="EPSG:2260")
    got = [(r.row, r.field, r.message) for r in roll.refused]
    assert got == [
        (3, "PRINT_KEY", "parcel 1-1-1 appears twice: first at row 2"),
        (4, "LOC_ZIP", "bad ZIP code '1259'"),
        (5, "PROP_CLASS", "'21' is not a property class code (three digits)"),
        (5, "ACRES", "acreage '1,5' is not a number of acres"),
        (6, "SWIS", "SWIS code '13568' is not six digits"),
        (6, "PROP_CLASS", "no property class"),
        (6, "WKT", "the polygon is not valid: Self-intersection[5 5]"),
        (7, "WKT", "not a polygon but a point"),
        (8, "SBL", "no SBL or print key"),
        (9, "PROP_CLASS", "unknown property class '999'"),
        (9, "WKT", "no polygon for this parcel"),
    ]
    good = roll.parcels
    assert good["row"].to_list() == [2]
    assert good.row(0, named=True)["property_class"] == "210"
    assert good.row(0, named=True)["acreage"] == "0.5"


def test_good_values_normalised(tmp_path: Path) -> None:
    text = (
        "SWIS,SBL,PROP_CLASS,LOC_ZIP,MAIL_ZIP,ACRES,LOC_ST_NBR,LOC_STREET,LOC_UNIT,MAIL_ADDR,PO_BOX,OWNER\n"
        '135689,A,2101,125901234,K1A 0B1,.25,12,Main St,3B,,412,"Smith, Jo"\n'
        '135689,B,210-A,12590-1234,07030,2.,,,,1 Elm St,PO Box 9,"Doe, Al"\n'
        "135689,C,483,12590,12590,3,7,Mill St,,5 Oak St,,\n"
    )
    path = tmp_path / "normal.csv"
    path.write_text(text)
    roll = read_parcels(path)
    assert roll.refused == ()
    assert roll.crs == ""  # no geometry
    p = roll.parcels
    assert p["property_class"].to_list() == ["210", "210", "483"]
    assert p["zip"].to_list() == ["12590-1234", "12590-1234", "12590"]
    assert p["mail_zip"].to_list() == ["K1A 0B1", "07030", "12590"]
    assert p["acreage"].to_list() == [".25", "2.", "3"]
    assert p["address"].to_list() == ["12 Main St, 3B", None, "7 Mill St"]
    assert p["mail_street"].to_list() == ["PO Box 412", "1 Elm St, PO Box 9", "5 Oak St"]
    assert p["parcel_id"].to_list() == ["A", "B", "C"]
    assert p["owner"].to_list() == ["Smith, Jo", "Doe, Al", None]
    assert p["geometry"].null_count() == 3 and p["lon"].null_count() == 3


def test_numbers_typed_as_numbers(tmp_path: Path) -> None:
    """A layer whose SWIS, ZIP codes, class and acreage are numbers, not text."""
    path = tmp_path / "typed.geojson"
    props = [
        {
            "SWIS": 10100,
            "SBL": 5,
            "PROP_CLASS": 210,
            "LOC_ZIP": 12590,
            "MAIL_ZIP": 7030,
            "ACRES": 0.46,
        },
        {
            "SWIS": 10100,
            "SBL": 6,
            "PROP_CLASS": 999,
            "LOC_ZIP": 125901234,
            "MAIL_ZIP": 6811,
            "ACRES": 12.0,
        },
    ]
    square = [[[-73.9, 41.6], [-73.89, 41.6], [-73.89, 41.61], [-73.9, 41.61], [-73.9, 41.6]]]
    path.write_text(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": p, "geometry": {"type": "Polygon", "coordinates": square}}
        for p in props
    ]}))  # fmt: skip
    roll = read_parcels(path)
    assert roll.crs == "EPSG:4326"
    assert [(r.row, r.field) for r in roll.refused] == [(2, "PROP_CLASS")]
    row = roll.parcels.row(0, named=True)
    assert (row["swis"], row["sbl"], row["property_class"]) == ("010100", "5", "210")
    assert (row["zip"], row["mail_zip"], row["acreage"]) == ("12590", "07030", "0.46")
    assert row["lon"] == pytest.approx(-73.895, abs=0.005)


def test_a_record_over_several_lines_keeps_its_line_number(tmp_path: Path) -> None:
    path = tmp_path / "lines.csv"
    path.write_text('SBL,PROP_CLASS,OWNER\n1,210,"Smith\nJones"\n\n,,\n2,999,Doe\n')
    roll = read_parcels(path)
    assert roll.rows == 2  # the blank line and the line of empty cells are no records
    assert [(r.row, r.field) for r in roll.refused] == [(6, "PROP_CLASS")]


def test_a_geopackage_with_several_layers(tmp_path: Path) -> None:
    path = tmp_path / "county.gpkg"
    box = np.array([shapely.to_wkb(shapely.box(650000, 1000000, 650100, 1000200))], dtype=object)
    ogr_write(str(path), box, [np.array(["x"], dtype=object)], ["NOTE"], layer="notes",
              geometry_type="Polygon", crs="EPSG:2260", driver="GPKG")  # fmt: skip
    ogr_write(str(path), box, [np.array(["9-9-9"], dtype=object), np.array(["210"], dtype=object)],
              ["PRINT_KEY", "PROP_CLASS"], layer="parcels", geometry_type="Polygon",
              crs="EPSG:2260", driver="GPKG", append=False)  # fmt: skip
    roll = read_parcels(path)
    assert roll.parcels["parcel_id"].to_list() == ["9-9-9"]
    ogr_write(str(path), box, [np.array(["8-8-8"], dtype=object), np.array(["210"], dtype=object)],
              ["PRINT_KEY", "PROP_CLASS"], layer="more_parcels", geometry_type="Polygon",
              crs="EPSG:2260", driver="GPKG")  # fmt: skip
    with pytest.raises(ParcelFileError, match=r"county.gpkg: several layers hold the fields"):
        read_parcels(path)


# --- the ORPTS table --------------------------------------------------------------------------


def test_property_class_codes() -> None:
    assert orpts.read_class("421") == ("421", None)
    assert orpts.read_class("2101") == ("210", None)
    assert orpts.read_class("210 A") == ("210", None)
    assert orpts.read_class("999") == (None, "unknown property class '999'")
    assert orpts.read_class("2x0")[0] is None
    assert orpts.read_class("21")[0] is None
    assert orpts.read_class("810")[0] is None  # the 810 series was withdrawn in 2002
    assert orpts.category("421") == "Commercial"
    assert orpts.label("853") == "Sewage treatment and water pollution control"
    assert all(len(c) == 3 and c.isdigit() for c in orpts.CODES)
    assert {c[0] for c in orpts.CODES} == set(orpts.CATEGORIES)
    for c in orpts.CATEGORIES:  # each category's own code names the category
        assert f"{c}00" in orpts.CODES


def test_center_of_the_generated_town() -> None:
    lon, lat = Transformer.from_crs("EPSG:2260", "EPSG:4326", always_xy=True).transform(*CENTER_FT)
    assert (lon, lat) == (pytest.approx(-73.91, abs=1e-6), pytest.approx(41.59, abs=1e-6))


def test_layer_geometries_one_by_one(tmp_path: Path) -> None:
    """In a GeoJSON layer: an unclosed ring inside a MultiPolygon, a ring of three points, a
    polygon with heights (kept, flattened), a feature without geometry."""
    closed = [[-73.9, 41.6], [-73.89, 41.6], [-73.89, 41.61], [-73.9, 41.6]]
    square = [[-73.9, 41.6], [-73.89, 41.6], [-73.89, 41.61], [-73.9, 41.61], [-73.9, 41.6]]
    geometries = [
        {"type": "MultiPolygon", "coordinates": [[square], [square[:-1]]]},
        {"type": "Polygon", "coordinates": [[[-73.9, 41.6], [-73.89, 41.6], [-73.9, 41.6]]]},
        {"type": "Polygon", "coordinates": [[[x, y, 30.0] for x, y in closed]]},
        None,
    ]
    path = tmp_path / "shapes.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"SBL": str(i), "PROP_CLASS": "210"}, "geometry": g}
        for i, g in enumerate(geometries)
    ]}))  # fmt: skip
    roll = read_parcels(path)
    assert [(r.row, r.field, r.message) for r in roll.refused] == [
        (1, "geometry", "the polygon's ring does not close (its last point is not its first)"),
        (
            2,
            "geometry",
            "the polygon is not valid: Too few points in geometry component[-73.9 41.6]",
        ),
        (4, "geometry", "no polygon for this parcel"),
    ]
    assert roll.parcels["row"].to_list() == [3]
    assert json.loads(roll.parcels["geometry"][0])["coordinates"][0][0] == [-73.9, 41.6]
    # features none of which has a geometry: a table, read without outlines
    path.write_text(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"SBL": "1", "PROP_CLASS": "210"}, "geometry": None}
    ]}))  # fmt: skip
    table = read_parcels(path)
    assert table.refused == () and table.crs == "" and table.parcels["lon"][0] is None
