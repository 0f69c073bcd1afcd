/* Scorekeeper on a phone: the service worker (installable, offline), the "offline — as
   of HH:MM" marker, hands kept on the phone while the network is down (sent exactly once
   when it returns: the form's idempotency token), and the screen wake lock.
   Progressive enhancement only: without this script every page works as before. */
(function () {
  "use strict";

  var root = document.body;  // data-sw; data-served="cache" on a copy from the worker

  // --- service worker -------------------------------------------------------------
  if ("serviceWorker" in navigator && root.dataset.sw) {
    navigator.serviceWorker.register(root.dataset.sw, { scope: "/" }).catch(function () {});
  }

  var status = document.getElementById("netstatus");
  // The hand forms that keep a hand offline (live.js may swap them for fresh ones).
  function queueForms() {
    return Array.prototype.slice.call(document.querySelectorAll("form[data-offline-queue]"));
  }

  // --- the kept hands (IndexedDB, one record per idempotency token) ----------------
  var DB_NAME = "scorekeeper";
  var STORE = "hands";

  function openDb() {
    return new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
      var req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = function () {
        var store = req.result.createObjectStore(STORE, { keyPath: "token" });
        store.createIndex("game", "game");
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  function tx(mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var t = db.transaction(STORE, mode);
        var result = work(t.objectStore(STORE));
        t.oncomplete = function () { db.close(); resolve(result && "result" in result ? result.result : result); };
        t.onerror = function () { db.close(); reject(t.error); };
      });
    });
  }

  function keptFor(game) {
    return tx("readonly", function (store) { return store.index("game").getAll(game); })
      .then(function (items) {
        return (items || []).sort(function (a, b) { return a.queuedAt - b.queuedAt; });
      });
  }
  function keep(item) { return tx("readwrite", function (store) { store.put(item); }); }
  function forget(token) { return tx("readwrite", function (store) { store["delete"](token); }); }

  // --- what a form holds ----------------------------------------------------------
  // The form's fields, and the button pressed when it says something itself ("Save it
  // again" sends confirm=repeat), as a browser sending the form would.
  function fieldsOf(form, submitter) {
    var out = [];
    new FormData(form).forEach(function (value, name) { out.push([name, String(value)]); });
    if (submitter && submitter.name) out.push([submitter.name, submitter.value]);
    return out;
  }

  function get(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return null;
  }

  function put(fields, name, value) {
    return fields.map(function (f) { return f[0] === name ? [name, String(value)] : f; });
  }

  function labelText(el) {
    var label = el.labels && el.labels[0];
    return label ? label.textContent.trim() : el.name;
  }

  // A short description of the hand as the player entered it, in the page's language.
  function summaryOf(form) {
    var parts = [];
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") return;
      if (el.type === "radio" || el.type === "checkbox") {
        if (!el.checked) return;
        var set = el.closest("fieldset");
        var legend = set && set.querySelector("legend");
        var choice = el.closest("label") ? el.closest("label").textContent.trim() : el.value;
        if (el.type === "radio" && seen[el.name]) return;
        seen[el.name] = true;
        parts.push((legend ? legend.textContent.trim() + ": " : "") + choice);
      } else if (el.value.trim() !== "") {
        var value = el.tagName === "SELECT" && el.selectedOptions[0] ? el.selectedOptions[0].textContent.trim() : el.value.trim();
        parts.push(labelText(el) + ": " + value);
      }
    });
    return parts.join(" · ");
  }

  // The kept hand in words: its summary, or (kept by the service worker, which sees no
  // page) read from its fields with the labels of this page's form.
  function describe(item) {
    if (item.summary) return item.summary;
    var form = formFor(item);
    var parts = [];
    item.fields.forEach(function (f) {
      var name = f[0], value = f[1];
      if (name === "csrf_token" || name === "version" || name === "token" || value === "") return;
      var el = form && form.querySelector('[name="' + name.replace(/"/g, "") + '"]');
      if (!el) { parts.push(value); return; }
      if (el.type === "radio" || el.type === "checkbox") {
        var chosen = form.querySelector('[name="' + name.replace(/"/g, "") + '"][value="' + value.replace(/"/g, "") + '"]');
        var set = el.closest("fieldset");
        var legend = set && set.querySelector("legend");
        var label = chosen && chosen.closest("label");
        parts.push((legend ? legend.textContent.trim() + ": " : "") + (label ? label.textContent.trim() : value));
      } else {
        parts.push(labelText(el) + ": " + value);
      }
    });
    return parts.join(" · ");
  }

  function newToken() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    var s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // --- sending ---------------------------------------------------------------------
  // Resolves to {kind: "saved"} (the server redirected: the hand is in, or was already),
  // {kind: "refused", problems, version} (the server answered with the form again), or
  // rejects when the server cannot be reached at all.
  function send(action, fields) {
    var body = new URLSearchParams();
    fields.forEach(function (f) { body.append(f[0], f[1]); });
    return fetch(action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      headers: { "Accept": "text/html" }
    }).then(function (response) {
      if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
        return { kind: "saved" };
      }
      return response.text().then(function (html) { return refusal(html, response.status); });
    });
  }

  // The server's own words from the page it answered with: the form's errors, each
  // field's error with the field's name, else the error page's message.
  function refusal(html, code) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var main = doc.querySelector("main") || doc.body;
    var problems = [];
    Array.prototype.forEach.call(main.querySelectorAll(".error"), function (el) {
      var field = el.closest(".field");
      var name = field && (field.querySelector("legend") || field.querySelector("label"));
      var text = el.textContent.trim();
      problems.push(name ? name.textContent.trim() + ": " + text : text);
    });
    if (!problems.length) {
      var lead = main.querySelector(".lead, .flash");
      problems.push(lead ? lead.textContent.trim() : "HTTP " + code);
    }
    var version = doc.querySelector("form[data-offline-queue] input[name=version], input[name=version]");
    return { kind: "refused", problems: problems, version: version ? version.value : null };
  }

  var keptTokens = {};       // token → {correcting}: the hands kept for this game
  var correctingToken = null;  // the kept hand the form was filled with ("Correct it")

  // --- the status bar --------------------------------------------------------------
  function pad(n) { return (n < 10 ? "0" : "") + n; }

  // The live sheet found no server the last time it asked, though the phone thinks it is
  // online (the Wi-Fi dropped, the server stopped): the page is as of its last answer.
  var unreachable = false;

  function showOffline() {
    if (!status) return;
    var marker = status.querySelector(".offline-marker");
    var fromCache = root.dataset.served === "cache";
    if (fromCache || !navigator.onLine || unreachable) {
      var when = new Date(status.dataset.rendered);
      var time = isNaN(when) ? "" : pad(when.getHours()) + ":" + pad(when.getMinutes());
      marker.textContent = status.dataset.offlineText.replace("{time}", time);
      marker.hidden = false;
    } else {
      marker.hidden = true;
    }
  }

  function render() {
    if (!status) return Promise.resolve();
    return keptFor(status.dataset.game).then(function (items) {
      keptTokens = {};
      items.forEach(function (i) { keptTokens[i.token] = { correcting: i.token === correctingToken }; });
      renewUsedTokens();
      var waiting = items.filter(function (i) { return i.state === "waiting"; });
      var marker = status.querySelector(".waiting-marker");
      marker.hidden = waiting.length === 0;
      marker.textContent = status.dataset.waitingText.replace("{n}", String(waiting.length));
      var list = document.createElement("ul");
      list.className = "waiting-list";
      waiting.forEach(function (item) {
        var li = document.createElement("li");
        li.textContent = describe(item);
        list.appendChild(li);
      });
      var old = status.querySelector(".waiting-list");
      if (old) old.remove();
      if (waiting.length) marker.insertAdjacentElement("afterend", list);
      showPending(waiting);
      var box = status.querySelector(".kept-hands");
      box.textContent = "";
      var template = document.getElementById("kept-hand-template");
      items.filter(function (i) { return i.state === "refused"; }).forEach(function (item) {
        var node = template.content.firstElementChild.cloneNode(true);
        node.dataset.token = item.token;
        node.querySelector(".kept-what").textContent = describe(item);
        var list = node.querySelector(".kept-problems");
        (item.problems || []).forEach(function (p) {
          var li = document.createElement("li");
          li.textContent = p;
          list.appendChild(li);
        });
        // Correct needs the form: on this page, or the card-entry page it came from.
        var elsewhere = item.page && item.page !== location.pathname && status.dataset.finished !== "true";
        if (!formFor(item) && !elsewhere) node.querySelector("[data-act=correct]").hidden = true;
        box.appendChild(node);
      });
    }).catch(function () {});
  }

  // --- hands kept on the phone, on the sheet ------------------------------------------
  // They stand as rows marked "waiting to send" and count for the next hand's number and
  // its dealer. Their points are the server's to work out: the totals leave them out,
  // and a note says so.
  function showPending(items) {
    var table = document.getElementById("sheet");
    if (!table || !table.tBodies[0]) return;
    var body = table.tBodies[0];
    Array.prototype.forEach.call(body.querySelectorAll("tr.pending"), function (tr) { tr.remove(); });
    Array.prototype.forEach.call(body.querySelectorAll("tr:not([id]) > td.muted"), function (td) {
      td.parentNode.hidden = items.length > 0;  // "No hands yet."
    });
    var form = document.querySelector("form[data-offline-queue][data-next]");
    if (form && !form.dataset.drawnNext) form.dataset.drawnNext = form.dataset.next;
    var first = form ? parseInt(form.dataset.drawnNext, 10) : NaN;
    var columns = table.tHead && table.tHead.rows[0] ? table.tHead.rows[0].cells.length : 2;
    items.forEach(function (item, i) {
      var tr = document.createElement("tr");
      tr.className = "pending";
      var number = document.createElement("td");
      number.textContent = isNaN(first) ? "" : String(first + i);
      var what = document.createElement("td");
      what.colSpan = Math.max(1, columns - 1);
      var label = document.createElement("strong");
      label.textContent = status.dataset.pendingRow;
      what.appendChild(label);
      what.appendChild(document.createTextNode(" · " + describe(item)));
      tr.appendChild(number);
      tr.appendChild(what);
      body.appendChild(tr);
    });
    if (form && !isNaN(first)) {
      form.dataset.next = String(first + items.length);
      var heading = document.getElementById("enter");
      if (heading && heading.dataset.title) {
        heading.textContent = heading.dataset.title.replace("{n}", String(first + items.length));
      }
    }
    var note = document.getElementById("pending-note");
    if (!note) {
      note = document.createElement("p");
      note.id = "pending-note";
      note.className = "hint pending-note";
      note.textContent = status.dataset.pendingNote;
      table.parentNode.insertBefore(note, table);
    }
    note.hidden = items.length === 0;
    showDealer(items);
  }

  // The two-player dealer rule (scoring/game.py deal_after) applied to hands entered in
  // quick mode; after a hand whose winner the page cannot tell (entered with cards) the
  // dealer the server named stays, as the totals do.
  function showDealer(items) {
    var el = document.getElementById("next-dealer");
    if (!el || !el.dataset.names) return;
    var names = JSON.parse(el.dataset.names);
    var dealer = parseInt(el.dataset.seat, 10);
    for (var i = 0; i < items.length; i++) {
      var winner = winnerOf(items[i].fields, el.dataset.tieUndercut === "true");
      if (winner === undefined) { dealer = parseInt(el.dataset.seat, 10); break; }
      if (winner === "dead") continue;
      if (el.dataset.rule === "alternate") dealer = 1 - dealer;
      else if (winner !== null) dealer = el.dataset.rule === "winner" ? winner : 1 - winner;
    }
    el.textContent = names[dealer];
  }

  // Who won a quick-mode hand: a seat, null (a tie nobody wins), "dead", or undefined
  // when the fields do not say (a hand entered with its cards).
  function winnerOf(fields, tieIsUndercut) {
    var outcome = get(fields, "outcome");
    if (outcome === "dead") return "dead";
    var knocker = parseInt(get(fields, "knocker"), 10);
    if (knocker !== 0 && knocker !== 1) return undefined;
    if (outcome === "gin" || outcome === "big_gin") return knocker;
    if (outcome !== "knock") return undefined;
    var k = parseInt(get(fields, "knocker_deadwood"), 10);
    var d = parseInt(get(fields, "defender_deadwood"), 10);
    if (isNaN(k) || isNaN(d)) return undefined;
    if (k < d) return knocker;
    if (k > d || tieIsUndercut) return 1 - knocker;
    return null;
  }

  function formFor(item) {
    var forms = queueForms();
    for (var i = 0; i < forms.length; i++) {
      if (new URL(forms[i].action, location.href).pathname === item.action) return forms[i];
    }
    return null;
  }

  // --- flushing the kept hands, in the order they were entered ----------------------
  var flushing = false;

  function flush() {
    if (!status || flushing || !navigator.onLine) return Promise.resolve();
    flushing = true;
    var changed = false;
    // Hands entered one after another offline were all drawn from the same sheet; once
    // the first is in, the next is meant for the sheet that includes it.
    var lastDrawn = null, lastSent = null;
    return keptFor(status.dataset.game).then(function (items) {
      var waiting = items.filter(function (i) { return i.state === "waiting"; });
      var chain = Promise.resolve(true);
      waiting.forEach(function (item) {
        chain = chain.then(function (go) {
          if (!go) return false;
          var fields = item.fields;
          var drawn = get(fields, "version");
          if (lastDrawn !== null && drawn === lastDrawn && lastSent !== null) {
            fields = put(fields, "version", lastSent + 1);
          }
          return send(item.action, fields).then(function (result) {
            changed = true;
            if (result.kind === "saved") {
              lastDrawn = drawn;
              lastSent = parseInt(get(fields, "version"), 10);
              return forget(item.token).then(function () { return true; });
            }
            lastDrawn = null; lastSent = null;
            item.state = "refused";
            item.problems = result.problems;
            item.serverVersion = result.version;
            return keep(item).then(function () { return true; });
          }, function () { return false; });  // still unreachable: try again later
        });
      });
      return chain;
    }).then(function () {
      flushing = false;
      if (changed) location.reload();
      else return render();
    }, function () { flushing = false; });
  }

  // --- a hand form that survives a dropped connection --------------------------------
  function sheetReload(form) {
    var sheet = form.dataset.sheet || location.pathname;
    var target = sheet + "#hand-" + (form.dataset.next || "");
    if (sheet === location.pathname) {
      history.replaceState(null, "", target);
      location.reload();
    } else {
      location.assign(target);
    }
  }

  // The card-entry page has no list of kept hands: the sheet shows and sends them. With
  // the service worker the sheet opens from the phone's copy at once; without, the page
  // says the hand is kept and goes to the sheet as soon as the server answers again.
  function toSheetWhenReachable(form) {
    var sheet = form.dataset.sheet || "/";
    if (guarded()) { location.assign(sheet); return; }
    var note = form.querySelector(".kept-note");
    if (!note) {
      note = document.createElement("p");
      note.className = "kept-note flash flash-warning";
      note.setAttribute("role", "status");
      form.insertBefore(note, form.querySelector("[type=submit]"));
    }
    note.textContent = form.dataset.keptText || "";
    var tryAgain = function () {
      fetch(sheet, { method: "HEAD", credentials: "same-origin", cache: "no-store" })
        .then(function () { location.assign(sheet); }, function () { setTimeout(tryAgain, 2000); });
    };
    setTimeout(tryAgain, 2000);
  }

  function queueFromForm(form, fields) {
    var item = {
      token: get(fields, "token") || newToken(),
      game: status ? status.dataset.game : (form.dataset.game || ""),
      action: new URL(form.action, location.href).pathname,
      page: location.pathname,
      fields: fields,
      summary: summaryOf(form),
      state: "waiting",
      queuedAt: Date.now()
    };
    if (!get(fields, "token")) item.fields = fields.concat([["token", item.token]]);
    return keep(item);
  }

  // Whether the service worker handles this page's requests: it keeps a hand whose
  // connection drops on the way. Browsers give none to a page over plain HTTP on another
  // machine (a phone on the table's Wi-Fi opening http://192.168.x.y:5000), nor to the
  // first page before the worker has taken over.
  function guarded() {
    return "serviceWorker" in navigator && navigator.serviceWorker.controller !== null;
  }

  // Online, with the service worker, a hand form is sent as usual (a full page load,
  // nothing changes without this script); if the connection drops on the way, the worker
  // keeps the hand. Without the worker the page sends it itself and keeps it if the
  // server cannot be reached; an answer other than "saved" (a mistake in the form, a lost
  // race) is asked for again as a full page load, which shows it the usual way at its
  // fields (nothing was saved, and the token makes the second sending safe anyway).
  // Offline (the phone knows it), or when the form carries a kept hand being corrected,
  // it is kept or sent from here too.
  function setUpQueue(form) {
    if (form.dataset.queueReady) return;
    form.dataset.queueReady = "1";
    form.addEventListener("input", function () { typed = true; });
    form.addEventListener("submit", function (event) {
      var fields = fieldsOf(form, event.submitter);
      var token = get(fields, "token");
      var correcting = Boolean(token && keptTokens[token]);
      if (navigator.onLine && guarded() && !correcting) return;
      event.preventDefault();
      var button = form.querySelector("[type=submit]");
      if (button) button.disabled = true;
      var done = function () { if (button) button.disabled = false; };
      var offline = function () {
        return queueFromForm(form, fields).then(function () {
          done();
          // "Hand 3 saved." above a hand that is not: the message is about an older one.
          Array.prototype.forEach.call(document.querySelectorAll("main > .flash-message"), function (el) {
            el.remove();
          });
          if (!status) { toSheetWhenReachable(form); return; }
          form.reset();
          freshToken(form);
          return render();
        }, function () {  // no IndexedDB to keep it in: the browser's own way, as without this script
          done();
          form.submit();
        });
      };
      if (!navigator.onLine) { offline(); return; }
      send(form.action, fields).then(function (result) {
        if (result.kind === "saved") {
          var onward = function () { sheetReload(form); };
          return forget(token).then(onward, onward);
        }
        done();
        // The server shows why at the fields (the card page; a new hand on the sheet).
        if (!status || !correcting) { form.submit(); return; }
        return keptFor(status ? status.dataset.game : form.dataset.game).then(function (items) {
          var item = items.filter(function (i) { return i.token === token; })[0];
          if (!item) return;
          item.fields = fields;
          item.state = "refused";
          item.problems = result.problems;
          item.serverVersion = result.version;
          return keep(item).then(render).then(function () { status.scrollIntoView(); });
        });
      }, offline);
    });
  }
  queueForms().forEach(setUpQueue);

  function freshToken(form) {
    var input = form.querySelector("input[name=token]");
    if (input) input.value = newToken();
  }

  // A copy of the page from the phone's cache carries the token of a form that was sent
  // (or kept) since: the next hand entered on it gets a token of its own.
  function renewUsedTokens() {
    queueForms().forEach(function (form) {
      var input = form.querySelector("input[name=token]");
      if (input && keptTokens[input.value] && !keptTokens[input.value].correcting) freshToken(form);
    });
  }

  // --- the buttons of a refused hand -------------------------------------------------
  if (status) {
    status.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-act]");
      if (!button) return;
      var node = button.closest(".kept-hand");
      var token = node && node.dataset.token;
      if (!token) return;
      keptFor(status.dataset.game).then(function (items) {
        var item = items.filter(function (i) { return i.token === token; })[0];
        if (!item) return render();
        var act = button.dataset.act;
        if (act === "discard") {
          if (window.confirm(status.dataset.discardQuestion)) return forget(token).then(render);
          return;
        }
        if (act === "correct") {
          if (!formFor(item) && item.page && item.page !== location.pathname) {
            sessionStorage.setItem("sk-correct", token);
            location.assign(item.page);
            return;
          }
          return fill(item);
        }
        // Send it again, now meant for the sheet as it is.
        var current = document.querySelector("form[data-offline-queue] input[name=version]");
        var versions = [item.serverVersion, current && current.value].filter(function (v) { return v; })
          .map(function (v) { return parseInt(v, 10); });
        var fields = versions.length ? put(item.fields, "version", Math.max.apply(null, versions)) : item.fields;
        button.disabled = true;
        button.textContent = status.dataset.sendingText;
        return send(item.action, fields).then(function (result) {
          if (result.kind === "saved") return forget(token).then(function () { location.reload(); });
          item.problems = result.problems;
          item.serverVersion = result.version;
          return keep(item).then(render);
        }, function () {
          item.problems = [status.dataset.unreachableText];
          return keep(item).then(render);
        });
      });
    });
  }

  // Correct: the form is filled with the kept hand (same token: it can never be saved
  // twice) and the kept copy goes once the corrected hand is saved.
  function fill(item) {
    var form = formFor(item);
    if (!form) return;
    correctingToken = item.token;
    keptTokens[item.token] = { correcting: true };
    item.fields.forEach(function (f) {
      var name = f[0], value = f[1];
      if (name === "csrf_token" || name === "version") return;  // the page's own are newer
      var els = form.querySelectorAll('[name="' + name.replace(/"/g, "") + '"]');
      Array.prototype.forEach.call(els, function (el) {
        if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === value;
        else el.value = value;
        el.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
    form.scrollIntoView({ block: "start" });
  }

  var correcting = sessionStorage.getItem("sk-correct");
  if (correcting) {
    sessionStorage.removeItem("sk-correct");
    tx("readonly", function (store) { return store.get(correcting); }).then(function (item) {
      if (item) fill(item);
    }).catch(function () {});
  }

  // --- screen wake lock --------------------------------------------------------------
  var wake = document.getElementById("wakelock");
  var lock = null;
  var WANT = "sk-wakelock";

  // Table mode (data-auto) keeps the screen on from the start, until it is tapped off.
  var auto = wake !== null && wake.hasAttribute("data-auto");
  function wanted() {
    if (auto) return true;
    try { return localStorage.getItem(WANT) === "1"; } catch (e) { return false; }
  }
  function want(on) { try { localStorage.setItem(WANT, on ? "1" : "0"); } catch (e) { /* private mode */ } }

  function showWake() {
    if (!wake) return;
    var on = lock !== null;
    var text = on ? wake.dataset.onText : wake.dataset.offText;
    wake.setAttribute("aria-pressed", on ? "true" : "false");
    if (wake.textContent !== text) wake.textContent = text;
  }

  function acquire() {
    if (!wake || lock || document.visibilityState !== "visible") return Promise.resolve();
    return navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () { lock = null; showWake(); });
      showWake();
    }, function () { lock = null; showWake(); });
  }

  function release() {
    var held = lock;
    lock = null;
    showWake();
    return held ? held.release().catch(function () {}) : Promise.resolve();
  }

  function gameOver() {
    // data-game-finished sits next to the sheet, so it comes with a live update of it.
    return status && (status.dataset.finished === "true" ||
      document.querySelector("[data-game-finished]") !== null);
  }

  // Over plain HTTP from another machine the browser gives no wake lock, service worker
  // or installing: one line says so where the button would be.
  var insecure = document.getElementById("insecure-note");
  if (insecure && window.isSecureContext === false && !gameOver()) insecure.hidden = false;

  if (wake && "wakeLock" in navigator && !gameOver()) {
    wake.hidden = false;
    wake.addEventListener("click", function () {
      if (lock) { auto = false; want(false); release(); } else { want(true); acquire(); }
    });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && wanted() && !gameOver()) acquire();
    });
    // The live sheet may end the game while this page is open: the lock goes with it.
    var ending = new MutationObserver(function () {
      if (!gameOver()) return;
      ending.disconnect();
      wake.hidden = true;
      release();
    });
    ending.observe(document.querySelector("main") || document.body, { childList: true, subtree: true });
    if (wanted()) acquire();
  }

  // The live sheet replaces parts of the page as other phones change the game: the page
  // is then as of now, and "offline — as of" says so if the network goes later.
  function stamp() { return new Date().toISOString().replace(/\.\d+Z$/, "Z"); }
  // The live sheet reached the server and the page shows the game as it is: a copy from
  // the phone's cache (the network came back while it loaded) is current again, and the
  // hand being typed on it stays where it is.
  document.addEventListener("scorekeeper:current", function () {
    unreachable = false;
    if (!status || !navigator.onLine) return;
    root.dataset.served = "network";
    status.dataset.rendered = stamp();
    showOffline();
  });
  document.addEventListener("scorekeeper:unreachable", function () {
    unreachable = true;
    showOffline();
  });
  if (status && window.MutationObserver) {
    new MutationObserver(function (changes) {
      if (!navigator.onLine || unreachable || root.dataset.served === "cache") return;
      var sheetChanged = changes.some(function (c) { return !status.contains(c.target); });
      if (sheetChanged) status.dataset.rendered = stamp();
    }).observe(document.querySelector("main") || document.body, { childList: true, subtree: true });
  }

  // --- times in the phone's own clock ------------------------------------------------
  // The server writes a time in the zone the tz cookie names, else in UTC (times.py); a
  // <time data-local> is written again in the phone's zone and the page's language, in
  // the same styles: data-local="" a date and time, "medium" or "long" a date. Persian
  // in the Solar Hijri calendar, every language with the Latin digits the app uses. The
  // cookie lets the next page, and a print, be dated in this zone by the server itself.
  function localTimes() {
    if (!window.Intl || !Intl.DateTimeFormat) return;
    var lang = document.documentElement.lang || "en";
    lang += "-u-ca-" + (lang === "fa" ? "persian" : "gregory") + "-nu-latn";
    var formats = {};
    try {
      formats[""] = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
      formats.medium = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });
      formats.long = new Intl.DateTimeFormat(lang, { dateStyle: "long" });
    } catch (e) { return; }
    var zone = formats[""].resolvedOptions().timeZone;
    var kept = ("; " + document.cookie + ";").indexOf("; tz=" + zone + ";") !== -1;
    if (zone && !kept && /^[\w+\-\/]+$/.test(zone)) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
    }
    Array.prototype.forEach.call(document.querySelectorAll("time[data-local]"), function (el) {
      var when = new Date(el.getAttribute("datetime"));
      var format = formats[el.dataset.local];
      if (isNaN(when) || !format || el.dataset.shown === el.getAttribute("datetime")) return;
      el.textContent = format.format(when);
      el.dataset.shown = el.getAttribute("datetime");
    });
  }

  // --- start ------------------------------------------------------------------------
  localTimes();
  showOffline();
  window.addEventListener("offline", showOffline);
  var typed = false;
  // live.js put a fresh copy of a hand form on the page: set it up like the first.
  document.addEventListener("scorekeeper:live", function () {
    queueForms().forEach(setUpQueue);
    renewUsedTokens();
    localTimes();
    render();  // the hands kept on the phone stand on the new sheet too
  });
  window.addEventListener("online", function () {
    showOffline();
    flush().then(function () {
      // An old copy from the phone's cache: fetch the sheet as it is now, unless the
      // player is in the middle of typing a hand.
      if (root.dataset.served === "cache" && !typed && !flushing) location.reload();
    });
  });
  render().then(flush);
  // A server that went away comes back without the phone noticing: try again now and then.
  setInterval(function () {
    if (document.visibilityState !== "visible" || !status) return;
    keptFor(status.dataset.game).then(function (items) {
      if (items.some(function (i) { return i.state === "waiting"; })) flush();
    }).catch(function () {});
  }, 5000);
})();
