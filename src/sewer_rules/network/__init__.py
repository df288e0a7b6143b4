"""The sewer network: manholes, pipes with flow direction, and building-sewer connections.

Pure Python (networkx, numpy), no database: the office imports a network with these readers,
asks § 196-19 I where a facility is sampled, traces upstream from a manhole, and draws it.

    net = load_geojson("network.geojson")          # or parse_geojson(data), load_csv_dir(dir)
    sampling_point(net, 3, control_manhole=None)   # § 196-19 I
    trace_upstream(net, "MH01").as_dict()          # {"manhole": ..., "upstream": [...]}
    render_svg(net, highlight_manholes=..., highlight_pipes=...)

Errors: :class:`NetworkFormatError` (unusable file) and :class:`NetworkError` (every feature's
problems, nothing built).
"""

from __future__ import annotations

from .csv_io import load_csv_dir, parse_csv
from .generate import generate_network
from .geo import CRS, CRSError, parse_crs
from .geojson import load_geojson, loads_geojson, parse_geojson, to_geojson
from .model import Connection, Manhole, NetworkError, NetworkFormatError, NetworkIssue, Pipe
from .network import Network
from .sampling import (
    SamplingPoint,
    nearest_downstream_public_manhole,
    sampling_point,
    sampling_points_for_parcel,
)
from .svg import render_svg
from .trace import UpstreamEntry, UpstreamTrace, trace_upstream, upstream_area

__all__ = [
    "CRS",
    "CRSError",
    "Connection",
    "Manhole",
    "Network",
    "NetworkError",
    "NetworkFormatError",
    "NetworkIssue",
    "Pipe",
    "SamplingPoint",
    "UpstreamEntry",
    "UpstreamTrace",
    "generate_network",
    "load_csv_dir",
    "load_geojson",
    "loads_geojson",
    "nearest_downstream_public_manhole",
    "parse_crs",
    "parse_csv",
    "parse_geojson",
    "render_svg",
    "sampling_point",
    "sampling_points_for_parcel",
    "to_geojson",
    "trace_upstream",
    "upstream_area",
]
