"""Back office: the message log and the preferences, read-only (they change through the
services: a message is written once, a preference on /mail/preferences/)."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import Preference, SentMessage

register_read_only(SentMessage, Preference)
