"""A served worker's start-up objects are out of the collector's full passes (core.heap): the
WSGI module, which gunicorn and the development server load, freezes them once started."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_the_wsgi_module_freezes_what_start_up_made(tmp_path: Path) -> None:
    code = (
        "import gc, sewer_office.config.wsgi; print(gc.get_freeze_count(), len(gc.get_objects()))"
    )
    env = {
        **os.environ,
        "SEWER_USE_DATA_DIR": str(tmp_path),
        "SEWER_USE_WARM_NETWORK": "0",
        "DJANGO_SETTINGS_MODULE": "sewer_office.config.settings",
    }
    env.pop("DATABASE_URL", None)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    frozen, tracked = int(out[0]), int(out[1])
    # start-up's objects are frozen; what the collector still walks is a small remainder
    assert frozen > 100_000 and tracked < frozen // 10
