from __future__ import annotations

from django.urls import URLPattern, path

from .views import core

app_name = "billing"

urlpatterns: list[URLPattern] = [
    path("runs/", core.run_list, name="runs"),
    path("runs/new/", core.run_create, name="run-create"),
    path("runs/<int:pk>/", core.run_detail, name="run"),
    path("runs/<int:pk>/issue/", core.run_issue, name="run-issue"),
    path("runs/<int:pk>/discard/", core.run_discard, name="run-discard"),
    path("invoices/", core.invoice_list, name="invoices"),
    path("invoices/<int:pk>/", core.invoice_detail, name="invoice"),
    path("invoices/<int:pk>/pdf", core.invoice_pdf_view, name="invoice-pdf"),
    path("charges/", core.charge_list, name="charges"),
]
