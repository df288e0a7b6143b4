"""The demo's portal: ``newcomer``, a registered and verified account that is not yet linked to
anyone (it sees no records), whose request to act for a homeowner waits in the clerk's queue."""

from __future__ import annotations

from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from sewer_office.accounts import roles
from sewer_office.accounts.services import create_user
from sewer_office.portal import services
from sewer_office.portal.models import Registration

#: A one-page PDF (what a scanned authorization letter begins with: its bytes are checked).
LETTER = b"%PDF-1.4\n% demo: signed authorization of the owner\n%%EOF\n"


def load_demo_portal(town: Any, password: str) -> None:
    user = create_user(
        "newcomer",
        password,
        (roles.APPLICANT,),
        first_name="Nico",
        last_name="Alvarez",
        email="newcomer@demo.invalid",
    )
    Registration.objects.create(user=user, email=user.email, verified_at=timezone.now())
    town.users["newcomer"] = user
    owner = town.users["owner"]
    services.request_link(
        user,
        relation="representative",
        person_name=f"{owner.first_name} {owner.last_name}",
        place="the owner's house (building sewer permit in progress)",
        note="I am the plumbing contractor for the new building sewer.",
        document=SimpleUploadedFile("authorization.pdf", LETTER, content_type="application/pdf"),
    )
