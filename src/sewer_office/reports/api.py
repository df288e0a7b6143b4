"""API of the signed reports, under ``/api/reports/``: read only — each report version with its
hashes, signature and review (an outside user: their facility's; staff: all)."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern
from rest_framework import serializers, viewsets

from sewer_office.accounts.access import visible

from .filters import ReportFilter
from .models import Report


class ReportSerializer(serializers.ModelSerializer[Report]):
    signed_by = serializers.SerializerMethodField()
    signed_at = serializers.SerializerMethodField()
    decision = serializers.SerializerMethodField()

    class Meta:
        model = Report
        fields = (
            "id",
            "due",
            "establishment",
            "version",
            "period_start",
            "period_end",
            "data_sha256",
            "pdf_sha256",
            "digest",
            "assembled_at",
            "signed_by",
            "signed_at",
            "decision",
        )

    def get_signed_by(self, obj: Report) -> str | None:
        """The signer's user name, or null while unsigned."""
        sig = getattr(obj, "signature", None)
        return sig.user.get_username() if sig else None

    def get_signed_at(self, obj: Report) -> str | None:
        """When it was signed (ISO 8601), or null."""
        sig = getattr(obj, "signature", None)
        return sig.signed_at.isoformat() if sig else None

    def get_decision(self, obj: Report) -> str | None:
        """``accepted`` or ``rejected`` once reviewed, else null."""
        rev = getattr(obj, "review", None)
        return rev.decision if rev else None


class ReportViewSet(viewsets.ReadOnlyModelViewSet[Report]):
    """Report versions, newest first."""

    serializer_class = ReportSerializer
    filterset_class = ReportFilter

    def get_queryset(self) -> Any:
        return visible(
            Report.objects.select_related("signature__user", "review").defer("pdf", "data"),
            self.request.user,
        )


ROUTES: list[tuple[str, Any, str]] = [("reports", ReportViewSet, "report")]
PATHS: list[URLPattern] = []
