from __future__ import annotations

from django.urls import URLPattern, URLResolver

app_name = "parcels"

urlpatterns: list[URLPattern | URLResolver] = []
