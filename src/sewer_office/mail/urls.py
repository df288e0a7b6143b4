from __future__ import annotations

from django.urls import path

from . import views

app_name = "mail"

urlpatterns = [
    path("preferences/", views.preferences, name="preferences"),
    path("messages/", views.message_list, name="messages"),
]
