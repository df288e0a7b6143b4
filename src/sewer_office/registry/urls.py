from __future__ import annotations

from django.urls import path

from . import address_views, people, views

app_name = "registry"

urlpatterns = [
    path("properties/", views.property_list, name="properties"),
    path("properties/new/", views.property_create, name="property-create"),
    path("persons/new/", views.person_create, name="person-create"),
    path("establishments/new/", views.establishment_create, name="establishment-create"),
    path("properties/<int:pk>/", views.property_detail, name="property"),
    path("persons/", views.person_list, name="persons"),
    path("persons/<int:pk>/address/", address_views.person_address, name="person-address"),
    path("properties/<int:pk>/address/", address_views.property_address, name="property-address"),
    path(
        "properties/<int:pk>/jurisdiction/",
        address_views.property_jurisdiction,
        name="property-jurisdiction",
    ),
    path("persons/<int:pk>/", views.person_detail, name="person"),
    path("persons/duplicates/", people.duplicates, name="person-duplicates"),
    path("persons/<int:pk>/merge/", people.merge_person, name="person-merge"),
    path("pick/<slug:kind>/", people.pick, name="pick"),
    path("establishments/", views.establishment_list, name="establishments"),
    path("establishments/<int:pk>/", views.establishment_detail, name="establishment"),
    path("areas/", views.area_list, name="areas"),
    path("areas/<int:pk>/", views.area_detail, name="area"),
    path("areas/<int:pk>/declare/", views.area_declare, name="area-declare"),
]
