"""``sewer-use manage grant_runtime_role [ROLE]``: grant the office's runtime PostgreSQL role
what it needs and nothing more (:mod:`sewer_office.core.db_roles`).

Run as the owner of the tables (``sewer-use manage`` connects as
``SEWER_USE_OWNER_DATABASE_URL`` for this command). ``migrate`` does the same by itself when
``SEWER_USE_RUNTIME_ROLE`` is set; this command is for a role created after the last
migration, or to see the statements (``--sql``). On SQLite there is nothing to grant.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections

from sewer_office.core import db_roles


class Command(BaseCommand):
    help = (
        "Grant the runtime PostgreSQL role of the office its privileges (no DELETE of records "
        "of legal weight, no UPDATE of append-only ones, no TRUNCATE, no ownership); run as "
        "the tables' owner."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "role",
            nargs="?",
            default="",
            help="the runtime role (default: SEWER_USE_RUNTIME_ROLE)",
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="database alias")
        parser.add_argument(
            "--sql", action="store_true", help="print the statements instead of running them"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        role = options["role"] or str(getattr(settings, "SEWER_USE_RUNTIME_ROLE", "") or "")
        if connection.vendor != "postgresql":
            self.stdout.write(
                f"Nothing to do: the database is {connection.vendor}; runtime roles and their "
                "grants are PostgreSQL's."
            )
            return
        if not role.strip():
            raise CommandError("name the runtime role: ROLE, or SEWER_USE_RUNTIME_ROLE")
        if options["sql"]:
            with connection.cursor() as cursor:
                cursor.execute("SELECT current_database(), current_schema()")
                database, schema = cursor.fetchone()
            for statement in db_roles.statements(
                role.strip(), database, schema, db_roles.plan(connection)
            ):
                self.stdout.write(statement + ";")
            return
        done = db_roles.grant(connection, role)
        if done is not None:
            self.stdout.write(f"Granted {done.summary()}.")
