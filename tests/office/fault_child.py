"""The child process of the fault tests (:mod:`tests.office.test_faults`): run as
``python -m tests.office.fault_child COMMAND [ARG]`` from the repository root, with
``DATABASE_URL`` naming the database of the test. It prints one JSON object.

- ``setup``: migrate, then the small test town, its two facilities' sampling points, a flow
  meter ``FAULT-FLOW`` and a second clerk;
- ``lab-file PATH ROWS``: write a laboratory file of ``ROWS`` results for the facilities;
- ``meter-file PATH ROWS``: write ``ROWS`` five-minute readings for the meter;
- ``counts``: what is stored (imports, results, samples, findings, uploads, readings, audit);
- ``race``: two clerks record the same fee payment at once, from two threads;
- ``lost``: a request whose database connection is terminated in the middle of its write.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

PARAMETERS = (("pH", "SU", "7.1"), ("Temperature", "°F", "70"), ("BOD5", "mg/l", "150"))


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sewer_office.config.settings")
    os.environ["SEWER_USE_JURISDICTION"] = "demo"
    import django
    from django.conf import settings

    django.setup()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def setup() -> dict[str, Any]:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from sewer_office.accounts import roles
    from sewer_office.accounts.services import create_user
    from sewer_office.meters.services import register_meter

    from .factories import PASSWORD, make_town
    from .monitoring_factories import facilities

    town = make_town()
    made = facilities(town)
    create_user("engineer2", PASSWORD, (roles.ENGINEER,))
    register_meter(
        town.u("superintendent"), sampling_point=made.my_point, ident="FAULT-FLOW", parameter="flow"
    )
    return {"facilities": [made.mine.code, made.theirs.code]}


def lab_file(path: str, rows: int) -> dict[str, Any]:
    """``rows`` results, three parameters per sample, one sample every ten minutes."""
    start = datetime(2025, 1, 1, 13, 0, tzinfo=UTC)
    lines = ["sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point"]
    codes = ("OWNER-CAFE", "OTHER-PLANT")
    for i in range(rows):
        s = i // len(PARAMETERS)
        name, unit, value = PARAMETERS[i % len(PARAMETERS)]
        at = (start + timedelta(minutes=10 * s)).isoformat()
        lines.append(f"S{s},{at},grab,{name},{value},{unit},{codes[s % 2]},CM-1")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"rows": rows}


def meter_file(path: str, rows: int) -> dict[str, Any]:
    start = datetime(2026, 3, 2, tzinfo=UTC)
    lines = ["timestamp,value"]
    lines += [f"{(start + timedelta(minutes=5 * i)).isoformat()},10" for i in range(rows)]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"rows": rows}


def counts() -> dict[str, Any]:
    from sewer_office.core.models import AuditEvent
    from sewer_office.findings.models import Finding
    from sewer_office.meters.models import Reading, ReadingUpload
    from sewer_office.monitoring.models import LabImport, LabResult, SamplingEvent
    from sewer_office.permits.models import BuildingSewerPermit

    return {
        "lab_imports": LabImport.objects.count(),
        "results": LabResult.objects.count(),
        "samples": SamplingEvent.objects.count(),
        "findings": Finding.objects.count(),
        "uploads": ReadingUpload.objects.count(),
        "readings": Reading.objects.count(),
        "audit": {
            a: AuditEvent.objects.filter(action=a).count()
            for a in ("import_results", "upload_readings", "approve_plans")
        },
        "permit_states": sorted(BuildingSewerPermit.objects.values_list("state", flat=True)),
    }


def _submitted_permit() -> Any:
    from django.contrib.auth import get_user_model

    from sewer_office.registry.models import Person, Property

    from .factories import Town, new_record

    town = Town()
    town.users = {u.username: u for u in get_user_model().objects.all()}
    town.owner_person = Person.objects.get(name="Olive Owner")
    town.owner_home = Property.objects.get(parcel_id="100-01")
    return new_record("building-sewer", town)


def _permit_in_plan_review() -> Any:
    """A filed permit whose fee is paid (the fee step is billing's, as a payment makes it)."""
    from django.contrib.auth import get_user_model

    from sewer_office.core.services import perform

    permit = _submitted_permit()
    clerk = get_user_model().objects.get(username="clerk")
    return perform(permit, "record_fee_payment", clerk, {"receipt_number": "R-FEE"}, automatic=True)


def race() -> dict[str, Any]:
    """Two engineers, each with the permit as read before either acted, approve its plans in
    the same instant (a barrier releases both threads together)."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from sewer_office.core.errors import OfficeError
    from sewer_office.core.services import perform
    from sewer_office.permits.models import BuildingSewerPermit

    permit = _permit_in_plan_review()
    users = get_user_model().objects
    clerks = [users.get(username="engineer"), users.get(username="engineer2")]
    barrier = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def approve(clerk: Any) -> None:
        stale = BuildingSewerPermit.objects.get(pk=permit.pk)
        barrier.wait()
        try:
            perform(stale, "approve_plans", clerk, {})
            outcomes[clerk.username] = "won"
        except OfficeError as e:
            outcomes[clerk.username] = f"refused: {e.message}"
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(c,)) for c in clerks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    permit.refresh_from_db()
    from sewer_office.core.models import AuditEvent

    return {
        "vendor": connection.vendor,
        "outcomes": outcomes,
        "state": permit.state,
        "events": AuditEvent.objects.filter(
            action="approve_plans", object_id=str(permit.pk)
        ).count(),
    }


def lost() -> dict[str, Any]:
    """The engineer approves the plans through the web page; between the permit's update and
    its audit event another session terminates the request's database connection."""
    import psycopg
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    from sewer_office.core import audit
    from sewer_office.core.models import AuditEvent
    from sewer_office.permits.models import BuildingSewerPermit

    from .factories import PASSWORD

    permit = _permit_in_plan_review()
    db = settings.DATABASES["default"]
    original = audit.record

    def record_after_losing_the_connection(*args: Any, **kwargs: Any) -> Any:
        pid = connection.connection.info.backend_pid
        with psycopg.connect(
            host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"]
        ) as other:
            other.execute("SELECT pg_terminate_backend(%s)", (pid,))
        return original(*args, **kwargs)

    client = Client(raise_request_exception=False)
    assert client.login(username="engineer", password=PASSWORD)
    audit.record = record_after_losing_the_connection  # type: ignore[assignment]
    try:
        page = client.post(
            f"/permits/building-sewer/{permit.pk}/actions/approve_plans/",
            {},
        )
        api = Client(raise_request_exception=False)
        assert api.login(username="engineer", password=PASSWORD)
        api_response = api.post(
            f"/api/permits/building-sewer/{permit.pk}/transitions/approve_plans/",
            {},
            content_type="application/json",
        )
    finally:
        audit.record = original  # type: ignore[assignment]
    connection.close()
    permit.refresh_from_db()
    events = AuditEvent.objects.filter(action="approve_plans", object_id=str(permit.pk)).count()
    after = client.post(f"/permits/building-sewer/{permit.pk}/actions/approve_plans/", {})
    state_after_retry = BuildingSewerPermit.objects.get(pk=permit.pk).state
    return {
        "status": page.status_code,
        "body": page.content.decode(),
        "api_status": api_response.status_code,
        "api_body": api_response.content.decode(),
        "state": permit.state,
        "approved_on": str(permit.plans_approved_on or ""),
        "events": events,
        "retry_status": after.status_code,
        "state_after_retry": state_after_retry,
    }


COMMANDS = {
    "setup": setup,
    "lab-file": lambda path, rows: lab_file(path, int(rows)),
    "meter-file": lambda path, rows: meter_file(path, int(rows)),
    "counts": counts,
    "race": race,
    "lost": lost,
}


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    if command not in ("lab-file", "meter-file"):
        _django()
    print(json.dumps(COMMANDS[command](*rest), default=str))
