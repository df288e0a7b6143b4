"""Types of the compiled module (``_kernels.c``; its header says what each function does)."""

from typing import Any, TypeAlias

import numpy as np

#: What the functions take: anything with the buffer protocol (numpy arrays for the columns).
_Buffer: TypeAlias = bytes | bytearray | memoryview | np.ndarray[Any, Any]

def historian(
    data: _Buffer, start: int, t: _Buffer, v: _Buffer, places: _Buffer, threads: int
) -> tuple[int, int] | None: ...
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
