"""One meter's compact rows of one parameter turned into a :class:`.series.Series`.

What is left of the hygiene once the rows are checked (:mod:`.compact_rows`), done per series
because it depends on the series: the units as written resolved (a blank unit is the
parameter's canonical unit; an unknown unit, or one that does not measure the parameter, is a
row error), the values scaled by the most decimal places the series needs and, when the series
mixes units, converted exactly to the parameter's canonical unit (a series written in one unit
keeps it); the readings sorted by time; and two readings at one instant refused, or merged as
``dedupe`` says (``first``, ``last`` in file order, or the ``mean``: exact where it terminates
within three more decimal places, else rounded half-even to that precision).
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from sewer_rules.analytes import BY_NAME
from sewer_rules.monitoring.instants import iso
from sewer_rules.units import ALIASES, UNITS, UnitError, conversion

from .compact_rows import MISSING, OK
from .row_errors import row_error_message
from .scaled_values import FIT, converted, exact_decimal, scaled_values
from .series import I64, Series, fewest_places
from .source import ReadingsError, ReadOptions, RowError


class SeriesBuilder:
    """Turns one meter's rows of one parameter into a :class:`Series` (plus row errors)."""

    def __init__(self, path: Path, options: ReadOptions) -> None:
        self.path = path
        self.options = options

    def build(
        self, meter: str, parameter: str, df: pl.DataFrame
    ) -> tuple[Series | None, list[RowError]]:
        """``df``: the compact rows (errors excluded) of one meter and one parameter."""
        missing = int((df["state"] == MISSING).sum())
        state = df.get_column("state")
        ok, errors = self._units(
            parameter, df if bool((state == OK).all()) else df.filter(state == OK)
        )
        if ok.height == 0:
            return None, errors
        rows = ok["row"].to_numpy().astype(np.int64)
        t = ok["t"].to_numpy().astype(np.int64)
        # by an expression: a unit the file does not write is one value over every row, which
        # taking the column out would write row by row (5,000,000 texts, 80 MB)
        present = sorted(set(ok.select(pl.col("unit").unique()).to_series().to_list()))
        target = present[0] if len(present) == 1 else BY_NAME[parameter].canonical_unit
        written = max(0, int(ok["dec"].to_numpy().max()))
        m, places = fewest_places(scaled_values(ok["v"], written), written)
        if len(present) == 1:
            # one unit (the usual file): the values as written, no conversion
            v, scale = m, places
        else:
            v, scale = self._convert(meter, parameter, ok, m, places, present, target)

        if t.size > 1 and not bool(np.all(t[1:] >= t[:-1])):
            order = np.lexsort((rows, t))
            rows, t, v = rows[order], t[order], v[order]
        merged = 0
        if t.size > 1:
            same = t[1:] == t[:-1]
            if bool(same.any()):
                rows, t, v, scale, merged = self._dedupe(meter, parameter, rows, t, v, scale, same)
        series = Series(meter, parameter, target, t, v, scale, rows, missing, merged)
        return series, errors

    def _convert(
        self,
        meter: str,
        parameter: str,
        ok: pl.DataFrame,
        m: npt.NDArray[Any],
        places: int,
        present: list[str],
        target: str,
    ) -> tuple[npt.NDArray[Any], int]:
        """Values in several units, converted exactly to ``target``: the scaled values and
        their scale."""
        units = ok["unit"].to_numpy()
        factor = np.ones(m.shape[0], dtype=np.int64)
        extra = np.zeros(m.shape[0], dtype=np.int64)
        offsets: dict[str, tuple[int, int]] = {}
        for u in present:
            if u == target:
                continue
            conv = conversion(u, target)
            try:
                f_int, f_places = exact_decimal(conv.factor)
                o_int, o_places = exact_decimal(conv.offset)
            except UnitError:
                raise ReadingsError(
                    f"{self.path}: {u} cannot be converted exactly to {target} "
                    f"(meter {meter!r}, {parameter})"
                ) from None
            sel = units == u
            factor[sel] = f_int
            extra[sel] = f_places
            offsets[u] = (o_int, o_places)
        scale = max(places + int(extra.max()), *(p for _, p in offsets.values()), 0)
        shift = scale - places - extra
        return converted(m, factor, shift, units, offsets, scale), scale

    def _units(self, parameter: str, ok: pl.DataFrame) -> tuple[pl.DataFrame, list[RowError]]:
        """Resolve the units as written (a few spellings per series): blank is the
        parameter's canonical unit; unknown units and units of another dimension are row
        errors."""
        analyte = BY_NAME[parameter]
        mapping: dict[str, str] = {}
        bad: dict[str, int] = {}
        for raw in ok.select(pl.col("unit").drop_nulls().unique()).to_series().to_list():
            symbol = ALIASES.get(" ".join(str(raw).lower().split()))
            if not str(raw).strip():
                mapping[raw] = analyte.canonical_unit
            elif symbol is None:
                bad[raw] = 7
            elif UNITS[symbol].dimension != analyte.dimension:
                bad[raw] = 8
            else:
                mapping[raw] = symbol
        errors: list[RowError] = []
        if bad:
            wrong = ok.filter(pl.col("unit").is_in(list(bad)))
            for r, raw in zip(
                wrong["row"].head(self.options.max_errors), wrong["unit"], strict=False
            ):
                field, message = row_error_message(bad[raw], raw, self.options.timezone)
                errors.append(
                    RowError(int(r), field, message + (f" ({parameter})" if bad[raw] == 8 else ""))
                )
            ok = ok.filter(~pl.col("unit").is_in(list(bad)))
        resolved = pl.col("unit").replace_strict(mapping, default=None, return_dtype=pl.String)
        ok = ok.with_columns(resolved.fill_null(analyte.canonical_unit).alias("unit"))
        return ok, errors

    def _dedupe(
        self,
        meter: str,
        parameter: str,
        rows: I64,
        t: I64,
        v: I64,
        scale: int,
        same: npt.NDArray[np.bool_],
    ) -> tuple[I64, I64, I64, int, int]:
        how = self.options.dedupe
        if how is None:
            where = np.flatnonzero(same)[:3]
            shown = "; ".join(
                f"rows {int(rows[i])} and {int(rows[i + 1])} at "
                f"{iso(int(t[i]), self.options.timezone)}"
                for i in where
            )
            raise ReadingsError(
                f"{self.path}: duplicate timestamps for meter {meter!r}, {parameter}: {shown} "
                "(de-duplicate with --dedupe first|last|mean)"
            )
        starts = np.flatnonzero(np.concatenate(([True], ~same)))
        counts = np.diff(np.concatenate((starts, [t.size])))
        merged = int(t.size - starts.size)
        if how == "first":
            return rows[starts], t[starts], v[starts], scale, merged
        if how == "last":
            pick = starts + counts - 1
            return rows[pick], t[pick], v[pick], scale, merged
        sums = [sum(int(x) for x in chunk) for chunk in np.split(v, starts[1:])]
        cnts = [int(c) for c in counts]
        extra = next(
            (
                d
                for d in range(4)
                if all((s * 10**d) % c == 0 for s, c in zip(sums, cnts, strict=True))
            ),
            3,
        )
        means = [
            int(
                (Decimal(s * 10**extra) / Decimal(c)).quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
            )
            for s, c in zip(sums, cnts, strict=True)
        ]
        wide = max((abs(x) for x in means), default=0) >= FIT
        merged_v = np.array(means, dtype=object if wide else np.int64)
        return rows[starts], t[starts], merged_v, scale + extra, merged
