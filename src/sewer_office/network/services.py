"""Services of the sewer network: import a GeoJSON network, load the active one, and find a
property's sampling point (§ 196-19 I). Tracing upstream is :mod:`.tracing`; the map's data
:mod:`.map_layer`.

The rules live in :mod:`sewer_rules.network`; this module stores what it validated (all or
nothing, with an audit event) and turns its parcels back into registry records.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass

from django.db import connection, transaction

from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.roles import ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, shorten
from sewer_office.registry.models import Property
from sewer_rules.hostile import TextRefused, utf8_text
from sewer_rules.network import (
    Network,
    NetworkError,
    NetworkFormatError,
    NetworkIssue,
    loads_geojson,
    sampling_point,
)

from .models import (
    BuildingConnection,
    Manhole,
    NetworkVersion,
    SamplingPointOverride,
    SewerPipe,
)

IMPORT_ROLES = (SUPERINTENDENT, ENGINEER)
CITATION = "§ 196-19 I"


class NetworkRefused(Blocked):
    """The file was read but is refused: ``issues`` lists every reason (nothing was stored)."""

    def __init__(self, issues: list[str]) -> None:
        n = len(issues)
        super().__init__(
            f"Network refused ({n} error{'s' if n != 1 else ''}): " + "; ".join(issues)
        )
        self.issues = issues


class NetworkUnusable(Blocked):
    """The file cannot be read as a network at all (not JSON, not a FeatureCollection...)."""

    status_code = 400


class UnknownManhole(Blocked):
    status_code = 404


def _parcel_issues(network: Network, known: set[str]) -> list[NetworkIssue]:
    issues = []
    for c in network.connections:
        if c.parcel not in known:
            issues.append(
                NetworkIssue(
                    c.source,
                    c.index,
                    "connection",
                    c.id,
                    "parcel",
                    f"no property with tax parcel id {c.parcel!r} in the registry",
                )
            )
    return issues


#: Parcels per query: SQLite bounds the number of parameters of one statement.
CHUNK = 500


def properties_of(parcels: list[str]) -> dict[str, Property]:
    props: dict[str, Property] = {}
    for i in range(0, len(parcels), CHUNK):
        props.update(
            {p.parcel_id: p for p in Property.objects.filter(parcel_id__in=parcels[i : i + CHUNK])}
        )
    return props


def import_network(
    geojson: str | bytes, actor: Actor | None, *, replace: bool = False, source_name: str = ""
) -> NetworkVersion:
    """Validate and store a network as the new active version (all or nothing).

    Refused (:class:`NetworkRefused`, every issue listed) when the file has errors, names
    parcels not in the registry, is identical to a stored version, or when an active network
    exists and ``replace`` is not given. :class:`NetworkUnusable` for an unreadable file —
    bytes that are not UTF-8 (a byte order mark is dropped), JSON nested too deeply — named
    by ``source_name``. ``actor`` None is the server's operator at the command line.
    """
    if actor is not None and not (
        has_role(actor, *IMPORT_ROLES) or getattr(actor, "is_superuser", False)
    ):
        raise Forbidden(
            "Importing the sewer network is reserved to the Superintendent or the engineer."
        )
    named = f" {shorten(source_name)}" if source_name else ""
    try:
        geojson_text = (
            utf8_text(geojson) if isinstance(geojson, bytes) else geojson.lstrip("\ufeff")
        )
        network = loads_geojson(geojson_text)
    except (NetworkFormatError, TextRefused) as e:
        raise NetworkUnusable(f"Unusable network file{named}: {e}") from None
    except NetworkError as e:
        raise NetworkRefused([str(i) for i in e.issues]) from None
    parcels = {c.parcel for c in network.connections}
    props = properties_of(sorted(parcels))
    missing = _parcel_issues(network, set(props))
    if missing:
        raise NetworkRefused([str(i) for i in missing])
    digest = hashlib.sha256(geojson_text.encode("utf-8")).hexdigest()
    with transaction.atomic():
        same = NetworkVersion.objects.filter(sha256=digest).first()
        if same is not None:
            raise NetworkRefused(
                [
                    f"this file was already imported as network #{same.pk} ({same.imported_at:%Y-%m-%d})"
                ]
            )
        current = NetworkVersion.objects.select_for_update().filter(active=True).first()
        if current is not None and not replace:
            raise NetworkRefused(
                [f"an active network exists (#{current.pk}): import with --replace to supersede it"]
            )
        if current is not None:
            current.active = False
            current.save(update_fields=["active"])
        version = NetworkVersion.objects.create(
            geojson=geojson_text,
            sha256=digest,
            source_name=source_name[:300],
            imported_by=person_or_none(actor),
            active=True,
            replaces=current,
            manhole_count=len(network.manholes),
            pipe_count=len(network.pipes),
            connection_count=len(network.connections),
        )
        mh = {
            m.ident: m
            for m in Manhole.objects.bulk_create(
                [
                    Manhole(
                        version=version,
                        ident=m.id,
                        public=m.public,
                        x=m.position[0],
                        y=m.position[1],
                    )
                    for m in network.manholes.values()
                ]
            )
        }
        if any(m.pk is None for m in mh.values()):  # backends without RETURNING
            mh = {m.ident: m for m in Manhole.objects.filter(version=version)}
        SewerPipe.objects.bulk_create(
            [
                SewerPipe(
                    version=version,
                    ident=p.id,
                    from_manhole=mh[p.from_manhole],
                    to_manhole=mh[p.to_manhole],
                    diameter_in=p.diameter_in,
                    public=p.public,
                    length_m=p.length_m,
                )
                for p in network.pipes.values()
            ]
        )
        pipes = {p.ident: p for p in SewerPipe.objects.filter(version=version)}
        BuildingConnection.objects.bulk_create(
            [
                BuildingConnection(
                    version=version,
                    property=props[c.parcel],
                    pipe=pipes[c.pipe] if c.pipe else None,
                    manhole=mh[c.manhole] if c.manhole else None,
                    position=i,
                )
                for i, c in enumerate(network.connections)
            ]
        )
        if current is not None:
            audit.record(
                actor=actor,
                action="supersede_network",
                obj=current,
                before={"active": True},
                after={"active": False},
                reason=f"replaced by network #{version.pk}",
            )
        audit.record(
            actor=actor,
            action="import_network",
            obj=version,
            after={
                "sha256": digest,
                "source_name": version.source_name,
                "manholes": version.manhole_count,
                "pipes": version.pipe_count,
                "connections": version.connection_count,
                "replaces": current.pk if current else None,
            },
            reason=f"replace #{current.pk}" if current else "",
        )
        # The network just parsed is the active one once committed: keep it, so that the first
        # trace in this process does not parse the file again.
        transaction.on_commit(lambda: _remember(version, network))
    return version


def _remember(version: NetworkVersion, network: Network) -> None:
    with _lock:
        _cache.clear()
        _cache[(version.pk, version.sha256)] = network


def warm_network_cache() -> None:
    """Load the active network in the background when a server process starts (each worker
    parses it once; 50,000 manholes take seconds), so that no user waits for it."""

    def load() -> None:
        try:
            active_network()
        except Exception:  # a cold cache is only slower: the first trace loads it
            logging.getLogger(__name__).exception("could not preload the sewer network")
        finally:
            connection.close()

    threading.Thread(target=load, name="warm-network", daemon=True).start()


_cache: dict[tuple[int, str], Network] = {}
_lock = threading.Lock()


def network_of(version: NetworkVersion) -> Network:
    """The :class:`Network` of a stored version (cached by version id: versions never change)."""
    key = (version.pk, version.sha256)
    with _lock:
        net = _cache.get(key)
    if net is None:
        net = loads_geojson(version.geojson)
        with _lock:
            _cache.clear()  # keep one network in memory: the active one
            _cache[key] = net
    return net


def active_version() -> NetworkVersion | None:
    return NetworkVersion.objects.filter(active=True).defer("geojson").first()


def active_network() -> tuple[NetworkVersion, Network] | None:
    """The active version and its network, or None when no network was imported."""
    version = active_version()
    if version is None:
        return None
    with _lock:
        net = _cache.get((version.pk, version.sha256))
    if net is None:
        version = NetworkVersion.objects.get(pk=version.pk)
        net = network_of(version)
    return version, net


def require_active() -> tuple[NetworkVersion, Network]:
    found = active_network()
    if found is None:
        raise Blocked("No sewer network has been imported yet (sewer-use import-network).")
    return found


@dataclass(frozen=True)
class PropertySampling:
    manhole: str | None
    basis: str
    message: str
    citation: str
    override_reason: str = ""


def property_sampling_points(prop: Property) -> list[PropertySampling]:
    """Where the property's wastes are sampled (§ 196-19 I): the control manhole recorded by
    the Superintendent (§ 196-19 H), else the nearest downstream public manhole of each of its
    connections in the active network. Empty when it has no connection in the network."""
    found = active_network()
    if found is None:
        return []
    _, net = found
    override = SamplingPointOverride.objects.filter(property=prop).first()
    control = override.manhole if override else None
    points = []
    for i, c in enumerate(net.connections):
        if c.parcel != prop.parcel_id:
            continue
        sp = sampling_point(net, i, control_manhole=control)
        points.append(
            PropertySampling(
                sp.manhole, sp.basis, sp.message, sp.citation, override.reason if override else ""
            )
        )
        if control:
            break
    return points


def override_sampling_point(
    prop: Property, manhole: str, reason: str, actor: Actor
) -> SamplingPointOverride:
    """Record the property's control manhole (§ 196-19 H) as its sampling point, with a reason."""
    if not has_role(actor, SUPERINTENDENT):
        raise Forbidden("The control manhole is required by the Superintendent (§ 196-19 H).")
    if not manhole.strip() or not reason.strip():
        raise Blocked("Name the control manhole and the reason for it.")
    with transaction.atomic():
        row = SamplingPointOverride.objects.create(
            property=prop,
            manhole=manhole.strip(),
            reason=reason.strip(),
            recorded_by=person_or_none(actor),
        )
        audit.record(
            actor=actor,
            action="override_sampling_point",
            obj=prop,
            after={"control_manhole": row.manhole},
            reason=row.reason,
            citation="§ 196-19 H",
        )
    return row
