from __future__ import annotations

from django.urls import path

from . import views

app_name = "meters"

urlpatterns = [
    path("", views.meter_list, name="list"),
    path("new/", views.meter_create, name="create"),
    path("<int:pk>/", views.meter_detail, name="detail"),
    path("<int:pk>/upload/", views.meter_upload, name="upload"),
    path("<int:pk>/report/", views.slug_report, name="report"),
    path("<int:pk>/baselines/", views.meter_baseline, name="baseline"),
    path("<int:pk>/chart.<str:fmt>", views.meter_chart, name="chart"),
]
