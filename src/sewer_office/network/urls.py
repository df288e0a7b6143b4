"""The network page. Mounted in the registry's namespace (``registry:network`` at
``/registry/network/``, see ``config/urls.py``): its name and address are from when the network
was part of the registry, and both are contracts."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("network/", views.network_page, name="network"),
]
