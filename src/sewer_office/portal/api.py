"""API of the portal, under ``/api/portal/links/``: read only. An outside user sees their own
link requests (with the state and, when refused, why); staff every request."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern
from rest_framework import serializers, viewsets

from .access import visible_links
from .filters import LinkFilter
from .models import LinkRequest


class LinkSerializer(serializers.ModelSerializer[LinkRequest]):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = LinkRequest
        fields = (
            "id",
            "username",
            "relation",
            "person_name",
            "place",
            "note",
            "state",
            "person",
            "decided_at",
            "reason",
            "created_at",
        )


class LinkViewSet(viewsets.ReadOnlyModelViewSet[LinkRequest]):
    """Requests to act for a person, newest first."""

    serializer_class = LinkSerializer
    filterset_class = LinkFilter

    def get_queryset(self) -> Any:
        return visible_links(self.request.user)


ROUTES: list[tuple[str, Any, str]] = [("portal/links", LinkViewSet, "portal-link")]
PATHS: list[URLPattern] = []
