"""The office refuses to run a jurisdiction whose law it does not compute.

Its rules are Wappinger's Article VII; the Town of Poughkeepsie's package keeps a law of its
own, which the rules commands answer under but the office cannot yet run.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

from sewer_office.core.checks import FOREIGN_LAW, check_jurisdiction

pytestmark = pytest.mark.database_free


def test_wappinger_and_the_demo_pass() -> None:
    for name in ("wappinger", "demo"):
        with override_settings(SEWER_USE_JURISDICTION=name):
            assert check_jurisdiction() == []


def test_a_law_of_its_own_is_refused_with_what_answers_under_it() -> None:
    with override_settings(SEWER_USE_JURISDICTION="town-of-poughkeepsie"):
        (error,) = check_jurisdiction()
        assert error.id == FOREIGN_LAW
        assert "Town of Poughkeepsie" in error.msg
        assert "sewer-use fines --jurisdiction town-of-poughkeepsie" in str(error.hint)
        with pytest.raises(SystemCheckError, match="E004"):
            call_command("check")


def test_a_member_town_under_a_law_of_its_own_is_refused_too() -> None:
    """Several member towns in one office: each must be a law the office computes."""
    with override_settings(
        SEWER_USE_JURISDICTION="demo", SEWER_USE_JURISDICTIONS=["demo", "town-of-poughkeepsie"]
    ):
        (error,) = check_jurisdiction()
        assert error.id == FOREIGN_LAW and "SEWER_USE_JURISDICTIONS" in error.msg
    with override_settings(SEWER_USE_JURISDICTIONS=["demo", "wappinger"]):
        assert check_jurisdiction() == []
