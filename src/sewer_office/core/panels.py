"""What other apps contribute to the dashboard, the facility page and the property page.

Each app that has something to show has a ``panels`` module and registers it from its own
``apps.py`` (``PANELS.add(self.label, panels)`` in ``ready()``, :mod:`.plugs`): this module
names no app. A monitoring app defines ``facility_panel(request,
establishment)`` and ``dashboard_panel(request)`` (and ``property_panel(request, prop)`` when
it has something to say about a property), each returning a :class:`Panel` or None (nothing
to show to this user); the facility page, the property page and the dashboard render the
panels in order, so a new activity joins the pages without any page knowing its models.

A finding (the ledger below every app) is acted on by the apps above it: each page that
lists findings asks every app's ``finding_actions(request, findings)`` hook for the
:class:`Action` it offers on each (enforcement: "Open a violation", or the violation already
open from it), so that the monitoring pages link to enforcement without importing it.

The ``/imports/`` page (a town's records brought in, and taken out) asks every app's
``imports_panel(request)`` for a :class:`Panel`: its import, what came in last, what waits.

The header's search box asks every app's ``search(request, q)`` hook for a
:class:`SearchGroup` of what matches ``q`` among the records this user may see (or None).

The permits and the network, whose records the pages lay out themselves (the dashboard's
work queues, a property's permits, its sampling point), contribute template context instead: ``dashboard_context(request)``,
``facility_context(request, establishment)``, ``property_context(request, prop)``, each a
dict merged into the page's context. A module defines only the hooks it has. This is how the
pages of ``core`` and ``registry``, below the permits and the network, show them without
importing them.

A violation's page (enforcement) shows the money billing keeps for it the same way:
``violation_context(request, violation)`` is merged into the page's context (billing: the
invoices of its costs and fine, the "Bill the Town's costs" and "Record a collection" forms,
and the partial templates that lay them out); ``violation_data(request, violation)`` adds
fields to the violation's API record (billing: ``invoices``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from .plugs import Plugs

#: Every app's ``panels`` module, added by the app's ``ready()`` in ``INSTALLED_APPS`` order
#: (the registry first, billing and the archive last): a module defines only the hooks it has.
PANELS: Plugs[ModuleType] = Plugs("panels")


@dataclass
class Panel:
    title: str
    template: str
    context: dict[str, Any] = field(default_factory=dict)
    order: int = 50


@dataclass
class SearchHit:
    label: str
    url: str
    detail: str = ""


@dataclass
class SearchGroup:
    """What one kind of record has matching a search: at most ``SEARCH_ROWS`` hits, and
    ``more`` when there were more (the group's ``list_url`` lists them all, if any)."""

    title: str
    hits: list[SearchHit]
    more: bool = False
    list_url: str = ""
    order: int = 50


@dataclass(frozen=True)
class Action:
    """A link a higher app offers on a record of a lower one (e.g. on a finding)."""

    label: str
    url: str
    detail: str = ""


#: Hits per group on the search page.
SEARCH_ROWS = 10


def _hooks(hook: str) -> list[Any]:
    """The apps' functions named ``hook``, in the order the apps registered (:data:`PANELS`)."""
    return [getattr(m, hook) for m in PANELS if hasattr(m, hook)]


def _collect(hook: str, *args: Any) -> list[Panel]:
    panels = []
    for contribute in _hooks(hook):
        panel = contribute(*args)
        if panel is not None:
            panels.append(panel)
    return sorted(panels, key=lambda p: p.order)


def _context(hook: str, *args: Any) -> dict[str, Any]:
    context: dict[str, Any] = {}
    for contribute in _hooks(hook):
        context.update(contribute(*args))
    return context


def facility_panels(request: Any, establishment: Any) -> list[Panel]:
    return _collect("facility_panel", request, establishment)


def property_panels(request: Any, prop: Any) -> list[Panel]:
    return _collect("property_panel", request, prop)


def dashboard_panels(request: Any) -> list[Panel]:
    return _collect("dashboard_panel", request)


def imports_panels(request: Any) -> list[Panel]:
    """What each app brings in on day one (the ``imports_panel(request)`` hook): its import
    page, what was imported last and what waits for the clerk, on the ``/imports/`` page."""
    return _collect("imports_panel", request)


def dashboard_context(request: Any) -> dict[str, Any]:
    return _context("dashboard_context", request)


def facility_context(request: Any, establishment: Any) -> dict[str, Any]:
    return _context("facility_context", request, establishment)


def property_context(request: Any, prop: Any) -> dict[str, Any]:
    return _context("property_context", request, prop)


def search_groups(request: Any, q: str) -> list[SearchGroup]:
    """Every app's matches of ``q`` (already stripped, not empty), by ``order``."""
    groups: list[SearchGroup] = []
    for contribute in _hooks("search"):
        found = contribute(request, q)
        if found is None:
            continue
        groups.extend(found if isinstance(found, list) else [found])
    return sorted((g for g in groups if g.hits), key=lambda g: g.order)


def finding_actions(request: Any, findings: list[Any]) -> dict[int, list[Action]]:
    """finding id → what the apps offer on it for this user (empty lists left out)."""
    out: dict[int, list[Action]] = {}
    for contribute in _hooks("finding_actions"):
        for pk, actions in contribute(request, findings).items():
            out.setdefault(pk, []).extend(actions)
    return out


def violation_context(request: Any, violation: Any) -> dict[str, Any]:
    """What the apps above enforcement add to a violation's page (see the module's docstring)."""
    return _context("violation_context", request, violation)


def violation_data(request: Any, violation: Any) -> dict[str, Any]:
    """What the apps above enforcement add to a violation's API record."""
    return _context("violation_data", request, violation)
