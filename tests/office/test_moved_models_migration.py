"""Moving models between apps keeps every stored row.

A database made before the moves holds its findings in ``monitoring_finding`` under the
monitoring app and its sewer networks in ``registry_*`` under the registry; migrating it must
leave each row where it was, now the findings or network app's, with its content type (which
audit events and permissions point at) moved along.

One database made before both moves (as an installation older than both is) carries a finding
and a network through both: migrating back and forth renders the project's states once, not
once per move (each round trip costs tens of seconds).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from sewer_office.findings.models import Finding
from sewer_office.network.models import NetworkVersion

#: Before both moves: the findings still the monitoring app's (at its first migration), the
#: networks still the registry's (before its fourth).
BEFORE = [
    ("registry", "0003_establishment_code_and_more"),
    ("network", None),
    ("monitoring", "0001_initial"),
    ("findings", None),
]


def _executor() -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor


@pytest.mark.django_db(transaction=True)
def test_migrating_an_existing_database_keeps_its_findings_and_networks() -> None:
    executor = _executor()
    executor.migrate(BEFORE)
    old = executor.loader.project_state(
        [
            ("monitoring", "0001_initial"),
            ("registry", "0003_establishment_code_and_more"),
            ("contenttypes", "0002_remove_content_type_name"),
        ]
    ).apps
    content_type = old.get_model("contenttypes", "ContentType")
    finding_type, _ = content_type.objects.get_or_create(app_label="monitoring", model="finding")
    finding = old.get_model("monitoring", "Finding").objects.create(
        kind="lab_result",
        status="exceeds",
        citation="§ 196-19 C(3)",
        message="stored before the move",
        observed_at=datetime(2026, 1, 5, 12, tzinfo=UTC),
    )
    network_type, _ = content_type.objects.get_or_create(
        app_label="registry", model="networkversion"
    )
    network = old.get_model("registry", "NetworkVersion").objects.create(
        geojson="{}", sha256="0" * 64, active=True
    )

    executor = _executor()
    executor.migrate(executor.loader.graph.leaf_nodes())

    # the findings: monitoring's table and content type, now the findings app's
    moved = Finding.objects.get(pk=finding.pk)
    assert (moved.message, moved.citation, moved.status) == (
        "stored before the move",
        "§ 196-19 C(3)",
        "exceeds",
    )
    finding_type.refresh_from_db()
    assert (finding_type.app_label, finding_type.model) == ("findings", "finding")
    # the networks: the registry's, now the network app's
    version = NetworkVersion.objects.get(pk=network.pk)
    assert (version.geojson, version.active) == ("{}", True)
    network_type.refresh_from_db()
    assert (network_type.app_label, network_type.model) == ("network", "networkversion")
