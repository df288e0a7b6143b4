from __future__ import annotations

from django.urls import path

from .views import facilities, findings, imports, lab_mappings, results

app_name = "monitoring"

urlpatterns = [
    path("import/", imports.import_file, name="import"),
    path("imports/", imports.import_list, name="imports"),
    path("imports/<int:pk>/", imports.import_detail, name="import-detail"),
    path("imports/<int:pk>/approve/", imports.import_approve, name="import-approve"),
    path("results/", results.result_list, name="results"),
    path("results/new/", results.result_create, name="result-create"),
    path("results/<int:pk>/", results.result_detail, name="result"),
    path("results/<int:pk>/correct/", results.result_correct, name="result-correct"),
    path("findings/", findings.finding_list, name="findings"),
    path("findings/acknowledge/", findings.finding_acknowledge, name="finding-acknowledge"),
    path("findings/<int:pk>/review/", findings.finding_review, name="finding-review"),
    path("facilities/<int:pk>/chart/<str:parameter>.svg", facilities.chart, name="chart"),
    path("facilities/<int:pk>/points/new/", facilities.point_create, name="point-create"),
    path("facilities/<int:pk>/limits/new/", facilities.limit_create, name="limit-create"),
    path("facilities/<int:pk>/samples/new/", facilities.event_create, name="event-create"),
    path("mappings/", lab_mappings.mapping_list, name="mappings"),
    path("mappings/new/", lab_mappings.mapping_edit, name="mapping-create"),
    path("mappings/<int:pk>/", lab_mappings.mapping_detail, name="mapping"),
    path("mappings/<int:pk>/edit/", lab_mappings.mapping_edit, name="mapping-edit"),
    path("mappings/<int:pk>/delete/", lab_mappings.mapping_delete, name="mapping-delete"),
]
