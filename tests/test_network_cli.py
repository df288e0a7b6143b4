"""``sewer-use network-check`` and ``sewer-use grease-interceptor``: output, JSON, exit codes."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sewer_cli.main import main
from tests.case_kinds.network import thirteen

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "network" / "example-network.geojson"
CSV_DIR = ROOT / "examples" / "network" / "csv"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: object, name: str = "net.geojson") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# --- network-check ------------------------------------------------------------------------------


def test_network_check_summarises_a_valid_network(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "network-check", str(EXAMPLE))
    assert code == 0
    assert "Valid." in out
    assert "Manholes: 13 (11 public, 2 private)" in out
    assert "Connections: 13 of 12 parcel(s)" in out
    assert "Outlets: MH01" in out
    assert "WGS 84" in out and "ellipsoid" in out


def test_network_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "network-check", str(EXAMPLE), "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert data["valid"] is True and data["errors"] == []
    assert data["summary"]["pipes"]["total"] == 12
    assert data["summary"]["pipes"]["length_m"] == pytest.approx(1190, abs=0.05)
    assert data["summary"]["tree"] is True


def test_network_check_csv_directory_with_its_crs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "network-check", str(CSV_DIR), "--crs", "EPSG:32115")
    assert code == 0
    assert "1,190.00 m in all" in out
    code, out, _ = run(capsys, "network-check", str(CSV_DIR))  # read as longitude/latitude
    assert code == 1
    assert "manholes.csv line 2 (manhole MH01)" in out
    assert "projected coordinates need their CRS declared" in out


def test_network_check_lists_every_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = copy.deepcopy(thirteen())
    data["features"][13]["properties"]["to"] = "MH99"  # pipe P02
    data["features"][2]["geometry"] = None  # manhole MH03
    del data["features"][-1]["properties"]["manhole"]  # connection PCL-12
    path = write(tmp_path, data)
    code, out, _ = run(capsys, "network-check", path)
    assert code == 1
    assert "INVALID: 3 errors; nothing imported" in out
    assert "features[2] (manhole MH03)" in out
    assert "features[13] (pipe P02)" in out and "names no manhole: 'MH99'" in out
    assert f"features[{len(data['features']) - 1}] (connection)" in out
    code, out, _ = run(capsys, "network-check", path, "--format", "json")
    result = json.loads(out)
    assert code == 1 and result["valid"] is False and result["summary"] is None
    assert [(e["index"], e["field"]) for e in result["errors"]] == [
        (2, "geometry"),
        (13, "to"),
        (len(data["features"]) - 1, "pipe"),
    ]


def test_network_check_reports_a_cycle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = copy.deepcopy(thirteen())
    data["features"].append(
        {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": [[199000, 305000], [199000, 305100]]},
            "properties": {
                "kind": "pipe",
                "id": "PBACK",
                "from": "MH01",
                "to": "MH02",
                "public": True,
            },
        }
    )
    code, out, _ = run(capsys, "network-check", write(tmp_path, data))
    assert code == 1
    assert "flow runs in a cycle" in out and "PBACK" in out and "P02" in out


def test_network_check_warnings_keep_exit_zero(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = copy.deepcopy(thirteen())
    data["features"][14]["geometry"]["coordinates"].reverse()  # pipe P03 drawn backwards
    code, out, _ = run(capsys, "network-check", write(tmp_path, data))
    assert code == 0
    assert "1 warning(s):" in out and "drawn from MH02 to MH03" in out


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not JSON"),
        ('{"type": "Feature"}', "not a GeoJSON FeatureCollection"),
        (
            '{"type": "FeatureCollection", "features": [], "crs": {"type": "name", "properties": {"name": "EPSG:9999"}}}',
            "EPSG:9999",
        ),
    ],
)
def test_network_check_unusable_files_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, words: str
) -> None:
    path = tmp_path / "bad.geojson"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "network-check", str(path))
    assert code == 2 and out == ""
    assert err.startswith("sewer-use: ") and words in err


def test_network_check_missing_file_and_bad_crs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "network-check", str(tmp_path / "nowhere.geojson"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "network-check", str(EXAMPLE), "--crs", "EPSG:9999")
    assert code == 2 and "declare its linear unit" in err
    code, _, err = run(capsys, "network-check", str(tmp_path))
    assert code == 2 and "no manholes.csv" in err


def test_network_check_writes_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "net.svg"
    code, out, _ = run(capsys, "network-check", str(EXAMPLE), "--svg", str(svg))
    assert code == 0 and f"Drawing written to {svg}" in out
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert len(list(root.iter("{http://www.w3.org/2000/svg}circle"))) == 13


# --- grease-interceptor -------------------------------------------------------------------------


def test_grease_sink_example_is_a_reference_in_wappinger(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "grease-interceptor", "--fixture-volume", "48x24x12", "--date", "2026-03-02"
    )
    assert code == 0
    assert "= 44.89 gpm" in out
    assert "rated size       50 gpm" in out
    assert "grease capacity  100 lb" in out
    assert "grease_interceptor.sizing_method = 0" in out and "1992-09-28" in out
    assert "Result: reference only — not a determination under § 196-19 F(2)" in out


@pytest.mark.parametrize(
    ("volume", "gpm"),
    [
        ("13824", "44.89"),
        ("13824 in3", "44.89"),
        ("48 x 24 x 12 in", "44.89"),
        ("231 gal", "173.25"),
    ],
)
def test_grease_volume_spellings(capsys: pytest.CaptureFixture[str], volume: str, gpm: str) -> None:
    code, out, _ = run(
        capsys,
        "grease-interceptor",
        "--fixture-volume",
        volume,
        "--format",
        "json",
        "--date",
        "2026-03-02",
    )
    assert json.loads(out)["check"]["details"]["flow_gpm"] == gpm
    assert code == (1 if gpm == "173.25" else 0)  # above 50 gpm: no listed size


def test_grease_volumes_add_and_two_minute_drain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "grease-interceptor",
        "--fixture-volume",
        "7700",
        "--fixture-volume",
        "7700",
        "--drain-minutes",
        "2",
        "--format",
        "json",
        "--date",
        "2026-03-02",
    )
    d = json.loads(out)["check"]["details"]
    assert code == 0
    assert (d["fixture_volume_in3"], d["flow_gpm"], d["rated_size_gpm"]) == ("15400", "25", "25")


def test_grease_installed_unit_in_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    args = (
        "grease-interceptor",
        "--fixture-volume",
        "48x24x12",
        "--jurisdiction",
        "demo",
        "--date",
        "2026-03-02",
    )
    code, out, _ = run(capsys, *args, "--installed", "35")
    assert code == 1
    assert "installed        35 gpm — does not meet the flow" in out
    assert "Result: does not meet the method in force" in out
    assert "NOTE: EXAMPLE" in out
    code, out, _ = run(capsys, *args, "--installed", "50")
    assert code == 0 and "Result: meets the method in force" in out


def test_grease_gravity_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "grease-interceptor",
        "--dfu",
        "22",
        "--installed",
        "1000",
        "--jurisdiction",
        "demo",
        "--date",
        "2026-03-02",
    )
    assert code == 0
    assert "capacity         1000 gal" in out and "meets the table" in out
    code, out, _ = run(
        capsys, "grease-interceptor", "--dfu", "2641", "--format", "json", "--date", "2026-03-02"
    )
    data = json.loads(out)
    assert code == 1
    assert data["check"]["details"]["capacity_gal"] == "none"
    assert data["parameters_version"].startswith("wappinger@")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--fixture-volume", "10 furlongs"], "unknown unit"),
        (["--fixture-volume", "lots"], "is not a volume"),
        (["--fixture-volume", "0"], "must be positive"),
        (["--dfu", "-3"], "--dfu"),
        (["--fixture-volume", "100", "--installed", "x"], "--installed"),
        (["--dfu", "10", "--jurisdiction", "nowhere"], "no jurisdiction"),
    ],
)
def test_grease_unusable_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = run(capsys, "grease-interceptor", *argv)
    assert code == 2 and out == ""
    assert words in err


def test_grease_needs_one_method(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["grease-interceptor", "--fixture-volume", "1", "--dfu", "3"])
    assert info.value.code == 2
    with pytest.raises(SystemExit):
        main(["grease-interceptor", "--fixture-volume", "1", "--drain-minutes", "3"])
    capsys.readouterr()
