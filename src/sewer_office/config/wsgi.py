"""WSGI entry point (gunicorn ``sewer_office.config.wsgi:application``)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sewer_office.config.settings")

application = get_wsgi_application()

# Temporary upload files a killed process left behind (older than a day): core.uploads.
from sewer_office.core.uploads import sweep  # noqa: E402  (needs the settings loaded)

sweep()

if os.environ.get("SEWER_USE_WARM_NETWORK", "1") == "1":
    from sewer_office.network.services import warm_network_cache

    warm_network_cache()

# What start-up made stays for the life of the worker: out of the collector's full passes.
from sewer_office.core.heap import settle_start_up  # noqa: E402  (after start-up, on purpose)

settle_start_up()
