"""The filter of the message log, shared by ``/mail/messages/`` and ``/api/mail/messages/``."""

from __future__ import annotations

import django_filters

from .choices import MessageStatus, Topic
from .models import SentMessage


class MessageFilter(django_filters.FilterSet):
    topic = django_filters.ChoiceFilter(choices=Topic.choices)
    status = django_filters.ChoiceFilter(choices=MessageStatus.choices)
    to = django_filters.CharFilter(field_name="to", lookup_expr="icontains", label="To")
    sent_from = django_filters.DateFilter(field_name="sent_at", lookup_expr="date__gte")
    sent_to = django_filters.DateFilter(field_name="sent_at", lookup_expr="date__lte")

    class Meta:
        model = SentMessage
        fields = ("topic", "status", "legal")
