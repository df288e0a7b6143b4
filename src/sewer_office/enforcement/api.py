"""API of the enforcement app: violations and notices, and the actions on a violation —
issue, serve, record-delivery (certified mail), report-correction, verify, escalate, refer,
cost (and reject-correction, supersede, dismiss), and the court's judgment (:mod:`.money`,
§ 196-22 B) — through the same services and workflow as the pages. The money in the Town's
books is billing's: ``POST .../bill-costs/`` (§ 196-22 C) and ``.../collection/`` (§ 196-22 B)
are answered by ``billing.enforcement_api`` (mounted under this prefix by the API's urls), and
a violation's ``invoices`` come from billing's ``violation_data`` hook (:mod:`core.panels`). A violation's ``fines`` is the rule's count (the office's :func:`~.services.fines`),
the same as ``sewer-use fines`` gives for the same dates.

``GET /api/enforcement/violations/`` takes the web list's filters (one filterset,
:class:`~.filters.ViolationFilter`). An action answers the violation as it now is; a refusal
answers with the services' message (400 invalid, 403 reserved, 409 not now / blocked).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.urls import URLPattern, reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.api.forms import form_data
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.letters import bytes_response, pdf_response
from sewer_office.core.panels import violation_data
from sewer_office.core.services import perform
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.registry.models import Establishment, Person, Property

from . import grounds, letters, money, schedules, services
from .choices import (
    CostCategory,
    DeliveryProof,
    ImposedBy,
    ReferralKind,
    ServiceMethod,
)
from .filters import ScheduleFilter, ViolationFilter
from .models import (
    Collection,
    ComplianceSchedule,
    Correction,
    Cost,
    Finding,
    Judgment,
    Milestone,
    Notice,
    Referral,
    Violation,
)
from .views import base_queryset
from .workflow import WORKFLOW


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
            "invoices",
            "fines",
            "available_actions",
            "would_now_be_refused",
        )

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_would_now_be_refused(self, obj: Violation) -> str | None:
        return grounds.refusal(obj.section, obj.finding)

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_fines(self, obj: Violation) -> dict[str, Any]:
        f = services.fines(obj, timezone.localdate())
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


def violations_for(user: Any) -> Any:
    """The violations ``user`` may see, with what their API record reads."""
    return services.visible_violations(base_queryset(), user).prefetch_related(
        "notices__superseded_by",
        "corrections",
        "costs",
        "referrals",
        "evidence",
        "judgments__collections__payment",
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


class MilestoneSerializer(serializers.ModelSerializer[Milestone]):
    state_label = serializers.CharField(read_only=True)
    days_late = serializers.IntegerField(read_only=True, allow_null=True)

    class Meta:
        model = Milestone
        fields = (
            "id",
            "schedule",
            "description",
            "due_on",
            "state",
            "state_label",
            "completed_on",
            "completion_report",
            "days_late",
        )


class ScheduleSerializer(serializers.ModelSerializer[ComplianceSchedule]):
    number = serializers.CharField(read_only=True)
    establishment_name = serializers.CharField(source="establishment.name", read_only=True)
    milestones = MilestoneSerializer(many=True, read_only=True)

    class Meta:
        model = ComplianceSchedule
        fields = (
            "id",
            "number",
            "establishment",
            "establishment_name",
            "imposed_by",
            "approval",
            "notice",
            "requirement",
            "citation",
            "created_at",
            "milestones",
        )


class MilestoneInput(serializers.Serializer[Any]):
    due_on = serializers.DateField()
    description = serializers.CharField()


class ScheduleInput(serializers.Serializer[Any]):
    establishment = serializers.PrimaryKeyRelatedField(queryset=Establishment.objects.all())
    imposed_by = serializers.ChoiceField(choices=ImposedBy.choices)
    approval = serializers.PrimaryKeyRelatedField(
        queryset=IndustrialDischargeApproval.objects.all(), required=False, allow_null=True
    )
    notice = serializers.PrimaryKeyRelatedField(
        queryset=Notice.objects.select_related("violation"), required=False, allow_null=True
    )
    requirement = serializers.CharField()
    citation = serializers.CharField()
    milestones = MilestoneInput(many=True)


class AmendInput(serializers.Serializer[Any]):
    reason = serializers.CharField()
    requirement = serializers.CharField()
    citation = serializers.CharField()
    milestones = MilestoneInput(many=True, required=False)


class CompletionInput(serializers.Serializer[Any]):
    completed_on = serializers.DateField()
    completion_report = serializers.CharField()


class ScheduleViewSet(viewsets.ReadOnlyModelViewSet[ComplianceSchedule]):
    """Compliance schedules (40 CFR 403.8(f)(1)(iv)); outside users see their facilities'."""

    serializer_class = ScheduleSerializer
    filterset_class = ScheduleFilter

    def get_queryset(self) -> Any:
        return schedules.visible_schedules(
            ComplianceSchedule.objects.select_related("establishment").prefetch_related(
                "milestones"
            ),
            self.request.user,
        ).order_by("id")

    @extend_schema(request=ScheduleInput, responses={201: ScheduleSerializer})
    def create(self, request: Request) -> Response:
        """Impose a schedule with its milestones (Superintendent, engineer)."""
        if not schedules.may_schedule(request.user):
            raise Forbidden(
                "Imposing a compliance schedule: reserved to the Superintendent and the engineer."
            )
        body = ScheduleInput(data=request.data)
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        d["milestones"] = [(m["due_on"], m["description"]) for m in d["milestones"]]
        s = schedules.create_schedule(request.user, **d)
        return Response(self.get_serializer(self.get_queryset().get(pk=s.pk)).data, status=201)

    @extend_schema(request=AmendInput, responses=ScheduleSerializer)
    @action(detail=True, methods=["post"])
    def amend(self, request: Request, pk: str | None = None) -> Response:
        """Amend the requirement and citation, add milestones (a reason is required)."""
        schedule = self.get_object()
        body = AmendInput(data=request.data)
        if not schedules.may_schedule(request.user):
            raise Forbidden(
                "Amending a compliance schedule: reserved to the Superintendent and the engineer."
            )
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        added = [(m["due_on"], m["description"]) for m in d.pop("milestones", [])]
        schedules.amend_schedule(request.user, schedule, milestones=added, **d)
        return Response(self.get_serializer(self.get_queryset().get(pk=schedule.pk)).data)


class MilestoneViewSet(viewsets.ReadOnlyModelViewSet[Milestone]):
    """Milestones of compliance schedules, and the action recording a completion."""

    serializer_class = MilestoneSerializer

    def get_queryset(self) -> Any:
        return visible(Milestone.objects.select_related("schedule"), self.request.user).order_by(
            "due_on", "id"
        )

    @extend_schema(request=CompletionInput, responses=MilestoneSerializer)
    @action(detail=True, methods=["post"])
    def complete(self, request: Request, pk: str | None = None) -> Response:
        """Record the milestone's completion (staff, or the facility; 40 CFR 403.12(c))."""
        milestone = self.get_object()
        data = form_data(request.data)
        done = perform(milestone, "complete_milestone", request.user, data)
        return Response(self.get_serializer(done).data)


#: (prefix under /api/, viewset, basename)
ROUTES: list[tuple[str, Any, str]] = [
    ("enforcement/violations", ViolationViewSet, "violation"),
    ("enforcement/notices", NoticeViewSet, "notice"),
    ("enforcement/schedules", ScheduleViewSet, "schedule"),
    ("enforcement/milestones", MilestoneViewSet, "milestone"),
]
PATHS: list[URLPattern] = []
