"""Signing a compliance report: signatories, assembling, the one-time code, the signature,
the acknowledgment, the office's review, and the verification of the copy of record.

CROMERR (40 CFR 3.2000(b)(5)) asks of an electronic signature what these do: the signer's
identity was checked (a signatory recorded by the Town, 403.12(l), on an account linked to the
facility); signing re-authenticates (the password, and a one-time code e-mailed to the account:
hashed, :data:`CODE_MINUTES` valid, :data:`CODE_TRIES` tries, used once); the signature binds
the SHA-256 of the exact document (the canonical JSON and the PDF); the copy of record is
written once (and protected on PostgreSQL); an acknowledgment with the hashes goes to the signer.
A document whose data changed since it was assembled cannot be signed: it is assembled again,
as a new version, and the earlier ones stay.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from sewer_office.accounts.access import can_see
from sewer_office.accounts.roles import (
    CLERK,
    ENGINEER,
    SUPERINTENDENT,
    has_role,
    is_staff_member,
)
from sewer_office.core import audit
from sewer_office.core.attachments import DOCUMENT_KINDS, attach
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.storage import files_of_transaction
from sewer_office.mail.choices import Topic
from sewer_office.mail.services import send_message
from sewer_office.pretreatment import baseline as pretreatment_baseline
from sewer_office.pretreatment import services as pretreatment
from sewer_office.pretreatment import status
from sewer_office.pretreatment.choices import ChecklistSource, ReportKind
from sewer_office.pretreatment.models import ReportDue
from sewer_office.registry.models import Establishment

from . import baseline, documents
from .choices import CERTIFICATION, Decision, SignatoryKind
from .models import BaselineStatement, Report, Review, Signatory, Signature, SigningCode

#: Who records signatories and reviews reports.
OFFICE = (SUPERINTENDENT, ENGINEER, CLERK)
CODE_MINUTES = 10
CODE_TRIES = 5


def may_manage(user: Any) -> bool:
    return has_role(user, *OFFICE)


def _require_office(user: Any, what: str) -> None:
    if not may_manage(user):
        raise Forbidden(f"{what} is for the Superintendent, the engineer or the clerk.")


def record_signatory(
    actor: Any,
    establishment: Establishment,
    *,
    user: Any,
    kind: str,
    title: str,
    authorization: str,
    valid_from: date,
) -> Signatory:
    """Record who may sign the facility's reports (403.12(l)); the account must act for the
    facility (be linked to its operator or owner)."""
    _require_office(actor, "Recording a signatory")
    errors: dict[str, list[str]] = {}
    if kind not in SignatoryKind.values:
        errors["kind"] = ["Choose the signatory's standing under 40 CFR 403.12(l)."]
    if not title.strip():
        errors["title"] = ["The signatory's title (e.g. Plant Manager)."]
    if kind == SignatoryKind.AUTHORIZED and not authorization.strip():
        errors["authorization"] = [
            "A duly authorized representative needs the written authorization on file "
            "(403.12(l)(3))."
        ]
    if not can_see(user, establishment):
        errors["user"] = ["This account does not act for the facility: link it first."]
    if errors:
        raise InvalidInput(errors)
    return audit.create_recorded(
        Signatory,
        {
            "establishment": establishment,
            "user": user,
            "kind": kind,
            "title": title.strip(),
            "authorization": authorization.strip(),
            "recorded_by": actor,
            "valid_from": valid_from,
        },
        actor=actor,
        action="record_signatory",
        citation="40 CFR 403.12(l)",
    )


def end_signatory(actor: Any, signatory: Signatory, on: date, reason: str) -> Signatory:
    _require_office(actor, "Ending a signatory")
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the authority ends."]})
    with transaction.atomic():
        locked = Signatory.objects.select_for_update().get(pk=signatory.pk)
        if locked.ended_on is not None:
            raise Blocked(f"This signatory's authority already ended on {locked.ended_on}.")
        before = audit.snapshot(locked)
        locked.ended_on = on
        locked.save(update_fields=["ended_on", "updated_at"])
        audit.record(
            actor=actor,
            action="end_signatory",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=reason.strip(),
        )
    return locked


def signatory_of(user: Any, establishment: Establishment, on: date) -> Signatory | None:
    """The user's authority to sign for the facility on that day, if any."""
    return (
        Signatory.objects.filter(establishment=establishment, user=user, valid_from__lte=on)
        .exclude(ended_on__lte=on)
        .order_by("-valid_from")
        .first()
    )


def assemble(actor: Any, due: ReportDue) -> Report:
    """A new version of the report for ``due``: the data of now, its PDF, their hashes."""
    if not can_see(actor, due):
        raise Forbidden("This report is another facility's.")
    if due.received_on is not None:
        raise Blocked(f"This report was already received on {due.received_on}.")
    made = timezone.now().replace(microsecond=0)
    data = documents.report_data(due)
    refuse_incomplete(data)
    body = documents.canonical(data)
    pdf = documents.report_pdf(data, made)
    data_sha, pdf_sha = documents.sha256(body), documents.sha256(pdf)
    with transaction.atomic():
        ReportDue.objects.select_for_update().get(pk=due.pk)
        latest = Report.objects.filter(due=due).aggregate(n=Max("version"))["n"] or 0
        start, end = documents.period_of(due)
        return audit.create_recorded(
            Report,
            {
                "due": due,
                "establishment": due.establishment,
                "version": latest + 1,
                "period_start": start,
                "period_end": end,
                "data": body.decode(),
                "pdf": pdf,
                "data_sha256": data_sha,
                "pdf_sha256": pdf_sha,
                "digest": Report.digest_of(data_sha, pdf_sha),
                "assembled_by": actor,
                "assembled_at": made,
            },
            actor=actor,
            action="assemble_report",
            citation=due.requirement.citation,
        )


def refuse_incomplete(data: dict[str, Any]) -> None:
    """Refuse a baseline report that lacks an item of 40 CFR 403.12(b), naming each."""
    gaps = baseline.missing(data)
    if gaps:
        raise InvalidInput({"baseline": [g.text for g in gaps]})


#: The facility's statement for its baseline report, by field (see ``BaselineStatement``).
STATEMENT_FIELDS = (
    "permits_held",
    "operations",
    "sic_codes",
    "production_rate",
    "standards_applicable",
    "average_flow_gpd",
    "maximum_flow_gpd",
    "meets_standards",
    "additional_measures",
    "compliance_schedule",
)


def _open_for_the_facility(actor: Any, due: ReportDue, what: str) -> None:
    """The facility's own accounts write its report (the office reviews it), while it is open."""
    if not can_see(actor, due):
        raise Forbidden("This report is another facility's.")
    if is_staff_member(actor):
        raise Forbidden(f"{what} is the facility's: the office reviews the signed report.")
    if due.received_on is not None:
        raise Blocked(f"This report was already received on {due.received_on}.")
    if status.status_of(due).in_review:
        raise Blocked("A signed report of this due date is in the office's review.")


def save_statement(actor: Any, due: ReportDue, values: dict[str, Any]) -> BaselineStatement:
    """Record the facility's statement for its baseline report (each change audited); a
    report assembled before keeps the statement it was assembled with."""
    if due.kind != ReportKind.BASELINE:
        raise Blocked("Only a baseline report (40 CFR 403.12(b)) has this statement.")
    _open_for_the_facility(actor, due, "The baseline statement")
    clean = {k: values.get(k) for k in STATEMENT_FIELDS}
    for k, v in clean.items():
        if isinstance(v, str):
            clean[k] = v.strip()
    errors: dict[str, list[str]] = {}
    clean["explanations"] = _explanations(values, errors)
    for k in ("average_flow_gpd", "maximum_flow_gpd"):
        flow = clean[k]
        if flow is not None and flow < 0:
            errors[k] = ["A flow is zero or more gallons per day."]
    avg, peak = clean["average_flow_gpd"], clean["maximum_flow_gpd"]
    if avg is not None and peak is not None and peak < avg:
        errors["maximum_flow_gpd"] = ["The maximum daily flow is at least the average."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        ReportDue.objects.select_for_update().get(pk=due.pk)
        found = BaselineStatement.objects.filter(due=due).first()
        if found is None:
            return audit.create_recorded(
                BaselineStatement,
                {"due": due, "updated_by": actor, **clean},
                actor=actor,
                action="record_baseline_statement",
                citation="40 CFR 403.12(b)",
            )
        before = audit.snapshot(found)
        for k, v in clean.items():
            setattr(found, k, v)
        found.updated_by = actor
        found.save()
        audit.record(
            actor=actor,
            action="record_baseline_statement",
            obj=found,
            before=before,
            after=audit.snapshot(found),
            citation="40 CFR 403.12(b)",
        )
    return found


def _explanations(values: dict[str, Any], errors: dict[str, list[str]]) -> dict[str, str]:
    """Why an element does not apply or is not given, by element code: from ``explanations``
    (a mapping) or the form's ``explain_<code>`` fields; empty ones are left out."""
    given = dict(values.get("explanations") or {})
    for item in baseline.ITEMS:
        if f"explain_{item.code}" in values:
            given[item.code] = values[f"explain_{item.code}"]
    codes = {item.code for item in baseline.ITEMS}
    unknown = sorted(str(k) for k in given if k not in codes)
    if unknown:
        errors["explanations"] = [f"Not an element of 40 CFR 403.12(b): {', '.join(unknown)}."]
    return {
        k: str(v).strip() for k, v in sorted(given.items()) if k in codes and str(v or "").strip()
    }


def attach_files(actor: Any, due: ReportDue, uploads: list[Any], kind: str) -> list[Any]:
    """Files sent with the report (a process diagram, a laboratory's report…): stored with
    their SHA-256 on the due date; the next assembled report lists them in its data."""
    _open_for_the_facility(actor, due, "Sending a file with a report")
    if kind not in baseline.ATTACHMENT_KINDS:
        raise InvalidInput({"kind": ["Choose what the file is."]})
    if not uploads:
        raise InvalidInput({"files": ["Choose a file to send."]})
    with files_of_transaction(), transaction.atomic():
        return [
            attach(due, f, actor, title=f"{kind}: {f.name}", kinds=DOCUMENT_KINDS) for f in uploads
        ]


def hash_code(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def send_code(actor: Any, report: Report) -> SigningCode:
    """E-mail a one-time code to sign ``report`` (to the signatory's own account)."""
    _check_signer(actor, report)
    if not actor.email:
        raise Blocked("Your account has no e-mail address: ask the Town Clerk to record it.")
    code = f"{secrets.randbelow(10**6):06d}"
    now = timezone.now()
    with transaction.atomic():
        SigningCode.objects.filter(report=report, user=actor, used_at=None).update(used_at=now)
        made = SigningCode.objects.create(
            report=report,
            user=actor,
            code_hash=hash_code(code),
            expires_at=now + timedelta(minutes=CODE_MINUTES),
        )
        send_message(
            to=actor.email,
            subject=f"Sewer office: code to sign report RPT-{report.pk}",
            body=(
                f"Your code to sign {report} is {code}. It is valid {CODE_MINUTES} minutes, once. "
                "If you did not ask to sign a report, tell the Town: someone may know your "
                "password."
            ),
            topic=Topic.SIGNING_CODE,
            user=actor,
            about=report,
        )
    return made


def _check_signer(actor: Any, report: Report) -> Signatory:
    if not can_see(actor, report):
        raise Forbidden("This report is another facility's.")
    signatory = signatory_of(actor, report.establishment, timezone.localdate())
    if signatory is None:
        raise Forbidden(
            "Only a signatory the Town recorded for this facility signs its reports "
            "(40 CFR 403.12(l))."
        )
    if hasattr(report, "signature"):
        raise Blocked(f"{report} is already signed.")
    return signatory


@dataclass(frozen=True)
class Check:
    """Whether a report's stored bytes still match the hashes its signature binds."""

    data_matches: bool
    pdf_matches: bool
    digest_matches: bool

    @property
    def ok(self) -> bool:
        return self.data_matches and self.pdf_matches and self.digest_matches


def check_bytes(report: Report) -> Check:
    stored = Report.objects.get(pk=report.pk)  # the bytes as stored now
    data_sha = documents.sha256(stored.data.encode())
    pdf_sha = documents.sha256(bytes(stored.pdf))
    bound = stored.signature.digest if hasattr(stored, "signature") else stored.digest
    return Check(
        data_sha == stored.data_sha256,
        pdf_sha == stored.pdf_sha256,
        Report.digest_of(data_sha, pdf_sha) == bound,
    )


def _wrong_code(code_id: int) -> None:
    """Count a wrong try (committed, though the signing then fails)."""
    SigningCode.objects.filter(pk=code_id).update(attempts=F("attempts") + 1)


def sign(actor: Any, report: Report, *, password: str, code: str) -> Signature:
    """Sign ``report``: the password again, the e-mailed code, the document unchanged."""
    signatory = _check_signer(actor, report)
    if not actor.check_password(password):
        raise InvalidInput({"password": ["The password is not right."]})
    now = timezone.now()
    pending = (
        SigningCode.objects.filter(report=report, user=actor, used_at=None)
        .order_by("-created_at")
        .first()
    )
    if pending is None or pending.expires_at <= now:
        raise InvalidInput({"code": ["No valid code: ask for a new one (it lasts 10 minutes)."]})
    if pending.attempts >= CODE_TRIES:
        raise InvalidInput({"code": ["Too many wrong codes: ask for a new one."]})
    if not hmac.compare_digest(pending.code_hash, hash_code(code.strip())):
        _wrong_code(pending.pk)
        left = CODE_TRIES - pending.attempts - 1
        raise InvalidInput({"code": [f"The code is not right ({left} tries left)."]})
    if not check_bytes(report).ok:
        raise Blocked(
            f"{report}: its stored document does not match its hashes: it cannot be signed."
        )
    refuse_incomplete(json.loads(report.data))
    current = documents.canonical(documents.report_data(report.due))
    if documents.sha256(current) != report.data_sha256:
        raise Blocked(
            f"The facility's data changed since {report} was assembled: assemble the report "
            "again and sign the new version (this one stays in the record, unsigned)."
        )
    with transaction.atomic():
        used = SigningCode.objects.filter(pk=pending.pk, used_at=None).update(used_at=now)
        if not used:
            raise InvalidInput({"code": ["This code was already used: ask for a new one."]})
        signature = Signature.objects.create(
            report=report,
            signatory=signatory,
            user=actor,
            signed_at=now,
            statement=CERTIFICATION,
            digest=report.digest,
        )
        audit.record(
            actor=actor,
            action="sign_report",
            obj=report,
            after={
                "signature": signature.pk,
                "digest": signature.digest,
                "data_sha256": report.data_sha256,
                "pdf_sha256": report.pdf_sha256,
                "signatory": str(signatory),
            },
            citation="40 CFR 403.12(l); 40 CFR 403.6(a)(2)(ii)",
        )
        documents.issue_copy(report, actor)  # the copy of record: the bytes signed
        send_message(
            to=actor.email,
            subject=f"Sewer office: acknowledgment of report RPT-{report.pk}",
            body=(
                f"The Town received {report}, signed by {actor.get_username()} "
                f"({signatory.title}) at {timezone.localtime(now):%Y-%m-%d %H:%M %Z}.\n\n"
                f"Document digest (SHA-256): {report.digest}\n"
                f"Data (JSON) SHA-256: {report.data_sha256}\n"
                f"PDF SHA-256: {report.pdf_sha256}\n\n"
                "Keep this message: the verification page of the report shows the same hashes "
                "for as long as the copy of record is unchanged."
            ),
            topic=Topic.REPORT_ACKNOWLEDGMENT,
            user=actor,
            about=report,
            key=f"report_acknowledgment:{report.pk}",
        )
    return signature


def _checklist(report: Report) -> pretreatment_baseline.Filing | None:
    """A baseline report's checklist of 40 CFR 403.12(b), from the data it was signed with."""
    if report.due.kind != ReportKind.BASELINE:
        return None
    where = f"the signed report RPT-{report.pk}"
    return pretreatment_baseline.Filing(
        baseline.checklist(json.loads(report.data), where),
        source=ChecklistSource.SIGNED,
        report_ref=f"RPT-{report.pk}",
    )


def review(actor: Any, report: Report, *, accept: bool, reason: str = "") -> Review:
    """The office accepts a signed report (the due is then received) or rejects it, with a
    reason; a rejected report stays in the record and its due stays open."""
    _require_office(actor, "Reviewing a report")
    if not hasattr(report, "signature"):
        raise Blocked(f"{report} is not signed: there is nothing to review.")
    if not accept and not reason.strip():
        raise InvalidInput({"reason": ["Say why the report is rejected."]})
    with transaction.atomic():
        Report.objects.select_for_update().get(pk=report.pk)
        if Review.objects.filter(report=report).exists():
            raise Blocked(f"{report} was already reviewed.")
        decided = Review.objects.create(
            report=report,
            decision=Decision.ACCEPTED if accept else Decision.REJECTED,
            reason=reason.strip(),
            reviewed_by=actor,
        )
        if accept:
            pretreatment.record_received(
                actor,
                report.due,
                timezone.localtime(report.signature.signed_at).date(),
                note=f"signed report RPT-{report.pk}, digest {report.digest[:12]}",
                checklist=_checklist(report),
            )
        audit.record(
            actor=actor,
            action="accept_report" if accept else "reject_report",
            obj=report,
            after={"decision": decided.decision, "reason": decided.reason},
            reason=decided.reason,
            citation=report.due.requirement.citation,
        )
    return decided
