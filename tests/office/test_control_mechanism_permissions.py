"""Permission battery of the approval page's control-mechanism forms (see test_permissions.py).

Anonymous → login; no role → 403; the engineer and the Superintendent record terms and
self-monitoring requirements (§ 196-16 E; § 196-19 E(1)); they and the clerk record the
ICIS-NPDES identifier; every other role gets 403; the owner gets 403 on its own approval and
404 on another's.
"""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.core.services import perform

from .factories import Town, new_record

COVERED_URL_NAMES = {"permits:control-terms", "permits:self-monitoring", "permits:icis-id"}

RECORDERS = ("superintendent", "engineer")
ID_RECORDERS = ("superintendent", "engineer", "clerk")


def _posts(record: Any) -> dict[str, tuple[str, dict[str, str]]]:
    base = f"/permits/industrial/{record.pk}/"
    return {
        "terms": (base + "terms/", {"reporting": "quarterly reports"}),
        "self-monitoring": (
            base + "self-monitoring/",
            {
                "parameter": "copper",
                "sampling_point": "CM-1",
                "sample_type": "composite",
                "frequency": "monthly",
            },
        ),
        "icis-id": (base + "icis-id/", {"icis_permit_id": "NYP000042"}),
    }


def _approval(town: Town, mine: bool = True) -> Any:
    return perform(new_record("industrial", town, mine=mine), "begin_review", town.u("engineer"))


def test_anonymous_goes_to_login_and_no_role_is_refused(town: Town, login: Any) -> None:
    a = _approval(town)
    c = login(None)
    for url, data in _posts(a).values():
        r = c.post(url, data)
        assert r.status_code == 302 and "/accounts/login/" in r["Location"], url
    c = login("norole")
    for url, data in _posts(a).values():
        assert c.post(url, data).status_code == 403, url
    assert not a.conditions.exists() and not a.self_monitoring.exists()


@pytest.mark.parametrize(
    "username", ["superintendent", "engineer", "inspector", "clerk", "highway", "viewer"]
)
def test_each_form_is_reserved_to_its_roles(town: Town, login: Any, username: str) -> None:
    a = _approval(town, mine=False)
    c = login(username)
    for name, (url, data) in _posts(a).items():
        allowed = ID_RECORDERS if name == "icis-id" else RECORDERS
        code = c.post(url, data).status_code
        assert code == (302 if username in allowed else 403), (name, code)


def test_the_owner_may_not_record_on_its_own_and_sees_no_other(town: Town, login: Any) -> None:
    mine, theirs = _approval(town), _approval(town, mine=False)
    c = login("owner")
    body = c.get(mine.get_absolute_url()).content.decode()
    assert 'id="control-mechanism"' in body and 'id="record-terms"' not in body
    for url, data in _posts(mine).values():
        assert c.post(url, data).status_code == 403, url
    for url, data in _posts(theirs).values():
        assert c.post(url, data).status_code == 404, url
    mine.refresh_from_db()
    assert mine.icis_permit_id == "" and not mine.conditions.exists()
