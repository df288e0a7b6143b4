"""Which towns an office may serve: a primary town under Article VII (the plant's program is
computed under it), member towns under their own law and values, each a jurisdiction.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

from sewer_office.core.checks import FOREIGN_LAW, MEMBER_VALUES, check_jurisdiction

pytestmark = pytest.mark.database_free


def test_wappinger_and_the_demo_pass() -> None:
    for name in ("wappinger", "demo"):
        with override_settings(SEWER_USE_JURISDICTION=name):
            assert check_jurisdiction() == []


def test_a_primary_town_under_a_law_of_its_own_is_refused_with_what_to_do() -> None:
    with override_settings(SEWER_USE_JURISDICTION="town-of-poughkeepsie"):
        (error,) = check_jurisdiction()
        assert error.id == FOREIGN_LAW
        assert "Town of Poughkeepsie" in error.msg
        assert "SEWER_USE_JURISDICTIONS=wappinger,town-of-poughkeepsie" in str(error.hint)
        with pytest.raises(SystemCheckError, match="E004"):
            call_command("check")


def test_member_towns_keep_their_own_law_and_values() -> None:
    """Each record is computed under its own town's law and values: a member town under a law
    of its own, or under the article with other values (the demo's fees beside Wappinger's
    unconfigured ones), is served."""
    for members in (
        ["demo", "town-of-poughkeepsie"],
        ["wappinger", "demo"],
        ["demo", "wappinger", "town-of-poughkeepsie"],
    ):
        with override_settings(SEWER_USE_JURISDICTION=members[0], SEWER_USE_JURISDICTIONS=members):
            assert check_jurisdiction() == []


def test_a_member_town_that_is_no_jurisdiction_is_refused() -> None:
    with override_settings(
        SEWER_USE_JURISDICTION="demo", SEWER_USE_JURISDICTIONS=["demo", "no-such-town"]
    ):
        (error,) = check_jurisdiction()
        assert error.id == MEMBER_VALUES and "no jurisdiction" in error.msg
