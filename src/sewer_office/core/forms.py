"""Form pieces every app's pages share: the date widget and the service errors on a form.

Services report bad input as :class:`~sewer_office.core.errors.InvalidInput` (field name →
messages); a page shows each message on its field, or above the form when the form has no
such field. One function does that for every page.
"""

from __future__ import annotations

from django import forms

from .errors import InvalidInput, OfficeError


class DateInput(forms.DateInput):
    """The browser's date picker (``<input type="date">``)."""

    input_type = "date"


def add_input_errors(form: forms.Form, error: InvalidInput, prefix: str = "") -> None:
    """Each of ``error``'s messages on its field of ``form``, or on the form as a whole.

    ``prefix`` names the form's field for an error field it does not have itself (an
    inspection's ``note_<item>`` for a checklist item's error).
    """
    for name, messages in error.errors.items():
        target = name if name in form.fields else f"{prefix}{name}"
        for message in messages:
            form.add_error(target if target in form.fields else None, message)


def add_office_error(form: forms.Form, error: OfficeError, prefix: str = "") -> None:
    """A service's error on ``form``: field by field for bad input (``prefix`` as in
    :func:`add_input_errors`), else above the form."""
    if isinstance(error, InvalidInput):
        add_input_errors(form, error, prefix)
    else:
        form.add_error(None, error.message)
