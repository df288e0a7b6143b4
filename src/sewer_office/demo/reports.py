"""The demo's signed report: Acme's representative recorded as its signatory (403.12(l)(3)),
and its next periodic compliance report assembled and signed, waiting for the office's review.

The one-time code a signer receives by e-mail is, here, one the builder records itself (as
its hash, like every code), so that the demo is built without a mailbox to read."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from sewer_office.registry.models import Establishment
from sewer_office.reports import services
from sewer_office.reports.models import SigningCode

ACME = "Acme Plating Corporation"
DEMO_CODE = "246810"


def load_demo_reports(town: Any, password: str) -> None:
    acme = Establishment.objects.get(name=ACME)
    rep = town.users["acme"]
    services.record_signatory(
        town.users["superintendent"],
        acme,
        user=rep,
        kind="authorized",
        title="Environmental Compliance Manager",
        authorization="Letter of Acme's president, on file since the approval",
        valid_from=town.anchor - timedelta(days=365),
    )
    due = (
        acme.report_dues.filter(received_on__isnull=True, kind="periodic_noncat")
        .order_by("due_on")
        .first()
    )
    if due is None:
        return
    report = services.assemble(rep, due)
    SigningCode.objects.create(
        report=report,
        user=rep,
        code_hash=services.hash_code(DEMO_CODE),
        expires_at=timezone.now() + timedelta(minutes=services.CODE_MINUTES),
    )
    services.sign(rep, report, password=password, code=DEMO_CODE)
