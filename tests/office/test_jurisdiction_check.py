"""The office refuses to run a jurisdiction whose law it does not compute.

Its rules are Wappinger's Article VII; the Town of Poughkeepsie's package keeps a law of its
own, which the rules commands answer under but the office cannot yet run.
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
    with override_settings(SEWER_USE_JURISDICTION="wappinger", SEWER_USE_JURISDICTIONS=[]):
        assert check_jurisdiction() == []


def test_a_member_town_with_other_values_or_none_is_refused() -> None:
    """The office reads the primary's values for every record: a member town with its own
    (the demo's fees beside Wappinger's unconfigured ones) would be charged by another town's
    resolutions; a name that is no jurisdiction is refused too."""
    with override_settings(
        SEWER_USE_JURISDICTION="wappinger", SEWER_USE_JURISDICTIONS=["wappinger", "demo"]
    ):
        (error,) = check_jurisdiction()
        assert error.id == MEMBER_VALUES and "'demo'" in error.msg and "fee" in error.msg
    with override_settings(
        SEWER_USE_JURISDICTION="demo", SEWER_USE_JURISDICTIONS=["demo", "no-such-town"]
    ):
        (error,) = check_jurisdiction()
        assert error.id == MEMBER_VALUES and "no jurisdiction" in error.msg
