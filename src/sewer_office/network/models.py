"""The sewer network: imported versions, manholes, pipes, building-sewer
connections, and the Superintendent's sampling-point overrides (§ 196-19 H, I).

A :class:`NetworkVersion` holds the GeoJSON text as imported; its manholes, pipes and
connections are rows for lookup and reporting. A version is never edited: a re-import with
``--replace`` makes a new active version and keeps the old one.

An app of its own above the registry (its connections and overrides point at properties):
the models moved out of ``registry`` with their tables (``registry_*``), by state-only
migrations. The network page keeps its URL and its name, ``registry:network``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.moments import local


class NetworkVersion(models.Model):
    geojson = models.TextField()
    sha256 = models.CharField(max_length=64, db_index=True)
    source_name = models.CharField(max_length=300, blank=True)
    imported_at = models.DateTimeField(default=timezone.now)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    active = models.BooleanField(default=False)
    replaces = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by"
    )
    manhole_count = models.PositiveIntegerField(default=0)
    pipe_count = models.PositiveIntegerField(default=0)
    connection_count = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "registry_networkversion"  # its table from when it was the registry's
        ordering = ("-imported_at", "-id")
        constraints = (
            models.UniqueConstraint(
                fields=["active"], condition=models.Q(active=True), name="one_active_network"
            ),
        )

    def __str__(self) -> str:
        return f"network #{self.pk} ({local(self.imported_at)})"


class Manhole(models.Model):
    version = models.ForeignKey(NetworkVersion, on_delete=models.CASCADE, related_name="manholes")
    ident = models.CharField(max_length=60)
    public = models.BooleanField(default=True)
    x = models.FloatField(help_text="longitude (WGS 84) or easting in the file's CRS")
    y = models.FloatField(help_text="latitude (WGS 84) or northing in the file's CRS")

    class Meta:
        db_table = "registry_manhole"  # its table from when it was the registry's
        ordering = ("version", "ident")
        constraints = (
            models.UniqueConstraint(fields=["version", "ident"], name="manhole_ident_per_version"),
        )

    def __str__(self) -> str:
        return self.ident


class SewerPipe(models.Model):
    """A sewer main; flow runs from ``from_manhole`` to ``to_manhole``."""

    version = models.ForeignKey(NetworkVersion, on_delete=models.CASCADE, related_name="pipes")
    ident = models.CharField(max_length=60)
    from_manhole = models.ForeignKey(Manhole, on_delete=models.CASCADE, related_name="+")
    to_manhole = models.ForeignKey(Manhole, on_delete=models.CASCADE, related_name="+")
    diameter_in = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    public = models.BooleanField(default=True)
    length_m = models.FloatField()

    class Meta:
        db_table = "registry_sewerpipe"  # its table from when it was the registry's
        ordering = ("version", "ident")
        constraints = (
            models.UniqueConstraint(fields=["version", "ident"], name="pipe_ident_per_version"),
        )

    def __str__(self) -> str:
        return self.ident


class BuildingConnection(models.Model):
    """A building sewer's connection to a main (``pipe``) or at a ``manhole``."""

    version = models.ForeignKey(
        NetworkVersion, on_delete=models.CASCADE, related_name="connections"
    )
    property = models.ForeignKey(
        "registry.Property", on_delete=models.PROTECT, related_name="network_connections"
    )
    pipe = models.ForeignKey(SewerPipe, null=True, blank=True, on_delete=models.CASCADE)
    manhole = models.ForeignKey(Manhole, null=True, blank=True, on_delete=models.CASCADE)
    position = models.PositiveIntegerField(help_text="index of the connection in the network")

    ACCESS_PATHS = ("property__owner",)

    class Meta:
        db_table = "registry_buildingconnection"  # its table from when it was the registry's
        ordering = ("version", "position")

    def __str__(self) -> str:
        at = f"pipe {self.pipe}" if self.pipe_id else f"manhole {self.manhole}"
        return f"{self.property.parcel_id} at {at}"


class SamplingPointOverride(models.Model):
    """The Superintendent's control manhole for a property (§ 196-19 H), which § 196-19 I
    makes its sampling point; superseded by a newer row, never edited."""

    property = models.ForeignKey(
        "registry.Property", on_delete=models.PROTECT, related_name="sampling_overrides"
    )
    manhole = models.CharField(max_length=60)
    reason = models.TextField()
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    ACCESS_PATHS = ("property__owner",)

    class Meta:
        db_table = "registry_samplingpointoverride"  # its table from when it was the registry's
        ordering = ("property", "-recorded_at", "-id")

    def __str__(self) -> str:
        return f"{self.property.parcel_id}: control manhole {self.manhole}"
