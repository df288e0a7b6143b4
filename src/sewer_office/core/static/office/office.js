/* The office's few behaviours, from a file (the Content-Security-Policy allows no inline script).
   A checkbox with data-tick-all="<selector>" ticks or unticks every checkbox the selector names. */
document.addEventListener("change", function (event) {
  var box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.tickAll) return;
  for (const b of document.querySelectorAll(box.dataset.tickAll)) b.checked = box.checked;
});

/* The header's menu button (small screens, see office.css): it shows and hides the nav and the
   user's links. Until this runs, or without script, the button is hidden and the links show. */
(function () {
  var header = document.querySelector("header.top");
  var button = header && header.querySelector(".menu-toggle");
  if (!button) return;
  function setOpen(open) {
    button.setAttribute("aria-expanded", open ? "true" : "false");
    header.classList.toggle("menu-open", open);
  }
  header.classList.add("has-menu");
  setOpen(false);
  button.addEventListener("click", function () {
    setOpen(button.getAttribute("aria-expanded") !== "true");
  });
  // Escape closes the menu and gives the focus back to its button.
  header.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !header.classList.contains("menu-open")) return;
    setOpen(false);
    button.focus();
  });
})();
