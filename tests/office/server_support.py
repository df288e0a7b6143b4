"""A ``sewer-use serve`` started for a test: on a free port of 127.0.0.1, its output in a log
file, stopped when the test ends (the production server's test and the development server's)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "sewer_cli.main"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(args: list[str], env: dict[str, str], log: Path) -> Iterator[int]:
    """``sewer-use serve <args> --port N`` until it listens (up to 60 s on a loaded machine:
    a deadline, not a measure); yields the port, and stops the server after the block."""
    port = free_port()
    with log.open("wb") as out:
        server = subprocess.Popen(
            [*CLI, "serve", *args, "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        for _ in range(600):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if server.poll() is not None:
                    pytest.fail(f"the server stopped: {log.read_text()}")
                time.sleep(0.1)
        else:
            pytest.fail(f"the server did not listen: {log.read_text()}")
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)
