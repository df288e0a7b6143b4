"""Sign in: Django's view with the office's form, answering 429 while sign-in is paused."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpResponse

from .forms import SignInForm


class SignInView(auth_views.LoginView):
    authentication_form = SignInForm
    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error("__all__", "paused"):
            response.status_code = 429
        return response
