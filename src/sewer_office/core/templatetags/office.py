"""Template filters and tags of the office.

Plain words in one place: ``{% status code %}`` shows a finding's status with its label and
colour (:mod:`sewer_office.core.statuses`), ``{% badge label tone %}`` a state or kind,
``|num`` a number rounded for reading with the exact value on hover, ``|money`` an amount in
dollars, ``|day`` and ``|moment`` dates in the office's one format, ``|cite`` a citation as a
link to the law's text, and ``|sentence`` a list of parts joined so that a missing part
leaves no stray comma or semicolon.

Numbers for reading (:mod:`sewer_office.core.reading`, the same functions as the PDFs and the
downloads): ``|amount`` an amount to the cent (``USD 1,234.57``), ``|measured`` a laboratory's
value as reported, ``|quantity`` a computed value to four significant figures, ``|readable``
software-written text with its long numbers rounded, ``|param`` a dated parameter in words;
each keeps the exact value on hover where it rounded.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from sewer_office.accounts.towns import installed, values_of
from sewer_office.core import reading
from sewer_office.core.law import link_citations
from sewer_office.core.statuses import status_label, status_tone

register = template.Library()


@register.filter
def words(value: str) -> str:
    """``record_fee_payment`` → ``Record fee payment``."""
    text = str(value).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


@register.filter
def state_of(workflow: Any, value: str) -> str:
    """The label of a state value in ``workflow`` (the value itself if unknown)."""
    return workflow.label(value) if workflow is not None and value else value


@register.filter
def check_class(passed: bool | None) -> str:
    labels: dict[bool | None, str] = {True: "pass", False: "fail"}
    return labels.get(passed, "undecided")


@register.filter
def check_word(passed: bool | None) -> str:
    labels: dict[bool | None, str] = {True: "passed", False: "failed"}
    return labels.get(passed, "for the inspector")


@register.filter
def cite(value: Any) -> SafeString:
    """Citations of the article linked to the law page, with the law's words as a tooltip.

    ``{{ finding.citation|cite }}``: ``§ 196-19 C(3)`` becomes a link to ``/law/?c=…`` whose
    ``title`` is the subsection's text; other text (a federal reference) is shown escaped.
    """
    return link_citations(value)


@register.filter
def cite_on(value: Any, day: Any) -> SafeString:
    """:func:`cite` as of a determination's day: ``{{ f.citation|cite_on:f.observed_at }}``
    links to the law page of that day (``/law/?c=…&on=…``) with the words then in force, so a
    past finding is read against the law it was made under."""
    if isinstance(day, datetime):
        day = timezone.localdate(day) if timezone.is_aware(day) else day.date()
    return link_citations(value, day if isinstance(day, date) else None)


def _badge_html(code: str, label: str, tone: str, citation: str) -> SafeString:
    """``<span class="badge tone-…">label</span>``, the code (and citation) on hover.

    Built with :func:`~django.utils.html.format_html` rather than an inclusion template: a list
    page draws one per row, and a template rendered per badge was a tenth of such a page."""
    if not code:
        return format_html('<span class="badge tone-{}">{}</span>', tone, label)
    title = format_html("{} · {}", code, citation) if citation else code
    return format_html(
        '<span class="badge tone-{}" title="{}" data-code="{}">{}</span>', tone, title, code, label
    )


@register.simple_tag
def status(code: str, citation: str = "") -> SafeString:
    """A finding's or result's status: label, colour, the code on hover (and its citation)."""
    return _badge_html(code, status_label(code), status_tone(code), citation)


@register.simple_tag
def badge(label: str, tone: str = "neutral", code: str = "") -> SafeString:
    """A state or kind with its label in a tone: ``{% badge r.state_label "neutral" %}``."""
    return _badge_html(code, label, tone or "neutral", "")


def _decimal(value: Any) -> Decimal | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        d = Decimal(str(value).replace(",", "").strip())
    except InvalidOperation:
        return None
    return d if d.is_finite() else None


def rounded(d: Decimal) -> str:
    """A number for reading: whole above 100, two places above 1, three significant below.

    ``51660.920139`` → ``51,661``; ``7.4567`` → ``7.46``; ``0.012345`` → ``0.0123``; trailing
    zeros of the decimals are dropped (``2.50`` → ``2.5``), never those of a whole number.
    """
    size = abs(d)
    if size >= 100:
        return f"{d.quantize(Decimal(1), rounding=ROUND_HALF_UP):,}"
    if size >= 1:
        q = d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    elif size == 0:
        return "0"
    else:
        exponent = size.adjusted()  # -2 for 0.0123
        q = d.quantize(Decimal(1).scaleb(exponent - 2), rounding=ROUND_HALF_UP)
    text = f"{q:,f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


@register.filter
def num(value: Any) -> SafeString | str:
    """A number rounded for display, the exact value in its ``title`` (shown on hover).

    Text that is not a number (``<0.5``, ``ND``) is shown as it is.
    """
    d = _decimal(value)
    if d is None:
        return "" if value is None else str(value)
    shown = rounded(d)
    exact = str(value).strip()
    if shown == exact:
        return shown
    return format_html('<span class="num" title="{}">{}</span>', exact, shown)


@register.filter
def money(value: Any) -> str:
    """An amount in US dollars: ``1234.5`` → ``$1,234.50``; a negative one ``−$5.00``."""
    d = _decimal(value)
    if d is None:
        return "" if value is None else str(value)
    q = d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    sign = "−" if q < 0 else ""
    return f"{sign}${abs(q):,.2f}"


@register.filter
def day(value: date | datetime | str | None) -> str:
    """A date in the office's one format (``2026-03-04``); a moment by its local day."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        return value[:10]
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return _ymd(value)


@register.filter
def moment(value: datetime | date | None) -> str:
    """A date and time in the office's one format (``2026-03-04 14:05``, local time)."""
    if value is None or value == "":
        return ""
    if isinstance(value, datetime):
        if timezone.is_aware(value):
            value = timezone.localtime(value)
        return f"{_ymd(value)} {value.hour:02d}:{value.minute:02d}"
    return _ymd(value)


def _ymd(value: date) -> str:
    """The office's one date format (``2026-03-04``, a four-digit year), by hand: Django's ``date`` filter parses its
    format on each call, and a list page formats a date on every row."""
    return f"{value.year:04d}-{value.month:02d}-{value.day:02d}"


@register.filter
def sentence(parts: Any, joiner: str = ", ") -> str:
    """Non-empty parts joined: ``["Clerk", "", "the applicant"]`` → ``Clerk, the applicant``.

    Blank parts (None, empty, only spaces) are left out, so that a missing part never leaves
    ``a, , b`` or ``; .`` behind; with no part at all the result is empty.
    """
    if parts is None:
        return ""
    items = [str(p).strip() for p in parts if p is not None and str(p).strip()]
    return joiner.join(items)


def _hover(shown: str, exact: Any) -> SafeString | str:
    """``shown``, with the exact value in its ``title`` when rounding changed it."""
    text = "" if exact is None else str(exact).strip()
    if not text or shown == text:
        return shown
    return format_html('<span class="num" title="{}">{}</span>', text, shown)


@register.filter
def amount(value: Any) -> SafeString | str:
    """An amount to the cent with its currency: ``234.3096055`` → ``USD 234.31``."""
    if value is None or value == "":
        return ""
    return _hover(reading.amount(value), value if reading.to_decimal(value) is not None else None)


@register.filter
def measured(value: Any) -> SafeString | str:
    """A measured value as the laboratory reported it (its digits are its precision)."""
    return _hover(reading.measured(value), value)


@register.filter
def quantity(value: Any) -> SafeString | str:
    """A computed value (mean, excess, pounds, volume) to four significant figures."""
    return _hover(reading.quantity(value), value)


@register.filter
def readable(value: Any) -> SafeString | str:
    """Software-written text (a computation step, a message) with long numbers rounded."""
    return _hover(reading.readable(value), value)


@register.filter
def param_name(value: Any) -> SafeString:
    """A parameter key as its name in words, the key and its description on hover."""
    description = reading.parameter_description(str(value))
    title = f"{value}: {description}" if description else str(value)
    return format_html(
        '<span class="param" title="{}">{}</span>', title, reading.parameter_name(str(value))
    )


@register.filter
def pollutant(value: Any) -> str:
    """A pollutant or analyte key in words: ``grease_oil`` → ``grease or oil``."""
    return reading.pollutant(value)


@register.filter
def readable_text(value: Any) -> str:
    """:func:`readable` as plain text (no hover), for text cut short: ``|truncatechars``."""
    return reading.readable(value)


@register.filter
def param(value: Any) -> SafeString | str:
    """A dated parameter (the mapping a computation keeps) in words, its key on hover."""
    if not value:
        return ""
    words = reading.parameter_words(value)
    key = value.get("name", "") if hasattr(value, "get") else getattr(value, "name", "")
    description = reading.parameter_description(key)
    title = f"{key}: {description}" if description else key
    return format_html('<span class="param" title="{}">{}</span>', title, words)


@register.filter
def town_name(code: str) -> str:
    """A member town's name from its code (the code as stored, for a town the installation
    no longer serves)."""
    return values_of(code).name if code in installed() else code
