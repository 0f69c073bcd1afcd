/* What is being typed into a form, and a refused form's summary of errors.
 *
 * Drafts: a hand form marked data-draft="GAME:HAND:MODE" (HAND is "new" for the next
 * hand, or the number of the hand being corrected) keeps what is typed into it on the
 * phone (localStorage) at every change. A reload, a language switch or a page the
 * server refused shows the form again with the draft put back, and a line saying so
 * with a button that clears it. Sending the form marks its draft as sent: the next page
 * of the same game drops it (the hand was saved, or app/offline.js keeps it in its queue
 * of hands to send) unless that page is the form refused again. Only what the player types
 * is kept, never the form's hidden version and token: those stay the page's own.
 *
 * Error summary: the focus moves to a refused form's summary ([data-error-summary],
 * templates/_macros.html), and each of its links moves it on to the field, with the
 * field's label in view.
 *
 * Progressive enhancement only: without this script every form works as before.
 */
(function () {
  "use strict";

  var PREFIX = "sk-draft:";
  var KEEP_FOR = 3 * 24 * 3600 * 1000; // a draft nobody came back to for three days goes
  var SKIP = { hidden: true, submit: true, button: true, file: true, reset: true, image: true };
  var quiet = false; // the script itself is changing the fields: nothing new is typed

  function read(key) {
    try {
      var draft = JSON.parse(localStorage.getItem(PREFIX + key) || "null");
      return draft && draft.fields ? draft : null;
    } catch {
      return null;
    }
  }

  function write(key, draft) {
    try { localStorage.setItem(PREFIX + key, JSON.stringify(draft)); } catch { /* full, or private mode */ }
  }

  function drop(key) {
    try { localStorage.removeItem(PREFIX + key); } catch { /* private mode */ }
  }

  function storedKeys() {
    var keys = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var name = localStorage.key(i);
        if (name && name.indexOf(PREFIX) === 0) keys.push(name.slice(PREFIX.length));
      }
    } catch { /* private mode */ }
    return keys;
  }

  function gameOf(key) { return key.split(":")[0]; }
  function handOf(key) { return key.split(":").slice(0, 2).join(":"); }

  function typeable(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && !SKIP[el.type];
    });
  }

  function valuesOf(form) {
    var fields = [];
    var names = {};
    typeable(form).forEach(function (el) {
      names[el.name] = true;
      if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked) fields.push([el.name, el.value]);
      } else if (el.tagName === "SELECT") {
        Array.prototype.forEach.call(el.selectedOptions, function (o) { fields.push([el.name, o.value]); });
      } else {
        fields.push([el.name, el.value]);
      }
    });
    return { fields: fields, names: Object.keys(names) };
  }

  function save(form, sent) {
    var now = valuesOf(form);
    write(form.dataset.draft, { fields: now.fields, names: now.names, sent: Boolean(sent), at: Date.now() });
  }

  /* Put ``draft`` into ``form``; whether anything changed. */
  function restore(form, draft) {
    var known = {};
    draft.names.forEach(function (name) { known[name] = true; });
    var texts = {};  // name -> the typed values in page order
    var chosen = {};
    draft.fields.forEach(function (f) {
      (texts[f[0]] = texts[f[0]] || []).push(f[1]);
      chosen[f[0] + "\n" + f[1]] = true;
    });
    var used = {};
    var changed = [];
    typeable(form).forEach(function (el) {
      if (!known[el.name]) return;
      if (el.type === "radio" || el.type === "checkbox") {
        var on = Boolean(chosen[el.name + "\n" + el.value]);
        if (el.checked !== on) { el.checked = on; changed.push(el); }
      } else if (el.tagName === "SELECT") {
        Array.prototype.forEach.call(el.options, function (o) {
          var on = Boolean(chosen[el.name + "\n" + o.value]);
          if (o.selected !== on) { o.selected = on; changed.push(el); }
        });
      } else {
        var n = used[el.name] || 0;
        used[el.name] = n + 1;
        var value = (texts[el.name] || [])[n];
        if (value !== undefined && el.value !== value) { el.value = value; changed.push(el); }
      }
    });
    announce(changed, true);
    return changed.length > 0;
  }

  /* Tell the other scripts (forms.js, the card picker, app/offline.js) the fields changed;
     ``typing``: as if typed (a draft put back), else only that they changed. */
  function announce(elements, typing) {
    quiet = true;
    elements.forEach(function (el) {
      if (typing || el.hasAttribute("data-cards")) {
        el.dispatchEvent(new Event("input", { bubbles: true }));
      }
      el.dispatchEvent(new Event("change", { bubbles: true }));
    });
    quiet = false;
  }

  function note(form) {
    var line = document.createElement("p");
    line.className = "draft-note";
    line.setAttribute("role", "status");
    line.appendChild(document.createTextNode(form.dataset.draftRestored + " "));
    var clear = document.createElement("button");
    clear.type = "button";
    clear.textContent = form.dataset.draftClear;
    clear.addEventListener("click", function () { form.reset(); });
    line.appendChild(clear);
    var summary = form.querySelector("[data-error-summary]");
    form.insertBefore(line, summary ? summary.nextSibling : form.firstChild);
  }

  function setUp(form) {
    if (form.dataset.draftReady) return;
    form.dataset.draftReady = "1";
    var key = form.dataset.draft;
    var draft = read(key);
    if (draft && restore(form, draft)) note(form);
    else if (!draft && form.querySelector("[data-error-summary]")) save(form, false);
    var typed = function () { if (!quiet) save(form, false); };
    form.addEventListener("input", typed);
    form.addEventListener("change", typed);
    form.addEventListener("submit", function () { save(form, true); });
    // "Clear" and a hand app/offline.js kept to send later empty the form: the draft goes too.
    form.addEventListener("reset", function () {
      drop(key);
      var line = form.querySelector(".draft-note");
      if (line) line.remove();
      setTimeout(function () { announce(typeable(form), false); }, 0);
    });
  }

  function draftForms() {
    return Array.prototype.slice.call(document.querySelectorAll("form[data-draft]"));
  }

  /* A page loaded after a form was sent: the draft of a hand saved (or queued) goes;
     the draft of a form refused again stays, being typed once more. */
  function settle() {
    var forms = draftForms();
    var refused = {};
    var games = {};
    forms.forEach(function (form) {
      games[gameOf(form.dataset.draft)] = true;
      if (form.querySelector("[data-error-summary]")) refused[form.dataset.draft] = true;
    });
    var status = document.getElementById("netstatus");
    if (status && status.dataset.game) games[status.dataset.game] = true;
    var now = Date.now();
    var done = {};
    storedKeys().forEach(function (key) {
      var draft = read(key);
      if (!draft || now - draft.at > KEEP_FOR) { drop(key); return; }
      if (!draft.sent || !games[gameOf(key)]) return;
      if (refused[key]) {
        draft.sent = false;
        write(key, draft);
      } else {
        done[handOf(key)] = true;
      }
    });
    // Every way of entering that hand (quick, with cards) had it: they all go.
    storedKeys().forEach(function (key) {
      if (done[handOf(key)] && !refused[key]) drop(key);
    });
  }

  // --- a refused form's summary ------------------------------------------------------
  function labelOf(field) {
    var set = field.closest("fieldset");
    if ((field.type === "radio" || field.type === "checkbox") && set) {
      return set.querySelector("legend") || field;
    }
    return (field.labels && field.labels[0]) || field;
  }

  function summarise() {
    var summary = document.querySelector("[data-error-summary]");
    if (!summary) return;
    summary.focus();
    // Going to the address's #fragment (the sheet's #enter) takes the focus away again
    // once the page has loaded: the summary takes it back, unless the player moved it.
    window.addEventListener("load", function () {
      setTimeout(function () {
        if (!document.activeElement || document.activeElement === document.body) summary.focus();
      }, 0);
    });
    summary.addEventListener("click", function (event) {
      var link = event.target.closest("a[href^='#']");
      if (!link) return;
      var field = document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
      if (!field) return;
      event.preventDefault();
      var closed = field.closest("details:not([open])");
      if (closed) closed.open = true;
      // Focused first: the card picker then moves under the field, above it no more.
      field.focus({ preventScroll: true });
      labelOf(field).scrollIntoView({ block: "start" });
    });
  }

  settle();
  draftForms().forEach(setUp);
  summarise();
  // live.js swapped a part of the page for a fresh one: its forms are new elements.
  document.addEventListener("scorekeeper:live", function () { draftForms().forEach(setUp); });
})();
