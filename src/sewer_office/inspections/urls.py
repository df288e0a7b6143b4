from __future__ import annotations

from django.urls import URLPattern

app_name = "inspections"

urlpatterns: list[URLPattern] = []
