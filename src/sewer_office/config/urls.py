"""The office's URLs: pages per app, the API under ``/api/``, ``/healthz``, ``/readyz`` and the
back office."""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from sewer_office.core import account_views
from sewer_office.core import views as core_views
from sewer_office.core.law import law_page
from sewer_office.network import urls as network_urls
from sewer_office.registry import urls as registry_urls

urlpatterns: list[URLPattern | URLResolver] = [
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("healthz", core_views.healthz, name="healthz"),
    path("readyz", core_views.readyz, name="readyz"),
    path("", core_views.dashboard, name="dashboard"),
    path("files/<int:pk>/", core_views.download_attachment, name="attachment-download"),
    path("law/", law_page, name="law"),
    path("search/", core_views.search, name="search"),
    path("imports/", core_views.imports, name="imports"),
    path("accounts/", include("sewer_office.accounts.urls")),
    # The Superintendent's register of second factors: an office page over the accounts.
    path(
        "accounts/second-factor/accounts/",
        account_views.second_factor_accounts,
        name="second-factor-accounts",
    ),
    path(
        "accounts/second-factor/accounts/<int:pk>/reset/",
        account_views.reset_second_factor,
        name="second-factor-reset",
    ),
    # The network page is the registry's by name and address (registry:network, from before
    # the network became an app of its own): both apps' pages in the registry's namespace.
    path(
        "registry/",
        include((registry_urls.urlpatterns + network_urls.urlpatterns, registry_urls.app_name)),
    ),
    path("parcels/", include("sewer_office.parcels.urls")),
    path("onboarding/", include("sewer_office.onboarding.urls")),
    path("archive/", include("sewer_office.archive.urls")),
    path("permits/", include("sewer_office.permits.urls")),
    path("monitoring/", include("sewer_office.monitoring.urls")),
    path("meters/", include("sewer_office.meters.urls")),
    path("grease/", include("sewer_office.grease.urls")),
    path("inspections/", include("sewer_office.inspections.urls")),
    path("enforcement/", include("sewer_office.enforcement.urls")),
    path("pretreatment/", include("sewer_office.pretreatment.urls")),
    path("billing/", include("sewer_office.billing.urls")),
    path("mail/", include("sewer_office.mail.urls")),
    path("portal/", include("sewer_office.portal.urls")),
    path("reports/", include("sewer_office.reports.urls")),
    path("letters/", include("sewer_office.core.letter_urls")),
    path("api/", include("sewer_office.config.api_urls")),
    path("admin/", admin.site.urls),
]
