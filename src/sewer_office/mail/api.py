"""API of the message log, under ``/api/mail/messages/``: read only. An outside user sees the
messages sent to their own account, staff every message (``?topic=``, ``?status=``, ...)."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern
from rest_framework import serializers, viewsets

from .access import visible_messages
from .filters import MessageFilter
from .models import SentMessage


class MessageSerializer(serializers.ModelSerializer[SentMessage]):
    about_type = serializers.SerializerMethodField()

    class Meta:
        model = SentMessage
        fields = (
            "id",
            "sent_at",
            "to",
            "subject",
            "body",
            "topic",
            "status",
            "legal",
            "key",
            "about_type",
            "about_id",
            "about_label",
            "error",
        )

    def get_about_type(self, obj: SentMessage) -> str | None:
        """The kind of record the message is about (e.g. ``reportdue``), or null."""
        return obj.about_type.model if obj.about_type else None


class MessageViewSet(viewsets.ReadOnlyModelViewSet[SentMessage]):
    """Messages the office sent (or withheld, or failed to send), newest first."""

    serializer_class = MessageSerializer
    filterset_class = MessageFilter

    def get_queryset(self) -> Any:
        return visible_messages(self.request.user).order_by("-sent_at", "-id")


ROUTES: list[tuple[str, Any, str]] = [("mail/messages", MessageViewSet, "mail-message")]
PATHS: list[URLPattern] = []
