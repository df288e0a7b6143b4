/* The map of tax parcels and sewer districts: Leaflet (shipped with the office's static files,
   never a CDN), the background tiles of the SEWER_USE_MAP_TILE_URL setting (none: the drawing
   alone). The districts come whole with the first answer of /parcels/map/data/, with the extent
   of every parcel; the parcels come by view (?bbox=west,south,east,north), drawn when no more
   than the server's cap are in view — a county's 100,000 parcels are never sent at once.
   Without JavaScript, the page's table lists the parcels. */
(function () {
  "use strict";
  var box = document.getElementById("parcel-map");
  if (!box || !window.L) { return; }
  var L = window.L;
  var DISTRICT_COLOURS = ["#1f5f8b", "#9a6400", "#1e7a3c", "#7b3fa0", "#a42a2a", "#2f6f6f"];

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

  var status = document.createElement("p");
  status.className = "muted map-status";
  status.setAttribute("role", "status");
  box.parentNode.insertBefore(status, box.nextSibling);

  var map = L.map(box, { preferCanvas: true, zoomSnap: 0.5 });
  if (box.dataset.tiles) {
    L.tileLayer(box.dataset.tiles, { maxZoom: 21, attribution: box.dataset.attribution || "" }).addTo(map);
  } else {
    box.classList.add("no-tiles");
  }
  var renderer = L.canvas({ tolerance: 4 });
  var parcels = L.layerGroup().addTo(map);
  var districts = L.layerGroup().addTo(map);
  var asked = 0;

  function propertyUrl(id) { return box.dataset.property.replace(/0\/$/, id + "/"); }

  function drawDistricts(features) {
    var n = 0;
    features.forEach(function (f) {
      if (f.properties.kind !== "district") { return; }
      var colour = DISTRICT_COLOURS[n++ % DISTRICT_COLOURS.length];
      districts.addLayer(L.geoJSON(f, { renderer: renderer, style: { color: colour, weight: 2, fillOpacity: 0.06 }, interactive: false }));
    });
    return n;
  }

  function drawParcels(body) {
    parcels.clearLayers();
    var shown = 0;
    body.features.forEach(function (f) {
      if (f.properties.kind !== "parcel") { return; }
      var p = f.properties;
      var layer = L.geoJSON(f, { renderer: renderer, style: { color: "#4b5563", weight: 1, fillOpacity: 0.05 } });
      layer.bindTooltip(esc(p.parcel_id) + (p.address ? " · " + esc(p.address) : ""), { sticky: true });
      layer.bindPopup('<strong><a href="' + esc(propertyUrl(p.id)) + '">' + esc(p.parcel_id) + "</a></strong><br>" +
        esc(p.address) + "<br>" + esc(p.owner) + (p["class"] ? "<br>class " + esc(p["class"]) : ""));
      parcels.addLayer(layer);
      shown++;
    });
    var drawn = districts.getLayers().length;
    var areas = drawn ? "; " + drawn + " district" + (drawn === 1 ? "" : "s") + " drawn." : "; no district drawn.";
    if (body.in_view > body.cap) {
      status.textContent = body.in_view + " parcels in view: zoom in to draw them (at most " + body.cap + ")" + areas;
    } else {
      status.textContent = shown + " parcel" + (shown === 1 ? "" : "s") + " in view" + areas;
    }
  }

  function refresh() {
    var b = map.getBounds();
    var bbox = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map(function (v) {
      return Math.max(-180, Math.min(180, v)).toFixed(6);
    });
    bbox[1] = Math.max(-90, bbox[1]); bbox[3] = Math.min(90, bbox[3]);
    var mine = ++asked;
    getJSON(box.dataset.source + "?bbox=" + bbox.join(",")).then(function (body) {
      if (mine === asked) { drawParcels(body); }
    }, function (err) { status.textContent = "The parcels could not be loaded: " + err.message; });
  }

  status.textContent = "Loading the map…";
  getJSON(box.dataset.source).then(function (body) {
    var drawn = drawDistricts(body.features);
    if (body.extent) {
      map.fitBounds([[body.extent[1], body.extent[0]], [body.extent[3], body.extent[2]]], { padding: [20, 20] });
    } else {
      map.setView([41.59, -73.91], 12);
      status.textContent = "No parcel with an outline yet" + (drawn ? "; " + drawn + " districts drawn." : ".");
      return;
    }
    map.on("moveend", refresh);
    refresh();
  }, function (err) { status.textContent = "The map could not be loaded: " + err.message; });
  window.sewerParcelMap = { map: map, parcels: parcels, districts: districts };
})();
