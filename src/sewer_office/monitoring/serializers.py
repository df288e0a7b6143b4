"""API representations of sampling, results and findings (read side)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sewer_office.accounts.access import visible
from sewer_office.findings.models import Finding
from sewer_office.registry.models import Establishment

from .choices import Sampler
from .models import DischargeLimit, LabImport, LabResult, SamplingEvent, SamplingPoint


class SamplingPointSerializer(serializers.ModelSerializer[SamplingPoint]):
    facility = serializers.CharField(source="establishment.code", read_only=True)

    class Meta:
        model = SamplingPoint
        fields = (
            "id",
            "establishment",
            "facility",
            "code",
            "manhole",
            "basis",
            "description",
            "active",
            "sampling_interval_days",
        )


class DischargeLimitSerializer(serializers.ModelSerializer[DischargeLimit]):
    facility = serializers.CharField(source="establishment.code", read_only=True)
    permit_id = serializers.CharField(read_only=True)

    class Meta:
        model = DischargeLimit
        fields = (
            "id",
            "establishment",
            "facility",
            "approval",
            "permit_id",
            "parameter",
            "limit_type",
            "value",
            "unit",
            "effective_from",
            "effective_to",
            "citation",
        )
        read_only_fields = ("id",)


class FindingSerializer(serializers.ModelSerializer[Finding]):
    facility = serializers.CharField(source="establishment.code", read_only=True, default="")

    class Meta:
        model = Finding
        fields = (
            "id",
            "establishment",
            "facility",
            "kind",
            "result",
            "status",
            "citation",
            "limit",
            "limit_unit",
            "message",
            "parameter",
            "effective",
            "parameters_version",
            "analyte",
            "observed_at",
            "month",
            "current",
            "review",
            "reviewed_at",
            "review_note",
        )


class SamplingEventSerializer(serializers.ModelSerializer[SamplingEvent]):
    facility = serializers.CharField(source="establishment.code", read_only=True)
    sampling_point_code = serializers.CharField(
        source="sampling_point.code", read_only=True, default=""
    )

    class Meta:
        model = SamplingEvent
        fields = (
            "id",
            "establishment",
            "facility",
            "sampling_point",
            "sampling_point_code",
            "sample_id",
            "sample_type",
            "collected_at",
            "collected_by",
            "relinquished_at",
            "relinquished_by",
            "received_at",
            "received_by",
            "laboratory",
            "sampler",
            "lab_import",
        )
        read_only_fields = ("id", "lab_import")
        # The service refuses a sample recorded twice, after its permission check: the
        # serializer's own unique-together check ran first and told an outside user whether
        # another facility's sample id existed.
        validators = ()

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        request = self.context.get("request")
        if request is not None:
            # only the facilities (and their points) the user reports for: another's id is
            # answered as a missing one
            user = request.user
            # (PrimaryKeyRelatedFields; the stubs type ``queryset`` as a manager descriptor)
            establishment: Any = fields["establishment"]
            point: Any = fields["sampling_point"]
            establishment.queryset = visible(Establishment.objects.all(), user)
            point.queryset = visible(SamplingPoint.objects.all(), user)
        return fields


class LabResultSerializer(serializers.ModelSerializer[LabResult]):
    facility = serializers.CharField(source="establishment.code", read_only=True)
    sample_id = serializers.CharField(source="event.sample_id", read_only=True)
    superseded_by = serializers.SerializerMethodField()

    class Meta:
        model = LabResult
        fields: tuple[str, ...] = (
            "id",
            "establishment",
            "facility",
            "event",
            "sample_id",
            "lab_import",
            "row",
            "sampled_at",
            "parameter",
            "value_text",
            "unit",
            "qualifier",
            "reporting_limit",
            "method",
            "analyzed_at",
            "status",
            "state",
            "supersedes",
            "superseded_by",
            "correction_reason",
            "approved_at",
        )

    def get_superseded_by(self, obj: LabResult) -> int | None:
        later = next(iter(obj.corrections.all()), None)
        return later.pk if later is not None else None


class LabResultDetailSerializer(LabResultSerializer):
    findings = FindingSerializer(many=True, read_only=True)

    class Meta(LabResultSerializer.Meta):
        fields = (*LabResultSerializer.Meta.fields, "findings")


class LabImportSerializer(serializers.ModelSerializer[LabImport]):
    imported_by = serializers.CharField(source="imported_by.username", default=None)

    class Meta:
        model = LabImport
        fields = (
            "id",
            "source",
            "source_name",
            "sha256",
            "imported_at",
            "imported_by",
            "jurisdiction",
            "parameters_version",
            "result_count",
            "finding_count",
            "establishment",
        )


class UploadSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(allow_empty_file=True)  # refused by the import, naming it
    dry_run = serializers.BooleanField(default=False)
    #: Who took the samples whose row names no sampler (a facility's own upload: the user's).
    sampler = serializers.ChoiceField(choices=Sampler.choices, default=Sampler.UNKNOWN)


class CorrectionSerializer(serializers.Serializer[Any]):
    value = serializers.CharField(max_length=40)
    unit = serializers.CharField(max_length=20)
    qualifier = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")
    reporting_limit = serializers.CharField(
        max_length=40, required=False, allow_blank=True, default=""
    )
    reason = serializers.CharField()


class ReviewSerializer(serializers.Serializer[Any]):
    review = serializers.ChoiceField(choices=["acknowledged", "closed"])
    note = serializers.CharField(required=False, allow_blank=True, default="")


class OpinionSerializer(serializers.Serializer[Any]):
    """The engineer's/Superintendent's opinion on a finding under review (§ 196-19 D)."""

    harm_likely = serializers.BooleanField()
    reasons = serializers.CharField(allow_blank=True)


class ApproveSerializer(serializers.Serializer[Any]):
    note = serializers.CharField(required=False, allow_blank=True, default="")
