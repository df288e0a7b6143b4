from __future__ import annotations

from django.urls import URLPattern, path

from .views import core, enforcement, money, permit_fees, surcharge

app_name = "billing"

urlpatterns: list[URLPattern] = [
    path("payments/", money.payment_list, name="payments"),
    path("payments/new/", money.payment_new, name="payment-new"),
    path("payments/<int:pk>/", money.payment_detail, name="payment-detail"),
    path("payments/<int:pk>/receipt.pdf", money.receipt_pdf, name="receipt"),
    path("statements/", money.statement_index, name="statements"),
    path("statements/<int:pk>/", money.statement, name="statement"),
    path("statements/<int:pk>/statement.pdf", money.statement_pdf, name="statement-pdf"),
    path("statements/<int:pk>/apply-credit/", money.apply_credit, name="apply-credit"),
    path("statements/<int:pk>/refund/", money.refund, name="refund"),
    path("aging/", money.aging, name="aging"),
    path("export/", money.accounting_export, name="export"),
    path("permit-fees/", permit_fees.permit_fees, name="permit-fees"),
    path(
        "permit-fees/<slug:kind>/<int:pk>/invoice/",
        permit_fees.permit_fee_invoice,
        name="permit-fee-invoice",
    ),
    path("runs/", core.run_list, name="runs"),
    path("runs/new/", core.run_create, name="run-create"),
    path("runs/<int:pk>/", core.run_detail, name="run"),
    path("runs/<int:pk>/issue/", core.run_issue, name="run-issue"),
    path("runs/<int:pk>/discard/", core.run_discard, name="run-discard"),
    path("invoices/", core.invoice_list, name="invoices"),
    path("invoices/<int:pk>/", core.invoice_detail, name="invoice"),
    path("invoices/<int:pk>/pdf", core.invoice_pdf_view, name="invoice-pdf"),
    path("invoices/<int:pk>/credit/", core.invoice_credit, name="invoice-credit"),
    path("invoices/<int:pk>/void/", core.invoice_void, name="invoice-void"),
    path("charges/", core.charge_list, name="charges"),
    # the money actions of a violation's page (§ 196-22 B, C): the page is enforcement's
    path(
        "violations/<int:pk>/bill-costs/",
        enforcement.violation_bill_costs,
        name="violation-bill-costs",
    ),
    path(
        "violations/<int:pk>/collection/",
        enforcement.violation_collection,
        name="violation-collection",
    ),
    path("surcharges/", surcharge.surcharge_list, name="surcharges"),
    path("surcharges/facility/<int:pk>/", surcharge.surcharge_facility, name="surcharge-facility"),
    path(
        "surcharges/facility/<int:pk>/decision/",
        surcharge.decision_new,
        name="surcharge-decision-new",
    ),
    path(
        "surcharges/facility/<int:pk>/agreement/",
        surcharge.agreement_new,
        name="surcharge-agreement-new",
    ),
    path(
        "surcharges/decisions/<int:pk>/end/", surcharge.decision_end, name="surcharge-decision-end"
    ),
    path(
        "surcharges/agreements/<int:pk>/end/",
        surcharge.agreement_end,
        name="surcharge-agreement-end",
    ),
]
