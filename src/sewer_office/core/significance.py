"""Whether an industrial user is a Significant Industrial User, for the apps below the
pretreatment program.

The designation (40 CFR 403.3(v)) is a record of the pretreatment app, which sits above the
permits: an approval issued to a Significant Industrial User must contain the elements of an
individual control mechanism (40 CFR 403.8(f)(1)(iii)(B)), so the permits' workflow must know
whether the establishment is one, without importing the app that knows. The pretreatment app
registers its answer here when it is ready (``PretreatmentConfig.ready``); the permits ask
:func:`is_significant`. Without the pretreatment app no user has been designated, and the
answer is False.

A hook rather than a check in the approve view: :func:`sewer_office.core.services.perform` is
the one path to an approval's decision (the page, the API, the demo, scripts), and its guard is
where the law's preconditions are checked, so the refusal holds on every path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Answers "is this establishment a Significant Industrial User now?".
Designated = Callable[[Any], bool]

_checks: dict[str, Designated] = {}


def register(check: Designated) -> None:
    """Set the answer (the pretreatment app's current designation); a later call replaces it."""
    _checks["siu"] = check


def is_significant(establishment: Any) -> bool:
    """Whether ``establishment`` is designated a Significant Industrial User now."""
    check = _checks.get("siu")
    return check is not None and bool(check(establishment))
