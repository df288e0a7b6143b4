"""Each facility's results under its own town's law: a file of several towns, evaluated town by
town as one.

A laboratory's file, a correction or a month's judgement may hold the results of facilities
of several member towns (``Establishment.jurisdiction``). Each result is evaluated under its
facility's town's dated values (its limits, its time zone), never the primary town's: the rows
are grouped by town, each group is evaluated by the engine with that town's parameter set, and
the groups are put back together in the rows' order, as one evaluation. A file of one town —
the usual case — is one group, evaluated as before in a single call of the engine: no work per
row is added.

The article's limits (§ 196-19) are Town Code Chapter 196, Article VII. A town whose package
keeps a law of its own (the Town of Poughkeepsie's) is not judged by them: the engine applies
the article's limits to every row besides the facility's permit limits, so a file holding a
result of such a town's facility is refused as a whole (:func:`own_law_refusal`), naming the
file, the rows, the facility and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from sewer_engines.evaluation import Evaluation, evaluate_table
from sewer_office.accounts.towns import keeps_article
from sewer_office.core.errors import shorten
from sewer_office.core.town_law import article_refusal
from sewer_rules.evaluation.permit_limits import PermitLimits

from .in_force import ARTICLE_LIMITS, params_in_force
from .lab_checks import custody_times

#: Columns added while the rows are grouped (never one of a file's): the town, the position.
_TOWN = "_by_town_town"
_POSITION = "_by_town_position"


@dataclass
class Evaluated:
    """The evaluation of every row, and the parameters version of each town met (in the
    order met): the version of a stored finding is its own town's."""

    evaluation: Evaluation
    versions: dict[str, str]

    @property
    def jurisdiction(self) -> str:
        """The towns evaluated, as the import records them ("demo", "demo, wappinger")."""
        return ", ".join(self.versions)


def towns_met(towns: pl.Series) -> list[str]:
    """The distinct towns of ``towns``, in the order met."""
    return [str(t) for t in towns.drop_nulls().unique(maintain_order=True).to_list()]


def other_laws(towns: pl.Series) -> list[str]:
    """The towns of ``towns`` whose law is not the article (their results are not judged)."""
    return [t for t in towns_met(towns) if not keeps_article(t)]


def own_law_refusal(source_name: str, fac: pl.DataFrame, towns: list[str]) -> str:
    """The refusal of a file holding results of facilities of ``towns`` (towns of another
    law): the file, and for each such facility its rows and why (``fac``: ``row``, ``code``,
    ``town``)."""
    parts = []
    rows = fac.filter(pl.col("town").is_in(towns))
    for (code, town), group in rows.group_by("code", "town", maintain_order=True):
        numbers = group.get_column("row").to_list()
        shown = ", ".join(str(n) for n in numbers[:5])
        if len(numbers) > 5:
            shown += f" and {len(numbers) - 5} more"
        label = "row" if len(numbers) == 1 else "rows"
        parts.append(
            f"{label} {shown}, facility {code}: {article_refusal(str(town), ARTICLE_LIMITS)}"
        )
    return f"{shorten(source_name)}: refused, nothing stored. " + " ".join(parts)


def evaluate_by_town(
    raw: pl.DataFrame, towns: pl.Series, limits: PermitLimits | None, *, default: str
) -> Evaluated:
    """``raw`` evaluated with each row under its town's values (``towns``, one per row; a row
    of no town — refused anyway — under the file's first town's, ``default`` when none)."""
    met = towns_met(towns)
    if len(met) <= 1:
        town = met[0] if met else default
        params = params_in_force(town)
        return Evaluated(evaluate_table(raw, params, limits), {town: params.version})
    parts = raw.with_columns(towns.fill_null(met[0]).alias(_TOWN)).partition_by(
        _TOWN, as_dict=True, maintain_order=True, include_key=False
    )
    evaluations, versions = [], {}
    for (town,), part in parts.items():
        params = params_in_force(str(town))
        versions[str(town)] = params.version
        evaluations.append(evaluate_table(part, params, limits))
    return Evaluated(_merged(evaluations, ", ".join(versions.values())), versions)


def _by_row(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """The groups' frames as one, in the rows' order (a row's own order kept: a stable sort)."""
    return pl.concat(frames, how="vertical_relaxed").sort("row", maintain_order=True)


def _merged(parts: list[Evaluation], version: str) -> Evaluation:
    monthly = [e.monthly for e in parts if e.monthly.width]
    return Evaluation(
        results=_by_row([e.results for e in parts]),
        findings=_by_row([e.findings for e in parts]),
        advisories=_by_row([e.advisories for e in parts]),
        samples=pl.concat([e.samples for e in parts], how="vertical_relaxed"),
        errors=_by_row([e.errors for e in parts]),
        monthly=pl.concat(monthly, how="diagonal_relaxed") if monthly else pl.DataFrame(),
        parameters_version=version,
    )


def custody_by_town(
    raw: pl.DataFrame, towns: pl.Series, *, default: str
) -> tuple[pl.DataFrame, list[tuple[int, str, str]]]:
    """The chain-of-custody times of ``raw`` (:func:`.lab_checks.custody_times`), each row's
    read in its town's time zone; one town: one reading, as before."""
    met = towns_met(towns)
    if len(met) <= 1:
        return custody_times(raw, params_in_force(met[0] if met else default).timezone)
    keyed = raw.with_columns(
        towns.fill_null(met[0]).alias(_TOWN), pl.int_range(raw.height).alias(_POSITION)
    )
    frames, errors = [], []
    for (town,), part in keyed.partition_by(_TOWN, as_dict=True, maintain_order=True).items():
        frame, found = custody_times(part, params_in_force(str(town)).timezone)
        frames.append(frame.with_columns(part.get_column(_POSITION)))
        errors += found
    return pl.concat(frames, how="vertical_relaxed").sort(_POSITION).drop(_POSITION), errors


def facility_towns(fac: pl.DataFrame) -> dict[int, str]:
    """Each facility's town, by facility id (``fac``: ``est``, ``town``; one pass)."""
    pairs = fac.select("est", "town").drop_nulls().unique()
    return {int(est): str(town) for est, town in pairs.iter_rows()}


def zones(towns: Mapping[int, str]) -> dict[int, str]:
    """Each facility's town's time zone, by facility id (``towns``: :func:`facility_towns`)."""
    return {est: params_in_force(town).timezone for est, town in towns.items()}
