"""The violations and notices of the enforcement API: the list (the web list's filters, one
filterset), opening a violation, and the actions on it — issue, serve, record-delivery,
report-correction, verify, reject-correction, escalate, refer, refer-fine, supersede,
dismiss, cost, the court's judgment (§ 196-22 B), and a petition against an order of a town's
own ladder and its decision — through the same services and workflow
as the pages; a notice's letter and certificate of service. A refusal answers with the
services' message (400 invalid, 403 reserved, 409 not now / blocked)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.api.forms import form_data
from sewer_office.core.errors import InvalidInput
from sewer_office.core.letters import bytes_response, pdf_response
from sewer_office.core.services import perform
from sewer_office.enforcement import letters, money, petitions, services
from sewer_office.enforcement.api.serializers import NoticeSerializer, ViolationSerializer
from sewer_office.enforcement.choices import (
    CostCategory,
    DeliveryProof,
    PetitionAsks,
    PetitionDecision,
    ReferralKind,
    ServiceMethod,
)
from sewer_office.enforcement.filters import ViolationFilter
from sewer_office.enforcement.models import (
    Finding,
    Notice,
    Violation,
)
from sewer_office.enforcement.queries import violations
from sewer_office.registry.models import Establishment, Person, Property


class OpenSerializer(serializers.Serializer[Any]):
    """Open by hand (kind, section, ...), or from a finding (``finding`` alone)."""

    finding = serializers.IntegerField(required=False)
    kind = serializers.CharField(required=False, default="")
    section = serializers.CharField(required=False, default="")
    description = serializers.CharField(required=False, default="")
    person = serializers.PrimaryKeyRelatedField(
        queryset=Person.objects.all(), required=False, allow_null=True
    )
    establishment = serializers.PrimaryKeyRelatedField(
        queryset=Establishment.objects.all(), required=False, allow_null=True
    )
    property = serializers.PrimaryKeyRelatedField(
        queryset=Property.objects.all(), required=False, allow_null=True
    )
    observed_on = serializers.DateField(required=False, allow_null=True)


class IssueInput(serializers.Serializer[Any]):
    nature = serializers.CharField(required=False)
    period_days = serializers.IntegerField(required=False)
    reason = serializers.CharField(required=False)


class ServeInput(serializers.Serializer[Any]):
    #: personal or e-mail: the day delivered or sent (service complete); certified mail: the
    #: day mailed — the notice is served on the delivery recorded by ``record-delivery``
    served_on = serializers.DateField(
        help_text="personal/e-mail: the day delivered or sent; certified mail: the day mailed"
    )
    service_method = serializers.ChoiceField(choices=ServiceMethod.choices)
    receipt_number = serializers.CharField(required=False)
    email_address = serializers.CharField(required=False)
    email_consent = serializers.BooleanField(required=False)


class DeliveryInput(serializers.Serializer[Any]):
    delivered_on = serializers.DateField()
    delivery_proof = serializers.ChoiceField(choices=DeliveryProof.choices)


class CorrectionInput(serializers.Serializer[Any]):
    reported_on = serializers.DateField()
    description = serializers.CharField()


class VerifyInput(serializers.Serializer[Any]):
    verified_on = serializers.DateField()
    ceased_on = serializers.DateField(required=False)
    inspection = serializers.IntegerField(required=False)
    note = serializers.CharField(required=False)


class RejectInput(serializers.Serializer[Any]):
    rejected_on = serializers.DateField()
    reason = serializers.CharField()


class EscalateInput(serializers.Serializer[Any]):
    nature = serializers.CharField(required=False)
    period_days = serializers.IntegerField(required=False)
    referred_to = serializers.CharField(required=False)
    reason = serializers.CharField(required=False)


class ReferInput(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=ReferralKind.choices)
    referred_to = serializers.CharField(required=False)
    note = serializers.CharField(required=False)
    reason = serializers.CharField(required=False)


class ReferFineInput(serializers.Serializer[Any]):
    referred_to = serializers.CharField(required=False)
    note = serializers.CharField(required=False)
    reason = serializers.CharField(required=False)


class ReasonInput(serializers.Serializer[Any]):
    reason = serializers.CharField()


class CostInput(serializers.Serializer[Any]):
    category = serializers.ChoiceField(choices=CostCategory.choices)
    description = serializers.CharField()
    hours = serializers.DecimalField(max_digits=8, decimal_places=2, required=False)
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    incurred_on = serializers.DateField()


class JudgmentInput(serializers.Serializer[Any]):
    referral = serializers.IntegerField(
        required=False, help_text="the referral for prosecution (default: the latest undecided)"
    )
    court = serializers.CharField()
    docket = serializers.CharField()
    judgment_on = serializers.DateField()
    fine_amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    note = serializers.CharField(required=False, default="")


class PetitionInput(serializers.Serializer[Any]):
    asks = serializers.ChoiceField(choices=PetitionAsks.choices)
    grounds = serializers.CharField()
    received_on = serializers.DateField()


class DecisionInput(serializers.Serializer[Any]):
    petition = serializers.IntegerField()
    decision = serializers.ChoiceField(choices=PetitionDecision.choices)
    decided_on = serializers.DateField()
    note = serializers.CharField()


def violations_for(user: Actor) -> Any:
    """The violations ``user`` may see, with what their API record reads."""
    return services.visible_violations(violations(), user).prefetch_related(
        "notices__superseded_by",
        "corrections",
        "costs",
        "referrals",
        "evidence",
        "judgments__collections__payment",
        "petitions",
    )


def violation_answer(request: Request, violation: Violation, code: int = 200) -> Response:
    """The violation as it now is: the answer of every action on it (here and billing's)."""
    fresh = violations_for(request.user).get(pk=violation.pk)
    return Response(ViolationSerializer(fresh, context={"request": request}).data, status=code)


class ViolationViewSet(viewsets.ReadOnlyModelViewSet[Violation]):
    """Violations (§ 196-22); outside users see their own, once a notice is issued."""

    serializer_class = ViolationSerializer
    filterset_class = ViolationFilter

    def get_queryset(self) -> Any:
        return violations_for(self.request.user)

    def _done(self, violation: Violation, code: int = status.HTTP_200_OK) -> Response:
        return violation_answer(self.request, violation, code)

    def _act(self, request: Request, name: str) -> Response:
        violation = self.get_object()
        data = form_data(request.data)
        done = perform(violation, name, request.user, data, reason=str(data.get("reason") or ""))
        return self._done(done)

    @extend_schema(request=OpenSerializer, responses={201: ViolationSerializer})
    def create(self, request: Request) -> Response:
        """Open a violation (Superintendent, engineer, Building Inspector)."""
        body = OpenSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        if d.get("finding"):
            finding = Finding.objects.filter(pk=d["finding"]).first()
            if finding is None:
                raise InvalidInput({"finding": ["No such finding."]})
            v = services.open_from_finding(
                request.user,
                finding,
                person=d.get("person"),
                kind=d["kind"],
                section=d["section"],
                description=d["description"],
            )
        else:
            d.pop("finding", None)
            # person is optional in the body: the service names it when missing (400, not 500)
            v = services.open_violation(request.user, person=d.pop("person", None), **d)
        return self._done(v, status.HTTP_201_CREATED)

    @extend_schema(request=IssueInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"])
    def issue(self, request: Request, pk: str | None = None) -> Response:
        """Issue the guide's first response (Superintendent, § 196-22 A)."""
        return self._act(request, "issue_notice")

    @extend_schema(request=ServeInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"])
    def serve(self, request: Request, pk: str | None = None) -> Response:
        """Record service of the current notice (clerk, Superintendent)."""
        return self._act(request, "serve")

    @extend_schema(request=DeliveryInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"], url_path="record-delivery")
    def record_delivery(self, request: Request, pk: str | None = None) -> Response:
        """Record the delivery of a notice mailed by certified mail: the day on the return
        receipt (or the carrier's record); service completes that day (§ 196-22 A)."""
        return self._act(request, "record_delivery")

    @extend_schema(request=CorrectionInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"], url_path="report-correction")
    def report_correction(self, request: Request, pk: str | None = None) -> Response:
        return self._act(request, "report_correction")

    @extend_schema(request=VerifyInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"])
    def verify(self, request: Request, pk: str | None = None) -> Response:
        return self._act(request, "verify")

    @extend_schema(request=RejectInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"], url_path="reject-correction")
    def reject_correction(self, request: Request, pk: str | None = None) -> Response:
        return self._act(request, "reject_correction")

    @extend_schema(request=EscalateInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"])
    def escalate(self, request: Request, pk: str | None = None) -> Response:
        return self._act(request, "escalate")

    @extend_schema(request=ReferInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"])
    def refer(self, request: Request, pk: str | None = None) -> Response:
        return self._act(request, "refer")

    @extend_schema(request=ReferFineInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"], url_path="refer-fine")
    def refer_fine(self, request: Request, pk: str | None = None) -> Response:
        return self._act(request, "refer_fine")

    @extend_schema(request=IssueInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"])
    def supersede(self, request: Request, pk: str | None = None) -> Response:
        return self._act(request, "supersede_notice")

    @extend_schema(request=ReasonInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"])
    def dismiss(self, request: Request, pk: str | None = None) -> Response:
        return self._act(request, "dismiss")

    @extend_schema(request=CostInput, responses={201: ViolationSerializer})
    @action(detail=True, methods=["post"])
    def cost(self, request: Request, pk: str | None = None) -> Response:
        """Record an item of the Town's costs (§ 196-22 C)."""
        violation = self.get_object()
        services.require_cost_recorder(request.user)
        body = CostInput(data=request.data)
        body.is_valid(raise_exception=True)
        services.record_cost(violation, request.user, **body.validated_data)
        return self._done(violation, status.HTTP_201_CREATED)

    @extend_schema(request=JudgmentInput, responses={201: ViolationSerializer})
    @action(detail=True, methods=["post"])
    def judgment(self, request: Request, pk: str | None = None) -> Response:
        """Record the court's judgment on the referral for prosecution (§ 196-22 B;
        Superintendent, clerk)."""
        violation = self.get_object()
        money.require_judgment_recorder(request.user, "Recording a judgment")
        body = JudgmentInput(data=request.data)
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        referral = None
        if "referral" in d:
            referral = violation.referrals.filter(pk=d.pop("referral")).first()
            if referral is None:
                raise InvalidInput({"referral": ["No such referral of this violation."]})
        money.record_judgment(violation, request.user, referral=referral, **d)
        return self._done(violation, status.HTTP_201_CREATED)

    @extend_schema(request=PetitionInput, responses={201: ViolationSerializer})
    @action(detail=True, methods=["post"])
    def petition(self, request: Request, pk: str | None = None) -> Response:
        """Record a petition received against the violation's order, where its town's law
        allows one (clerk, Superintendent); its window is computed and kept."""
        violation = self.get_object()
        body = PetitionInput(data=request.data)
        body.is_valid(raise_exception=True)
        petitions.record_petition(violation, request.user, **body.validated_data)
        return self._done(violation, status.HTTP_201_CREATED)

    @extend_schema(request=DecisionInput, responses=ViolationSerializer)
    @action(detail=True, methods=["post"], url_path="petition-decision")
    def petition_decision(self, request: Request, pk: str | None = None) -> Response:
        """Record the decision on a petition of the violation, once (Superintendent)."""
        violation = self.get_object()
        body = DecisionInput(data=request.data)
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        petition = violation.petitions.filter(pk=d.pop("petition")).first()
        if petition is None:
            raise InvalidInput({"petition": ["No such petition of this violation."]})
        petitions.decide_petition(petition, request.user, **d)
        return self._done(violation)


class NoticeViewSet(viewsets.ReadOnlyModelViewSet[Notice]):
    """Notices of violation and orders; outside users see those served on them."""

    serializer_class = NoticeSerializer

    def get_queryset(self) -> QuerySet[Notice]:
        return visible(
            Notice.objects.select_related("violation").prefetch_related("superseded_by"),
            self.request.user,
        ).order_by("-issued_at", "-id")

    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    @action(detail=True, methods=["get"])
    def letter(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The notice or order as issued (its document of record; the same as the page's)."""
        notice = self.get_object()
        document, content = letters.notice_document(notice, request.user)
        if document is not None:
            return pdf_response(document)
        return bytes_response(content, letters.kind(letters.kind_of(notice)).filename(notice))

    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    @action(detail=True, methods=["get"])
    def certificate(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The certificate of service (404 while service is not complete)."""
        document = letters.certificate(self.get_object())
        if document is None:
            raise Http404("No certificate of service: the notice's service is not complete.")
        return pdf_response(document)
