from __future__ import annotations

from django.urls import URLPattern, path

from . import annual_views, filing_views, views

app_name = "pretreatment"

urlpatterns: list[URLPattern] = [
    path("", views.index, name="index"),
    path("snc/run/", views.snc_run, name="snc-run"),
    path("snc/<int:pk>/", views.snc_detail, name="snc-detail"),
    path("snc/<int:pk>/staff-criterion/", views.staff_criterion, name="snc-staff-criterion"),
    path("facilities/<int:pk>/", views.facility, name="facility"),
    path("facilities/<int:pk>/designate/", views.designate, name="designate"),
    path("facilities/<int:pk>/reports/", views.require_report, name="require"),
    path("reports/<int:pk>/received/", views.report_received, name="received"),
    path(
        "reports/<int:pk>/baseline-received/",
        filing_views.baseline_received,
        name="baseline-received",
    ),
    path("facilities/<int:pk>/hazardous-waste/", filing_views.hazardous_new, name="hazardous-new"),
    path("snc-list/<int:year>/", views.snc_list_page, name="snc-list"),
    path("snc-list/<int:year>.pdf", views.snc_list_pdf, name="snc-list-pdf"),
    path("snc-list/<int:year>.csv", views.snc_list_csv, name="snc-list-csv"),
    path("annual/<int:year>/", annual_views.annual_page, name="annual"),
    path("annual/<int:year>/prepare/", annual_views.annual_prepare, name="annual-prepare"),
    path("annual/<int:year>.pdf", annual_views.annual_pdf, name="annual-pdf"),
    path("annual/<int:year>.csv", annual_views.annual_csv, name="annual-csv"),
    path("annual/<int:year>.xml", annual_views.annual_xml, name="annual-xml"),
]
