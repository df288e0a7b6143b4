"""The API's settings: Django REST framework's (authentication, the office's permission,
parsers, filters, paging, errors) and its OpenAPI schema's (drf-spectacular). Pure data, the
same in every mode; apart from :mod:`.settings` (which reads them from here) so that the
environment-driven settings read on their own.
"""

from __future__ import annotations

from typing import Any

REST_FRAMEWORK: dict[str, Any] = {
    # Token first: its WWW-Authenticate header makes anonymous requests answer 401, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["sewer_office.api.permissions.OfficeUser"],
    # JSON with its nesting bounded (a body 100,000 deep is a 400, not a RecursionError)
    "DEFAULT_PARSER_CLASSES": [
        "sewer_office.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["sewer_office.core.filters.OfficeFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "sewer_office.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS: dict[str, Any] = {
    "TITLE": "sewer-use office API",
    "DESCRIPTION": (
        "The Town of Wappinger's sewer-use law (Town Code ch. 196, art. VII): registry, "
        "permits and approvals. Every transition names the section of law it rests on."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Every operation declares its error answers (400/401/403/404/409, the Error schema).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "sewer_office.api.errors.document_errors",
    ],
    "ENUM_NAME_OVERRIDES": {
        "PersonKindEnum": "sewer_office.registry.choices.PersonKind",
        "AreaKindEnum": "sewer_office.registry.choices.AreaKind",
        "EstablishmentKindEnum": "sewer_office.registry.choices.EstablishmentKind",
        "InterceptorKindEnum": "sewer_office.permits.models.InterceptorKind",
        "InstalledInterceptorKindEnum": "sewer_office.grease.models.InterceptorKind",
        "ResultStateEnum": "sewer_office.monitoring.models.ResultState",
        "FindingKindEnum": "sewer_office.findings.models.FindingKind",
        "FindingReviewEnum": "sewer_office.findings.models.ReviewState",
        "InspectionKindEnum": "sewer_office.inspections.checklists.InspectionKind",
        "InspectionStateEnum": "sewer_office.inspections.models.InspectionState",
        "ReferralKindEnum": "sewer_office.enforcement.choices.ReferralKind",
        "ServiceMethodEnum": "sewer_office.enforcement.choices.ServiceMethod",
        "CostCategoryEnum": "sewer_office.enforcement.choices.CostCategory",
    },
}
