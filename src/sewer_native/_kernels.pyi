"""Types of the compiled module (``_kernels.c``; its header says what each function does)."""

import mmap
from typing import Any, TypeAlias

import numpy as np

#: What the functions take: anything with the buffer protocol (numpy arrays for the columns,
#: a file's bytes or the file mapped).
_Buffer: TypeAlias = bytes | bytearray | memoryview | mmap.mmap | np.ndarray[Any, Any]

def historian(
    data: _Buffer,
    start: int,
    columns: tuple[int, int, int, int],
    t: _Buffer,
    v: _Buffer,
    rows: _Buffer,
    places: _Buffer,
    meters: _Buffer,
    edges: _Buffer,
    offsets: _Buffer,
    threads: int,
) -> list[tuple[bytes, int, int, int, int, bool]] | None: ...
def trailing_normal(
    t: _Buffer,
    v: _Buffer,
    starts: _Buffer,
    stops: _Buffer,
    windows: _Buffer,
    ps: _Buffer,
    qs: _Buffer,
    live: _Buffer,
    normal: _Buffer,
) -> tuple[int, int, int]: ...
