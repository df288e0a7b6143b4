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

The facility's statement and files for a baseline report, before it is assembled, are
:mod:`.statements`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import date, timedelta

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from sewer_office.accounts.access import can_see
from sewer_office.accounts.actors import Actor, person_or_none, signed_in
from sewer_office.accounts.roles import (
    CLERK,
    ENGINEER,
    SUPERINTENDENT,
    has_role,
)
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.mail.choices import Topic
from sewer_office.mail.services import send_message
from sewer_office.pretreatment import baseline as pretreatment_baseline
from sewer_office.pretreatment import report_dues
from sewer_office.pretreatment.choices import ChecklistSource, ReportKind
from sewer_office.pretreatment.models import ReportDue
from sewer_office.registry.models import Establishment

from . import baseline, documents
from .choices import CERTIFICATION, Decision, SignatoryKind
from .models import Report, Review, Signatory, Signature, SigningCode
from .report_data import ReportData, stored

#: Who records signatories and reviews reports.
OFFICE = (SUPERINTENDENT, ENGINEER, CLERK)
CODE_MINUTES = 10
CODE_TRIES = 5


def may_manage(user: Actor) -> bool:
    return has_role(user, *OFFICE)


def _require_office(user: Actor, what: str) -> None:
    if not may_manage(user):
        raise Forbidden(f"{what} is for the Superintendent, the engineer or the clerk.")


def record_signatory(
    actor: Actor,
    establishment: Establishment,
    *,
    user: Actor,
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


def end_signatory(actor: Actor, signatory: Signatory, on: date, reason: str) -> Signatory:
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


def signatory_of(user: Actor, establishment: Establishment, on: date) -> Signatory | None:
    """The user's authority to sign for the facility on that day, if any (none when nobody
    signed in)."""
    person = person_or_none(user)
    if person is None:
        return None
    return (
        Signatory.objects.filter(establishment=establishment, user=person, valid_from__lte=on)
        .exclude(ended_on__lte=on)
        .order_by("-valid_from")
        .first()
    )


def assemble(actor: Actor, due: ReportDue) -> Report:
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


def refuse_incomplete(data: ReportData) -> None:
    """Refuse a baseline report that lacks an item of 40 CFR 403.12(b), naming each."""
    gaps = baseline.missing(data)
    if gaps:
        raise InvalidInput({"baseline": [g.text for g in gaps]})


def hash_code(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def send_code(actor: Actor, report: Report) -> SigningCode:
    """E-mail a one-time code to sign ``report`` (to the signatory's own account)."""
    _check_signer(actor, report)
    person = signed_in(actor)  # the signatory: a person, named on the signature
    if not person.email:
        raise Blocked("Your account has no e-mail address: ask the Town Clerk to record it.")
    code = f"{secrets.randbelow(10**6):06d}"
    now = timezone.now()
    with transaction.atomic():
        SigningCode.objects.filter(report=report, user=person, used_at=None).update(used_at=now)
        made = SigningCode.objects.create(
            report=report,
            user=person,
            code_hash=hash_code(code),
            expires_at=now + timedelta(minutes=CODE_MINUTES),
        )
        send_message(
            to=person.email,
            subject=f"Sewer office: code to sign report RPT-{report.pk}",
            body=(
                f"Your code to sign {report} is {code}. It is valid {CODE_MINUTES} minutes, once. "
                "If you did not ask to sign a report, tell the Town: someone may know your "
                "password."
            ),
            topic=Topic.SIGNING_CODE,
            user=person,
            about=report,
        )
    return made


def _check_signer(actor: Actor, report: Report) -> Signatory:
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


def sign(actor: Actor, report: Report, *, password: str, code: str) -> Signature:
    """Sign ``report``: the password again, the e-mailed code, the document unchanged."""
    signatory = _check_signer(actor, report)
    person = signed_in(actor)  # the signatory: a person, named on the signature
    if not person.check_password(password):
        raise InvalidInput({"password": ["The password is not right."]})
    now = timezone.now()
    pending = (
        SigningCode.objects.filter(report=report, user=person, used_at=None)
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
    refuse_incomplete(stored(report.data))
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
            user=person,
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
            to=person.email,
            subject=f"Sewer office: acknowledgment of report RPT-{report.pk}",
            body=(
                f"The Town received {report}, signed by {person.get_username()} "
                f"({signatory.title}) at {timezone.localtime(now):%Y-%m-%d %H:%M %Z}.\n\n"
                f"Document digest (SHA-256): {report.digest}\n"
                f"Data (JSON) SHA-256: {report.data_sha256}\n"
                f"PDF SHA-256: {report.pdf_sha256}\n\n"
                "Keep this message: the verification page of the report shows the same hashes "
                "for as long as the copy of record is unchanged."
            ),
            topic=Topic.REPORT_ACKNOWLEDGMENT,
            user=person,
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
        baseline.checklist(stored(report.data), where),
        source=ChecklistSource.SIGNED,
        report_ref=f"RPT-{report.pk}",
    )


def review(actor: Actor, report: Report, *, accept: bool, reason: str = "") -> Review:
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
            reviewed_by=signed_in(actor),
        )
        if accept:
            report_dues.record_received(
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
