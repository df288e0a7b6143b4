"""The allocator settings of the commands that move columns of millions of values.

polars allocates through its own jemalloc, which by default keeps four arenas per CPU: the
threads of polars' pool each take one, so memory a thread frees is seldom the memory the next
column asks for, and every new column is fresh pages that the kernel must fault in and zero.
One arena per CPU of the process keeps freed pages in reuse. On 1,000,000 laboratory rows
(``bench/check_throughput.py``) this took ``sewer-use check`` from about 290,000 page faults
to about 225,000, its peak from about 940 MB to about 840 MB and its time by 5–10 %; the
docs/performance.md gives the paired runs. jemalloc reads the setting once, when polars loads: it is set
before. A number of arenas the user chose in ``_RJEM_MALLOC_CONF`` is kept; the variable's
other settings are kept too (a Python process that loaded polars passes polars' own defaults in
it to the commands it starts, ``bench/`` among them).

numpy asks the kernel for transparent huge pages for every large array; the slug engine's
passes make and drop many, and each fault then zeroes (and may compact) 2 MB: half its time
was the kernel's. numpy reads its setting when it is imported. And glibc, which numpy's arrays
come from, hands a freed block of more than 128 KB back to the kernel (and the top of its heap
once it is 128 KB), so the next array of the same size is faulted in again: the slug engine's
batches of 65,536 readings (``sewer_engines.monitoring.normal``) faulted 135,000 pages in one
command. Blocks up to 32 MB are kept in the heap and reused (``mallopt``, where the C library
is glibc; the memory is the process's until it exits, which for a command is moments later).
"""

from __future__ import annotations

import ctypes
import os
import sys

from sewer_rules.machine import cpus

#: polars' jemalloc (its symbols are prefixed ``_rjem_``, so is the variable it reads).
JEMALLOC = "_RJEM_MALLOC_CONF"
#: numpy's switch for transparent huge pages.
NUMPY_HUGE_PAGES = "NUMPY_MADVISE_HUGEPAGE"


#: glibc's ``mallopt`` parameters (malloc.h) and the values set: blocks up to 32 MB (glibc's
#: largest threshold on 64 bits) from the heap, and the heap not trimmed below 256 MB of free top.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
HEAP_BLOCKS_UP_TO = 32 << 20
HEAP_KEPT = 256 << 20


def for_columns(numpy_arrays: bool = False) -> None:
    """Set the allocators for a command over large columns, before polars (and numpy) load;
    ``numpy_arrays``: the command works large numpy arrays (numpy's huge pages off, freed
    memory kept for reuse). Nothing is changed for a library already loaded (its allocator has
    read its settings), nor a setting the user has chosen."""
    conf = os.environ.get(JEMALLOC, "")
    if "polars" not in sys.modules and "narenas:" not in conf:
        os.environ[JEMALLOC] = ",".join(s for s in (conf, f"narenas:{cpus()}") if s)
    if numpy_arrays:
        if "numpy" not in sys.modules:
            os.environ.setdefault(NUMPY_HUGE_PAGES, "0")
        keep_freed_memory()


def keep_freed_memory() -> bool:
    """Keep freed blocks up to :data:`HEAP_BLOCKS_UP_TO` in glibc's heap for reuse; False where
    the C library has no ``mallopt`` (not glibc) or the user set glibc's own variables."""
    if any(k in os.environ for k in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(
        mallopt(M_MMAP_THRESHOLD, HEAP_BLOCKS_UP_TO) and mallopt(M_TRIM_THRESHOLD, HEAP_KEPT)
    )
