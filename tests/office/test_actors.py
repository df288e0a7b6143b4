"""An actor becomes a person named on a record only when signed in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied

from sewer_office.accounts.actors import signed_in


def test_a_signed_in_user_is_a_person() -> None:
    user = User(username="clerk")
    assert signed_in(user) is user


def test_an_anonymous_request_names_no_one() -> None:
    with pytest.raises(PermissionDenied, match="Sign in first"):
        signed_in(AnonymousUser())
