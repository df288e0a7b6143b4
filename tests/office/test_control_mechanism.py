"""An industrial approval as an individual control mechanism (40 CFR 403.8(f)(1)(iii)(B)):
issuing one to a Significant Industrial User is refused while an element is missing, naming
each; a complete one is issued and its letter states every element in order; a non-SIU's is
not refused; terms are added before the decision only; the ICIS-NPDES identifier is checked
and recorded once; the filing takes the process wastewater flow."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Any

import pypdfium2
import pytest

from sewer_office.core import letters
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.services import perform
from sewer_office.core.significance import is_significant
from sewer_office.permits.control_mechanism import (
    ELEMENTS,
    NO_SELF_MONITORING,
    missing_elements,
    standard_terms,
)
from sewer_office.permits.letters import APPROVAL
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.permits.services.control_terms import (
    add_self_monitoring,
    record_icis_permit_id,
    record_terms,
)
from sewer_office.permits.services.industrial import file_discharge_approval
from sewer_office.pretreatment import services as pretreatment

from .enforcement_factories import at
from .factories import Town, new_record

B = "40 CFR 403.8(f)(1)(iii)(B)"

TERMS = {
    "non_transferable": "Not transferable without notice to the Town and a copy to the buyer.",
    "effluent_limits": "Copper daily maximum 1.0 mg/l; drag-out tanks on the plating line.",
    "reporting": "Report results twice a year; notify within 24 hours; keep records 3 years.",
    "penalties": "Fines of § 196-22 B on conviction; liability under § 196-22 C.",
    "slug_control": "Keep a slug control plan; bund the chemical store.",
}


def pdf_text(data: bytes) -> str:
    doc = pypdfium2.PdfDocument(data)
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def siu(town: Town, mine: bool = True) -> Any:
    """An approval under review of an establishment designated an SIU."""
    est = town.owner_restaurant if mine else town.other_plant
    pretreatment.designate(
        town.u("superintendent"),
        est,
        basis="designated",
        reason="plating line: reasonable potential (403.3(v)(1)(ii))",
        on=date(2026, 1, 5),
        at=at("2026-01-05"),
    )
    return perform(new_record("industrial", town, mine=mine), "begin_review", town.u("engineer"))


def complete(town: Town, approval: Any, **terms: str) -> None:
    record_terms(town.u("engineer"), approval, TERMS | terms)
    add_self_monitoring(
        town.u("engineer"),
        approval,
        parameter="Copper",
        sampling_point="CM-1",
        sample_type="composite",
        frequency="monthly",
    )


# --- refusal for an SIU -------------------------------------------------------------------------


def test_an_siu_approval_lacking_elements_is_refused_naming_each(town: Town) -> None:
    a = siu(town)
    assert is_significant(a.establishment)
    with pytest.raises(Blocked) as refused:
        perform(a, "approve", town.u("engineer"), {"term_years": "5"})
    message = refused.value.message
    assert f"{B}(4): {NO_SELF_MONITORING}" in message
    assert (
        "40 CFR 403.8(f)(1)(iii)(B)(4): no self-monitoring requirement (pollutant, sampling "
        "location, frequency, sample type) is recorded" in message
    )
    for n in (2, 3, 4, 5, 6):
        assert f"{B}({n}):" in message, n
    assert f"{B}(1):" not in message  # the decision states the term
    a.refresh_from_db()
    assert a.state == "under_review" and a.decided_on is None
    assert letters.issued(APPROVAL, a) is None


def test_only_what_is_missing_is_named_and_both_approving_moves_are_refused(town: Town) -> None:
    a = siu(town)
    record_terms(town.u("engineer"), a, {k: v for k, v in TERMS.items() if k != "slug_control"})
    add_self_monitoring(
        town.u("engineer"),
        a,
        parameter="pH",
        sampling_point="CM-1",
        sample_type="grab",
        frequency="weekly",
    )
    gaps = missing_elements(a)
    assert [str(g) for g in gaps] == [f"{B}(6): {ELEMENTS[5].missing}"]
    for move, data in (
        ("approve", {}),
        ("approve_with_conditions", {"pretreatment": "ion exchange"}),
    ):
        with pytest.raises(Blocked) as refused:
            perform(a, move, town.u("engineer"), data)
        assert f"{B}(6):" in refused.value.message
        assert f"{B}(2):" not in refused.value.message and f"{B}(4):" not in refused.value.message


def test_a_complete_siu_approval_is_issued_and_its_letter_carries_every_element(
    town: Town,
) -> None:
    a = siu(town)
    complete(town, a, compliance_schedule="Pretreatment unit installed by 2026-09-01.")
    a = perform(a, "approve", town.u("engineer"), {"term_years": "4"}, at=at("2026-02-10"))
    assert a.state == "approved" and a.term_years == 4
    assert missing_elements(a) == []
    doc = letters.issued(APPROVAL, a)
    assert doc is not None
    text = " ".join(pdf_text(bytes(doc.content)).split())
    positions = []
    for e in ELEMENTS:
        head = f"({e.number}) {e.title} ({e.citation})"
        assert head in text, head
        positions.append(text.index(head))
    assert positions == sorted(positions)  # in the rule's order
    assert "4 years, in force through 2030-02-09" in text
    for words in TERMS.values():
        assert " ".join(words.split()) in text, words
    assert "Copper, total" in text and "CM-1" in text and "Monthly" in text
    assert "Compliance schedule: Pretreatment unit installed by 2026-09-01." in text


def test_the_slug_determination_satisfies_element_6_but_not_with_requirements(
    town: Town,
) -> None:
    a = siu(town)
    terms = {k: v for k, v in TERMS.items() if k != "slug_control"}
    terms["slug_not_necessary"] = "No chemical store; batch discharges only (inspected 2026-01)."
    record_terms(town.u("engineer"), a, terms)
    add_self_monitoring(
        town.u("engineer"),
        a,
        parameter="bod5",
        sampling_point="CM-1",
        sample_type="composite",
        frequency="quarterly",
    )
    assert missing_elements(a) == []
    with pytest.raises(InvalidInput) as refused:
        record_terms(town.u("engineer"), a, {"slug_control": "a plan"})
    assert "both required and found unnecessary" in refused.value.errors["slug_control"][0]
    a = perform(a, "approve", town.u("engineer"))
    assert a.state == "approved"


def test_a_non_siu_approval_is_issued_and_its_page_shows_what_is_missing(
    town: Town, login: Any
) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    assert not is_significant(a.establishment)
    body = login("engineer").get(a.get_absolute_url()).content.decode()
    assert "is not designated a Significant Industrial User" in body
    assert f"Missing: {NO_SELF_MONITORING}." in body
    assert 'id="record-terms"' in body and 'id="add-self-monitoring"' in body
    a = perform(a, "approve", town.u("engineer"))
    assert a.state == "approved"
    text = pdf_text(bytes(letters.issued(APPROVAL, a).content))  # type: ignore[union-attr]
    assert "Individual control mechanism" not in text  # nothing of it recorded: a plain approval


def test_the_siu_page_says_issuing_is_refused(town: Town, login: Any) -> None:
    a = siu(town)
    body = login("engineer").get(a.get_absolute_url()).content.decode()
    assert "is designated a Significant Industrial User" in body
    assert "cannot be issued while an element below is missing" in body
    r = login("engineer").post(f"/permits/industrial/{a.pk}/actions/approve/", {"term_years": "5"})
    assert r.status_code == 409
    assert f"{B}(2)" in r.content.decode()


# --- append-only, before the decision ------------------------------------------------------------


def test_terms_and_self_monitoring_after_issuance_are_refused(town: Town, login: Any) -> None:
    a = siu(town)
    complete(town, a)
    a = perform(a, "approve", town.u("engineer"))
    with pytest.raises(Blocked) as refused:
        record_terms(town.u("engineer"), a, {"compliance_schedule": "later"})
    assert "kept as issued" in refused.value.message
    with pytest.raises(Blocked):
        add_self_monitoring(
            town.u("engineer"),
            a,
            parameter="zinc",
            sampling_point="CM-1",
            sample_type="composite",
            frequency="monthly",
        )
    c = login("engineer")
    r = c.post(f"/permits/industrial/{a.pk}/terms/", {"compliance_schedule": "later"})
    assert r.status_code == 409 and "kept as issued" in r.content.decode()
    assert a.conditions.count() == len(TERMS) and a.self_monitoring.count() == 1
    body = c.get(a.get_absolute_url()).content.decode()
    assert 'id="record-terms"' not in body  # no form once decided


def test_only_the_engineer_and_superintendent_record_terms(town: Town) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    for name in ("clerk", "inspector", "owner"):
        with pytest.raises(Forbidden):
            record_terms(town.u(name), a, {"reporting": "x"})
    record_terms(town.u("superintendent"), a, {"reporting": "quarterly reports"})
    assert a.conditions.get().citation == f"{B}(4)"


def test_self_monitoring_validation(town: Town) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    eng = town.u("engineer")

    def add(**kw: str) -> Any:
        row = {
            "parameter": "BOD",
            "sampling_point": "CM-1",
            "sample_type": "composite",
            "frequency": "monthly",
        }
        return add_self_monitoring(eng, a, **(row | kw))

    assert add().parameter == "bod5"  # stored by its canonical name
    with pytest.raises(InvalidInput) as e:
        add()
    assert "already recorded" in e.value.errors["parameter"][0]
    with pytest.raises(InvalidInput) as e:
        add(parameter="unobtainium", sampling_point=" ", frequency="hourly")
    assert set(e.value.errors) == {"parameter", "sampling_point", "frequency"}
    with pytest.raises(InvalidInput) as e:
        add(parameter="pH")
    assert "40 CFR 403.12(g)(3)" in e.value.errors["sample_type"][0]


# --- the ICIS-NPDES identifier ------------------------------------------------------------------


def test_icis_permit_id_is_nine_characters_without_asterisk_recorded_once(town: Town) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    a = perform(a, "approve", town.u("engineer"))
    for bad, says in (
        ("NYP00001", "Exactly 9 characters (this has 8)"),
        ("NYP0000012", "Exactly 9 characters (this has 10)"),
        ("NYP*00001", "No asterisk"),
        ("NYP 00001", "No spaces"),
    ):
        with pytest.raises(InvalidInput) as e:
            record_icis_permit_id(town.u("clerk"), a, bad)
        assert says in e.value.errors["icis_permit_id"][0], bad
    with pytest.raises(Forbidden):
        record_icis_permit_id(town.u("owner"), a, "NYP000001")
    a = record_icis_permit_id(town.u("clerk"), a, " NYP000001 ")
    assert a.icis_permit_id == "NYP000001"
    with pytest.raises(Blocked) as refused:
        record_icis_permit_id(town.u("engineer"), a, "NYP000002")
    assert "recorded once" in refused.value.message
    a.refresh_from_db()
    assert a.icis_permit_id == "NYP000001"


def test_icis_permit_id_on_the_page(town: Town, login: Any) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    c = login("clerk")
    assert 'id="record-icis-id"' in c.get(a.get_absolute_url()).content.decode()
    r = c.post(f"/permits/industrial/{a.pk}/icis-id/", {"icis_permit_id": "NY*P00001"})
    assert r.status_code == 400 and "No asterisk" in r.content.decode()
    r = c.post(f"/permits/industrial/{a.pk}/icis-id/", {"icis_permit_id": "NYP000007"})
    assert r.status_code == 302
    body = c.get(a.get_absolute_url()).content.decode()
    assert re.search(r'id="icis-permit-id">NYP000007<', body)
    assert 'id="record-icis-id"' not in body


# --- the page's forms and the API ---------------------------------------------------------------


def test_the_terms_form_prefills_the_towns_words_and_records_what_is_sent(
    town: Town, login: Any
) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    c = login("engineer")
    body = c.get(a.get_absolute_url()).content.decode()
    assert "may not be transferred, assigned or sold" in body  # prefilled, not recorded
    assert "§ 196-22 B" in body
    assert a.conditions.count() == 0
    r = c.post(
        f"/permits/industrial/{a.pk}/terms/",
        {"non_transferable": "Our own words on transfer.", "penalties": ""},
    )
    assert r.status_code == 302
    assert [(x.kind, x.text) for x in a.conditions.all()] == [
        ("non_transferable", "Our own words on transfer.")
    ]
    r = c.post(
        f"/permits/industrial/{a.pk}/self-monitoring/",
        {"parameter": "ph", "sampling_point": "CM-1", "sample_type": "composite",
         "frequency": "weekly"},
    )  # fmt: skip
    assert r.status_code == 400 and "40 CFR 403.12(g)(3)" in r.content.decode()
    assert (
        "penalties" in standard_terms("demo", date(2026, 1, 1))
        and "§ 196-22 B" in standard_terms("demo", date(2026, 1, 1))["penalties"]
    )


def test_the_api_records_terms_and_shows_each_element(town: Town, login: Any) -> None:
    a = siu(town)
    c = login("engineer")
    base = f"/api/permits/industrial/{a.pk}/"
    r = c.post(base + "terms/", TERMS, content_type="application/json")
    assert r.status_code == 200, r.content
    r = c.post(
        base + "self-monitoring/",
        {"parameter": "copper", "sampling_point": "CM-1", "sample_type": "composite",
         "frequency": "monthly"},
        content_type="application/json",
    )  # fmt: skip
    assert r.status_code == 200, r.content
    record = r.json()
    assert record["self_monitoring"][0]["events_per_year"] == 12
    assert [e["number"] for e in record["control_mechanism"]] == [1, 2, 3, 4, 5, 6]
    assert all(not e["missing"] for e in record["control_mechanism"])
    r = c.post(base + "transitions/approve/", {}, content_type="application/json")
    assert r.status_code == 200 and r.json()["state"] == "approved"
    r = c.post(base + "terms/", {"reporting": "more"}, content_type="application/json")
    assert r.status_code == 409
    r = c.post(base + "icis-permit-id/", {"icis_permit_id": "NYP123456"},
               content_type="application/json")  # fmt: skip
    assert r.status_code == 200 and r.json()["icis_permit_id"] == "NYP123456"


# --- the filing's process flow ------------------------------------------------------------------


def _file(town: Town, **kw: Any) -> IndustrialDischargeApproval:
    return file_discharge_approval(
        town.u("clerk"),
        applicant=town.owner_person,  # type: ignore[arg-type]
        establishment=town.owner_restaurant,  # type: ignore[arg-type]
        discharge_kind="new",
        concentrations={"bod5": "300"},
        **kw,
    )


def test_the_process_flow_is_at_most_the_flow(town: Town, login: Any) -> None:
    a = _file(town, flow_gpd=Decimal("1000"), process_flow_gpd=Decimal("800"))
    assert a.process_flow_gpd == Decimal("800")
    with pytest.raises(InvalidInput) as e:
        _file(town, flow_gpd=Decimal("1000"), process_flow_gpd=Decimal("1000.01"))
    assert "cannot exceed the flow" in e.value.errors["process_flow_gpd"][0]
    with pytest.raises(InvalidInput) as e:
        _file(town, process_flow_gpd=Decimal("10"))
    assert "State the flow too" in e.value.errors["process_flow_gpd"][0]
    c = login("clerk")
    data = {
        "applicant": town.owner_person.pk,  # type: ignore[union-attr]
        "establishment": town.owner_restaurant.pk,  # type: ignore[union-attr]
        "discharge_kind": "new",
        "flow_gpd": "2000",
        "process_flow_gpd": "1500",
    }
    r = c.post("/api/permits/industrial/", data, content_type="application/json")
    assert r.status_code == 201 and r.json()["process_flow_gpd"] == "1500.00"
    r = c.post("/api/permits/industrial/", data | {"process_flow_gpd": "2500"},
               content_type="application/json")  # fmt: skip
    assert r.status_code == 400 and "process_flow_gpd" in r.json()["errors"]
    r = c.post("/permits/industrial/new/", data | {"process_flow_gpd": "1200"})
    assert r.status_code == 302
    created = IndustrialDischargeApproval.objects.order_by("-id").first()
    assert created is not None and created.process_flow_gpd == Decimal("1200")
    assert "Process wastewater flow" in c.get(created.get_absolute_url()).content.decode()


# --- the demo ---------------------------------------------------------------------------------


def test_the_demo_acme_approval_is_the_model_control_mechanism(demo_town: Any) -> None:
    from django.utils import timezone

    demo_town(seed=4, anchor=timezone.localdate())
    granted = IndustrialDischargeApproval.objects.filter(
        state__in=("approved", "approved_with_conditions")
    )
    acme = granted.get(establishment__name="Acme Plating Corporation")
    assert is_significant(acme.establishment)  # designated later in the build
    assert missing_elements(acme) == []
    assert acme.self_monitoring.count() >= 5
    assert {a.icis_permit_id for a in granted} == {"NYP000001", "NYP000002", "NYP000003"}
    for a in IndustrialDischargeApproval.objects.all():
        assert a.process_flow_gpd is not None and a.flow_gpd is not None
        assert a.process_flow_gpd <= a.flow_gpd, a.number
    text = pdf_text(bytes(letters.issued(APPROVAL, acme).content))  # type: ignore[union-attr]
    text = " ".join(text.split())
    for e in ELEMENTS:
        assert f"({e.number}) {e.title} ({e.citation})" in text, e.number
