"""Access decorators for the pages: sign-in first, then a role of the office."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect

from sewer_office.accounts import second_factor
from sewer_office.accounts.jurisdictions import sees_every_jurisdiction
from sewer_office.accounts.roles import has_role, is_office_user

# A page: its own signature and response type (a FileResponse is no HttpResponse), kept.
View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def office_view(*roles: str) -> Callable[[View], View]:
    """Anonymous → login page; owing the code of the second factor → the code; signed in
    without a needed role → 403.

    With no ``roles``, any office user (staff or outside) may open the page; what they see is
    then narrowed by :func:`sewer_office.accounts.access.visible`.
    """

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if second_factor.pending(request):  # signed in with the password, owes the code
                return redirect(second_factor.step_url(request, request.get_full_path()))
            if not is_office_user(request.user):
                raise PermissionDenied("Your account has no role in the sewer office.")
            if roles and not has_role(request.user, *roles):
                raise PermissionDenied("This page is for another role.")
            return view(request, *args, **kwargs)

        # the same signature; the response is the view's own or a redirect to the login page
        return cast(View, wrapper)

    return decorate


def plant_wide_view(*roles: str) -> Callable[[View], View]:
    """:func:`office_view`, and, in an installation of several member towns, for those who see
    every one of them (the plant's pretreatment coordinator, a superuser): the program's
    plant-wide work — the SNC determinations, their list, the annual report and its ICIS
    export — covers every member town's users under the plant's permit (40 CFR 403.8(f)(2)(viii),
    40 CFR 403.12(i)),
    so a staff member of one town would sign a document of records they may not see."""

    def decorate(view: View) -> View:
        @office_view(*roles)
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not sees_every_jurisdiction(request.user):
                raise PermissionDenied(
                    "The plant's program is the pretreatment coordinator's: your account acts "
                    "for some of its member towns only."
                )
            return view(request, *args, **kwargs)

        return cast(View, wrapper)

    return decorate
