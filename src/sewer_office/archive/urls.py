from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "archive"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.import_list, name="list"),
    path("import/", views.import_upload, name="import"),
    path("<int:pk>/", views.import_detail, name="detail"),
]
