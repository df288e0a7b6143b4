"""The chart of a meter: the picture of ``sewer-use slugs --plot``, drawn from stored readings.

The readings of the last ``days`` days stored (and the baseline window before them, so the
threshold line starts judged) are judged again by the engine and drawn by
:func:`sewer_io.plot_monitoring.plot_report`: readings, five times the trailing 24-hour
mean, the article's pH or temperature limits, slugs and excursions shaded. Drawing only:
the stored slug events and excursions are what was determined at upload.
"""

from __future__ import annotations

import io
from datetime import timedelta

from sewer_engines.monitoring.analysis import Report, analyse_series
from sewer_engines.monitoring.series import Series
from sewer_office.core.town_law import require_article_for
from sewer_rules.monitoring.instants import to_us

from .baselines import meter_options
from .judging import window_us
from .models import Meter
from .services import SLUGS, params

FORMATS = {"png": "image/png", "svg": "image/svg+xml"}
DEFAULT_DAYS = 7
MAX_DAYS = 366


def chart(meter: Meter, fmt: str, days: int = DEFAULT_DAYS) -> bytes:
    """The chart as PNG or SVG bytes (``fmt`` one of :data:`FORMATS`), judged under the values
    of the meter's town; refused for a meter of a town whose law is its own."""
    # Imported here, not at the top: matplotlib takes a second to load and only this page
    # draws, so the office's other requests and commands do not pay for it.
    from sewer_io.plot_monitoring import plot_report

    if fmt not in FORMATS:
        raise ValueError(f"a chart is drawn as {' or '.join(FORMATS)}")
    p = params(require_article_for(meter, SLUGS))
    days = max(1, min(days, MAX_DAYS))
    last = meter.readings.order_by("-at").values_list("at", flat=True).first()
    options = meter_options(meter, p, keep_series=True)
    reports = []
    if last is not None:
        span = timedelta(microseconds=window_us(p, to_us(last)))
        since = last - timedelta(days=days) - span
        rows = list(meter.readings.filter(at__gte=since).order_by("at").values_list("at", "value"))
        series = Series.from_decimals(
            meter.ident,
            meter.parameter,
            meter.unit,
            [to_us(at) for at, _ in rows],
            [v for _, v in rows],
        )
        reports.append(analyse_series(series, p, options))
    report = Report(
        source=f"meter {meter.ident}",
        timezone=p.timezone,
        jurisdiction=p.jurisdiction,
        parameters_version=p.version,
        series=reports,
        errors=[],
        errors_total=0,
    )
    out = io.BytesIO()
    plot_report(report, out, p.jurisdiction, options.max_gap_us, fmt)
    return out.getvalue()
