/* Search pickers (core/pickers.py): a box where one types a name, an address, a parcel or a
   number; the matches (asked of data-picker-url?q=) are listed under it with what tells them
   apart; choosing one puts its id in a hidden input named as the field, and its words in the box.
   Until a match is chosen, the hidden input carries the text typed, which the server searches
   when the form is sent (as it does without script). Keys: arrows move, Enter chooses, Escape
   closes. */
(function () {
  "use strict";
  var DELAY_MS = 180;

  function setUp(root) {
    var box = root.querySelector("input[type=text]");
    if (!box || root.dataset.pickerReady) return;
    root.dataset.pickerReady = "1";
    var chosenText = root.querySelector(".picker-chosen");
    var hidden = document.createElement("input");
    hidden.type = "hidden";
    hidden.name = box.name;
    hidden.value = box.value;
    box.removeAttribute("name");
    box.after(hidden);
    if (root.dataset.pickerLabel) box.value = root.dataset.pickerLabel;
    box.setAttribute("role", "combobox");
    box.setAttribute("aria-autocomplete", "list");
    box.setAttribute("aria-expanded", "false");
    var list = document.createElement("ul");
    list.className = "picker-list";
    list.setAttribute("role", "listbox");
    list.id = (box.id || box.name || "picker") + "-matches";
    list.hidden = true;
    box.setAttribute("aria-controls", list.id);
    chosenText.after(list);
    // A radio list of matches (after a search that named several): choosing one is choosing.
    root.addEventListener("change", function (event) {
      var radio = event.target;
      if (radio instanceof HTMLInputElement && radio.type === "radio" && radio.checked) {
        hidden.value = radio.value;
      }
    });

    var timer = null;
    var active = -1;
    var asked = "";
    var results = [];

    function close() {
      list.hidden = true;
      box.setAttribute("aria-expanded", "false");
      box.removeAttribute("aria-activedescendant");
      active = -1;
    }

    function choose(i) {
      var r = results[i];
      if (!r) return;
      hidden.value = String(r.id);
      box.value = r.label;
      chosenText.textContent = "";
      var strong = document.createElement("strong");
      strong.textContent = r.label;
      var more = document.createElement("span");
      more.className = "muted";
      more.textContent = " #" + r.id + (r.detail ? " · " + r.detail : "");
      chosenText.append(strong, more);
      var found = root.querySelector(".picker-found");
      if (found) found.remove();
      close();
    }

    function highlight(i) {
      var items = list.querySelectorAll("li[role=option]");
      items.forEach(function (li, n) {
        li.setAttribute("aria-selected", n === i ? "true" : "false");
      });
      active = i;
      if (items[i]) box.setAttribute("aria-activedescendant", items[i].id);
    }

    function show(data) {
      results = data.results || [];
      list.textContent = "";
      results.forEach(function (r, n) {
        var li = document.createElement("li");
        li.id = list.id + "-" + n;
        li.setAttribute("role", "option");
        var strong = document.createElement("strong");
        strong.textContent = r.label;
        var more = document.createElement("span");
        more.className = "muted";
        more.textContent = " #" + r.id + (r.detail ? " · " + r.detail : "");
        li.append(strong, more);
        // mousedown, not click: before the box loses the focus
        li.addEventListener("mousedown", function (event) {
          event.preventDefault();
          choose(n);
        });
        list.append(li);
      });
      if (!results.length) {
        var none = document.createElement("li");
        none.className = "muted";
        none.textContent = "No " + (root.dataset.pickerNoun || "record") + " matches.";
        list.append(none);
      } else if (data.more) {
        var more = document.createElement("li");
        more.className = "muted";
        more.textContent = "More match: type more of the name or address.";
        list.append(more);
      }
      list.hidden = false;
      box.setAttribute("aria-expanded", "true");
      highlight(results.length ? 0 : -1);
    }

    function ask() {
      var q = box.value.trim();
      if (q.length < 2 && !/^#?\d+$/.test(q)) {
        close();
        return;
      }
      if (q === asked && !list.hidden) return;
      asked = q;
      var url = root.dataset.pickerUrl + "?q=" + encodeURIComponent(q);
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) {
          return response.ok ? response.json() : { results: [] };
        })
        .then(function (data) {
          if (box.value.trim() === q) show(data);
        })
        .catch(close);
    }

    box.addEventListener("input", function () {
      // Typed, not chosen: the text goes with the form (the server searches it).
      hidden.value = box.value;
      chosenText.textContent = "";
      // a match ticked in the list below would override what is typed now
      root.querySelectorAll("input[type=radio]").forEach(function (r) {
        r.checked = false;
      });
      clearTimeout(timer);
      timer = setTimeout(ask, DELAY_MS);
    });
    box.addEventListener("keydown", function (event) {
      if (list.hidden) {
        if (event.key === "ArrowDown") ask();
        return;
      }
      if (event.key === "ArrowDown") {
        event.preventDefault();
        highlight(Math.min(active + 1, results.length - 1));
      } else if (event.key === "ArrowUp") {
        event.preventDefault();
        highlight(Math.max(active - 1, 0));
      } else if (event.key === "Enter") {
        if (active >= 0) {
          event.preventDefault();
          choose(active);
        }
      } else if (event.key === "Escape") {
        close();
      }
    });
    box.addEventListener("blur", function () {
      setTimeout(close, 150);
    });
  }

  function setUpAll(scope) {
    (scope || document).querySelectorAll(".picker[data-picker-url]").forEach(setUp);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () {
      setUpAll();
    });
  } else {
    setUpAll();
  }
  // Forms that htmx swaps in get their pickers too.
  document.addEventListener("htmx:load", function (event) {
    setUpAll(event.target);
  });
})();
