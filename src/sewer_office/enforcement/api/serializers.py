"""How the enforcement API writes a violation and what hangs from it: its notices,
corrections, costs, referrals, judgments and collections, with the fines the rule counts
(:func:`~sewer_office.enforcement.liability.fines`, the same as ``sewer-use fines``) and the
invoices billing adds through the ``violation_data`` hook (:mod:`core.panels`). Billing's
actions on a violation answer with :class:`ViolationSerializer` too."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from sewer_office.core.panels import violation_data
from sewer_office.enforcement import grounds, liability
from sewer_office.enforcement.models import (
    Collection,
    Correction,
    Cost,
    Judgment,
    Notice,
    Petition,
    Referral,
    Violation,
)
from sewer_office.enforcement.workflow import WORKFLOW


class NoticeSerializer(serializers.ModelSerializer[Notice]):
    superseded = serializers.SerializerMethodField()
    service_text = serializers.CharField(read_only=True)
    letter = serializers.SerializerMethodField()

    class Meta:
        model = Notice
        fields = (
            "id",
            "number",
            "violation",
            "response",
            "response_label",
            "citation",
            "nature",
            "section",
            "correction_clock",
            "period_days",
            "issued_on",
            "issued_at",
            "daily_amount",
            "daily_amount_effective",
            "daily_amount_authority",
            "supersedes",
            "supersede_reason",
            "superseded",
            "served_on",
            "service_method",
            "receipt_number",
            "mailed_on",
            "delivered_on",
            "delivery_proof",
            "service_text",
            "email_consent",
            "nominal_deadline",
            "deadline",
            "deadline_basis",
            "letter",
        )

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_superseded(self, obj: Notice) -> bool:
        return hasattr(obj, "superseded_by")

    def get_letter(self, obj: Notice) -> str:
        return reverse("enforcement:notice-pdf", args=[obj.pk])


class CorrectionSerializer(serializers.ModelSerializer[Correction]):
    gap_days = serializers.IntegerField(read_only=True, allow_null=True)

    class Meta:
        model = Correction
        fields = (
            "id",
            "notice",
            "reported_on",
            "description",
            "verified_on",
            "ceased_on",
            "rejected_on",
            "inspection",
            "decision_note",
            "gap_days",
        )


class CostSerializer(serializers.ModelSerializer[Cost]):
    class Meta:
        model = Cost
        fields = ("id", "category", "description", "hours", "amount", "incurred_on")


class PetitionSerializer(serializers.ModelSerializer[Petition]):
    """A petition against an order of the town's own ladder, its window and its decision."""

    class Meta:
        model = Petition
        fields = (
            "id",
            "order",
            "asks",
            "grounds",
            "received_on",
            "due_on",
            "timely",
            "citation",
            "decision",
            "decided_on",
            "decision_note",
        )


class ReferralSerializer(serializers.ModelSerializer[Referral]):
    letter = serializers.SerializerMethodField()

    class Meta:
        model = Referral
        fields = (
            "id",
            "kind",
            "response",
            "citation",
            "referred_on",
            "referred_to",
            "note",
            "computation",
            "letter",
        )

    def get_letter(self, obj: Referral) -> str:
        """The referral as made (PDF; staff only)."""
        return reverse("enforcement:referral-pdf", args=[obj.pk])


class CollectionSerializer(serializers.ModelSerializer[Collection]):
    receipt_number = serializers.CharField(
        source="payment.receipt_number", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = Collection
        fields = (
            "id",
            "amount",
            "collected_on",
            "collected_by",
            "reference",
            "payment",
            "receipt_number",
            "note",
        )


class JudgmentSerializer(serializers.ModelSerializer[Judgment]):
    collections = CollectionSerializer(many=True, read_only=True)

    class Meta:
        model = Judgment
        fields = (
            "id",
            "referral",
            "court",
            "docket",
            "judgment_on",
            "fine_amount",
            "note",
            "collections",
        )


class ViolationSerializer(serializers.ModelSerializer[Violation]):
    number = serializers.CharField(read_only=True)
    state_label = serializers.CharField(read_only=True)
    person_name = serializers.CharField(source="person.name", read_only=True)
    notices = NoticeSerializer(many=True, read_only=True)
    corrections = CorrectionSerializer(many=True, read_only=True)
    costs = CostSerializer(many=True, read_only=True)
    referrals = ReferralSerializer(many=True, read_only=True)
    judgments = JudgmentSerializer(many=True, read_only=True)
    petitions = PetitionSerializer(many=True, read_only=True)
    #: the invoices and credit notes billing the violation's costs or a fine the Town collects
    invoices = serializers.SerializerMethodField()
    fines = serializers.SerializerMethodField()
    available_actions = serializers.SerializerMethodField()
    #: recorded before the rule of grounds and refused by it now (null when not)
    would_now_be_refused = serializers.SerializerMethodField()

    class Meta:
        model = Violation
        fields = (
            "id",
            "number",
            "kind",
            "section",
            "description",
            "state",
            "state_label",
            "person",
            "person_name",
            "establishment",
            "property",
            "finding",
            "evidence",
            "observed_on",
            "opened_at",
            "notices",
            "corrections",
            "costs",
            "referrals",
            "judgments",
            "petitions",
            "invoices",
            "fines",
            "available_actions",
            "would_now_be_refused",
        )

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_would_now_be_refused(self, obj: Violation) -> str | None:
        return grounds.refusal_of(obj)

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_fines(self, obj: Violation) -> dict[str, Any]:
        f = liability.fines(obj, timezone.localdate())
        out: dict[str, Any] = {
            "message": f.message,
            "subject_to_conviction": True,
            "total": None if f.total is None else str(f.total),
            "unconfigured": f.unconfigured,
        }
        if f.computation is not None:
            d = f.computation.as_dict()
            keys = (
                "served",
                "deadline",
                "corrected",
                "verified",
                "notices",
                "deadline_in_force",
                "state",
                "days",
                "periods",
                "daily",
                "citations",
            )
            out.update({k: d[k] for k in keys})
        return out

    @extend_schema_field({"type": "array", "items": {"type": "object"}})
    def get_invoices(self, obj: Violation) -> list[dict[str, Any]]:
        """The invoices and credit notes billing its costs or fine (billing's hook): id,
        number, kind, bills (costs / fine), issued_on, total, outstanding, status."""
        found: list[dict[str, Any]] = violation_data(self.context.get("request"), obj).get(
            "invoices", []
        )
        return found

    @extend_schema_field({"type": "array", "items": {"type": "string"}})
    def get_available_actions(self, obj: Violation) -> list[str]:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        return [t.name for t in WORKFLOW.available(user, obj)]
