from __future__ import annotations

from django.urls import path

from . import views

app_name = "registry"

urlpatterns = [
    path("properties/", views.property_list, name="properties"),
    path("properties/new/", views.property_create, name="property-create"),
    path("persons/new/", views.person_create, name="person-create"),
    path("establishments/new/", views.establishment_create, name="establishment-create"),
    path("properties/<int:pk>/", views.property_detail, name="property"),
    path("persons/", views.person_list, name="persons"),
    path("persons/<int:pk>/", views.person_detail, name="person"),
    path("establishments/", views.establishment_list, name="establishments"),
    path("establishments/<int:pk>/", views.establishment_detail, name="establishment"),
    path("areas/", views.area_list, name="areas"),
    path("areas/<int:pk>/", views.area_detail, name="area"),
    path("areas/<int:pk>/declare/", views.area_declare, name="area-declare"),
]
