"""Errors the services raise; the web views and the API turn them into pages and status codes.

- :class:`Forbidden` — the law reserves the action to another role (HTTP 403).
- :class:`TransitionNotAllowed` — the record is not in a state the action starts from (409).
- :class:`Blocked` — a precondition the law sets is not met, e.g. a fee not configured or a
  road opening permit missing (409), with a message that says what is missing and why.
- :class:`InvalidInput` — field-level errors of the submitted data (400).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.core.exceptions import PermissionDenied

# shorten: the lowest layer's (a 200,000-digit value is not echoed whole), used here and by
# the office's modules through this one (re-exported)
from sewer_rules.hostile import shorten as shorten


class OfficeError(Exception):
    """Base of the errors a service raises with a message meant for the user."""

    status_code = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Forbidden(PermissionDenied):
    """The actor's roles do not include one the law names for this action."""

    status_code = 403

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TransitionNotAllowed(OfficeError):
    status_code = 409


class Blocked(OfficeError):
    status_code = 409


class InvalidInput(OfficeError):
    """Submitted data failed validation; ``errors`` maps field names to messages."""

    status_code = 400

    def __init__(self, errors: dict[str, list[str]], form: object | None = None) -> None:
        first = next(iter(errors.values()), ["invalid input"])
        super().__init__("; ".join(first))
        self.errors = errors
        self.form = form


def _amount(size: int) -> str:
    mb = 1024 * 1024
    return f"{size // mb} MB" if size >= mb and size % mb == 0 else f"{size:,} bytes"


#: True while the operator's own command reads a file (:func:`operator_files`).
_OPERATOR_FILES: ContextVar[bool] = ContextVar("sewer_use_operator_files", default=False)


@contextmanager
def operator_files() -> Iterator[None]:
    """Within this block the upload cap does not apply: the operator's own commands
    (``sewer-use import-results``, ``import-readings``, ``import-facilities``,
    ``import-records``, ...) take a file of any size the machine can hold.

    The cap guards the office against what a browser or an API client sends — a stranger's
    200 MB body, a Parquet or ZIP "bomb" — and a county laboratory's year of results is
    larger than that; the operator who runs the command on the server already holds the file
    and the machine. Pages and the API never enter this block, so the cap stays theirs.
    """
    token = _OPERATOR_FILES.set(True)
    try:
        yield
    finally:
        _OPERATOR_FILES.reset(token)


def upload_cap(setting: str = "SEWER_USE_MAX_UPLOAD_BYTES") -> int | None:
    """The cap in bytes the ``setting`` sets, or None within :func:`operator_files` (no cap)."""
    if _OPERATOR_FILES.get():
        return None
    return int(getattr(settings, setting))


def over_cap(what: str, size: int, limit: int, setting: str = "SEWER_USE_MAX_UPLOAD_BYTES") -> str:
    """The refusal of ``what`` (a file, a member of an archive: already shortened) of ``size``
    bytes over the ``limit`` — naming the setting that raises it."""
    return (
        f"{what}: {size:,} bytes, larger than the {_amount(limit)} allowed "
        f"(the operator's setting {setting})"
    )


def upload_too_large(
    name: str, size: int, setting: str = "SEWER_USE_MAX_UPLOAD_BYTES"
) -> str | None:
    """The refusal of an upload of ``size`` bytes over the office's cap, or None if it fits.

    One cap for every file the office accepts (``SEWER_USE_MAX_UPLOAD_BYTES``, 20 MB by
    default), checked on the size the upload declares, before anything is read; a file the
    office streams to disk may name its own (``setting``). The refusal names the setting that
    raises the cap. None within :func:`operator_files` (the operator's commands).
    """
    limit = upload_cap(setting)
    if limit is None or size <= limit:
        return None
    return over_cap(shorten(name), size, limit, setting)


def upload_refused(name: str, size: int, setting: str = "SEWER_USE_MAX_UPLOAD_BYTES") -> str | None:
    """The refusal of an upload by its declared size — empty, or over the cap
    (:func:`upload_too_large`) — naming the file; None when its size is acceptable. Every
    upload of the office is checked here before it is read (the forms let an empty file
    through, so that this message, which names it, is the one shown)."""
    if size == 0:
        return f"{shorten(name)}: an empty file (0 bytes)"
    return upload_too_large(name, size, setting)
