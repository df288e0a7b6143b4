/* The office's few behaviours, from a file (the Content-Security-Policy allows no inline script).
   A checkbox with data-tick-all="<selector>" ticks or unticks every checkbox the selector names. */
document.addEventListener("change", function (event) {
  var box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.tickAll) return;
  for (const b of document.querySelectorAll(box.dataset.tickAll)) b.checked = box.checked;
});
