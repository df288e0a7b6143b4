"""Permission battery of a violation's documents and money (see test_permissions.py): the
certificate of service and the referral (PDF), the court's judgment (enforcement), billing the
Town's costs and recording a collection on the fine (billing, on the violation's page and at the
violation's API address).

Anonymous → login / 401; no role → 403; the certificate is seen by every staff role and by the
person served (another's is 404); the referral is the Town's communication to its attorney:
staff only (404 to outside users); the judgment is recorded by the Superintendent or the clerk;
the costs are billed by the clerk, the Superintendent or the engineer (§ 196-22 C); a
collection by the court is recorded by the Superintendent or the clerk, money the Town receives
by the clerk alone (403 otherwise; 404 for a violation the user may not see).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from sewer_office.billing.models import Invoice
from sewer_office.enforcement.models import Collection, Judgment, Violation

from .enforcement_factories import served
from .factories import Town
from .test_enforcement_money import _judged, _referred, _with_costs

COVERED_URL_NAMES = {
    "enforcement:certificate-pdf",
    "enforcement:referral-pdf",
    "enforcement:judgment",
    "billing:violation-bill-costs",
    "billing:violation-collection",
    "billing-violation-bill-costs",
    "billing-violation-collection",
}

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
BILLERS = ("superintendent", "engineer", "clerk")
JUDGMENT_RECORDERS = ("superintendent", "clerk")

JUDGMENT = {
    "court": "Town of Wappinger Justice Court",
    "docket": "CR-11",
    "judgment_on": "2026-03-02",
    "fine_amount": "400.00",
}


def _collection(j: Judgment, by: str = "court") -> dict[str, Any]:
    data = {"judgment": j.pk, "amount": "25.00", "collected_on": "2026-03-05", "collected_by": by}
    return {**data, "method": "cash"} if by == "town" else data


def test_urls_are_named_as_declared() -> None:
    assert (
        reverse("enforcement:certificate-pdf", args=[1]) == "/enforcement/notices/1/certificate.pdf"
    )
    assert reverse("enforcement:referral-pdf", args=[1]) == "/enforcement/referrals/1.pdf"
    assert reverse("enforcement:judgment", args=[1]) == "/enforcement/1/judgment/"
    assert reverse("billing:violation-bill-costs", args=[1]) == "/billing/violations/1/bill-costs/"
    assert reverse("billing:violation-collection", args=[1]) == "/billing/violations/1/collection/"
    # the API's money actions keep the violation's address
    assert reverse("billing-violation-bill-costs", args=[1]) == (
        "/api/enforcement/violations/1/bill-costs/"
    )
    assert reverse("billing-violation-collection", args=[1]) == (
        "/api/enforcement/violations/1/collection/"
    )


def _posts(v: Violation) -> list[str]:
    return [
        f"/enforcement/{v.pk}/judgment/",
        f"/billing/violations/{v.pk}/bill-costs/",
        f"/billing/violations/{v.pk}/collection/",
    ]


def _api_posts(v: Violation) -> list[str]:
    return [
        f"/api/enforcement/violations/{v.pk}/bill-costs/",
        f"/api/enforcement/violations/{v.pk}/collection/",
    ]


def test_anonymous_goes_to_login_and_api_says_401(town: Town, client: Any) -> None:
    v = _referred(town)
    notice, referral = v.notices.get(), v.referrals.get()
    for url in (
        f"/enforcement/notices/{notice.pk}/certificate.pdf",
        f"/enforcement/referrals/{referral.pk}.pdf",
    ):
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    for url in _posts(v):
        r = client.post(url, {})
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    for url in _api_posts(v):
        assert client.post(url, {}, content_type="application/json").status_code == 401, url
    assert not Judgment.objects.exists() and not Invoice.objects.exists()


def test_user_without_role_is_refused(town: Town, login: Any) -> None:
    v = _referred(town)
    c = login("norole")
    notice, referral = v.notices.get(), v.referrals.get()
    for url in (
        f"/enforcement/notices/{notice.pk}/certificate.pdf",
        f"/enforcement/referrals/{referral.pk}.pdf",
    ):
        assert c.get(url).status_code == 403, url
    for url in _posts(v):
        assert c.post(url, {}).status_code == 403, url
    for url in _api_posts(v):
        assert c.post(url, {}, content_type="application/json").status_code == 403, url


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_the_certificate_and_the_referral(town: Town, login: Any, username: str) -> None:
    mine, theirs = _referred(town), served(town, mine=False)
    c = login(username)
    for v in (mine, theirs):
        r = c.get(f"/enforcement/notices/{v.notices.get().pk}/certificate.pdf")
        assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    r = c.get(f"/enforcement/referrals/{mine.referrals.get().pk}.pdf")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"


def test_the_owner_sees_its_own_certificate_and_no_referral(town: Town, login: Any) -> None:
    mine, theirs = _referred(town), served(town, mine=False)
    c = login("owner")
    assert c.get(f"/enforcement/notices/{mine.notices.get().pk}/certificate.pdf").status_code == 200
    assert c.get(f"/enforcement/notices/{theirs.notices.get().pk}/certificate.pdf").status_code == (
        404
    )
    assert c.get(f"/enforcement/referrals/{mine.referrals.get().pk}.pdf").status_code == 404


@pytest.mark.parametrize("username", [*STAFF, "owner"])
def test_the_judgment_is_the_superintendents_and_the_clerks(
    town: Town, login: Any, username: str
) -> None:
    v = _referred(town)
    data = {**JUDGMENT, "referral": v.referrals.get().pk}
    ok = username in JUDGMENT_RECORDERS
    r = login(username).post(f"/enforcement/{v.pk}/judgment/", data)
    assert r.status_code == (302 if ok else 403), username
    assert Judgment.objects.filter(violation=v).exists() == ok
    # by the API too (a second judgment on the same referral is refused: 409)
    r = login(username).post(
        f"/api/enforcement/violations/{v.pk}/judgment/", JUDGMENT, content_type="application/json"
    )
    assert r.status_code == (409 if ok else 403), username


@pytest.mark.parametrize("username", [*STAFF, "owner"])
def test_billing_the_costs_is_the_billers(town: Town, login: Any, username: str) -> None:
    page, api = _with_costs(town), _with_costs(town)
    ok = username in BILLERS
    c = login(username)
    r = c.post(f"/billing/violations/{page.pk}/bill-costs/")
    assert r.status_code == (302 if ok else 403), username
    r = c.post(f"/api/enforcement/violations/{api.pk}/bill-costs/")
    assert r.status_code == (201 if ok else 403), username
    assert Invoice.objects.count() == (2 if ok else 0)


@pytest.mark.parametrize("username", [*STAFF, "owner"])
def test_collections_are_the_recorders_and_the_towns_money_the_clerks(
    town: Town, login: Any, username: str
) -> None:
    j = _judged(town)
    c = login(username)
    ok = username in JUDGMENT_RECORDERS
    r = c.post(f"/billing/violations/{j.violation_id}/collection/", _collection(j))
    assert r.status_code == (302 if ok else 403), username
    r = c.post(
        f"/api/enforcement/violations/{j.violation_id}/collection/",
        _collection(j),
        content_type="application/json",
    )
    assert r.status_code == (201 if ok else 403), username
    # money the Town receives: the clerk alone, with a receipt
    clerk = username == "clerk"
    r = c.post(f"/billing/violations/{j.violation_id}/collection/", _collection(j, "town"))
    assert r.status_code == (302 if clerk else 403), username
    r = c.post(
        f"/api/enforcement/violations/{j.violation_id}/collection/",
        _collection(j, "town"),
        content_type="application/json",
    )
    assert r.status_code == (201 if clerk else 403), username
    town_money = Collection.objects.filter(judgment=j, collected_by="town")
    assert town_money.count() == (2 if clerk else 0)
    assert Collection.objects.filter(judgment=j).count() == (4 if clerk else 2 if ok else 0)


def test_another_persons_violation_is_404_to_the_owner(town: Town, login: Any) -> None:
    mine = _with_costs(town)  # the owner's own: its violation is seen, the actions refused
    other = served(town, mine=False)
    c = login("owner")
    assert c.post(f"/billing/violations/{mine.pk}/bill-costs/").status_code == 403
    for url in _posts(other):
        assert c.post(url, {}).status_code == 404, url
    for url in _api_posts(other):
        assert c.post(url, {}, content_type="application/json").status_code == 404, url
    assert not Invoice.objects.exists() and not Judgment.objects.exists()
