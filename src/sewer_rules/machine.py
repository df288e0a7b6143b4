"""What the machine gives this process, for the engines that share work among threads.

Imports nothing but the standard library: ``sewer_cli.allocator`` reads it before numpy and
polars load (their allocators read their settings then).
"""

from __future__ import annotations

import os


def cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
