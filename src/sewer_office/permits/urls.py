from __future__ import annotations

from django.urls import path

from . import control_views, views

app_name = "permits"

urlpatterns = [
    path("", views.index, name="index"),
    path("industrial/<int:pk>/letter.pdf", views.approval_letter, name="letter"),
    path("industrial/<int:pk>/terms/", control_views.terms, name="control-terms"),
    path(
        "industrial/<int:pk>/self-monitoring/",
        control_views.self_monitoring,
        name="self-monitoring",
    ),
    path("industrial/<int:pk>/icis-id/", control_views.icis_permit_id, name="icis-id"),
    path("<slug:kind>/", views.record_list, name="list"),
    path("<slug:kind>/new/", views.record_create, name="create"),
    path("<slug:kind>/<int:pk>/", views.record_detail, name="detail"),
    path("<slug:kind>/<int:pk>/files/", views.record_upload, name="upload"),
    path("<slug:kind>/<int:pk>/actions/<slug:name>/", views.record_transition, name="transition"),
]
