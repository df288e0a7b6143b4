/* The inspection form on a tablet in the field: the form is kept on the tablet as it is filled
   (localStorage; photos in IndexedDB, too large for localStorage), and a form sent without a
   connection waits there and is sent when the connection returns. The form carries a
   submission key: the office records it once however many times it arrives. */
(function () {
  "use strict";
  var form = document.getElementById("inspection-form");
  if (!form || !window.fetch || !window.FormData) { return; }
  var KEY = form.dataset.draftKey;
  var status = document.getElementById("draft-status");
  var photoInput = form.querySelector("input[type=file][name=photos]");
  var photoCount = document.getElementById("photo-count");
  var pending = false, sending = false, heldPhotos = [];

  function say(text, kind) {
    status.hidden = !text;
    status.textContent = text || "";
    status.className = "draft-status" + (kind ? " " + kind : "");
  }
  function now() { return new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }

  // --- photos in IndexedDB -----------------------------------------------------------------
  function db() {
    return new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
      var open = window.indexedDB.open("sewer-use-drafts", 1);
      open.onupgradeneeded = function () { open.result.createObjectStore("photos"); };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function () { reject(open.error); };
    });
  }
  function photoStore(mode, fn) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var tx = d.transaction("photos", mode);
        var req = fn(tx.objectStore("photos"));
        tx.oncomplete = function () { resolve(req && req.result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  function savePhotos(files) {
    return photoStore("readwrite", function (s) { return s.put(files, KEY); }).catch(function () {});
  }
  function loadPhotos() {
    return photoStore("readonly", function (s) { return s.get(KEY); }).then(function (v) { return v || []; }, function () { return []; });
  }
  function dropPhotos() {
    return photoStore("readwrite", function (s) { return s.delete(KEY); }).catch(function () {});
  }
  function showPhotoCount() {
    var n = photoInput && photoInput.files.length ? photoInput.files.length : heldPhotos.length;
    if (photoCount) { photoCount.textContent = n ? n + " photo" + (n === 1 ? "" : "s") + " with this form." : ""; }
  }

  // --- the draft in localStorage -----------------------------------------------------------
  function values() {
    var out = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "file" || el.type === "submit" || el.disabled) { return; }
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) { return; }
      if (el.tagName === "SELECT" && el.multiple) {
        Array.prototype.forEach.call(el.selectedOptions, function (o) { out.push([el.name, o.value]); });
        return;
      }
      out.push([el.name, el.value]);
    });
    return out;
  }
  function saveDraft() {
    try {
      localStorage.setItem(KEY, JSON.stringify({ saved: new Date().toISOString(), pending: pending, values: values() }));
      return true;
    } catch (e) { return false; }
  }
  function readDraft() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }
  function restore(draft) {
    var byName = {};
    draft.values.forEach(function (nv) { (byName[nv[0]] = byName[nv[0]] || []).push(nv[1]); });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "file" || el.name === "csrfmiddlewaretoken" || !(el.name in byName)) { return; }
      var vs = byName[el.name];
      if (el.type === "radio" || el.type === "checkbox") { el.checked = vs.indexOf(el.value) >= 0; }
      else if (el.tagName === "SELECT" && el.multiple) {
        Array.prototype.forEach.call(el.options, function (o) { o.selected = vs.indexOf(o.value) >= 0; });
      } else { el.value = vs[0]; }
    });
  }
  function clearDraft() {
    try { localStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
    return dropPhotos();
  }

  // --- sending -----------------------------------------------------------------------------
  function body() {
    var data = new FormData(form);
    if (!(photoInput && photoInput.files.length)) {
      data.delete("photos");
      heldPhotos.forEach(function (f) { data.append("photos", f, f.name); });
    }
    return data;
  }
  function keepForLater() {
    pending = true;
    var kept = saveDraft();
    say(kept
      ? "No connection (" + now() + "): the form is kept on this tablet and will be sent when the connection returns."
      : "No connection, and this tablet could not keep the form: do not close this page.", "offline");
  }
  function send() {
    if (sending) { return; }
    if (!navigator.onLine) { keepForLater(); return; }
    sending = true;
    say("Sending…");
    fetch(form.action || window.location.href, { method: "POST", body: body(), credentials: "same-origin" })
      .then(function (r) {
        return r.text().then(function (html) {
          sending = false;
          if (r.ok && r.redirected) { // recorded: the office answered with the inspection's page
            pending = false;
            // show that answer (it carries the office's message), at the inspection's address
            return clearDraft().then(function () {
              window.history.replaceState(null, "", r.url);
              document.open(); document.write(html); document.close();
            });
          }
          pending = false; // refused: show the office's answer (its errors); the draft stays
          saveDraft();
          document.open(); document.write(html); document.close();
        });
      }, function () { sending = false; keepForLater(); });
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (photoInput && photoInput.files.length) { heldPhotos = Array.prototype.slice.call(photoInput.files); savePhotos(heldPhotos); }
    send();
  });
  form.addEventListener("input", function () { if (!sending) { saveDraft(); } });
  form.addEventListener("change", function (e) {
    if (e.target === photoInput) {
      heldPhotos = Array.prototype.slice.call(photoInput.files);
      savePhotos(heldPhotos);
      showPhotoCount();
    }
    if (!sending) { saveDraft(); }
  });
  window.addEventListener("online", function () { if (pending) { say("The connection is back: sending the form…"); send(); } });
  window.addEventListener("offline", function () { if (!pending) { say("No connection: keep filling the form, it is kept on this tablet.", "offline"); } });
  window.setInterval(function () { if (pending && navigator.onLine) { send(); } }, 15000);

  var draft = readDraft();
  loadPhotos().then(function (files) { heldPhotos = files; showPhotoCount(); });
  if (draft) {
    restore(draft);
    if (draft.pending) {
      pending = true;
      say("This form was kept on this tablet at " + new Date(draft.saved).toLocaleTimeString() + " and has not reached the office yet.", "offline");
      loadPhotos().then(function (files) { heldPhotos = files; if (navigator.onLine) { send(); } });
    } else {
      say("Your unsent answers of " + new Date(draft.saved).toLocaleTimeString() + " were restored from this tablet.");
    }
  }
})();
