"""The allocator settings of the commands that move columns of millions of values.

polars allocates through its own jemalloc, which by default keeps four arenas per CPU: the
threads of polars' pool each take one, so memory a thread frees is seldom the memory the next
column asks for, and every new column is fresh pages that the kernel must fault in and zero.
One arena per CPU of the process keeps freed pages in reuse. On 1,000,000 laboratory rows
(``bench/check_throughput.py``) this took ``sewer-use check`` from about 290,000 page faults
to about 225,000, its peak from about 940 MB to about 840 MB and its time by 5–10 %; the
README gives the paired runs. jemalloc reads the setting once, when polars loads: it is set
before. A number of arenas the user chose in ``_RJEM_MALLOC_CONF`` is kept; the variable's
other settings are kept too (a Python process that loaded polars passes polars' own defaults in
it to the commands it starts, ``bench/`` among them).

numpy asks the kernel for transparent huge pages for every large array; the slug engine's
passes make and drop many, and each fault then zeroes (and may compact) 2 MB: half its time
was the kernel's. numpy reads its setting when it is imported.
"""

from __future__ import annotations

import os
import sys

#: polars' jemalloc (its symbols are prefixed ``_rjem_``, so is the variable it reads).
JEMALLOC = "_RJEM_MALLOC_CONF"
#: numpy's switch for transparent huge pages.
NUMPY_HUGE_PAGES = "NUMPY_MADVISE_HUGEPAGE"


def cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def for_columns(huge_pages: bool = True) -> None:
    """Set the allocators for a command over large columns, before polars (and numpy) load;
    ``huge_pages=False`` also turns numpy's huge pages off. Nothing is changed for a library
    already loaded (its allocator has read its settings), nor a setting the user has chosen."""
    conf = os.environ.get(JEMALLOC, "")
    if "polars" not in sys.modules and "narenas:" not in conf:
        os.environ[JEMALLOC] = ",".join(s for s in (conf, f"narenas:{cpus()}") if s)
    if not huge_pages and "numpy" not in sys.modules:
        os.environ.setdefault(NUMPY_HUGE_PAGES, "0")
