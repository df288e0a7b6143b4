"""The network drawn as SVG, server-side (pure string building), for the office's network page.

Public sewers are drawn solid blue, private ones dashed brown; manholes as circles (filled
when public, hollow and dashed when private); connections as small green squares; an arrow at
the middle of each pipe shows the flow. A traced area (see
:func:`~.trace.upstream_area`) is highlighted in orange. Every element carries ``data-id``
and a ``<title>`` (tooltip); all text from the file is escaped. Unknown ids in the highlight
sets are ignored.

Coordinates are fitted into the box: planar and Web Mercator as they are; longitude/latitude
by an equirectangular projection at the network's mean latitude (true shape at town scale).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable

from .geo import Point
from .network import Network

_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

STYLE = """
.pipe{fill:none;stroke-linecap:round;stroke-linejoin:round}
.pipe.public{stroke:#1f4e79;stroke-width:2}
.pipe.private{stroke:#8c6d46;stroke-width:1.5;stroke-dasharray:5 3}
.pipe.traced{stroke:#e8590c;stroke-width:3.5}
.arrow{fill:#1f4e79}.arrow.private{fill:#8c6d46}.arrow.traced{fill:#e8590c}
.manhole{stroke-width:1.2}
.manhole.public{fill:#1f4e79;stroke:#1f4e79}
.manhole.private{fill:#fff;stroke:#8c6d46;stroke-dasharray:2 1}
.manhole.traced{fill:#e8590c;stroke:#a33a00}
.manhole.outlet{stroke:#000;stroke-width:2}
.connection{fill:#2b8a3e}
.label{font:10px sans-serif;fill:#222}
.legend text{font:11px sans-serif;fill:#222}
""".strip()


def esc(text: object) -> str:
    """Text safe inside an SVG element or a double-quoted attribute."""
    s = _INVALID_XML.sub("\ufffd", str(text))
    return (
        s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def _f(v: float) -> str:
    return f"{v:.1f}"


class _Fit:
    """Fits the network into the box: ``margin`` around, more on the right for labels and at
    the bottom for the legend."""

    def __init__(
        self, network: Network, width: int, height: int, margin: int, labels: bool
    ) -> None:
        pts = [m.position for m in network.manholes.values()]
        pts += [c for p in network.pipes.values() for c in p.coordinates]
        pts += [c.position for c in network.connections if c.position is not None]
        self.geo = network.crs.kind == "geographic"
        lat0 = sum(p[1] for p in pts) / len(pts) if pts and self.geo else 0.0
        self.kx = math.cos(math.radians(lat0)) if self.geo else 1.0
        xs = [p[0] * self.kx for p in pts] or [0.0]
        ys = [p[1] for p in pts] or [0.0]
        self.x0, self.y1 = min(xs), max(ys)
        dx, dy = max(xs) - self.x0, self.y1 - min(ys)
        right, bottom = margin + (40 if labels else 0), margin + 18
        w, h = max(width - margin - right, 1), max(height - margin - bottom, 1)
        self.s = min(w / dx if dx else math.inf, h / dy if dy else math.inf)
        if not math.isfinite(self.s):
            self.s = 1.0
        self.ox = margin + (w - dx * self.s) / 2
        self.oy = margin + (h - dy * self.s) / 2

    def __call__(self, p: Point) -> Point:
        return self.ox + (p[0] * self.kx - self.x0) * self.s, self.oy + (self.y1 - p[1]) * self.s


def render_svg(
    network: Network,
    *,
    width: int = 960,
    height: int = 640,
    highlight_manholes: Collection[str] = (),
    highlight_pipes: Collection[str] = (),
    arrows: bool = True,
    connections: bool = True,
    labels: bool | None = None,
    title: str | None = None,
    margin: int = 24,
) -> str:
    """The network as a standalone SVG document (embed it inline or as an image).

    ``labels`` (manhole ids beside the circles) default to on for networks of up to 60
    manholes.
    """
    n = len(network.manholes)
    show_labels = n <= 60 if labels is None else labels
    fit = _Fit(network, width, height, margin, show_labels)
    radius = max(1.5, min(5.0, min(width, height) / (4 * math.sqrt(max(n, 1)))))
    hm, hp = set(highlight_manholes), set(highlight_pipes)
    outlets = set(network.outlets())
    head = title or f"Sewer network: {n} manholes, {len(network.pipes)} pipes"
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{esc(head)}">',
        f"<title>{esc(head)}</title>",
        f"<style>{STYLE}</style>",
        '<g class="pipes">',
    ]
    arrow_paths: list[str] = []
    for p in network.pipes.values():
        pts = [fit(c) for c in p.coordinates]
        cls = "pipe " + ("public" if p.public else "private") + (" traced" if p.id in hp else "")
        diameter = f", {p.diameter_in} in" if p.diameter_in is not None else ""
        tip = f"pipe {p.id}: {p.from_manhole} → {p.to_manhole}{diameter}, {p.length_m:.1f} m, " + (
            "public" if p.public else "private"
        )
        points = " ".join(f"{_f(x)},{_f(y)}" for x, y in pts)
        out.append(
            f'<polyline class="{cls}" points="{points}" data-id="{esc(p.id)}">'
            f"<title>{esc(tip)}</title></polyline>"
        )
        if arrows:
            a = _arrow(pts, cls.replace("pipe", "arrow", 1), 2.2 * radius + 2)
            if a:
                arrow_paths.append(a)
    out.append("</g>")
    if arrow_paths:
        out += ['<g class="arrows">', *arrow_paths, "</g>"]
    if connections and network.connections:
        out.append('<g class="connections">')
        side = max(2.0, radius * 0.9)
        for c in network.connections:
            if c.position is None:
                continue
            x, y = fit(c.position)
            at = f"pipe {c.pipe}" if c.pipe else f"manhole {c.manhole}"
            out.append(
                f'<rect class="connection" x="{_f(x - side / 2)}" y="{_f(y - side / 2)}" '
                f'width="{_f(side)}" height="{_f(side)}" data-parcel="{esc(c.parcel)}">'
                f"<title>{esc(f'parcel {c.parcel} → {at}')}</title></rect>"
            )
        out.append("</g>")
    out.append('<g class="manholes">')
    label_parts: list[str] = []
    for m in network.manholes.values():
        x, y = fit(m.position)
        cls = "manhole " + ("public" if m.public else "private")
        cls += (" traced" if m.id in hm else "") + (" outlet" if m.id in outlets else "")
        tip = f"manhole {m.id} ({'public' if m.public else 'private'})"
        out.append(
            f'<circle class="{cls}" cx="{_f(x)}" cy="{_f(y)}" r="{_f(radius)}" '
            f'data-id="{esc(m.id)}"><title>{esc(tip)}</title></circle>'
        )
        if show_labels:
            label_parts.append(
                f'<text class="label" x="{_f(x + radius + 2)}" y="{_f(y - radius - 1)}">'
                f"{esc(m.id)}</text>"
            )
    out.append("</g>")
    if label_parts:
        out += ['<g class="labels">', *label_parts, "</g>"]
    out += _legend(height, bool(hm or hp))
    out.append("</svg>")
    return "\n".join(out)


def _arrow(pts: list[Point], cls: str, min_len: float) -> str | None:
    """A small triangle at the middle of the polyline, pointing along the flow."""
    lengths = [math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1)]
    total = sum(lengths)
    if total < 2 * min_len:
        return None
    half = total / 2
    for i, seg in enumerate(lengths):
        if half <= seg and seg > 0:
            (ax, ay), (bx, by) = pts[i], pts[i + 1]
            t = half / seg
            mx, my = ax + (bx - ax) * t, ay + (by - ay) * t
            ux, uy = (bx - ax) / seg, (by - ay) / seg
            size = 5.0
            tip = (mx + ux * size, my + uy * size)
            left = (mx - ux * size - uy * size * 0.6, my - uy * size + ux * size * 0.6)
            right = (mx - ux * size + uy * size * 0.6, my - uy * size - ux * size * 0.6)
            d = " ".join(f"{_f(x)},{_f(y)}" for x, y in (tip, left, right))
            return f'<polygon class="{cls}" points="{d}"/>'
        half -= seg
    return None


def _legend(height: int, traced: bool) -> Iterable[str]:
    y = height - 10
    items = [
        ('<line x1="8" y1="{y}" x2="28" y2="{y}" class="pipe public"/>', "public sewer"),
        ('<line x1="8" y1="{y}" x2="28" y2="{y}" class="pipe private"/>', "private"),
    ]
    if traced:
        items.append(('<line x1="8" y1="{y}" x2="28" y2="{y}" class="pipe traced"/>', "traced"))
    out = ['<g class="legend">']
    x = 0
    for shape, text in items:
        out.append(f'<g transform="translate({x},0)">{shape.format(y=y)}')
        out.append(f'<text x="32" y="{y + 4}">{esc(text)}</text></g>')
        x += 110
    out.append("</g>")
    return out
