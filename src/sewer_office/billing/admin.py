"""Back office view of billing: read-only — every change goes through the app's services
(pages, API, commands), so that it is made by the clerk and audited."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .basis_models import SurchargeAgreement, SurchargeDecision, SurchargeEnding
from .models import (
    BillingRun,
    Charge,
    Invoice,
    InvoiceLine,
    NumberSequence,
    Payment,
    PaymentApplication,
    Refund,
    RunLine,
)

register_read_only(
    BillingRun,
    RunLine,
    Charge,
    Invoice,
    InvoiceLine,
    NumberSequence,
    Payment,
    PaymentApplication,
    Refund,
    SurchargeDecision,
    SurchargeAgreement,
    SurchargeEnding,
)
