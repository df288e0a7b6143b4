"""Pages of the grease app, mounted at ``/grease/``."""

from __future__ import annotations

from django.urls import URLPattern, path

from . import views

app_name = "grease"

urlpatterns: list[URLPattern] = [
    path("", views.interceptor_list, name="list"),
    path("new/", views.interceptor_create, name="create"),
    path("overdue/", views.overdue_list, name="overdue"),
    path("<int:pk>/", views.interceptor_detail, name="detail"),
    path("<int:pk>/pump-outs/", views.pump_out_create, name="pump-out"),
    path("<int:pk>/remove/", views.interceptor_remove, name="remove"),
    path("pump-outs/<int:pk>/void/", views.pump_out_void, name="void"),
]
