from __future__ import annotations

from django.urls import path

from . import signatory_views, views

app_name = "reports"

urlpatterns = [
    path("", views.report_list, name="list"),
    path("due/<int:pk>/", views.due_detail, name="due"),
    path("due/<int:pk>/assemble/", views.assemble, name="assemble"),
    path("due/<int:pk>/files/", views.attach_file, name="due-files"),
    path("<int:pk>/", views.report_detail, name="detail"),
    path("<int:pk>/report.pdf", views.report_pdf, name="pdf"),
    path("<int:pk>/data.json", views.report_json, name="data"),
    path("<int:pk>/code/", views.send_code, name="code"),
    path("<int:pk>/sign/", views.sign, name="sign"),
    path("<int:pk>/review/", views.review, name="review"),
    path("<int:pk>/verify/", views.verify, name="verify"),
    path("signatories/", signatory_views.signatories, name="signatories"),
    path("signatories/<int:pk>/end/", signatory_views.end_signatory, name="signatory-end"),
]
