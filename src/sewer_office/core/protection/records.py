"""The list of the office's records of legal weight (:data:`PROTECTED`) and of the models left
free, each with why (:data:`FREE`): every model of the office stands in one of them
(``tests/office/test_record_guards.py``)."""

from __future__ import annotations

from .spec import Protected


def _application(
    model: str,
    *fill_once: str,
    with_move: tuple[tuple[str, str], ...] = (),
    transitions: tuple[tuple[str, str, str], ...] = (),
) -> Protected:
    """A permit or approval: its state moves as its kind's workflow declares; its number
    (assigned right after filing) and what its transitions record are filled once."""
    return Protected(
        model,
        fill_once=("number", *fill_once),
        transitions=transitions,
        workflow="state",
        with_move=with_move,
        bookkeeping=("updated_at", *FOLLOWS_ITS_PARCEL),
    )


#: The town a record keeps of its parcel (``core.models.KeepsItsTown``): it follows the parcel
#: when an act moves the parcel to another town, audited on the parcel; nothing else moves it.
FOLLOWS_ITS_PARCEL = ("jurisdiction",)


def _tied(driver: str, *columns: str) -> tuple[tuple[str, str], ...]:
    return tuple((c, driver) for c in columns)


PROTECTED: tuple[Protected, ...] = (
    Protected("core.AuditEvent"),
    # what was filed with a record: its file and the SHA-256 that proves it
    Protected("core.Attachment", bookkeeping=("updated_at",)),
    # approved (and superseded) results; a reported one is still the laboratory's draft
    Protected(
        "monitoring.LabResult",
        when="OLD.state <> 'reported'",
        transitions=(("state", "approved", "superseded"),),
    ),
    # issued notices: their service is recorded once, after issue (§ 196-22 A)
    Protected(
        "enforcement.Notice",
        fill_once_from="SERVICE_FIELDS",  # the columns its save() also fills only once
        bookkeeping=("updated_at",),
    ),
    # a violation's state moves only as its workflow declares (§ 196-22); nothing else changes
    Protected(
        "enforcement.Violation",
        workflow="state",
        bookkeeping=("updated_at", *FOLLOWS_ITS_PARCEL),
    ),
    # a reported correction receives its verification (which ends the fine count, § 196-22 B)
    # or its rejection once; decided, nothing changes
    Protected(
        "enforcement.Correction",
        fill_once_from="DECISION_FIELDS",  # the columns its save() also fills only once
        settled="OLD.verified_on IS NOT NULL OR OLD.rejected_on IS NOT NULL",
    ),
    # a petition against an order (a town's own ladder) receives its decision once
    Protected(
        "enforcement.Petition",
        fill_once_from="DECISION_FIELDS",  # the columns its save() also fills only once
        settled="OLD.decision <> ''",
    ),
    # a compliance schedule's requirement is fixed when imposed; amendments add milestones
    Protected("enforcement.ComplianceSchedule", bookkeeping=("updated_at",)),
    # a milestone's date never moves (a later date is a new milestone); completed once
    Protected(
        "enforcement.Milestone",
        workflow="state",
        fill_once=("completed_on", "completion_report", "recorded_by_id"),
        bookkeeping=("updated_at",),
    ),
    Protected("enforcement.Cost"),
    # the Town's adoption of a version of its enforcement response plan (40 CFR 403.8(f)(5)),
    # with the fingerprint of the text adopted: written once
    Protected("enforcement.PlanAdoption"),
    # the findings ledger: what the law as code concluded never changes; only its review
    # moves forward (with its note), and it stops being current when its result is replaced
    Protected(
        "findings.Finding",
        transitions=(
            ("review", "new", "acknowledged"),
            ("review", "new", "closed"),
            ("review", "acknowledged", "closed"),
            ("current", "true", "false"),
        ),
        with_move=_tied("review", "review_note", "reviewed_by_id", "reviewed_at"),
    ),
    # the engineer's or Superintendent's § 196-19 D opinion that turns a review into a violation
    Protected("findings.HarmOpinion"),
    # an inspection once completed or cancelled (§ 196-21): never edited, remarks are addenda
    Protected(
        "inspections.Inspection",
        when="OLD.state <> 'scheduled'",
        bookkeeping=("updated_at", *FOLLOWS_ITS_PARCEL),
    ),
    Protected("inspections.InspectionAnswer"),
    Protected("inspections.InspectionAddendum"),
    # § 196-21 A: a refusal of entry and the agencies' inspectors present, as recorded
    Protected("inspections.EntryRefusal"),
    Protected("inspections.AgencyInspector"),
    # a fixed baseline of a meter (§ 196-15 SLUG), from the approval or a recorded decision
    Protected("meters.MeterBaseline"),
    # what a meter recorded and what the rules found in it; a slug is flagged unreported once
    # and superseded once by a re-evaluation
    Protected("meters.ReadingUpload", bookkeeping=("slug_count", "excursion_count")),
    Protected("meters.Reading"),
    Protected("meters.SlugReevaluation"),
    Protected("meters.SlugEvent", fill_once=("flagged_unreported_at", "superseded_by_id")),
    Protected("meters.Excursion"),
    Protected("meters.SlugReport"),
    # monitoring: the approval's limits, the samples taken, the laboratory files imported
    Protected("monitoring.DischargeLimit", bookkeeping=("updated_at",)),
    Protected("monitoring.SamplingEvent", bookkeeping=("updated_at",)),
    Protected("monitoring.LabImport", bookkeeping=("result_count", "finding_count")),
    # a town's spreadsheet of users and facilities applied: what became of each row is filled
    # once; a row waiting for its parcel is resolved or dismissed once, with who and why
    Protected("onboarding.FacilityImport", fill_once=("outcomes",)),
    Protected(
        "onboarding.ReviewItem",
        transitions=(("state", "open", "resolved"), ("state", "open", "dismissed")),
        fill_once=(
            "resolved_property_id",
            "resolved_establishment_id",
            "decided_by_id",
            "decided_at",
            "decision_note",
        ),
        bookkeeping=("updated_at",),
    ),
    # grease traps: the cleaning interval is the pump-out clock; removed once; pump-outs are
    # voided once, never edited
    Protected(
        "grease.GreaseInterceptor",
        transitions=(("active", "true", "false"),),
        fill_once=("removed_on", "removal_reason"),
        bookkeeping=("updated_at",),
    ),
    Protected("grease.SizingCheck"),
    Protected(
        "grease.PumpOut",
        fill_once=("voided", "voided_at", "voided_by_id", "void_reason"),
        settled="OLD.voided",
    ),
    # signed reports' copies of record, their signatures and the office's reviews (CROMERR)
    Protected("reports.Report"),
    Protected("reports.Signature"),
    Protected("reports.Review"),
    # who may sign a facility's reports (40 CFR 403.12(l)): recorded, then ended once
    Protected("reports.Signatory", fill_once=("ended_on",), bookkeeping=("updated_at",)),
    Protected("enforcement.Referral"),
    # the court's judgment on a referral and the money collected on its fine (§ 196-22 B)
    Protected("enforcement.Judgment"),
    Protected("enforcement.Collection"),
    # pretreatment: designations are superseded, never edited; a requirement is ended once;
    # a due date receives its received date once (the 45-day SNC clock, 403.8(f)(2)(viii)(F))
    Protected("pretreatment.Designation"),
    Protected("pretreatment.ReportRequirement", fill_once=("ends_on",)),
    Protected(
        "pretreatment.ReportDue",
        fill_once=("received_on", "received_by_id", "received_note"),
        settled="OLD.received_on IS NOT NULL",
    ),
    # a determination links the violation it opened once, right after it is recorded
    Protected("pretreatment.SNCDetermination", fill_once=("violation_id",)),
    # what a received baseline report gave of 40 CFR 403.12(b), and a user's notice of a
    # hazardous waste discharged (403.12(p)): written once; a correction is a new notice
    Protected("pretreatment.BaselineChecklist"),
    Protected("pretreatment.HazardousWasteNotification"),
    # an annual report as prepared: its figures, CSV and PDF as filed (again: a new edition)
    Protected("pretreatment.AnnualReportEdition"),
    # permits and approvals: the state as the kind's workflow declares, the facts recorded once
    _application(
        "permits.BuildingSewerPermit",
        "fee_paid_on",
        "fee_receipt",
        "fee_waived_on",
        "fee_waiver_authority",
        "old_sewer_result",
        "old_sewer_examined_on",
        "plan_checks",
        "plan_checks_version",
        "plans_approved_on",
        "road_opening_number",
        "road_opening_issued_on",
        "inspected_on",
        "connected_on",
        "supervised_by",
        # the fee in force on the application date, stored again with the step that files it;
        # ready again after corrections (§ 196-18 J)
        with_move=_tied(
            "state", "fee_amount", "fee_parameter", "fee_effective", "fee_authority", "ready_on"
        )
        # an old sewer found failing may be examined again once repaired, and found to meet
        # the article (§ 196-18 E)
        + _tied("old_sewer_result", "old_sewer_examined_on"),
        transitions=(("old_sewer_result", "fails", "meets"),),
    ),
    _application(
        "permits.IndustrialDischargeApproval",
        "decided_on",
        "decided_by_id",
        "term_years",
        "expires_on",
        "icis_permit_id",  # recorded once EPA or the State assigns it
        with_move=_tied("state", "evaluation"),  # evaluated again when review begins
    ),
    Protected("permits.ApprovalCondition"),
    Protected("permits.SelfMonitoringRequirement"),
    _application("permits.GrinderApproval", "decided_on"),
    _application(
        "permits.InterceptorRequirement",
        "health_approval_ref",
        "approved_on",
        # a refused installation is recorded again with the move that records it
        with_move=_tied("state", "unit_type", "capacity", "location", "accessible", "installed_on"),
    ),
    _application("permits.FlushingNotice", "acknowledged_on", "flushed_on"),
    _application(
        "permits.PrivateDisposalSystem",
        "health_approval_ref",
        "health_approved_on",
        "completion_ref",
        "completed_on",
        "forms_filed_on",
        "co_number",
        "co_issued_on",
        "connection_required_on",
        "abandoned_on",
        "filled_with",
    ),
    _application(
        "permits.SubdivisionSewer",
        "fee_paid_on",
        "fee_receipt",
        "health_approval_ref",
        "health_approved_on",
        "plans_approved_on",
        "filed_with_planning_board_on",
        with_move=_tied("state", "fee_amount", "fee_rate", "fee_effective", "fee_authority"),
    ),
    # who may act for a person: a request decided once (confirmed, refused), a link ended once
    Protected(
        "portal.LinkRequest",
        transitions=(
            ("state", "pending", "confirmed"),
            ("state", "pending", "refused"),
            ("state", "confirmed", "ended"),
        ),
        fill_once=("person_id", "decided_by_id", "decided_at", "reason"),
        settled="OLD.state IN ('refused', 'ended')",
        bookkeeping=("updated_at",),
    ),
    Protected("portal.IdentityCheck"),
    # the messages the office sent: a retry is a new row, never an edit
    Protected("mail.SentMessage"),
    # the Town's books: an issued invoice or credit note changes only by its void, once
    Protected(
        "billing.Invoice",
        fill_once=("voided_by_id", "voided_at", "void_reason"),
        transitions=(("state", "issued", "void"),),
    ),
    Protected("billing.InvoiceLine"),
    Protected("billing.Charge"),
    Protected("billing.Payment"),
    Protected("billing.PaymentApplication"),
    Protected("billing.Refund"),
    # a billing run is issued or discarded once; its lines are what it computed
    Protected(
        "billing.BillingRun",
        transitions=(("state", "draft", "issued"), ("state", "draft", "discarded")),
        fill_once=("issued_by_id", "issued_at", "discard_reason"),
        bookkeeping=("updated_at",),
    ),
    Protected("billing.RunLine"),
    # what a billing run bills: the § 196-19 E(1)(d) decisions and § 196-19 J agreements
    Protected("billing.SurchargeDecision"),
    Protected("billing.SurchargeAgreement"),
    Protected("billing.SurchargeEnding"),
    # the letters: issued documents of record and the template/letterhead versions they used
    Protected("core.IssuedDocument"),
    Protected("core.LetterTemplate"),
    Protected("core.Letterhead"),
    # records of the past: where an imported record came from, and the import that brought it
    Protected("core.ImportedRecord"),
    Protected("archive.RecordImport"),
    # the tax parcel roll: each file applied, the owner changes it dated (a notice served
    # before keeps its person), the clerk's decision on a split or merge (once), the parcels
    # that left the roll
    Protected("parcels.RollImport"),
    Protected("parcels.OwnerChange"),
    Protected(
        "parcels.ParcelReview",
        transitions=(("state", "pending", "confirmed"), ("state", "pending", "rejected")),
        fill_once=("decided_by_id", "decided_at", "note", "created"),
        settled="OLD.state <> 'pending'",
    ),
    Protected("parcels.Retirement"),
)

#: The office's models that are not records of legal weight, each with the reason. Their
#: changes go through the services (audited where they matter); the records of legal weight
#: copy what they rest on when they are written (a notice names its person, a charge keeps its
#: amounts), so a later edit here never rewrites them.
FREE: dict[str, str] = {
    "accounts.SignInFailure": "a counter of failed sign-ins for the throttle, pruned by age",
    "accounts.SignInPace": "the throttle's pace for a name under attack, pruned by age",
    "accounts.RegistrationAttempt": "the throttle's count of registrations per address, "
    "pruned by age",
    "accounts.StaffJurisdiction": "the towns a staff member acts for, granted and withdrawn "
    "through audited services",
    "mail.Preference": "a person's choice of reminders, theirs to change",
    "registry.Person": "the register of persons: kept current (addresses, names), audited",
    "registry.Contact": "a person's contact details, kept current",
    "registry.ServiceArea": "the register of service areas; the declaration of public sewer "
    "available is audited and its consequences (the duty to connect) are recorded on the "
    "private systems, guarded",
    "registry.Property": "the register of properties, kept current; its wastewater service "
    "and its jurisdiction change by audited service calls",
    "registry.Building": "the register of buildings, kept current",
    "registry.Establishment": "the register of facilities, kept current",
    "network.NetworkVersion": "versions of the sewer map, replaced by the next import",
    "onboarding.ColumnMapping": "the clerk's choice of a spreadsheet's columns, kept current "
    "(audited); each import keeps its own copy of the mapping it used",
    "network.Manhole": "the sewer map, replaced by the next import",
    "network.SewerPipe": "the sewer map, replaced by the next import",
    "network.BuildingConnection": "the sewer map, replaced by the next import",
    "network.SamplingPointOverride": "a correction of the map's sampling point, kept current",
    "portal.Registration": "a sign-up awaiting its e-mail check; who may act for a person is "
    "the link request, guarded",
    "monitoring.SamplingPoint": "the register of sampling points, kept current",
    "monitoring.LabMapping": "how a laboratory's file is read, kept current (changes audited); "
    "each import keeps its own copy of the mapping it was read through, guarded",
    "meters.Meter": "the register of meters, kept current; its baselines are guarded",
    "meters.MeterDay": "daily totals computed from the readings (guarded), rebuilt at will",
    "billing.NumberSequence": "the counter that numbers invoices; the numbers are on the "
    "invoices, guarded",
    "reports.SigningCode": "a one-time code, hashed, valid minutes; the signature is guarded",
    "reports.BaselineStatement": "the facility's draft for its baseline report, until the "
    "signed report (guarded) keeps its own copy",
}


def spec_of(model: str) -> Protected | None:
    """The :class:`Protected` of ``model`` ("app_label.ModelName"), if it is guarded."""
    return next((p for p in PROTECTED if p.model == model), None)


def placement(model: str) -> str:
    """Where ``model`` stands: "append-only", "guarded", "free" or "" (not placed)."""
    spec = spec_of(model)
    if spec is not None:
        return "append-only" if spec.append_only else "guarded"
    return "free" if model in FREE else ""
