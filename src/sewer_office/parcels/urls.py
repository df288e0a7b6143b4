from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from .views import imports, map_pages, review

app_name = "parcels"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", imports.index, name="index"),
    path("import/", imports.import_roll, name="import"),
    path("districts/import/", imports.import_districts, name="import-districts"),
    path("reviews/<int:pk>/", review.review_detail, name="review"),
    path("map/", map_pages.map_page, name="map"),
    path("map/data/", map_pages.map_data, name="map-data"),
]
