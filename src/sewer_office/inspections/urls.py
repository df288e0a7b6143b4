from __future__ import annotations

from django.urls import URLPattern, path

from . import views

app_name = "inspections"

urlpatterns: list[URLPattern] = [
    path("", views.inspection_list, name="list"),
    path("schedule/", views.inspection_schedule, name="schedule"),
    path("<int:pk>/", views.inspection_detail, name="detail"),
    path("<int:pk>/complete/", views.inspection_complete, name="complete"),
    path("<int:pk>/cancel/", views.inspection_cancel, name="cancel"),
    path("<int:pk>/photos/", views.inspection_photo, name="photo"),
    path("<int:pk>/addenda/", views.inspection_addendum, name="addendum"),
    path("<int:pk>/agency-inspectors/", views.inspection_agency, name="agency"),
    path("<int:pk>/refusal/", views.inspection_refusal, name="refusal"),
    path("<int:pk>/report.pdf", views.inspection_report, name="report"),
]
