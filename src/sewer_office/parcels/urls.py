from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "parcels"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="index"),
    path("import/", views.import_roll, name="import"),
    path("districts/import/", views.import_districts, name="import-districts"),
    path("reviews/<int:pk>/", views.review_detail, name="review"),
    path("map/", views.map_page, name="map"),
    path("map/data/", views.map_data, name="map-data"),
]
