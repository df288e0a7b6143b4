"""The API's money actions on a violation (§ 196-22 B, C), answered by billing and mounted at
enforcement's addresses (``billing.api.PATHS``; the API's urls put them before the router's):

- ``POST /api/enforcement/violations/<id>/bill-costs/`` bills the Town's costs not yet billed
  on one invoice to the person responsible (§ 196-22 C; clerk, Superintendent, engineer); 409
  when every cost is billed.
- ``POST /api/enforcement/violations/<id>/collection/`` (``{"amount": "250", "collected_on":
  "2026-03-04", "collected_by": "court" | "town", "method": ..., "reference": ...,
  "judgment": <id, default the latest>}``) records money collected on the fine the court
  imposed: by the court, or by the Town (the clerk: a payment with its receipt, on the
  person's statement).

Each answers with the violation as ``GET /api/enforcement/violations/<id>/`` shows it (201)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.core.errors import InvalidInput
from sewer_office.enforcement.api.serializers import ViolationSerializer
from sewer_office.enforcement.api.violations import violation_answer, violations_for
from sewer_office.enforcement.choices import CollectedBy
from sewer_office.enforcement.models import Violation
from sewer_office.enforcement.money import require_judgment_recorder

from .enforcement import bill_costs, record_collection


class CollectionInput(serializers.Serializer[Any]):
    judgment = serializers.IntegerField(required=False, help_text="default: the latest judgment")
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    collected_on = serializers.DateField()
    collected_by = serializers.ChoiceField(choices=CollectedBy.choices)
    method = serializers.CharField(
        required=False, default="", help_text="collected by the Town: cash, check, card, transfer"
    )
    reference = serializers.CharField(required=False, default="")
    note = serializers.CharField(required=False, default="")


def _violation(request: Request, pk: int) -> Violation:
    """The violation if the user may see it, else 404 (as the violation's own endpoint)."""
    found: Violation = get_object_or_404(violations_for(request.user), pk=pk)
    return found


@extend_schema(request=None, responses={201: ViolationSerializer})
@api_view(["POST"])
def violation_bill_costs(request: Request, pk: int) -> Response:
    """Bill the Town's costs not yet billed on one invoice to the person responsible
    (§ 196-22 C; clerk, Superintendent, engineer). 409 when every cost is billed."""
    violation = _violation(request, pk)
    bill_costs(violation, request.user)
    return violation_answer(request, violation, status.HTTP_201_CREATED)


@extend_schema(request=CollectionInput, responses={201: ViolationSerializer})
@api_view(["POST"])
def violation_collection(request: Request, pk: int) -> Response:
    """Record money collected on the fine the court imposed: by the court, or by the Town
    (the clerk: a payment with its receipt, on the person's statement)."""
    violation = _violation(request, pk)
    require_judgment_recorder(request.user, "Recording a collection")
    body = CollectionInput(data=request.data)
    body.is_valid(raise_exception=True)
    d = dict(body.validated_data)
    judgments = violation.judgments.order_by("id")
    judgment = (
        judgments.filter(pk=d.pop("judgment")).first() if "judgment" in d else judgments.last()
    )
    if judgment is None:
        raise InvalidInput({"judgment": ["No judgment of this violation to collect on."]})
    record_collection(judgment, request.user, **d)
    return violation_answer(request, violation, status.HTTP_201_CREATED)
