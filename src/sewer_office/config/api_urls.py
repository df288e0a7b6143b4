"""``/api/``: token, schema, docs and every app's endpoints — the API's URL table.

It names every app that has an API, so it stands with the root URLs in ``config``, above all
the apps: the API's plumbing below it (``sewer_office.api``: views, permissions, parsers,
errors, forms) is what the apps' own ``api`` modules import, and nothing below ``config``
imports every app."""

from __future__ import annotations

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import DefaultRouter

from sewer_office.api import views
from sewer_office.billing import api as billing_api
from sewer_office.enforcement import api as enforcement_api
from sewer_office.grease import api as grease_api
from sewer_office.inspections import api as inspections_api
from sewer_office.mail import api as mail_api
from sewer_office.meters import api as meters_api
from sewer_office.monitoring import api as monitoring_api
from sewer_office.network import api as network_api
from sewer_office.permits.api import VIEWSETS
from sewer_office.portal import api as portal_api
from sewer_office.pretreatment import api as pretreatment_api
from sewer_office.registry import api as registry_api
from sewer_office.reports import api as reports_api

router = DefaultRouter()
router.register("properties", registry_api.PropertyViewSet, basename="property")
router.register("persons", registry_api.PersonViewSet, basename="person")
router.register("establishments", registry_api.EstablishmentViewSet, basename="establishment")
router.register("service-areas", registry_api.ServiceAreaViewSet, basename="service-area")
for slug, viewset in VIEWSETS.items():
    router.register(f"permits/{slug}", viewset, basename=f"permit-{slug}")
#: The monitoring apps declare their own routes and paths (each app's ``api`` module).
APP_APIS = (
    monitoring_api,
    meters_api,
    grease_api,
    inspections_api,
    enforcement_api,
    pretreatment_api,
    billing_api,
    mail_api,
    portal_api,
    reports_api,
)
for app_api in APP_APIS:
    for prefix, viewset, basename in app_api.ROUTES:
        router.register(prefix, viewset, basename=basename)

urlpatterns = [
    path("token/", views.TokenView.as_view(), name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", views.docs, name="api-docs"),
    path("docs/redoc/", views.redoc, name="api-redoc"),
    path("network/trace/<str:manhole>/", network_api.trace, name="network-trace"),
    path("network/import/", network_api.import_network, name="network-import"),
    path("network/geojson/", network_api.network_geojson, name="network-geojson"),
    *(p for app_api in APP_APIS for p in app_api.PATHS),
    path("", include(router.urls)),
    # last: whatever else is asked under /api/ is the API's JSON 404
    re_path(r"^.*$", views.not_found, name="api-not-found"),
]
