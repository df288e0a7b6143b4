"""The documents of enforcement, on the letters engine (:mod:`sewer_office.core.letters`).

Four kinds, each a template the office may reword and the merge values the software computes:

- ``enforcement.notice`` — the written notice of § 196-22 A ("Notice is hereby given"), for a
  notice whose response rests on § 196-22 A (a notice of violation, a second notice);
- ``enforcement.order`` — an order (an administrative order with its compliance schedule…):
  its own terms and the authority it rests on (the response's citation), and the schedule's
  dated milestones when a :class:`~.models.ComplianceSchedule` is imposed by it;
- ``enforcement.certificate`` — the certificate of service of a notice or order, made when
  service is complete (personal or e-mail service recorded, or a certified mail's delivery):
  who served, how, when, the receipt number, the proof of delivery, and the deadline with the
  rule that computed it;
- ``enforcement.referral`` — the referral to the Town Attorney (§ 196-22 B, D) or to the police
  (§ 196-20): the fine computation of :func:`.liability.fines` on the day of referral, the
  notices of record with their service, and the Town's costs recorded (§ 196-22 C).

What the law requires each to say is in *required* merge fields (the engine refuses a template
without them). Everything comes from the stored records, in plain words: dates written out,
amounts to the cent. A notice's document is issued (kept as bytes) when the notice is issued,
an order's when it is served or a schedule is imposed by it, a certificate at service and a
referral when made (:func:`issue_notice`, :func:`issue_certificate`, :func:`issue_referral`,
called by the services).

This module holds the words the four share and the documents of record; the templates and
their merge values are :mod:`.notice_letters` (notice, order, certificate) and
:mod:`.referral_letter`.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sewer_office.accounts.actors import Actor
from sewer_office.core import letters
from sewer_office.core.letters import LetterKind, long_date, signer
from sewer_office.core.models import IssuedDocument
from sewer_office.registry.addresses import mailing_lines

from .models import Notice, Referral, Violation
from .town_ladder import is_ladder_notice

NOTICE = "enforcement.notice"
ORDER = "enforcement.order"
CERTIFICATE = "enforcement.certificate"
REFERRAL = "enforcement.referral"

#: The citation of the written notice: a response resting on it is a notice, any other an order.
NOTICE_CITATION = "§ 196-22 A"

CENT = Decimal("0.01")


# --- plain words --------------------------------------------------------------------------


def usd(amount: Decimal | int | str | None) -> str:
    """An amount as a letter writes it: "USD 1,234.50" (to the cent, half up)."""
    if amount is None:
        return "not configured"
    return f"USD {Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP):,}"


def as_cited(text: str) -> str:
    """A citation as the letter writes it: the article's as "Town Code § …", a federal
    requirement (40 CFR …) as it stands — it is not part of the Town Code."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    return "; ".join(f"Town Code {p}" if p.startswith("§") else p for p in parts)


def premises_property(violation: Violation) -> Any:
    """The property the violation concerns (the facility's premises, or the property)."""
    if violation.establishment is not None:
        return violation.establishment.building.property
    return violation.property


def subject(violation: Violation) -> str:
    """The facility or property concerned, with its address."""
    prop = premises_property(violation)
    if violation.establishment is not None:
        return f"{violation.establishment.name}, {prop.address}"
    return prop.address if prop is not None else ""


def lines(*lines: str) -> str:
    """Several lines as one merge value (each keeps its own markup prefix)."""
    return "\n".join(ln for ln in lines if ln is not None)


# --- which kind a notice is -------------------------------------------------------------------


def is_order(notice: Notice) -> bool:
    """Whether ``notice`` is an order (its response rests on another authority than the written
    notice of § 196-22 A, or of the town's own law's notice)."""
    return notice.citation.strip() != NOTICE_CITATION and not is_ladder_notice(notice)


def kind_of(notice: Notice) -> str:
    return ORDER if is_order(notice) else NOTICE


# --- shared parts -----------------------------------------------------------------------------


def header(notice: Notice) -> dict[str, str]:
    v = notice.violation
    return {
        "date": long_date(notice.issued_on),
        "reference": f"{notice.number} (violation {v.number})",
        "recipient": lines(*mailing_lines(v.person, premises_property(v))),
        "premises": subject(v),
        "section": as_cited(notice.section),
        "nature": notice.nature,
        "title": notice.response_label,
        "supersedes": (
            f"This {'order' if is_order(notice) else 'notice'} supersedes "
            f"{notice.supersedes.number} of {long_date(notice.supersedes.issued_on)}: "
            f"{notice.supersede_reason}"
            if notice.supersedes is not None
            else ""
        ),
        "signature": lines(signer(notice.issued_by), "Superintendent of the Sewer Districts"),
    }


def period_rule() -> str:
    return (
        "The period is counted from the day after service; a last day falling on a Saturday, "
        "Sunday or New York public holiday moves to the next business day (N.Y. General "
        "Construction Law §§ 24, 25-a)."
    )


def fine_text(notice: Notice) -> str:
    """§ 196-22 B: the daily fine on conviction, with the amount in force on the day of issue."""
    if notice.daily_amount is not None:
        effective = long_date(notice.daily_amount_effective)
        authority = notice.daily_amount_authority or "Town Board resolution"
        amount = (
            f"{usd(notice.daily_amount)} per day for each violation (Town Code § 122-20 Y; "
            f"{authority}, in force since {effective})"
        )
    else:
        amount = "the amount set in Town Code § 122-20 Y per day for each violation"
    return (
        "Any person who continues a violation beyond that time is guilty of a violation and, "
        f"on conviction, shall be fined {amount}; fines continue until the violation is "
        "corrected to the satisfaction of the Superintendent (Town Code § 196-22 B)."
    )


COSTS_TEXT = (
    "Any person violating the article is also liable to the Town for any expense, loss or "
    "damage occasioned by the violation (Town Code § 196-22 C)."
)
CORRECTION_TEXT = (
    "Report the correction to the office; it is verified by the Superintendent or an "
    "authorized inspector (Town Code § 196-21 A)."
)


# --- documents of record (called by the services) --------------------------------------------


def issue_notice(notice: Notice, actor: Actor) -> IssuedDocument | None:
    """The notice's document of record, when it is issued. An order is kept once its terms are
    complete: when a compliance schedule is imposed by it, or when it is served
    (:func:`issue_order`); until then its page shows it as it stands."""
    if is_order(notice):
        return None
    return letters.issue(NOTICE, notice, actor=actor)


def issue_order(notice: Notice, actor: Actor) -> IssuedDocument:
    """The order's document of record (idempotent: the first call keeps it)."""
    return letters.issue(kind_of(notice), notice, actor=actor)


def issue_certificate(notice: Notice, actor: Actor) -> IssuedDocument:
    """The certificate of service, when service is complete; the order served is kept first."""
    if is_order(notice):
        issue_order(notice, actor)
    return letters.issue(CERTIFICATE, notice, actor=actor)


def issue_referral(referral: Referral, actor: Actor) -> IssuedDocument:
    return letters.issue(REFERRAL, referral, actor=actor)


def notice_document(notice: Notice, actor: Actor) -> tuple[IssuedDocument | None, bytes]:
    """What the notice's URL serves: the document of record (one issued before documents were
    kept is kept on first request); an order not yet served and with no schedule yet is shown
    as it stands (its terms are not complete)."""
    key = kind_of(notice)
    complete = notice.mailed_on is not None or notice.served_on is not None
    if is_order(notice) and not complete and not notice.compliance_schedules.exists():
        stored = letters.issued(key, notice)
        if stored is None:
            return None, letters.render(key, notice)
        return stored, bytes(stored.content)
    stored = letters.issued_or_issue(key, notice, actor=notice.issued_by)
    return stored, bytes(stored.content)


def certificate(notice: Notice) -> IssuedDocument | None:
    """The notice's certificate of service, if its service is complete (and recorded since
    certificates were kept; one recorded before is kept on first request)."""
    if notice.served_on is None:
        return None
    return letters.issued(CERTIFICATE, notice) or letters.issued_or_issue(
        CERTIFICATE, notice, actor=notice.served_by
    )


def referral_document(referral: Referral) -> IssuedDocument:
    """The referral's document of record (a referral made before documents were kept is kept
    on first request)."""
    return letters.issued_or_issue(REFERRAL, referral, actor=referral.referred_by)


def kind(key: str) -> LetterKind:
    return letters.kind(key)
