"""Records of legal weight, unchangeable below the application: PostgreSQL triggers.

The models refuse to edit or delete these records (:class:`~sewer_office.core.models.
ImmutableRecord`); the triggers refuse it to anyone with a database connection too — a
``psql`` session, a script, a bug that bypasses ``save()``. On SQLite (a laptop) there are no
triggers; the hash chain of the audit events (``sewer-use verify-audit``) still shows changes.

:data:`PROTECTED` is the one list that drives it: one :class:`Protected` per model, naming
which of its rows are issued records (``when``, a condition on ``OLD``; empty = every row) and
what may still change on them, so that the legitimate transitions keep working:

- ``fill_once``: columns set once, from empty (NULL, ``''``, ``false``, ``[]`` or ``{}``) to a
  value — the service of a notice (its served date, method, deadline) is recorded after
  issue, once; ``fill_once_from`` names a class attribute of the model listing them, where
  the model keeps the same list for its own ``save()`` (a notice's ``SERVICE_FIELDS``, a
  correction's ``DECISION_FIELDS``): one list for both guards;
- ``transitions``: ``(column, from, to)`` moves allowed — an approved result becomes
  ``superseded`` when a correction replaces it;
- ``workflow``: the column a :class:`~sewer_office.core.workflow.Workflow` drives (the
  model's ``WORKFLOW``): its moves are read from the workflow's declaration
  (:meth:`~sewer_office.core.workflow.Workflow.moves`) when the triggers are installed, so
  that the database allows exactly what the pages, the API and ``perform`` allow;
- ``with_move``: ``(column, driver)`` — a column that may change only in the same UPDATE as an
  allowed move of ``driver`` (a grease trap's installation recorded again with the move that
  records it, after a refused one; a finding's review note with its review);
- ``settled``: a condition on ``OLD`` from which nothing changes any more, not even what
  ``fill_once`` would fill (a decided correction, a received report);
- ``bookkeeping``: columns that carry no legal content (``updated_at``, counts of rows kept
  elsewhere).

Every other change of such a row, and every DELETE of one, raises an error (SQLSTATE 23001,
``restrict_violation``: an :class:`django.db.IntegrityError` in Django). So does a TRUNCATE of
their tables, unless the transaction said it is the owner's maintenance (:func:`maintenance`:
the tests' ``flush``, which this project's ``flush`` command says); a role that does not own
the tables is refused even then, and is given no TRUNCATE privilege anyway. DROP is not
refused: ``sewer-use restore --force`` drops the tables, and a restore (``pg_restore``) only
INSERTs. The triggers are (re)installed after every ``migrate`` (the ``post_migrate`` signal,
:func:`sync`), and a restore runs ``migrate`` too. A data migration that really must rewrite
protected rows does so inside :func:`suspended`.

Every model of the office is placed (the inventory test holds it): in :data:`PROTECTED` —
*append-only* when nothing may change on its rows (:attr:`Protected.append_only`), *guarded*
otherwise — or in :data:`FREE`, with the reason it is not a record of legal weight. A new model
is placed before its tests pass.
"""

from __future__ import annotations

from .records import FREE, PROTECTED, placement, spec_of
from .spec import Protected
from .triggers import (
    ALL_TRIGGERS,
    FUNCTION,
    MAINTENANCE_SETTING,
    TRIGGER_PREFIX,
    TRUNCATE_FUNCTION,
    maintenance,
    on_post_migrate,
    remove,
    suspended,
    sync,
    trigger_sql,
)

__all__ = [
    "ALL_TRIGGERS",
    "FREE",
    "FUNCTION",
    "MAINTENANCE_SETTING",
    "PROTECTED",
    "TRIGGER_PREFIX",
    "TRUNCATE_FUNCTION",
    "Protected",
    "maintenance",
    "on_post_migrate",
    "placement",
    "remove",
    "spec_of",
    "suspended",
    "sync",
    "trigger_sql",
]
