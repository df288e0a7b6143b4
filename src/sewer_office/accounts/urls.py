"""Sign in (paused after repeated failures), the second factor, sign out and password change:
Django's views with the office's templates, and the office's own."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("login/", views.SignInView.as_view(), name="login"),
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
    path("second-factor/", views.home, name="second-factor"),
    path("second-factor/code/", views.verify, name="second-factor-verify"),
    path("second-factor/enrol/", views.enrol, name="second-factor-enrol"),
    path("second-factor/remove/", views.remove, name="second-factor-remove"),
    path(
        "second-factor/recovery-codes/",
        views.recovery_codes,
        name="second-factor-recovery-codes",
    ),
]
