"""Errors the services raise; the web views and the API turn them into pages and status codes.

- :class:`Forbidden` — the law reserves the action to another role (HTTP 403).
- :class:`TransitionNotAllowed` — the record is not in a state the action starts from (409).
- :class:`Blocked` — a precondition the law sets is not met, e.g. a fee not configured or a
  road opening permit missing (409), with a message that says what is missing and why.
- :class:`InvalidInput` — field-level errors of the submitted data (400).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied


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
