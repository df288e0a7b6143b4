"""The fixed vocabularies of billing. Amounts and rates are *not* here: they are dated
parameters of the jurisdiction (``fee.*``, ``surcharge.*``, ``invoice.*``), set by Town Board
resolution and read on the date a charge rests on."""

from __future__ import annotations

from django.db import models


class ChargeSource(models.TextChoices):
    """Where a charge comes from, each with the provision it rests on (:data:`SOURCE_CITATIONS`)."""

    BUILDING_SEWER_FEE = "building_sewer_fee", "Building sewer permit and inspection fee"
    INDUSTRIAL_APPROVAL_FEE = "industrial_approval_fee", "Industrial discharge approval fee"
    SUBDIVISION_FEE = "subdivision_fee", "Subdivision sewer permit fee"
    ARTICLE_COPY = "article_copy", "Copies of the article"
    SURCHARGE = "surcharge", "Extra-strength surcharge"
    COST_RECOVERY = "cost_recovery", "Town's expense, loss or damage"
    #: A fine the court imposed on conviction, collected by the Town (the court's judgment is
    #: the debt; the office never bills a fine of its own count).
    FINE_JUDGMENT = "fine_judgment", "Fine imposed by the court, collected by the Town"
    OTHER_FEE = "other_fee", "Other fee of the jurisdiction"


#: The provision each source of charge rests on. The article sets no fee for an industrial
#: discharge approval (§ 196-16 E requires the approval, not a fee): it rests on the Town
#: Board's resolution alone.
SOURCE_CITATIONS: dict[str, str] = {
    ChargeSource.BUILDING_SEWER_FEE: "§ 196-18 B",
    ChargeSource.INDUSTRIAL_APPROVAL_FEE: "Town Board resolution",
    ChargeSource.SUBDIVISION_FEE: "§ 196-23 C",
    ChargeSource.ARTICLE_COPY: "§ 196-23 D",
    ChargeSource.SURCHARGE: "§ 196-19 E(1)(d)",
    ChargeSource.COST_RECOVERY: "§ 196-22 C",
    ChargeSource.FINE_JUDGMENT: "§ 196-22 B",
    ChargeSource.OTHER_FEE: "",
}


class RunState(models.TextChoices):
    """A billing run is computed as a draft, reviewed by the clerk, then issued or discarded."""

    DRAFT = "draft", "Draft — under review"
    ISSUED = "issued", "Issued"
    DISCARDED = "discarded", "Discarded"


class RunLineStatus(models.TextChoices):
    """What the run found for one facility in the period."""

    CHARGED = "charged", "Surcharge due"
    NO_CHARGE = "no_charge", "No excess over normal strength"
    NOT_COMPUTABLE = "not_computable", "Cannot be computed"
    NOT_CONFIGURED = "not_configured", "Rate not configured"
    #: Listed, never billed: abnormal strength without a § 196-19 E(1)(d) decision or J agreement.
    NO_DECISION = "no_decision", "Abnormal strength, no surcharge decision"


class FlowSource(models.TextChoices):
    """Where the period's flow came from — the bill says which."""

    METER = "meter", "Meter readings"
    DECLARED = "declared", "Flow declared in the approval (no meter)"
    NONE = "none", "No flow data"


class InvoiceKind(models.TextChoices):
    INVOICE = "invoice", "Invoice"
    CREDIT_NOTE = "credit_note", "Credit note"


class InvoiceState(models.TextChoices):
    """An issued document is never edited: it is voided (with a reason) or credited."""

    ISSUED = "issued", "Issued"
    VOID = "void", "Void"


class Series(models.TextChoices):
    """Numbering series, each without gaps per year."""

    INVOICE = "invoice", "Invoices and credit notes"
    RECEIPT = "receipt", "Receipts"


class PaymentMethod(models.TextChoices):
    CASH = "cash", "Cash"
    CHECK = "check", "Check"
    CARD = "card", "Card"
    TRANSFER = "transfer", "Bank transfer"


#: Methods whose payment must carry a reference (check number, card or transfer reference).
METHODS_NEEDING_REFERENCE = (PaymentMethod.CHECK, PaymentMethod.CARD, PaymentMethod.TRANSFER)


class DecisionBasis(models.TextChoices):
    """§ 196-19 E(1): payment "instead of or beside" the other measures the Superintendent may take."""

    INSTEAD = "instead_of_pretreatment", "Payment instead of pretreatment"
    BESIDE = "beside_pretreatment", "Payment in addition to pretreatment"


class PayStatus(models.TextChoices):
    """Where an invoice stands with its payments (read from the records, not stored)."""

    ISSUED = "issued", "Issued, unpaid"
    PART_PAID = "part_paid", "Part paid"
    PAID = "paid", "Paid"
    CREDITED = "credited", "Credited in full"
    VOID = "void", "Void"
    CREDIT_NOTE = "credit_note", "Credit note"
