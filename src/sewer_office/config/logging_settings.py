"""The office's logging (Django's ``LOGGING``): JSON lines on standard error (one object a
line, with the request id), or plain text with ``SEWER_USE_LOG_FORMAT=text``. Every request
writes an access line (``sewer_office.request``: INFO in production); every audit anchor
written is logged (``sewer_office.audit``: INFO), whatever the root level. Apart from
:mod:`.settings` so that the dictionary reads whole.
"""

from __future__ import annotations

import os
from typing import Any


def logging_config(production: bool) -> dict[str, Any]:
    """``LOGGING`` for the mode (``production``) and the environment's levels and format."""
    log_format = os.environ.get("SEWER_USE_LOG_FORMAT", "json" if production else "text")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "sewer_office.core.requestlog.RequestIdFilter"}},
        "formatters": {
            "json": {"()": "sewer_office.core.requestlog.JsonFormatter"},
            "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["request_id"],
                "formatter": "json" if log_format == "json" else "text",
            }
        },
        "root": {
            "handlers": ["console"],
            "level": os.environ.get("SEWER_USE_LOG_LEVEL", "WARNING"),
        },
        "loggers": {
            "sewer_office.request": {
                "level": os.environ.get(
                    "SEWER_USE_ACCESS_LOG_LEVEL", "INFO" if production else "WARNING"
                )
            },
            # every anchor written is logged (INFO), whatever the root level
            "sewer_office.audit": {"level": os.environ.get("SEWER_USE_AUDIT_LOG_LEVEL", "INFO")},
        },
    }
