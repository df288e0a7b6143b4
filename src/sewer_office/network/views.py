"""The network page: the active sewer network on an interactive map (Leaflet, shipped with the
static files; the network from ``/api/network/geojson/``), a manhole picker, and the upstream
trace — the traced area highlighted and the ordered list of what drains there. Clicking a
manhole traces from it (``/api/network/trace/{manhole}/?area=1``); without JavaScript, the
picker and the server's drawing (SVG) do the same.

Staff only: the trace lists other people's properties, so outside users get 403.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from sewer_office.accounts.roles import STAFF_ROLES
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import Blocked
from sewer_rules.network import render_svg

from . import services as ns
from . import tracing

#: Parcels listed on the page; the count says how many there are in all.
TRACE_ROWS = 200


@office_view(*STAFF_ROLES)
def network_page(request: HttpRequest) -> HttpResponse:
    found = ns.active_network()
    context: dict[str, object] = {
        "version": None,
        "rows": TRACE_ROWS,
        "recent_days": tracing.RECENT_DAYS,
        "tile_url": settings.SEWER_USE_MAP_TILE_URL,
        "tile_attribution": settings.SEWER_USE_MAP_TILE_ATTRIBUTION,
    }
    if found is None:
        return render(request, "network/network.html", context)
    version, net = found
    manhole = request.GET.get("manhole", "").strip()
    result = None
    error = ""
    if manhole:
        try:
            result = tracing.trace(manhole, limit=TRACE_ROWS)
        except Blocked as e:
            error = e.message
    svg = render_svg(
        net,
        highlight_manholes=result.area_manholes if result else (),
        highlight_pipes=result.area_pipes if result else (),
        title=f"Upstream of {result.manhole}" if result else "Sewer network",
    )
    svg = svg.split("?>", 1)[-1] if svg.startswith("<?xml") else svg
    context.update(
        {
            "version": version,
            # rendered by sewer_rules.network.render_svg: every text from the file is escaped
            "svg": mark_safe(svg),
            "manholes": sorted(net.manholes),
            "manhole": manhole,
            "trace": result,
            "error": error,
        }
    )
    status = 404 if error else 200
    return render(request, "network/network.html", context, status=status)
