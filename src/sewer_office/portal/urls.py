from __future__ import annotations

from django.urls import path

from . import views

app_name = "portal"

urlpatterns = [
    path("register/", views.register, name="register"),
    path("register/sent/", views.register_sent, name="register-sent"),
    path("verify/<str:token>/", views.verify, name="verify"),
    path("links/", views.link_list, name="links"),
    path("links/new/", views.link_new, name="link-new"),
    path("links/<int:pk>/", views.link_detail, name="link"),
    path("links/<int:pk>/confirm/", views.link_confirm, name="link-confirm"),
    path("links/<int:pk>/refuse/", views.link_refuse, name="link-refuse"),
    path("links/<int:pk>/end/", views.link_end, name="link-end"),
]
