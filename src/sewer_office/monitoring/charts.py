"""A parameter of one facility over time, as an SVG drawn by the server: every current result
as a dot coloured by its status, and each limit in force as a labelled horizontal line.

Plain SVG text (no plotting library on the request path): a facility page shows one chart per
parameter, and each must render in milliseconds. Values are plotted as floats — a drawing, not a
determination; the determinations are the findings beside it, made in exact decimals.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from html import escape

STATUS_COLOURS = {
    "prohibited": "#a42a2a",
    "review": "#9a6400",
    "inconclusive": "#9a6400",
    "abnormal_strength": "#c77700",
    "no_limit": "#5b6670",
    "compliant": "#1e7a3c",
}


@dataclass(frozen=True)
class LimitLine:
    value: float
    label: str  # e.g. "5.5 SU minimum (§ 196-19 C(3))"


def render_chart(
    title: str,
    unit: str,
    points: list[tuple[datetime, float, str]],
    limits: list[LimitLine],
    width: int = 640,
    height: int = 220,
) -> str:
    """``points`` are (time, value, status); the y axis spans the values and the limits."""
    left, right, top, bottom = 56, 12, 24, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}">',
        f'<text x="{left}" y="16" font-size="13" font-weight="600">{escape(title)} '
        f'<tspan fill="#5b6670" font-weight="400">({escape(unit)})</tspan></text>',
    ]
    if not points:
        out.append(f'<text x="{left}" y="{top + 40}" fill="#5b6670">No results.</text></svg>')
        return "".join(out)
    values = [v for _, v, _ in points] + [limit.value for limit in limits]
    lo, hi = min(values), max(values)
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    pad = (hi - lo) * 0.08
    lo, hi = lo - pad, hi + pad
    t0 = min(t for t, _, _ in points).timestamp()
    t1 = max(t for t, _, _ in points).timestamp()
    span = (t1 - t0) or 1.0

    def x(t: datetime) -> float:
        return left + (t.timestamp() - t0) / span * plot_w if t1 > t0 else left + plot_w / 2

    def y(v: float) -> float:
        return top + (hi - v) / (hi - lo) * plot_h

    out.append(
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fff" '
        'stroke="#d6dce1"/>'
    )
    for v in (lo + pad, hi - pad):
        out.append(
            f'<text x="{left - 6}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end" '
            f'fill="#5b6670">{v:.4g}</text>'
        )
    merged: dict[float, list[str]] = {}
    for limit in limits:  # limits at the same value share one line and one label
        merged.setdefault(limit.value, []).append(limit.label)
    limits = [LimitLine(value, "; ".join(labels)) for value, labels in merged.items()]
    for limit in limits:
        yy = y(limit.value)
        out.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{yy:.1f}" y2="{yy:.1f}" '
            'stroke="#a42a2a" stroke-dasharray="5 4"/>'
            f'<text x="{left + plot_w - 4}" y="{yy - 4:.1f}" font-size="11" text-anchor="end" '
            f'fill="#a42a2a">{escape(limit.label)}</text>'
        )
    for t, v, status in points:
        colour = STATUS_COLOURS.get(status, "#1f5f8b")
        out.append(
            f'<circle cx="{x(t):.1f}" cy="{y(v):.1f}" r="3.5" fill="{colour}">'
            f"<title>{t:%Y-%m-%d %H:%M} {v:g} {escape(unit)} — {escape(status)}</title></circle>"
        )
    first = min(t for t, _, _ in points)
    last = max(t for t, _, _ in points)
    out.append(
        f'<text x="{left}" y="{height - 8}" font-size="11" fill="#5b6670">{first:%Y-%m-%d}</text>'
        f'<text x="{left + plot_w}" y="{height - 8}" font-size="11" text-anchor="end" '
        f'fill="#5b6670">{last:%Y-%m-%d}</text></svg>'
    )
    return "".join(out)
