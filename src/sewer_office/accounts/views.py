"""Sign in (429 while paused or slowed), the code of the second factor after the password,
and the pages where an account enrols, replaces or removes its authenticator.

The Superintendent's register of every account's second factor, where another's is reset, is
an office page with its download (:mod:`sewer_office.core.account_views`): the accounts stand
below the office's pages and their downloads."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import django_otp
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST
from django_otp.plugins.otp_totp.models import TOTPDevice

from . import known_device, second_factor, throttle
from .forms import CodeForm, EnrolForm, SignInForm
from .roles import SUPERINTENDENT, has_role

PageView = Callable[..., HttpResponseBase]


class SignInView(auth_views.LoginView):
    authentication_form = SignInForm
    redirect_authenticated_user = True

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        if second_factor.pending(self.request):
            return redirect(second_factor.step_url(self.request, self.get_success_url()))
        known_device.remember(self.request, response, form.get_user())
        return response

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error("__all__", "paused") or form.has_error("__all__", "slowed"):
            response.status_code = 429
            pause = throttle.refused(self.request)
            if pause is not None:
                response["Retry-After"] = str(pause.seconds_left())
        return response


def _next(request: HttpRequest) -> str:
    """The page to go on to: ``next`` when it is one of the office's, else the dashboard."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return reverse("dashboard")


def _signed_in(view: PageView) -> PageView:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def _fully_signed_in(view: PageView) -> PageView:
    """Signed in, and the code given where one is owed (the middleware says so too)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if second_factor.pending(request):
            return redirect(second_factor.step_url(request, request.get_full_path()))
        return view(request, *args, **kwargs)

    return wrapper


def _attempt(request: HttpRequest) -> throttle.Attempt:
    username = request.user.get_username()
    return throttle.Attempt(
        throttle.key(username),
        throttle.client_address(request),
        known_device.device_for(request, username),
    )


def _check_code(request: HttpRequest, code: str) -> tuple[Any, str, int]:
    """A code of the signed-in account, under the same pauses as a password: the device that
    accepted it, or why not and the answer's status (429 while paused)."""
    attempt = _attempt(request)
    pause = throttle.pause_for(attempt)
    if pause is not None:
        return None, pause.message(request.user.get_username()), 429
    device, why = second_factor.verify_code(request.user, code)
    if device is None:
        throttle.record_failure(attempt)
        return None, why, 400
    throttle.record_success(attempt)
    return device, "", 200


@_signed_in
def verify(request: HttpRequest) -> HttpResponse:
    """The second step of sign-in: the code of the account's authenticator (or a recovery
    code)."""
    next_url = _next(request)
    user = request.user
    if not second_factor.pending(request):
        return redirect(next_url)
    if not second_factor.has_device(user):
        request.session[second_factor.SESSION_FLAG] = False  # removed or reset meanwhile
        if second_factor.required_for(user):
            return redirect(second_factor.step_url(request, next_url))
        return redirect(next_url)
    form = CodeForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        device, why, status = _check_code(request, form.cleaned_data["code"])
        if device is not None:
            django_otp.login(request, device)
            response = redirect(next_url)
            known_device.remember(request, response, user)
            return response
        form.add_error("code", why)
    return render(
        request,
        "accounts/second_factor_verify.html",
        {"form": form, "next": next_url, "second_factor_pending": True},
        status=status,
    )


@_signed_in
def enrol(request: HttpRequest) -> HttpResponse:
    """Enrol an authenticator app (or replace the current one, with one of its codes): the
    QR code and the secret, and the app's first code to confirm."""
    next_url = _next(request)
    user = request.user
    replacing = second_factor.has_device(user)
    if replacing and not second_factor.is_verified(user):
        return redirect(second_factor.step_url(request, next_url))  # the code first
    device = second_factor.pending_device(user)
    form = EnrolForm(request.POST or None, replacing=replacing)
    status = 200
    if request.method == "POST" and form.is_valid():
        ok = True
        if replacing:
            current, why, status = _check_code(request, form.cleaned_data["current"])
            if current is None:
                form.add_error("current", why)
                ok = False
        if ok:
            codes = second_factor.confirm_enrolment(user, device, form.cleaned_data["code"])
            if codes is None:
                form.add_error(
                    "code",
                    "This code is not right: type the six digits the app shows now (check "
                    "that the telephone's clock is set automatically).",
                )
                status = 400
            else:
                django_otp.login(request, TOTPDevice.objects.get(pk=device.pk))
                request.session[second_factor.SESSION_FLAG] = True
                response = render(
                    request,
                    "accounts/second_factor_codes.html",
                    {"codes": codes, "next": next_url, "enrolled": True},
                )
                known_device.remember(request, response, user)
                return response
    return render(
        request,
        "accounts/second_factor_enrol.html",
        {
            "form": form,
            "next": next_url,
            "replacing": replacing,
            "qr": second_factor.qr_svg(device),
            "secret": second_factor.secret_text(device),
            "second_factor_pending": second_factor.pending(request),
        },
        status=status,
    )


@_fully_signed_in
def home(request: HttpRequest) -> HttpResponse:
    """The account's second factor: enrolled or not, since when, recovery codes left, and the
    actions (enrol, replace, new recovery codes, remove)."""
    return _second_factor_page(request, CodeForm(), 200)


def _second_factor_page(request: HttpRequest, form: CodeForm, status: int) -> HttpResponse:
    """The account's second-factor page: its status, the actions, and ``form`` (a refused
    code shown back with ``status`` 400 or 429)."""
    return render(
        request,
        "accounts/second_factor.html",
        {
            "status": second_factor.status(request.user),
            "mode": second_factor.mode(),
            "form": form,
            "may_reset": request.user.is_superuser or has_role(request.user, SUPERINTENDENT),
        },
        status=status,
    )


@_fully_signed_in
@require_POST
def remove(request: HttpRequest) -> HttpResponse:
    form = CodeForm(request.POST)
    status = 400
    if form.is_valid():
        device, why, status = _check_code(request, form.cleaned_data["code"])
        if device is not None:
            second_factor.remove(request.user)
            request.session[second_factor.SESSION_FLAG] = False
            messages.success(request, "Your authenticator and recovery codes are removed.")
            return redirect("second-factor")
        form.add_error("code", why)
    return _second_factor_page(request, form, status)


@_fully_signed_in
@require_POST
def recovery_codes(request: HttpRequest) -> HttpResponse:
    """Ten new recovery codes, for a current code (the earlier ones stop working)."""
    if not second_factor.has_device(request.user):
        return redirect("second-factor")
    form = CodeForm(request.POST)
    status = 400
    if form.is_valid():
        device, why, status = _check_code(request, form.cleaned_data["code"])
        if device is not None:
            codes = second_factor.new_recovery_codes(request.user)
            return render(
                request,
                "accounts/second_factor_codes.html",
                {"codes": codes, "next": reverse("second-factor"), "enrolled": False},
            )
        form.add_error("code", why)
    return _second_factor_page(request, form, status)
