"""The filter of the link requests (the staff queue and ``/api/portal/links/``)."""

from __future__ import annotations

import django_filters

from .choices import LinkState, Relation
from .models import LinkRequest


class LinkFilter(django_filters.FilterSet):
    state = django_filters.ChoiceFilter(choices=LinkState.choices)
    relation = django_filters.ChoiceFilter(choices=Relation.choices)
    name = django_filters.CharFilter(
        field_name="person_name", lookup_expr="icontains", label="Acting for"
    )

    class Meta:
        model = LinkRequest
        fields = ("state", "relation")
