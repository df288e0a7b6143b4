"""Django's ``flush``, saying that its TRUNCATE is the owner's maintenance.

On PostgreSQL the tables of the records of legal weight refuse TRUNCATE
(:mod:`sewer_office.core.protection`) unless the transaction says it is maintenance and the
role owns them. Django's ``flush`` — what the tests call between transactional tests, and what
an operator may run on a database meant to be emptied — truncates every table: this command
is Django's, run inside one transaction that first says so (:func:`~sewer_office.core.
protection.maintenance`). The setting lasts to the end of that transaction, and a role that
does not own the tables is not heard (nor has it the TRUNCATE privilege).
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections, transaction

from sewer_office.core import protection


class Command(flush.Command):
    help = flush.Command.help + " The tables of records of legal weight say it is maintenance."

    def handle(self, **options: Any) -> None:
        database = options["database"]
        with transaction.atomic(using=database):
            protection.maintenance(connections[database])
            super().handle(**options)
