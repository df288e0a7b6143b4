from __future__ import annotations

from django.urls import path

from . import views

app_name = "monitoring"

urlpatterns = [
    path("import/", views.import_file, name="import"),
    path("imports/", views.import_list, name="imports"),
    path("imports/<int:pk>/", views.import_detail, name="import-detail"),
    path("imports/<int:pk>/approve/", views.import_approve, name="import-approve"),
    path("results/", views.result_list, name="results"),
    path("results/new/", views.result_create, name="result-create"),
    path("results/<int:pk>/", views.result_detail, name="result"),
    path("results/<int:pk>/correct/", views.result_correct, name="result-correct"),
    path("findings/", views.finding_list, name="findings"),
    path("findings/acknowledge/", views.finding_acknowledge, name="finding-acknowledge"),
    path("findings/<int:pk>/review/", views.finding_review, name="finding-review"),
    path("facilities/<int:pk>/chart/<str:parameter>.svg", views.chart, name="chart"),
    path("facilities/<int:pk>/points/new/", views.point_create, name="point-create"),
    path("facilities/<int:pk>/limits/new/", views.limit_create, name="limit-create"),
    path("facilities/<int:pk>/samples/new/", views.event_create, name="event-create"),
    path("mappings/", views.mapping_list, name="mappings"),
    path("mappings/new/", views.mapping_edit, name="mapping-create"),
    path("mappings/<int:pk>/", views.mapping_detail, name="mapping"),
    path("mappings/<int:pk>/edit/", views.mapping_edit, name="mapping-edit"),
    path("mappings/<int:pk>/delete/", views.mapping_delete, name="mapping-delete"),
]
