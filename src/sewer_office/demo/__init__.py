"""The demo town: a plausible, deterministic town to try the office with (``sewer-use demo``).

Everything is created through the same services people use — fees from the ``demo``
jurisdiction's example amounts, every transition by a user holding the role the law names,
back-dated so that the records have histories. Names, parcels and acts are invented.
"""

from __future__ import annotations

from .build import build_demo_town

__all__ = ["build_demo_town"]
