"""The portal, as a new user meets it: registering and verifying the e-mail address through a
real SMTP server; an unlinked account sees nothing of anyone's records; a link request with its
document (type and size checked by the bytes); staff confirming with an identity check recorded
once; the linked account reaching its person's records and never another's (ids, file URLs);
refusing and ending links; and the pages' permission battery."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile

from sewer_office.accounts.roles import APPLICANT
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.models import Attachment, AuditEvent, ImmutableRecord
from sewer_office.portal import services
from sewer_office.portal.choices import LinkState
from sewer_office.portal.models import IdentityCheck, LinkRequest, Registration

from .factories import USERS, Town, new_record
from .smtp_support import Inbox
from .test_permissions import _endpoints, _records

pytestmark = pytest.mark.django_db

COVERED_URL_NAMES = {
    "portal:register",
    "portal:register-sent",
    "portal:verify",
    "portal:links",
    "portal:link-new",
    "portal:link",
    "portal:link-confirm",
    "portal:link-refuse",
    "portal:link-end",
}
COVERED_URL_PREFIXES = ("portal-link",)
PASSWORD = "Wappinger-Falls-2026"
PDF = b"%PDF-1.7\n% a scanned deed\n"


def pdf(name: str = "deed.pdf", content: bytes = PDF) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/pdf")


def register(client: Any, smtp: Inbox, username: str = "newowner") -> str:
    """Register through the page; the verification link that arrived by e-mail."""
    r = client.post(
        "/portal/register/",
        {
            "name": "Nora Newcomer",
            "email": f"{username}@example.org",
            "username": username,
            "password": PASSWORD,
            "password_again": PASSWORD,
        },
    )
    assert r.status_code == 302 and r["Location"] == "/portal/register/sent/"
    got = smtp.messages[-1]
    assert got.rcpt_tos == [f"{username}@example.org"]
    assert got.subject == "Sewer office: confirm your e-mail address"
    found = re.search(r"http://testserver(/portal/verify/[^/\s]+/)", got.body)
    assert found, got.body
    return found.group(1)


def test_register_verify_then_sign_in(town: Town, client: Any, smtp: Inbox) -> None:
    link = register(client, smtp)
    user = get_user_model().objects.get(username="newowner")
    assert not user.is_active and user.email == "newowner@example.org"
    assert not client.login(username="newowner", password=PASSWORD)  # not yet verified
    r = client.get(link)
    assert r.status_code == 200 and "Your e-mail address is confirmed" in r.content.decode()
    user.refresh_from_db()
    assert user.is_active and Registration.objects.get(user=user).verified_at is not None
    assert client.get(link).status_code == 200  # opening it again changes nothing
    assert AuditEvent.objects.filter(action="verify_email").count() == 1
    assert client.login(username="newowner", password=PASSWORD)
    page = client.get("/portal/links/").content.decode()
    assert "not yet linked to any person" in page


def test_bad_registrations_store_nothing(town: Town, client: Any, smtp: Inbox) -> None:
    users = get_user_model().objects.count()
    cases = [
        ({"password_again": "different-Password-1"}, "The two passwords differ."),
        ({"password": "12345678", "password_again": "12345678"}, "too common"),
        # a taken name is not bad input: it answers as a free one (test_signin_lockout.py)
        ({"email": "not-an-address"}, "Enter a valid email address"),
    ]
    for change, message in cases:
        data = {
            "name": "Nora",
            "email": "nora@example.org",
            "username": "nora",
            "password": PASSWORD,
            "password_again": PASSWORD,
            **change,
        }
        r = client.post("/portal/register/", data)
        assert r.status_code == 200 and message in r.content.decode(), change
    assert get_user_model().objects.count() == users and smtp.messages == []


def test_an_address_already_registered_is_not_revealed(
    town: Town, client: Any, smtp: Inbox
) -> None:
    owner = town.u("owner")
    owner.email = "olive@example.org"
    owner.save()
    users = get_user_model().objects.count()
    r = client.post(
        "/portal/register/",
        {"name": "X", "email": "Olive@example.org", "username": "olive2",
         "password": PASSWORD, "password_again": PASSWORD},
    )  # fmt: skip
    assert r.status_code == 302 and r["Location"] == "/portal/register/sent/"  # as for anyone
    assert get_user_model().objects.count() == users
    [got] = smtp.messages
    assert got.rcpt_tos == ["Olive@example.org"] and "already belongs to the account 'owner'" in (
        got.body
    )


def test_expired_and_altered_links_are_refused(
    town: Town, client: Any, smtp: Inbox, settings: Any
) -> None:
    link = register(client, smtp)
    assert client.get(link[:-3] + "xx/").status_code == 400
    settings.SEWER_USE_VERIFY_HOURS = -1
    r = client.get(link)
    assert r.status_code == 400 and "expired" in r.content.decode()
    assert not get_user_model().objects.get(username="newowner").is_active


def verified(town: Town, name: str = "nora") -> Any:
    user = get_user_model().objects.create_user(name, f"{name}@example.org", PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=APPLICANT)[0])
    return user


def test_an_unlinked_account_sees_nothing(town: Town, client: Any) -> None:
    records = _records(town)
    mine = {s: r[0] for s, r in records.items()}
    verified(town)
    assert client.login(username="nora", password=PASSWORD)
    seen = 0
    for url in _endpoints(town, mine):
        if url.startswith(("/api/service-areas/", "/api/schema/", "/api/docs/")):
            continue  # the sewer districts (public to office users) and the API's own schema
        r = client.get(url)
        if r.status_code == 200:
            body = r.json()
            results = body.get("results", body) if isinstance(body, dict) else body
            assert results in ([], {}) or not results, url
            seen += 1
        else:
            assert r.status_code in (403, 404), url
    assert seen > 5
    for att in Attachment.objects.all():
        assert client.get(f"/files/{att.pk}/").status_code == 404


def test_link_request_checks_its_document(town: Town, settings: Any) -> None:
    nora = verified(town)
    kw = {"relation": "owner", "person_name": "Olive Owner", "place": "100 Main St", "note": ""}
    for bad, message in [
        (pdf("deed.pdf", b"<html><script>alert(1)</script>"), "not a PDF, PNG, JPEG or TIFF"),
        (pdf("setup.pdf", b"MZ\x90\x00\x03 a program"), "its content, not its name"),
        (None, "Attach a document"),
    ]:
        with pytest.raises(InvalidInput, match=message):
            services.request_link(nora, document=bad, **kw)
    settings.SEWER_USE_MAX_UPLOAD_BYTES = 10
    with pytest.raises(
        InvalidInput, match=r"deed\.pdf: .* bytes, larger than the 10 bytes allowed"
    ):
        services.request_link(nora, document=pdf(), **kw)
    assert not LinkRequest.objects.exists() and not Attachment.objects.exists()
    with pytest.raises(Forbidden):
        services.request_link(town.u("clerk"), document=pdf(), **kw)


def test_staff_confirm_and_the_account_reaches_its_persons_records_only(
    town: Town, client: Any, login: Any
) -> None:
    mine = new_record("building-sewer", town)
    theirs = new_record("building-sewer", town, mine=False)
    nora = verified(town)
    link = services.request_link(
        nora, relation="representative", person_name="Olive Owner", place="100-01",
        note="I am Olive's engineer", document=pdf(),
    )  # fmt: skip
    c = client
    c.logout()
    assert c.login(username="nora", password=PASSWORD)
    assert c.get(f"/api/permits/building-sewer/{mine.pk}/").status_code == 404
    assert c.get(f"/portal/links/{link.pk}/").status_code == 200
    with pytest.raises(Forbidden):
        services.confirm(
            town.u("engineer"), link, person=town.owner_person, document_kind="deed",
            document_reference="x",
        )  # fmt: skip
    assert c.post(f"/portal/links/{link.pk}/confirm/", {}).status_code == 403
    clerk = login("clerk")
    page = clerk.get(f"/portal/links/{link.pk}/").content.decode()
    [doc] = Attachment.objects.filter(object_id=str(link.pk), content_type__model="linkrequest")
    assert f"/files/{doc.pk}/" in page and clerk.get(f"/files/{doc.pk}/").status_code == 200
    r = clerk.post(
        f"/portal/links/{link.pk}/confirm/",
        {"person": town.owner_person.pk, "document_kind": "authorization",
         "document_reference": "Letter of Olive Owner, 2026-12-01, and NY license 123 456 789"},
    )  # fmt: skip
    assert r.status_code == 302
    link.refresh_from_db()
    assert link.state == LinkState.CONFIRMED and link.person == town.owner_person
    check = IdentityCheck.objects.get(link=link)
    assert check.checked_by == town.u("clerk") and check.document_kind == "authorization"
    with pytest.raises(ImmutableRecord):
        check.save()
    with pytest.raises(ImmutableRecord):
        check.delete()
    with pytest.raises(Blocked):
        services.refuse(town.u("clerk"), link, "too late")
    ev = AuditEvent.objects.get(action="confirm_link")
    assert ev.after["identity_check"]["document_reference"].startswith("Letter of Olive")
    # the account now reaches the owner's records, never the other applicant's
    c = client
    c.logout()
    assert c.login(username="nora", password=PASSWORD)
    assert c.get(f"/api/permits/building-sewer/{mine.pk}/").status_code == 200
    assert c.get(f"/api/permits/building-sewer/{theirs.pk}/").status_code == 404
    ids = [p["id"] for p in c.get("/api/permits/building-sewer/").json()["results"]]
    assert mine.pk in ids and theirs.pk not in ids
    for att in Attachment.objects.all():
        expected = (
            200
            if att.object_id == str(mine.pk) and att.content_type.model != "linkrequest"
            else 404
        )
        assert c.get(f"/files/{att.pk}/").status_code == expected, att
    # ending the link takes the access away
    r = c.post(f"/portal/links/{link.pk}/end/", {"reason": "No longer Olive's engineer"})
    assert r.status_code == 302
    c.logout()
    assert c.login(username="nora", password=PASSWORD)
    assert c.get(f"/api/permits/building-sewer/{mine.pk}/").status_code == 404
    assert AuditEvent.objects.filter(action="end_link").count() == 1


def test_refused_request_says_why_and_others_requests_are_not_seen(
    town: Town, client: Any, login: Any
) -> None:
    nora, other = verified(town), verified(town, "oscar")
    kw = {"relation": "owner", "place": "100-01", "note": "", "document": pdf()}
    link = services.request_link(nora, person_name="Olive Owner", **kw)
    with pytest.raises(Blocked):
        services.request_link(nora, person_name="olive owner", **{**kw, "document": pdf()})
    theirs = services.request_link(other, person_name="Otto", **{**kw, "document": pdf()})
    clerk = login("clerk")
    assert clerk.post(f"/portal/links/{link.pk}/refuse/", {"reason": ""}).status_code == 400
    clerk.post(f"/portal/links/{link.pk}/refuse/", {"reason": "The deed names someone else."})
    link.refresh_from_db()
    assert link.state == LinkState.REFUSED
    client.logout()
    assert client.login(username="nora", password=PASSWORD)
    assert (
        "The deed names someone else." in client.get(f"/portal/links/{link.pk}/").content.decode()
    )
    assert client.get(f"/portal/links/{theirs.pk}/").status_code == 404
    data = client.get("/api/portal/links/").json()
    assert [d["id"] for d in data["results"]] == [link.pk]
    assert client.post(f"/portal/links/{theirs.pk}/end/", {"reason": "x"}).status_code == 404


def test_pages_permission_battery(town: Town, login: Any) -> None:
    nora = verified(town)
    link = services.request_link(
        nora, relation="owner", person_name="Olive", place="100-01", note="", document=pdf()
    )
    anon = login(None)
    assert anon.get("/portal/register/").status_code == 200
    assert anon.get("/portal/register/sent/").status_code == 200
    for url in ["/portal/links/", "/portal/links/new/", f"/portal/links/{link.pk}/"]:
        assert anon.get(url).status_code == 302, url
    assert anon.get("/api/portal/links/").status_code in (401, 403)
    norole = login("norole")
    assert norole.get("/portal/links/").status_code == 403
    for username in sorted(u for u, r in USERS.items() if r):
        c = login(username)
        assert c.get("/portal/links/").status_code == 200
        assert c.get("/portal/register/").status_code == 302  # signed in: no registering
        staff = username not in ("owner", "other")
        assert c.get(f"/portal/links/{link.pk}/").status_code == (200 if staff else 404)
        assert c.get("/portal/links/new/").status_code == (403 if staff else 200)
        n = len(c.get("/api/portal/links/").json()["results"])
        assert n == (1 if staff else 0)
        decide = c.post(f"/portal/links/{link.pk}/refuse/", {"reason": "test"})
        if not staff:
            assert decide.status_code == 404
        elif username not in ("clerk", "superintendent"):
            assert decide.status_code == 403
    assert LinkRequest.objects.get(pk=link.pk).state == LinkState.REFUSED  # the clerk's


def test_plans_of_the_wrong_type_are_refused_with_a_clear_message(town: Town, login: Any) -> None:
    permit = new_record("building-sewer", town)
    files = Attachment.objects.count()
    c = login("owner")
    page = f"/permits/building-sewer/{permit.pk}/files/"
    r = c.post(page, {"files": [pdf("plans.pdf", b"<html>not a drawing</html>")]}, follow=True)
    assert "plans.pdf: not a PDF, PNG, JPEG or TIFF file" in r.content.decode()
    api = f"/api/permits/building-sewer/{permit.pk}/files/"
    r = c.post(api, {"files": [pdf("plans.pdf", b"MZ\x90\x00")]})
    assert r.status_code == 400 and "its content, not its name" in str(r.json())
    assert Attachment.objects.count() == files
    r = c.post(api, {"files": [pdf("plans.pdf")]})
    assert r.status_code == 200 and Attachment.objects.count() == files + 1
