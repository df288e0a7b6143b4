"""Reading one feature of a network file: its kind, ids, ``public``, geometry and pipe fields.

Every reader reports what is wrong on the feature (:meth:`FeatureUnderCheck.issue`) and goes
on, so that one pass over the file lists every problem (all or nothing, :mod:`.build`). What a
reader returns is typed: a feature's data is unvalidated JSON until it has been read here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from sewer_rules.hostile import control_character, shorten
from sewer_rules.json_input import JsonValue

from .geo import CRS, Point
from .model import Manhole, NetworkIssue

KINDS = ("manhole", "pipe", "connection")
#: The longest id (of a manhole, pipe, connection or parcel) a network may give: the office
#: stores 60 characters (a tax parcel id, 40, is matched against the registry).
MAX_ID_LENGTH = 60


@dataclass(slots=True)
class RawFeature:
    """A feature as read: GeoJSON-shaped ``data`` with where it came from.

    ``implicit_line`` (CSV pipes) means the pipe's geometry is its ``from`` manhole, the given
    ``bends`` and its ``to`` manhole; ``problems`` are (field, message) found while reading.
    """

    source: str
    index: int
    data: JsonValue
    implicit_line: bool = False
    bends: tuple[Point, ...] = ()
    problems: tuple[tuple[str, str], ...] = ()


@dataclass
class BuildContext:
    """The CRS a file is read in, and the errors and warnings found so far."""

    crs: CRS
    issues: list[NetworkIssue] = field(default_factory=list)
    warnings: list[NetworkIssue] = field(default_factory=list)


@dataclass
class FeatureUnderCheck:
    """A feature whose kind is known, while its fields are read; ``ok`` until an error."""

    raw: RawFeature
    kind: str | None
    props: Mapping[str, JsonValue]
    fid: str | None = None
    ok: bool = True

    def issue(
        self, ctx: BuildContext, field_name: str, message: str, *, warning: bool = False
    ) -> None:
        item = NetworkIssue(
            self.raw.source, self.raw.index, self.kind, self.fid, field_name, message
        )
        (ctx.warnings if warning else ctx.issues).append(item)
        if not warning:
            self.ok = False


@dataclass
class PipeFields:
    """A pipe feature's fields as read (None where missing or wrong, the error reported).

    ``coords`` is the drawn LineString; a CSV pipe (``implicit_line``) has ``bends`` instead,
    its line running from its ``from`` manhole through them to its ``to`` manhole.
    """

    from_manhole: str | None
    to_manhole: str | None
    public: bool | None
    diameter_in: Decimal | None = None
    coords: list[Point] | None = None
    bends: list[Point] = field(default_factory=list)


def where(raw: RawFeature) -> str:
    """Where a feature is, in the words of its file: ``features[3]`` or ``pipes.csv line 4``."""
    return (
        f"features[{raw.index}]" if raw.source == "features" else f"{raw.source} line {raw.index}"
    )


def classify(raw: RawFeature, ctx: BuildContext) -> FeatureUnderCheck | None:
    """The feature with its kind and id read, or None when it is not a feature at all."""
    data = raw.data
    if not isinstance(data, dict):
        ctx.issues.append(
            NetworkIssue(raw.source, raw.index, None, None, "feature", "not a JSON object")
        )
        return None
    props = data.get("properties")
    if not isinstance(props, dict):
        ctx.issues.append(
            NetworkIssue(
                raw.source, raw.index, None, None, "properties", "missing or not an object"
            )
        )
        return None
    kind = props.get("kind")
    f = FeatureUnderCheck(raw, kind if kind in KINDS else None, props)
    if raw.source == "features" and data.get("type") != "Feature":
        f.issue(ctx, "type", f'expected "Feature", found {shorten(repr(data.get("type")))}')
    if f.kind is None:
        f.issue(ctx, "kind", f"must be manhole, pipe or connection, found {shorten(repr(kind))}")
        return None
    f.fid = ident(f, "id", ctx, required=f.kind != "connection")
    for field_name, message in raw.problems:
        f.issue(ctx, field_name, message)
    return f


def ident(f: FeatureUnderCheck, name: str, ctx: BuildContext, *, required: bool) -> str | None:
    """An id property: a non-empty string or an integer, read as text, of a bounded length."""
    value = f.props.get(name)
    if value is None:
        if required:
            f.issue(ctx, name, "missing")
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        f.issue(ctx, name, f"must be a string or an integer, found {shorten(repr(value))}")
        return None
    text = str(value).strip()
    if not text:
        f.issue(ctx, name, "empty")
        return None
    if len(text) > MAX_ID_LENGTH:
        f.issue(
            ctx, name, f"{len(text):,} characters, longer than the {MAX_ID_LENGTH} an id may have"
        )
        return None
    control = control_character(text)
    if control is not None:
        f.issue(ctx, name, f"holds the control character {control}: {shorten(repr(text))}")
        return None
    return text


def public(f: FeatureUnderCheck, ctx: BuildContext) -> bool | None:
    """``public``: true or false, required (§ 196-19 I turns on whether the sewer is public)."""
    value = f.props.get("public")
    if not isinstance(value, bool):
        why = "missing" if value is None else f"must be true or false, found {shorten(repr(value))}"
        f.issue(ctx, "public", why + " (§ 196-19 I turns on whether the sewer is public)")
        return None
    return value


def position(f: FeatureUnderCheck, raw: JsonValue, ctx: BuildContext, what: str) -> Point | None:
    """A position of 2 or 3 finite numbers inside the CRS's range."""
    if (
        type(raw) not in (list, tuple)
        or len(raw) not in (2, 3)
        or any(type(v) not in (int, float) for v in raw)
    ):
        f.issue(ctx, "geometry", f"{what} must be 2 or 3 numbers, found {shorten(repr(raw))}")
        return None
    x, y = float(raw[0]), float(raw[1])
    problem = ctx.crs.position_problem(x, y)
    if problem:
        f.issue(ctx, "geometry", f"{what}: {problem}")
        return None
    return x, y


def geometry(
    f: FeatureUnderCheck, ctx: BuildContext, expected: str, *, nullable: bool = False
) -> JsonValue:
    """The coordinates of a geometry of the ``expected`` type (still to be read as positions)."""
    geom = f.raw.data.get("geometry")
    if geom is None and (nullable or any(n in ("x", "y") for n, _ in f.raw.problems)):
        return None  # allowed, or already reported by the CSV reader
    if not isinstance(geom, dict) or geom.get("type") != expected:
        found = geom.get("type") if isinstance(geom, dict) else geom
        f.issue(ctx, "geometry", f"a {f.kind} must be a {expected}, found {shorten(repr(found))}")
        return None
    coords = geom.get("coordinates")
    if coords is None:
        f.issue(ctx, "geometry", "no coordinates")
    return coords


def manhole(f: FeatureUnderCheck, ctx: BuildContext) -> Manhole | None:
    """A manhole: its id, ``public`` and Point, or None when any is wrong."""
    is_public = public(f, ctx)
    coords = geometry(f, ctx, "Point")
    pos = position(f, coords, ctx, "the Point") if coords is not None else None
    if f.fid is None or is_public is None or pos is None:
        return None
    return Manhole(f.fid, is_public, pos, f.raw.source, f.raw.index)


def pipe_fields(f: FeatureUnderCheck, ctx: BuildContext) -> PipeFields:
    """A pipe's ends, ``public``, diameter and line, each checked on its own."""
    out = PipeFields(
        from_manhole=ident(f, "from", ctx, required=True),
        to_manhole=ident(f, "to", ctx, required=True),
        public=public(f, ctx),
    )
    d = f.props.get("diameter_in")
    if d is not None:
        try:
            if isinstance(d, bool) or not isinstance(d, int | float | str):
                raise InvalidOperation
            value = Decimal(str(d).strip())
            if not value.is_finite() or value <= 0:
                raise InvalidOperation
            out.diameter_in = value
        except InvalidOperation:
            f.issue(
                ctx, "diameter_in", f"must be a positive number of inches, found {shorten(repr(d))}"
            )
    if out.from_manhole is not None and out.from_manhole == out.to_manhole:
        f.issue(ctx, "to", f"a pipe cannot run from manhole {out.from_manhole} to itself")
    if f.raw.implicit_line:
        for b in f.raw.bends:
            p = position(f, list(b), ctx, "a bend")
            if p is not None:
                out.bends.append(p)
        return out
    coords = geometry(f, ctx, "LineString")
    if coords is None:
        return out
    if not isinstance(coords, list) or len(coords) < 2:
        f.issue(ctx, "geometry", "a LineString needs at least two positions")
        return out
    points = [position(f, c, ctx, f"position {i}") for i, c in enumerate(coords)]
    if all(p is not None for p in points):
        out.coords = [p for p in points if p is not None]
    return out
