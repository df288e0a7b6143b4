"""Sign in (paused after repeated failures), sign out and password change: Django's views
with the office's templates."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from .views import SignInView

urlpatterns = [
    path("login/", SignInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
