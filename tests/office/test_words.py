"""The office in plain words: statuses by label and colour, the review queue by
severity with counts and bulk acknowledgement, filters by name, citations on every result
list, rounded numbers, sentences without stray punctuation, links only to what one may open,
the list of every permit, the search."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string

from sewer_office.core.audit import timeline
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.statuses import STATUS_LABELS, STATUS_TONES
from sewer_office.core.templatetags.office import money, num, rounded, sentence
from sewer_office.findings.choices import ReviewState
from sewer_office.findings.models import Finding
from sewer_office.findings.services import acknowledge_findings, record_finding
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import DischargeLimit, LabResult

from .factories import Town, new_record
from .monitoring_factories import facilities


def _finding(est: Any, status: str, day: int, kind: str = "lab_result") -> Finding:
    return record_finding(
        source=None,
        establishment=est,
        kind=kind,
        status=status,
        citation="§ 196-19 C(3)",
        message=f"{status} on day {day}",
        observed_at=datetime(2026, 3, day, 15, tzinfo=UTC),
    )


def _render(text: str, **context: Any) -> str:
    return Template("{% load office %}" + text).render(Context(context))


# --- one status tag, one colour -------------------------------------------------------------


def test_status_tag_shows_label_and_tone_and_keeps_code_on_hover() -> None:
    html = _render("{% status s %}", s="abnormal_strength")
    assert (
        "Abnormal strength" in html and "tone-slate" in html and 'title="abnormal_strength"' in html
    )
    assert "tone-red" in _render("{% status 'prohibited' %}")
    assert "tone-amber" in _render("{% status 'review' %}")
    assert "tone-slate" in _render("{% status 'no_limit' %}")
    assert "tone-green" in _render("{% status 'compliant' %}")
    assert ">Something new<" in _render("{% status 'something_new' %}")
    assert set(STATUS_LABELS) == set(STATUS_TONES)


def test_no_page_template_prints_a_raw_status_code() -> None:
    """Every page shows a status through the one tag (``{% status %}``), never ``{{ x.status }}``
    as text."""
    from pathlib import Path

    import sewer_office

    root = Path(sewer_office.__file__).parent
    raw = re.compile(r">\{\{ ?[a-z_.]*\.status ?\}\}<")
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.html")
        if raw.search(p.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders


# --- numbers, money, sentences --------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("51660.920139", "51,661"),
        ("7.4567", "7.46"),
        ("2.50", "2.5"),
        ("0.012345", "0.0123"),
        ("100", "100"),
        ("-3.14159", "-3.14"),
        ("0", "0"),
    ],
)
def test_numbers_rounded_for_reading(value: str, shown: str) -> None:
    assert rounded(Decimal(value)) == shown


def test_num_keeps_exact_value_on_hover() -> None:
    assert str(num("51660.920139")) == '<span class="num" title="51660.920139">51,661</span>'
    assert num("7") == "7"
    assert num("<0.5") == "<0.5" and num(None) == ""


def test_money_in_dollars() -> None:
    assert money(Decimal("1234.5")) == "$1,234.50"
    assert money("250") == "$250.00"
    assert money(Decimal("-5")) == "−$5.00"


def test_sentence_leaves_out_missing_parts() -> None:
    assert sentence(["Clerk", "", None, " the applicant "]) == "Clerk, the applicant"
    assert sentence(["", None]) == ""
    assert sentence(["a", "b"], "; ") == "a; b"


#: A stray separator: ``, ,`` / ``; .`` / ``( )`` / ``since )`` / a space before punctuation.
GLITCH = re.compile(r"[,;]\s*[,;.)]|\(\s*\)|since\s*[),.]|\s[,;.)](?!\w)|on\s*\.|:\s*\.")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


class _F:
    """A finding with its optional parts empty."""

    def __init__(self, **kw: Any) -> None:
        self.limit = kw.get("limit", "")
        self.limit_unit = kw.get("limit_unit", "")
        self.parameter = kw.get("parameter", "")
        self.effective = kw.get("effective")


@pytest.mark.parametrize(
    "parts",
    [
        {},
        {"limit": "5"},
        {"limit": "5", "limit_unit": "mg/l"},
        {"parameter": "monthly_average"},
        {"parameter": "monthly_average", "limit": "51660.920139"},
        {"parameter": "p", "effective": date(2025, 1, 1)},
    ],
)
def test_message_templates_read_as_sentences_with_parts_missing(parts: dict[str, Any]) -> None:
    html = render_to_string("monitoring/_finding_basis.html", {"f": _F(**parts)})
    text = _text(html)
    assert not GLITCH.search(text), text
    if not parts:
        assert text == ""


_CLERK = {"who": "the Clerk", "what": "record fee payment", "label": "Record fee payment"}
_OWNER = {"who": "J. Smith (owner)", "what": "notify (ready for inspection)"}


@pytest.mark.parametrize(
    "who",
    [[], [{**_CLERK, "you": False}], [{**_OWNER, "label": "Notify", "you": True}, _CLERK]],
)
def test_waiting_on_reads_as_a_sentence(who: list[dict[str, Any]]) -> None:
    html = render_to_string("permits/_waiting_on.html", {"waiting_on": who, "is_open": True})
    text = _text(html)
    assert not GLITCH.search(text), text
    assert text.endswith(".")
    assert "Nothing for you to do" not in text
    if not who:
        assert "Waiting for" not in text
    elif who[0].get("you"):
        assert text.startswith("Your turn: notify") and "Waiting for the Clerk" in text


# --- the review queue -----------------------------------------------------------------------


@pytest.fixture
def queue(town: Town) -> dict[str, Any]:
    fac = facilities(town)
    fac.theirs.name = "Acme Plating"
    fac.theirs.save(update_fields=["name"])
    return {
        "fac": fac,
        "old_abnormal": _finding(fac.mine, "abnormal_strength", 1),
        "new_prohibited": _finding(fac.theirs, "prohibited", 9),
        "old_prohibited": _finding(fac.mine, "prohibited", 3),
        "review": _finding(fac.theirs, "review", 2),
    }


def test_queue_sorted_by_severity_then_age_with_counts(queue: dict[str, Any], login: Any) -> None:
    body = login("superintendent").get("/monitoring/findings/").content.decode()
    order = [
        body.index(queue[k].message)
        for k in ("old_prohibited", "new_prohibited", "review", "old_abnormal")
    ]
    assert order == sorted(order)
    counts = body.split('id="status-counts"')[1].split("</ul>")[0]
    assert re.search(r"Prohibited</span>\s*<span class=\"count\">2<", counts)
    assert re.search(r"Needs review</span>\s*<span class=\"count\">1<", counts)
    assert re.search(r"Abnormal strength</span>\s*<span class=\"count\">1<", counts)
    assert "abnormal_strength</td>" not in body


def test_dashboard_queue_puts_violations_first(queue: dict[str, Any], login: Any) -> None:
    body = login("superintendent").get("/").content.decode()
    panel = body.split('id="new-findings"')[1].split("</section>")[0]
    assert panel.index(queue["old_prohibited"].message) < panel.index(queue["old_abnormal"].message)
    assert "Prohibited" in panel


def test_filters_take_names_and_labels(queue: dict[str, Any], login: Any) -> None:
    c = login("superintendent")
    body = c.get("/monitoring/findings/?status=Prohibited").content.decode()
    assert queue["old_prohibited"].message in body and queue["review"].message not in body
    body = c.get("/monitoring/findings/?facility=Acme").content.decode()
    assert queue["new_prohibited"].message in body and queue["old_prohibited"].message not in body
    body = c.get("/monitoring/findings/?kind=Laboratory result&facility=acme pla").content.decode()
    assert queue["review"].message in body
    # the page's filters are lists of labels, never boxes for codes
    assert '<option value="prohibited">Prohibited</option>' in body
    assert '<option value="lab_result">Laboratory result</option>' in body
    # the API answers the same filters
    api = c.get("/api/monitoring/findings/?status=prohibited&facility=acme").json()
    assert [r["id"] for r in api["results"]] == [queue["new_prohibited"].pk]


def test_bulk_acknowledge_one_audit_event_per_finding(queue: dict[str, Any], town: Town) -> None:
    sup = town.u("superintendent")
    chosen = [queue["old_prohibited"], queue["review"], queue["old_abnormal"]]
    assert acknowledge_findings(chosen, sup, "seen at the counter") == 3
    for f in chosen:
        f.refresh_from_db()
        assert f.review == ReviewState.ACKNOWLEDGED and f.review_note == "seen at the counter"
        events = [e for e in timeline(f) if e.action == "finding_acknowledged"]
        assert len(events) == 1 and events[0].citation == "§ 196-19 C(3)"
    queue["new_prohibited"].refresh_from_db()
    assert queue["new_prohibited"].review == ReviewState.NEW
    # already acknowledged: nothing more to do, no second event
    assert acknowledge_findings(chosen, sup) == 0
    with pytest.raises(Forbidden):
        acknowledge_findings([queue["new_prohibited"]], town.u("clerk"))
    with pytest.raises(InvalidInput):
        acknowledge_findings([], sup)


def test_bulk_acknowledge_is_all_or_nothing(
    queue: dict[str, Any], town: Town, monkeypatch: Any
) -> None:
    from sewer_office.findings import services

    calls = {"n": 0}
    real = services.audit.record

    def failing(**kw: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk full")
        return real(**kw)

    monkeypatch.setattr(services.audit, "record", failing)
    with pytest.raises(RuntimeError):
        acknowledge_findings([queue["old_prohibited"], queue["review"]], town.u("superintendent"))
    assert Finding.objects.filter(review=ReviewState.ACKNOWLEDGED).count() == 0


def test_bulk_acknowledge_page(queue: dict[str, Any], login: Any) -> None:
    c = login("engineer")
    page = c.get("/monitoring/findings/").content.decode()
    assert 'id="bulk-acknowledge"' in page and 'name="finding"' in page
    r = c.post(
        "/monitoring/findings/acknowledge/",
        {
            "finding": [queue["review"].pk, queue["old_abnormal"].pk],
            "next": "/monitoring/findings/",
        },
        follow=True,
    )
    assert "Acknowledged 2 findings." in r.content.decode()
    assert "bulk-acknowledge" not in login("viewer").get("/monitoring/findings/").content.decode()


# --- citations and links --------------------------------------------------------------------

HEADER = "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"


def test_import_page_shows_citations_of_prohibited_results(town: Town, login: Any) -> None:
    fac = facilities(town)
    DischargeLimit.objects.create(
        establishment=fac.mine,
        parameter="copper",
        limit_type="daily_maximum",
        value="1.0",
        unit="mg/l",
        effective_from=date(2025, 1, 1),
    )
    data = (HEADER + "M1,2026-03-02T10:00,grab,pH,4.0,SU,OWNER-CAFE,CM-1\n").encode()
    imp = import_lab_file(data, "lab.csv", town.u("superintendent")).lab_import
    assert imp is not None
    result = LabResult.objects.get(lab_import=imp)
    assert result.status == "prohibited"
    body = login("superintendent").get(f"/monitoring/imports/{imp.pk}/").content.decode()
    row = body.split('class="result status-row-prohibited"')[1].split("</tr>")[0]
    assert "/law/?c=" in row and "Prohibited" in row
    # the owner sees the result, not a link to the office's import (which would be a 404)
    page = login("owner").get(f"/monitoring/results/{result.pk}/").content.decode()
    assert f"/monitoring/imports/{imp.pk}/" not in page
    assert login("owner").get(f"/monitoring/imports/{imp.pk}/").status_code == 404


def test_viewer_sees_no_links_to_import_or_manual_entry(town: Town, login: Any) -> None:
    for url in ("/monitoring/results/", "/monitoring/imports/"):
        body = login("viewer").get(url).content.decode()
        assert "/monitoring/import/" not in body and "/monitoring/results/new/" not in body
        body = login("superintendent").get(url).content.decode()
        assert "/monitoring/import/" in body and "/monitoring/results/new/" in body


# --- permits: counts and the one list -------------------------------------------------------


def test_permits_index_counts_and_lists_every_kind(town: Town, login: Any) -> None:
    mine = {slug: new_record(slug, town) for slug in ("building-sewer", "grinder", "subdivision")}
    theirs = new_record("building-sewer", town, mine=False)
    body = login("clerk").get("/permits/").content.decode()
    for r in [*mine.values(), theirs]:
        assert r.number in body
    kinds = body.split('id="kinds"')[1].split("</section>")[0]
    row = kinds.split("Building sewer permits")[1].split("</tr>")[0]
    assert re.findall(r">(\d+)<", row)[:2] == ["2", "2"]
    # filters: by kind, by text
    body = login("clerk").get("/permits/?kind=grinder").content.decode()
    listed = body.split('id="all-permits"')[1]
    assert mine["grinder"].number in listed and mine["building-sewer"].number not in listed
    listed = login("clerk").get("/permits/?q=Otto").content.decode().split('id="all-permits"')[1]
    assert theirs.number in listed and mine["grinder"].number not in listed
    # an outside user: only their own
    listed = login("owner").get("/permits/").content.decode().split('id="all-permits"')[1]
    assert mine["grinder"].number in listed and theirs.number not in listed


def test_permit_property_filter_takes_an_address(town: Town, login: Any) -> None:
    mine, theirs = (
        new_record("building-sewer", town),
        new_record("building-sewer", town, mine=False),
    )
    body = login("clerk").get("/permits/building-sewer/?property=100-02 Main").content.decode()
    assert theirs.number in body and mine.number not in body
    assert town.other_home is not None
    body = (
        login("clerk")
        .get(f"/permits/building-sewer/?property={town.other_home.pk}")
        .content.decode()
    )
    assert theirs.number in body and mine.number not in body


# --- the homeowner's building sewer permit --------------------------------------------------


def _owner_only(town: Town) -> None:
    """Leave the owner one property with one building (and no facility), as a homeowner."""
    from sewer_office.registry.models import Establishment, Property

    Establishment.objects.filter(operator=town.owner_person).delete()
    Property.objects.filter(owner=town.owner_person).exclude(pk=town.owner_home.pk).delete()


def test_homeowner_form_in_owner_words_with_single_choices_filled_in(
    town: Town, login: Any
) -> None:
    _owner_only(town)
    page = login("owner").get("/permits/building-sewer/new/").content.decode()
    assert "design_json" not in page and "JSON" not in page
    assert "Height of the Town sewer at the connection" in page
    assert re.search(rf'<option value="{town.owner_person.pk}" selected>', page)
    assert re.search(rf'<option value="{town.owner_home.pk}" selected>', page)
    assert "---------" not in page.split('name="property"')[1].split("</select>")[0]
    # staff keep the full design box
    assert "design_json" in login("clerk").get("/permits/building-sewer/new/").content.decode()


def test_homeowner_sees_design_checks_before_filing_and_next_steps_after(
    town: Town, login: Any
) -> None:
    from sewer_office.permits.models import BuildingSewerPermit

    _owner_only(town)
    c = login("owner")
    fields = {
        "applicant": town.owner_person.pk,
        "property": town.owner_home.pk,
        "permit_class": 1,
        "diameter": "4 in",
        "slope": "1/4 in/ft",
        "connected_sources": ["sanitary_fixtures", "sump_pump"],
    }
    r = c.post("/permits/building-sewer/new/", {**fields, "check": "1"})
    page = r.content.decode()
    assert r.status_code == 200 and 'id="design-checks"' in page
    checks = page.split('id="design-checks"')[1].split("</section>")[0]
    assert "§ 196-18 H" in checks and "failed" in checks and "File anyway" in page
    assert not BuildingSewerPermit.objects.exists()  # nothing filed, no fee assessed
    # filing without confirming shows the checks again; confirming files
    assert c.post("/permits/building-sewer/new/", fields).status_code == 200
    assert not BuildingSewerPermit.objects.exists()
    r = c.post("/permits/building-sewer/new/", {**fields, "file_anyway": "1", "files": [_plan()]})
    assert r.status_code == 302
    permit = BuildingSewerPermit.objects.get()
    page = c.get(r["Location"]).content.decode()
    steps = page.split('id="next-steps"')[1].split("</section>")[0]
    assert "Town Clerk" in steps and "Waiting for the Clerk to record fee payment" in steps
    assert _text(steps).count(" .") == 0
    if permit.fee_amount is not None:
        assert money(permit.fee_amount) in steps
    assert 'id="plan-checks"' in page


def _plan() -> Any:
    from .factories import plan_file

    return plan_file()


def test_hub_offers_a_homeowner_only_what_applies(town: Town, login: Any) -> None:
    _owner_only(town)
    page = login("owner").get("/permits/").content.decode()
    kinds = page.split('id="kinds"')[1].split("</section>")[0]
    assert "/permits/building-sewer/new/" in kinds
    assert "/permits/industrial/new/" not in kinds and "Industrial discharge approvals" not in kinds
    staff = login("clerk").get("/permits/").content.decode().split('id="kinds"')[1]
    assert "Industrial discharge approvals" in staff


def test_long_pages_have_a_table_of_contents(town: Town, login: Any) -> None:
    facilities(town)
    c = login("superintendent")
    for url in ("/", f"/registry/establishments/{town.owner_restaurant.pk}/"):
        page = c.get(url).content.decode()
        toc = page.split('<nav class="toc"')[1].split("</nav>")[0]
        targets = re.findall(r'href="#([\w-]+)"', toc)
        assert len(targets) >= 2, url
        for t in targets:
            assert f'id="{t}"' in page, (url, t)
