"""What a message is about (its topic) and what became of it."""

from __future__ import annotations

from django.db import models


class Topic(models.TextChoices):
    """The kinds of message the office sends. Reminders a person may turn off, and the legal
    notices and account messages that are always sent (:data:`ALWAYS_SENT`)."""

    SAMPLING_DUE = "sampling_due", "Sampling due (monitoring schedule, § 196-19 D(7))"
    REPORT_DUE = "report_due", "Compliance report due in 30 and 7 days (40 CFR 403.12)"
    NOTICE_SERVED = "notice_served", "Notice of violation or order served (§ 196-22)"
    DEADLINE = "deadline", "Deadline of a notice in 3 days (§ 196-22)"
    CORRECTION_VERIFIED = "correction_verified", "Correction of a violation verified"
    INVOICE_ISSUED = "invoice_issued", "Invoice issued"
    INVOICE_OVERDUE = "invoice_overdue", "Invoice overdue"
    PUMPOUT_DUE = "pumpout_due", "Grease interceptor pump-out due"
    APPLICATION = "application", "An application's state changed"
    EMAIL_VERIFICATION = "email_verification", "E-mail address verification"
    SIGNING_CODE = "signing_code", "One-time code to sign a report"
    REPORT_ACKNOWLEDGMENT = "report_acknowledgment", "Acknowledgment of a signed report"
    AUDIT_ANCHOR = "audit_anchor", "Audit chain anchor (to the Superintendent)"


#: Sent whatever the person's preferences: legal notices (a notice of violation or an order
#: served, the deadline it sets) and the messages an account cannot work without (its e-mail
#: verification, a signing code, the acknowledgment CROMERR requires, 40 CFR 3.2000(b)(5)(vi)).
ALWAYS_SENT: frozenset[str] = frozenset(
    {
        Topic.NOTICE_SERVED,
        Topic.DEADLINE,
        Topic.EMAIL_VERIFICATION,
        Topic.SIGNING_CODE,
        Topic.REPORT_ACKNOWLEDGMENT,
        # the audit chain's head, kept outside the database: a preference in the database
        # must not be able to silence it (docs/audit-chain.md)
        Topic.AUDIT_ANCHOR,
    }
)

#: The topics a person may turn off on ``/mail/preferences/``, in the order shown.
OPTIONAL: tuple[str, ...] = tuple(t for t in Topic.values if t not in ALWAYS_SENT)


class MessageStatus(models.TextChoices):
    SENT = "sent", "Sent"
    WITHHELD = "withheld", "Not sent: the person turned this topic off"
    FAILED = "failed", "Failed"
