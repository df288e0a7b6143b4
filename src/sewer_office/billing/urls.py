from __future__ import annotations

from django.urls import URLPattern, path

from . import views

app_name = "billing"

urlpatterns: list[URLPattern] = [
    path("payments/", views.payment_list, name="payments"),
    path("payments/new/", views.payment_new, name="payment-new"),
    path("payments/<int:pk>/", views.payment_detail, name="payment-detail"),
    path("payments/<int:pk>/receipt.pdf", views.receipt_pdf, name="receipt"),
    path("statements/", views.statement_index, name="statements"),
    path("statements/<int:pk>/", views.statement, name="statement"),
    path("statements/<int:pk>/statement.pdf", views.statement_pdf, name="statement-pdf"),
    path("statements/<int:pk>/apply-credit/", views.apply_credit, name="apply-credit"),
    path("statements/<int:pk>/refund/", views.refund, name="refund"),
    path("aging/", views.aging, name="aging"),
    path("export/", views.accounting_export, name="export"),
    path("permit-fees/", views.permit_fees, name="permit-fees"),
    path(
        "permit-fees/<slug:kind>/<int:pk>/invoice/",
        views.permit_fee_invoice,
        name="permit-fee-invoice",
    ),
]
