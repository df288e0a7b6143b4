"""The objects of a served office's start-up, kept out of the garbage collector's full passes.

Python's collector walks every tracked object in a full (generation 2) pass. A worker of the
office holds some 300,000 of them once started (Django, the apps, the law packages, the
network cache), nearly all kept for the life of the process; a full pass over them cost
150 ms, and one came every few requests of a page that makes many objects (the county bench:
the pretreatment program page at p50 72 ms, p95 280). Frozen after start-up (the standard
library's ``gc.freeze``, which CPython's documentation gives for this: objects set up before
serving, moved to a permanent generation), a full pass walks only what requests made since.
"""

from __future__ import annotations

import gc


def settle_start_up() -> None:
    """Collect what start-up left, then freeze the rest: call once, when ready to serve."""
    gc.collect()
    gc.freeze()
