"""Faults of the running system, each proven on a real child process or a real storage:

- ``kill -9`` in the middle of a laboratory import and of a meter upload (PostgreSQL): nothing
  of the file is stored, and the same file then imports cleanly;
- the database connection lost in the middle of a request (PostgreSQL): a 503 page (JSON under
  ``/api/``) and no half-written record;
- two clerks approving the same workflow step at once (PostgreSQL, two threads): exactly one
  wins, the other gets a clear message;
- the disk full while storing an upload: refused with a clear message, nothing kept.

The PostgreSQL tests create a database of their own at 127.0.0.1:5432 and skip when no server
answers. The child is :mod:`tests.office.fault_child`.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sewer_office.core.models import Attachment, AuditEvent
from sewer_office.core.storage import AtomicFileSystemStorage
from sewer_office.permits.models import BuildingSewerPermit

from .factories import PASSWORD, Town

ROOT = Path(__file__).resolve().parents[2]
PG = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}
#: Results of the file killed mid-import: large enough that the import is still writing when
#: the kill lands (it is sent as soon as the child's COPY is seen in pg_stat_activity).
LAB_ROWS = 150_000
METER_ROWS = 200_000
#: The children's data directory (uploads, secret key), set by the ``pg_url`` fixture.
DATA_DIR: list[str] = [""]


def _admin() -> Any:
    import psycopg

    return psycopg.connect(**PG, dbname="postgres", autocommit=True, connect_timeout=3)


@pytest.fixture(scope="module")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated PostgreSQL database with the test town (module scope: one migrate)."""
    try:
        admin = _admin()
    except Exception as e:
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 does not answer: {e}")
    name = f"sewer_faults_{uuid.uuid4().hex[:10]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql://postgres@127.0.0.1:5432/{name}"
    data = tmp_path_factory.mktemp("fault-data")
    DATA_DIR[:] = [str(data)]
    try:
        child(url, "setup")
        yield url
    finally:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.close()


def _env(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    env.update(
        DATABASE_URL=url,
        SEWER_USE_DATA_DIR=DATA_DIR[0],
        SEWER_USE_JURISDICTION="demo",
        PYTHONPATH=str(ROOT / "src") + os.pathsep + str(ROOT),
    )
    return env


def child(url: str, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.office.fault_child", *args],
        cwd=ROOT,
        env=_env(url),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def cli(url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sewer_cli.main", *args],
        cwd=ROOT,
        env=_env(url),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_write(url: str, proc: subprocess.Popen[str], pattern: str) -> str:
    """Wait until the child's session runs a statement matching ``pattern`` (its bulk write
    inside the import's transaction); returns that statement."""
    dbname = url.rsplit("/", 1)[1]
    deadline = time.monotonic() + 300
    with _admin() as admin:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                out, err = proc.communicate()
                raise AssertionError(f"the child ended before it was killed: {out}{err}")
            row = admin.execute(
                "SELECT query FROM pg_stat_activity WHERE datname = %s AND state = 'active' "
                "AND backend_xid IS NOT NULL AND query ILIKE %s LIMIT 1",
                (dbname, pattern),
            ).fetchone()
            if row:
                return str(row[0])
            time.sleep(0.02)
    raise AssertionError("the child never reached its bulk write")


def _kill(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


def _wait_rolled_back(url: str) -> None:
    """The server notices the dead client and rolls its transaction back."""
    dbname = url.rsplit("/", 1)[1]
    with _admin() as admin:
        for _ in range(500):
            if not admin.execute(
                "SELECT 1 FROM pg_stat_activity WHERE datname = %s AND backend_xid IS NOT NULL",
                (dbname,),
            ).fetchone():
                return
            time.sleep(0.02)


def test_kill_9_mid_laboratory_import_leaves_nothing(pg_url: str, tmp_path: Path) -> None:
    path = tmp_path / "big-lab.csv"
    child(pg_url, "lab-file", str(path), str(LAB_ROWS))
    before = child(pg_url, "counts")
    proc = cli(pg_url, "import-results", str(path), "--as", "superintendent")
    query = _wait_for_write(pg_url, proc, "%COPY%monitoring_%")
    _kill(proc)
    _wait_rolled_back(pg_url)
    after = child(pg_url, "counts")
    assert "COPY" in query.upper()
    assert after == before, "a killed import left part of its file stored"
    again = cli(pg_url, "import-results", str(path), "--as", "superintendent")
    out, err = again.communicate(timeout=600)
    assert again.returncode == 0, out + err
    stored = child(pg_url, "counts")
    assert stored["lab_imports"] == before["lab_imports"] + 1
    assert stored["results"] == before["results"] + LAB_ROWS
    assert stored["audit"]["import_results"] == before["audit"]["import_results"] + 1


def test_kill_9_mid_meter_upload_leaves_nothing(pg_url: str, tmp_path: Path) -> None:
    path = tmp_path / "big-meter.csv"
    child(pg_url, "meter-file", str(path), str(METER_ROWS))
    before = child(pg_url, "counts")
    proc = cli(pg_url, "import-readings", "FAULT-FLOW", str(path), "--as", "superintendent")
    _wait_for_write(pg_url, proc, "%COPY%meters_reading%")
    _kill(proc)
    _wait_rolled_back(pg_url)
    after = child(pg_url, "counts")
    assert after == before, "a killed upload left part of its file stored"
    again = cli(pg_url, "import-readings", "FAULT-FLOW", str(path), "--as", "superintendent")
    out, err = again.communicate(timeout=600)
    assert again.returncode == 0, out + err
    stored = child(pg_url, "counts")
    assert stored["uploads"] == before["uploads"] + 1
    assert stored["readings"] == before["readings"] + METER_ROWS


def test_two_officers_approving_the_same_step_at_once(pg_url: str) -> None:
    for _ in range(3):  # the race is real each time: both threads are released together
        got = child(pg_url, "race")
        assert got["vendor"] == "postgresql"
        outcomes = sorted(got["outcomes"].values())
        assert len(outcomes) == 2 and outcomes[1] == "won", got
        assert (
            outcomes[0].startswith("refused: ")
            and "not possible while the record is" in (outcomes[0])
        ), got
        assert got["state"] == "plans_approved" and got["events"] == 1, got


def test_database_lost_mid_request_gives_503_and_no_half_record(pg_url: str) -> None:
    got = child(pg_url, "lost")
    assert got["status"] == 503, got["body"][:500]
    assert (
        "database is not answering" in got["body"]
        and "Nothing of this request was saved" in (got["body"])
    )
    assert got["api_status"] == 503 and "database" in json.loads(got["api_body"])["errors"]
    # neither the permit's new state nor its approval date nor an audit event was kept
    assert got["state"] == "plan_review" and got["approved_on"] == "" and got["events"] == 0, got
    # and the office works again at the next request
    assert got["retry_status"] == 302 and got["state_after_retry"] == "plans_approved", got


# --- disk full --------------------------------------------------------------------------------


def _fill_disk(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The storage writes the first chunk, then the disk is full (ENOSPC)."""
    written: list[int] = []

    def write(self: AtomicFileSystemStorage, out: Any, chunk: bytes) -> None:
        if written:
            raise OSError(errno.ENOSPC, "No space left on device")
        out.write(chunk[: len(chunk) // 2])
        out.flush()
        written.append(len(chunk) // 2)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(AtomicFileSystemStorage, "_write", write)
    return written


def _files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def test_disk_full_while_storing_an_upload_refuses_and_keeps_nothing(
    town: Town, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sewer_office.core.errors import InvalidInput

    from .factories import new_record

    media = Path(settings.MEDIA_ROOT)
    written = _fill_disk(monkeypatch)
    permits, events = BuildingSewerPermit.objects.count(), AuditEvent.objects.count()
    with pytest.raises(InvalidInput) as refused:
        new_record("building-sewer", town)  # filed with its plans (plans.pdf)
    assert written, "the upload never reached the storage"
    message = refused.value.errors["files"][0]
    assert message.startswith("plans.pdf: not stored") and "disk is full" in message
    assert BuildingSewerPermit.objects.count() == permits
    assert AuditEvent.objects.count() == events and not Attachment.objects.exists()
    assert _files(media) == [], "a partial file was kept"


def test_disk_full_on_the_second_file_keeps_neither(
    town: Town, client: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .factories import new_record

    permit = new_record("building-sewer", town)
    media = Path(settings.MEDIA_ROOT)
    kept_before = sorted(_files(media))
    atts = Attachment.objects.count()
    real = AtomicFileSystemStorage._write
    calls: list[int] = []

    def second_fails(self: AtomicFileSystemStorage, out: Any, chunk: bytes) -> None:
        calls.append(1)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(self, out, chunk)

    monkeypatch.setattr(AtomicFileSystemStorage, "_write", second_fails)
    assert client.login(username="clerk", password=PASSWORD)
    page = client.post(
        f"/permits/building-sewer/{permit.pk}/files/",
        {
            "files": [
                SimpleUploadedFile("a.pdf", b"%PDF-1.4 a", "application/pdf"),
                SimpleUploadedFile("b.pdf", b"%PDF-1.4 b", "application/pdf"),
            ]
        },
        follow=True,
    )
    assert "b.pdf: not stored" in page.content.decode()
    assert Attachment.objects.count() == atts
    assert sorted(_files(media)) == kept_before, "the first file of a refused upload was kept"


def test_atomic_storage_stores_whole_files(settings: Any, tmp_path: Path) -> None:
    storage = AtomicFileSystemStorage(location=tmp_path)
    name = storage.save("attachments/x/1/plan.pdf", SimpleUploadedFile("plan.pdf", b"whole"))
    again = storage.save("attachments/x/1/plan.pdf", SimpleUploadedFile("plan.pdf", b"second"))
    assert name != again and storage.open(name).read() == b"whole"
    assert storage.open(again).read() == b"second"
    assert sorted(p.name for p in _files(tmp_path)) == sorted([Path(name).name, Path(again).name])
