/* Starts Redoc on the container's data-schema-url with its data-settings (JSON), from a file:
   the office's Content-Security-Policy allows no inline script. */
document.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("redoc-container");
  if (!box || typeof Redoc === "undefined") return;
  Redoc.init(box.dataset.schemaUrl, JSON.parse(box.dataset.settings || "{}"), box);
});
