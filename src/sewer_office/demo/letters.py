"""The demo town's letterhead: a complete one, so the demo's letters show an address, a
contact and how to pay (every value an EXAMPLE: a 555 telephone number, a .invalid e-mail)."""

from __future__ import annotations

from typing import Any

from sewer_office.accounts.towns import primary, values_of
from sewer_office.core.letter_edits import save_letterhead
from sewer_office.core.models import Letterhead


def load_demo_letterhead(town: Any) -> Letterhead:
    return save_letterhead(
        {
            "town_name": values_of(primary()).name,
            "office_name": "Office of the Superintendent of the Sewer Districts",
            "address": "Town Hall, 20 Example Road\nWappingers Falls, NY 12590",
            "phone": "(555) 010-0196",
            "email": "sewer-office@demo.invalid",
            "hours": "Monday to Friday, 8:30 a.m. to 4:00 p.m.",
            "payment_instructions": (
                "Pay by check to the order of the Town (EXAMPLE), at the Town Clerk's office or "
                "by mail to the address above, writing the invoice number on the check; or in "
                "person by cash or card at the Town Clerk's office during office hours."
            ),
            "note": "The demo town's letterhead (EXAMPLE values)",
        },
        actor=town.users["clerk"],
    )
