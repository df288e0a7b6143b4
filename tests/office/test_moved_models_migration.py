"""Moving models between apps (issue 11) keeps every stored row.

A database made before the moves holds its findings in ``monitoring_finding`` under the
monitoring app and its sewer networks in ``registry_*`` under the registry; migrating it must
leave each row where it was, now the findings or network app's, with its content type (which
audit events and permissions point at) moved along.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from sewer_office.findings.models import Finding
from sewer_office.network.models import NetworkVersion

BEFORE = [("monitoring", "0001_initial"), ("findings", None)]


def _executor() -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor


@pytest.mark.django_db(transaction=True)
def test_migrating_an_existing_database_keeps_its_findings() -> None:
    executor = _executor()
    executor.migrate(BEFORE)
    old = executor.loader.project_state([("monitoring", "0001_initial")]).apps
    content_type = old.get_model("contenttypes", "ContentType")
    old_type, _ = content_type.objects.get_or_create(app_label="monitoring", model="finding")
    stored = old.get_model("monitoring", "Finding").objects.create(
        kind="lab_result",
        status="exceeds",
        citation="§ 196-19 C(3)",
        message="stored before the move",
        observed_at=datetime(2026, 1, 5, 12, tzinfo=UTC),
    )

    executor = _executor()
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = Finding.objects.get(pk=stored.pk)
    assert (moved.message, moved.citation, moved.status) == (
        "stored before the move",
        "§ 196-19 C(3)",
        "exceeds",
    )
    old_type.refresh_from_db()
    assert (old_type.app_label, old_type.model) == ("findings", "finding")


@pytest.mark.django_db(transaction=True)
def test_migrating_an_existing_database_keeps_its_networks() -> None:
    before = [("registry", "0003_establishment_code_and_more"), ("network", None)]
    executor = _executor()
    executor.migrate(before)
    old = executor.loader.project_state(
        [
            ("registry", "0003_establishment_code_and_more"),
            ("contenttypes", "0002_remove_content_type_name"),
        ]
    ).apps
    content_type = old.get_model("contenttypes", "ContentType")
    old_type, _ = content_type.objects.get_or_create(app_label="registry", model="networkversion")
    stored = old.get_model("registry", "NetworkVersion").objects.create(
        geojson="{}", sha256="0" * 64, active=True
    )

    executor = _executor()
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = NetworkVersion.objects.get(pk=stored.pk)
    assert (moved.geojson, moved.active) == ("{}", True)
    old_type.refresh_from_db()
    assert (old_type.app_label, old_type.model) == ("network", "networkversion")
