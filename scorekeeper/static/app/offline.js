/* Hands kept on the phone while the network is down, sent exactly once when it returns
   (the form's idempotency token). The sheet's #netstatus counts the hands waiting and
   lists those the server refused, each with its reasons and buttons to send it again,
   correct it or discard it; the sheet shows the waiting ones as rows (pending.js). */
import { describe, fieldsOf, fieldValue, formFor, newToken, queueForms, summaryOf, withFieldValue } from "./handform.js";
import { showPending } from "./pending.js";
import { send } from "./send.js";
import { forget, keep, keptFor, keptHand } from "./store.js";
import { guarded } from "./worker.js";

const status = document.getElementById("netstatus");
let keptTokens = {};       // token → {correcting}: the hands kept for this game
let correctingToken = null;  // the kept hand the form was filled with ("Correct it")
let flushing = false;
let typed = false;  // the player typed into a hand form on this page

// Shows the hands kept for this game: how many wait, and each one the server refused.
function render() {
  if (!status) return Promise.resolve();
  return keptFor(status.dataset.game).then((items) => {
    keptTokens = {};
    items.forEach((i) => { keptTokens[i.token] = { correcting: i.token === correctingToken }; });
    renewUsedTokens();
    const waiting = items.filter((i) => i.state === "waiting");
    const marker = status.querySelector(".waiting-marker");
    marker.hidden = waiting.length === 0;
    marker.textContent = status.dataset.waitingText.replace("{n}", String(waiting.length));
    const list = document.createElement("ul");
    list.className = "waiting-list";
    waiting.forEach((item) => {
      const li = document.createElement("li");
      li.textContent = describe(item);
      list.appendChild(li);
    });
    const old = status.querySelector(".waiting-list");
    if (old) old.remove();
    if (waiting.length) marker.insertAdjacentElement("afterend", list);
    showPending(status, waiting);
    const box = status.querySelector(".kept-hands");
    box.textContent = "";
    const template = document.getElementById("kept-hand-template");
    items.filter((i) => i.state === "refused").forEach((item) => {
      const node = template.content.firstElementChild.cloneNode(true);
      node.dataset.token = item.token;
      node.querySelector(".kept-what").textContent = describe(item);
      const problems = node.querySelector(".kept-problems");
      (item.problems || []).forEach((p) => {
        const li = document.createElement("li");
        li.textContent = p;
        problems.appendChild(li);
      });
      // Correct needs the form: on this page, or the card-entry page it came from.
      const elsewhere = item.page && item.page !== location.pathname && status.dataset.finished !== "true";
      if (!formFor(item) && !elsewhere) node.querySelector("[data-act=correct]").hidden = true;
      box.appendChild(node);
    });
  }).catch(() => {});
}

// --- flushing the kept hands, in the order they were entered ----------------------
function flush() {
  if (!status || flushing || !navigator.onLine) return Promise.resolve();
  flushing = true;
  let changed = false;
  // Hands entered one after another offline were all drawn from the same sheet; once
  // the first is in, the next is meant for the sheet that includes it.
  let lastDrawn = null, lastSent = null;
  return keptFor(status.dataset.game).then((items) => {
    const waiting = items.filter((i) => i.state === "waiting");
    let chain = Promise.resolve(true);
    waiting.forEach((item) => {
      chain = chain.then((go) => {
        if (!go) return false;
        let fields = item.fields;
        const drawn = fieldValue(fields, "version");
        if (lastDrawn !== null && drawn === lastDrawn && lastSent !== null) {
          fields = withFieldValue(fields, "version", lastSent + 1);
        }
        return send(item.action, fields).then((result) => {
          changed = true;
          if (result.kind === "saved") {
            lastDrawn = drawn;
            lastSent = parseInt(fieldValue(fields, "version"), 10);
            return forget(item.token).then(() => true);
          }
          lastDrawn = null; lastSent = null;
          item.state = "refused";
          item.problems = result.problems;
          item.serverVersion = result.version;
          return keep(item).then(() => true);
        }, () => false);  // still unreachable: try again later
      });
    });
    return chain;
  }).then(() => {
    flushing = false;
    if (changed) location.reload();
    else return render();
  }, () => { flushing = false; });
}

// --- a hand form that survives a dropped connection --------------------------------
function sheetReload(form) {
  const sheet = form.dataset.sheet || location.pathname;
  const target = sheet + "#hand-" + (form.dataset.next || "");
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
  const sheet = form.dataset.sheet || "/";
  if (guarded()) { location.assign(sheet); return; }
  let note = form.querySelector(".kept-note");
  if (!note) {
    note = document.createElement("p");
    note.className = "kept-note flash flash-warning";
    note.setAttribute("role", "status");
    form.insertBefore(note, form.querySelector("[type=submit]"));
  }
  note.textContent = form.dataset.keptText || "";
  const tryAgain = () => {
    fetch(sheet, { method: "HEAD", credentials: "same-origin", cache: "no-store" })
      .then(() => { location.assign(sheet); }, () => { setTimeout(tryAgain, 2000); });
  };
  setTimeout(tryAgain, 2000);
}

function queueFromForm(form, fields) {
  const item = {
    token: fieldValue(fields, "token") || newToken(),
    game: status ? status.dataset.game : (form.dataset.game || ""),
    action: new URL(form.action, location.href).pathname,
    page: location.pathname,
    fields: fields,
    summary: summaryOf(form),
    state: "waiting",
    queuedAt: Date.now()
  };
  if (!fieldValue(fields, "token")) item.fields = fields.concat([["token", item.token]]);
  return keep(item);
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
  form.addEventListener("input", () => { typed = true; });
  form.addEventListener("submit", (event) => {
    const fields = fieldsOf(form, event.submitter);
    const token = fieldValue(fields, "token");
    const correcting = Boolean(token && keptTokens[token]);
    if (navigator.onLine && guarded() && !correcting) return;
    event.preventDefault();
    const button = form.querySelector("[type=submit]");
    if (button) button.disabled = true;
    const done = () => { if (button) button.disabled = false; };
    const offline = () => queueFromForm(form, fields).then(() => {
      done();
      // "Hand 3 saved." above a hand that is not: the message is about an older one.
      document.querySelectorAll("main > .flash-message").forEach((el) => { el.remove(); });
      if (!status) { toSheetWhenReachable(form); return; }
      form.reset();
      freshToken(form);
      return render();
    }, () => {  // no IndexedDB to keep it in: the browser's own way, as without this script
      done();
      form.submit();
    });
    if (!navigator.onLine) { offline(); return; }
    send(form.action, fields).then((result) => {
      if (result.kind === "saved") {
        const onward = () => { sheetReload(form); };
        return forget(token).then(onward, onward);
      }
      done();
      // The server shows why at the fields (the card page; a new hand on the sheet).
      if (!status || !correcting) { form.submit(); return; }
      return keptFor(status.dataset.game).then((items) => {
        const item = items.find((i) => i.token === token);
        if (!item) return;
        item.fields = fields;
        item.state = "refused";
        item.problems = result.problems;
        item.serverVersion = result.version;
        return keep(item).then(render).then(() => { status.scrollIntoView(); });
      });
    }, offline);
  });
}

function freshToken(form) {
  const input = form.querySelector("input[name=token]");
  if (input) input.value = newToken();
}

// A copy of the page from the phone's cache carries the token of a form that was sent
// (or kept) since: the next hand entered on it gets a token of its own.
function renewUsedTokens() {
  queueForms().forEach((form) => {
    const input = form.querySelector("input[name=token]");
    if (input && keptTokens[input.value] && !keptTokens[input.value].correcting) freshToken(form);
  });
}

// --- the buttons of a refused hand -------------------------------------------------
function onKeptHandButton(event) {
  const button = event.target.closest("button[data-act]");
  if (!button) return;
  const node = button.closest(".kept-hand");
  const token = node && node.dataset.token;
  if (!token) return;
  keptFor(status.dataset.game).then((items) => {
    const item = items.find((i) => i.token === token);
    if (!item) return render();
    const act = button.dataset.act;
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
    const current = document.querySelector("form[data-offline-queue] input[name=version]");
    const versions = [item.serverVersion, current && current.value].filter((v) => v)
      .map((v) => parseInt(v, 10));
    const fields = versions.length ? withFieldValue(item.fields, "version", Math.max(...versions)) : item.fields;
    button.disabled = true;
    button.textContent = status.dataset.sendingText;
    return send(item.action, fields).then((result) => {
      if (result.kind === "saved") return forget(token).then(() => { location.reload(); });
      item.problems = result.problems;
      item.serverVersion = result.version;
      return keep(item).then(render);
    }, () => {
      item.problems = [status.dataset.unreachableText];
      return keep(item).then(render);
    });
  });
}

// Correct: the form is filled with the kept hand (same token: it can never be saved
// twice) and the kept copy goes once the corrected hand is saved.
function fill(item) {
  const form = formFor(item);
  if (!form) return;
  correctingToken = item.token;
  keptTokens[item.token] = { correcting: true };
  item.fields.forEach(([name, value]) => {
    if (name === "csrf_token" || name === "version") return;  // the page's own are newer
    form.querySelectorAll('[name="' + name.replace(/"/g, "") + '"]').forEach((el) => {
      if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === value;
      else el.value = value;
      el.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });
  form.scrollIntoView({ block: "start" });
}

// Sets up the hand forms and the list of kept hands, sends what waits, and keeps
// sending: when the network returns, and now and then (a server that went away comes
// back without the phone noticing).
export function startQueue() {
  queueForms().forEach(setUpQueue);
  if (status) status.addEventListener("click", onKeptHandButton);
  // "Correct it" on the sheet for a hand typed on its card-entry page, which opened here.
  const correcting = sessionStorage.getItem("sk-correct");
  if (correcting) {
    sessionStorage.removeItem("sk-correct");
    keptHand(correcting).then((item) => {
      if (item) fill(item);
    }).catch(() => {});
  }
  // live.js put a fresh copy of a hand form on the page: set it up like the first.
  document.addEventListener("scorekeeper:live", () => {
    queueForms().forEach(setUpQueue);
    renewUsedTokens();
    render();  // the hands kept on the phone stand on the new sheet too
  });
  window.addEventListener("online", () => {
    flush().then(() => {
      // An old copy from the phone's cache: fetch the sheet as it is now, unless the
      // player is in the middle of typing a hand.
      if (document.body.dataset.served === "cache" && !typed && !flushing) location.reload();
    });
  });
  render().then(flush);
  setInterval(() => {
    if (document.visibilityState !== "visible" || !status) return;
    keptFor(status.dataset.game).then((items) => {
      if (items.some((i) => i.state === "waiting")) flush();
    }).catch(() => {});
  }, 5000);
}
