/* The sewer network map: Leaflet (shipped with the office's static files, never a CDN), the
   network from /api/network/geojson/, a click on a manhole traces upstream from it
   (/api/network/trace/<id>/?area=1), facilities coloured by their open findings. The background
   tile layer is the SEWER_USE_MAP_TILE_URL setting; without it the network is drawn alone. */
(function () {
  "use strict";
  var box = document.getElementById("network-map");
  if (!box || !window.L) { return; }
  var L = window.L;
  var COLOURS = { prohibited: "#a42a2a", review: "#9a6400", compliant: "#1e7a3c" };
  var LABEL_MAX = 150; // manhole labels are drawn when no more than this many are in view

  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function getJSON(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) {
        return r.json().then(function (body) {
          if (!r.ok) { throw new Error(body.detail || ("HTTP " + r.status)); }
          return body;
        });
      });
  }

  var map, manholes = {}, pipes = {}, labels = L.layerGroup(), traced = null;
  var status = document.createElement("p");
  status.className = "muted map-status";
  status.setAttribute("role", "status");
  box.parentNode.insertBefore(status, box.nextSibling);

  function pipeStyle(on) {
    return { color: on ? "#c2410c" : "#4b6b86", weight: on ? 5 : 3, opacity: on ? 0.95 : 0.8 };
  }
  function manholeStyle(on, isPublic) {
    return {
      radius: on ? 6 : 5, weight: 2, color: on ? "#c2410c" : "#1f5f8b",
      fillColor: on ? "#fed7aa" : (isPublic ? "#ffffff" : "#d6dce1"), fillOpacity: 1,
    };
  }

  function refreshLabels() {
    labels.clearLayers();
    if (!map) { return; }
    var view = map.getBounds(), inView = [];
    Object.keys(manholes).forEach(function (id) {
      if (view.contains(manholes[id].getLatLng())) { inView.push(id); }
    });
    if (inView.length > LABEL_MAX) { return; }
    inView.forEach(function (id) {
      labels.addLayer(L.tooltip({ permanent: true, direction: "right", className: "mh-label", offset: [6, 0] })
        .setLatLng(manholes[id].getLatLng()).setContent(esc(id)));
    });
  }

  function showTrace(data) {
    var area = data.area || { manholes: [], pipes: [] };
    var onM = {}, onP = {};
    area.manholes.forEach(function (m) { onM[m] = true; });
    area.pipes.forEach(function (p) { onP[p] = true; });
    Object.keys(manholes).forEach(function (id) {
      manholes[id].setStyle(manholeStyle(!!onM[id], manholes[id].options.isPublic));
    });
    Object.keys(pipes).forEach(function (id) { pipes[id].setStyle(pipeStyle(!!onP[id])); });
    traced = data.manhole;
    var total = data.total != null ? data.total : data.upstream.length;
    var rows = data.upstream.map(function (e) {
      var name = esc(e.name);
      if (e.kind === "facility") {
        name = '<a href="' + esc(box.dataset.facility.replace(/0\/$/, e.id + "/")) + '">' + name + "</a>";
      }
      var recent = "";
      if (e.kind === "facility") {
        recent = (e.recent_exceedances || e.recent_slugs)
          ? '<strong class="fail">' + e.recent_exceedances + " exceedance" + (e.recent_exceedances === 1 ? "" : "s") +
            ", " + e.recent_slugs + " slug" + (e.recent_slugs === 1 ? "" : "s") + "</strong>"
          : '<span class="muted">none</span>';
      }
      return "<tr><td>" + esc(e.kind) + "</td><td>" + esc(e.id) + "</td><td>" + name + "</td><td>" +
        Number(e.network_distance_m).toFixed(2) + "</td><td>" + recent + '</td><td class="opt wrap">' +
        esc(e.via_manholes.join(" → ")) + "</td></tr>";
    }).join("");
    if (!rows) { rows = '<tr><td colspan="6" class="muted">Nothing is connected upstream of ' + esc(data.manhole) + ".</td></tr>"; }
    var panel = document.getElementById("map-trace");
    panel.innerHTML = "<h2>Upstream of " + esc(data.manhole) + "</h2><p>" + total + " parcel" + (total === 1 ? " drains" : "s drain") +
      " to " + esc(data.manhole) + (total > data.upstream.length ? "; the nearest " + data.upstream.length + " are listed" : "") +
      '. Nearest first, by distance along the sewer.</p><div class="table-wrap"><table><tr><th>Kind</th><th>Id</th><th>Name</th>' +
      "<th>Network distance (m)</th><th>Recent exceedances and slugs</th><th class=\"opt\">Via manholes</th></tr>" + rows + "</table></div>";
    panel.hidden = false;
    var server = document.getElementById("server-trace");
    if (server) { server.hidden = true; }
    var input = document.getElementById("manhole");
    if (input) { input.value = data.manhole; }
    status.textContent = "Traced upstream of " + data.manhole + ".";
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", "?manhole=" + encodeURIComponent(data.manhole));
    }
  }

  function trace(id) {
    status.textContent = "Tracing upstream of " + id + "…";
    var url = box.dataset.trace.replace("MANHOLE", encodeURIComponent(id)) + "?area=1&limit=200";
    return getJSON(url).then(showTrace, function (err) { status.textContent = "Trace failed: " + err.message; });
  }

  function build(data) {
    var planar = data.crs && data.crs.kind === "planar";
    map = L.map(box, { crs: planar ? L.CRS.Simple : L.CRS.EPSG3857, preferCanvas: true, zoomSnap: 0.5, minZoom: planar ? -10 : 1 });
    if (box.dataset.tiles && !planar) {
      L.tileLayer(box.dataset.tiles, { maxZoom: 21, attribution: box.dataset.attribution || "" }).addTo(map);
    } else {
      box.classList.add("no-tiles");
    }
    var renderer = L.canvas({ tolerance: 6 });
    var bounds = L.latLngBounds([]);
    var facilities = [], later = [];
    data.features.forEach(function (f) {
      var p = f.properties, g = f.geometry;
      if (p.kind === "pipe") {
        var line = L.polyline(g.coordinates.map(function (c) { return [c[1], c[0]]; }), L.extend({ renderer: renderer }, pipeStyle(false)));
        line.bindTooltip("Pipe " + esc(p.id) + (p.diameter_in ? " · " + esc(p.diameter_in) + " in" : "") + (p.public ? "" : " · private"), { sticky: true });
        pipes[p.id] = line.addTo(map);
      } else if (p.kind === "manhole") {
        later.push(f);
      } else if (p.kind === "facility") {
        facilities.push(f);
      }
    });
    facilities.forEach(function (f) {
      var p = f.properties, g = f.geometry;
      var ll = [g.coordinates[1], g.coordinates[0]];
      var mark = L.circleMarker(ll, { renderer: renderer, radius: 7, weight: 2, color: "#1d2329", fillColor: COLOURS[p.severity] || "#5b6670", fillOpacity: 0.9 });
      var open = p.open_findings ? p.open_findings + " open finding" + (p.open_findings === 1 ? "" : "s") : "no open finding";
      mark.bindTooltip(esc(p.name) + (p.code ? " (" + esc(p.code) + ")" : "") + " · " + open, { direction: "top" });
      mark.bindPopup('<strong><a href="' + esc(box.dataset.facility.replace(/0\/$/, p.id + "/")) + '">' + esc(p.name) + "</a></strong><br>" +
        esc(p.address) + "<br>" + open);
      mark.addTo(map);
    });
    later.forEach(function (f) { // manholes above the facilities: a click on one traces
      var p = f.properties, g = f.geometry;
      var ll = [g.coordinates[1], g.coordinates[0]];
      var m = L.circleMarker(ll, L.extend({ renderer: renderer, isPublic: p.public, manhole: p.id }, manholeStyle(false, p.public)));
      m.bindTooltip("Manhole " + esc(p.id) + (p.public ? "" : " (private)"));
      m.on("click", function () { trace(p.id); });
      manholes[p.id] = m.addTo(map);
      bounds.extend(ll);
    });
    if (bounds.isValid()) { map.fitBounds(bounds, { padding: [20, 20] }); } else { map.setView([0, 0], 2); }
    labels.addTo(map);
    map.on("moveend", refreshLabels);
    refreshLabels();
    window.sewerNetworkMap = {
      map: map,
      manholePoint: function (id) { return map.latLngToContainerPoint(manholes[id].getLatLng()); },
      traced: function () { return traced; },
      centre: function (id, zoom) { map.setView(manholes[id].getLatLng(), zoom, { animate: false }); },
    };
    status.textContent = Object.keys(manholes).length + " manholes, " + facilities.length + " facilities on the map.";
    if (box.dataset.manhole) { trace(box.dataset.manhole); }
  }

  status.textContent = "Loading the map…";
  getJSON(box.dataset.geojson).then(build, function (err) { status.textContent = "The map could not be loaded: " + err.message; });
})();
