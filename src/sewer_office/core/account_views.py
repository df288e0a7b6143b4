"""The Superintendent's register of every account's second factor, with its download, and the
reset of a lost one (``/accounts/second-factor/accounts/``).

It lists the accounts (users and roles, :mod:`sewer_office.accounts`) as every office list
does — a page with its download (:mod:`.exports`) — so it stands with the office's pages, above
the accounts; the reset itself is the accounts' (:func:`sewer_office.accounts.second_factor.
reset`, audited with its reason). A signed-in person who still owes the code is sent to it
first (:func:`.decorators.office_view`); anyone but the Superintendent or a superuser is
refused.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from django_otp.plugins.otp_totp.models import TOTPDevice

from sewer_office.accounts import second_factor
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.forms import ResetForm
from sewer_office.accounts.roles import SUPERINTENDENT, has_role, role_label, roles_of

from .decorators import office_view
from .exports import Column, export


def _may_reset_any(user: Actor) -> bool:
    return bool(user.is_superuser) or has_role(user, SUPERINTENDENT)


#: The list as a download: who must give a code and who has enrolled (an auditor's question).
SECOND_FACTOR_COLUMNS = (
    Column("Account", lambda row: row["user"].get_username()),
    Column("Name", lambda row: row["user"].get_full_name()),
    Column("Roles", lambda row: row["roles"]),
    Column("Second factor set up", lambda row: row["device"] and row["device"].created_at),
    Column("Last used", lambda row: row["device"] and row["device"].last_used_at),
    Column("Recovery codes left", lambda row: second_factor.recovery_codes_left(row["user"])),
    Column("Required", lambda row: "yes" if row["required"] else "no"),
)


@office_view()
def second_factor_accounts(request: HttpRequest) -> HttpResponse:
    """The Superintendent's (or a superuser's) list: every active account, its roles, whether
    it has enrolled, and the reset."""
    if not _may_reset_any(request.user):
        raise PermissionDenied("The Superintendent resets second factors.")
    enrolled = {
        d.user_id: d for d in TOTPDevice.objects.filter(confirmed=True).order_by("user_id", "id")
    }
    rows = []
    for user in get_user_model()._default_manager.filter(is_active=True).order_by("username"):
        rows.append(
            {
                "user": user,
                "roles": ", ".join(role_label(r) for r in sorted(roles_of(user)))
                or ("superuser" if user.is_superuser else ""),
                "device": enrolled.get(user.pk),
                "required": second_factor.required_for(user),
                "may_reset": second_factor.may_reset(request.user, user),
            }
        )
    download = export(request, rows, SECOND_FACTOR_COLUMNS, "second-factors")
    if download is not None:
        return download
    return render(
        request,
        "core/second_factor_accounts.html",
        {"rows": rows, "form": ResetForm(), "mode": second_factor.mode()},
    )


@office_view()
@require_POST
def reset_second_factor(request: HttpRequest, pk: int) -> HttpResponse:
    target = get_object_or_404(get_user_model()._default_manager, pk=pk)
    if not second_factor.may_reset(request.user, target):
        raise PermissionDenied(
            "The Superintendent resets another account's second factor (a superuser's is reset "
            "by another superuser; your own is removed with a code)."
        )
    form = ResetForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say why the second factor is reset (for the audit record).")
        return redirect("second-factor-accounts")
    second_factor.reset(request.user, target, form.cleaned_data["reason"].strip())
    messages.success(
        request,
        f"The second factor of “{target.get_username()}” is reset: it enrols again at its next "
        "sign-in.",
    )
    return redirect("second-factor-accounts")
