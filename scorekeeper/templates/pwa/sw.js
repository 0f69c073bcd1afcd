/* Scorekeeper's service worker (scope /): keeps the app's own files, and network-first
   the last copy of each game page seen (the sheet, its history, each hand's page with its
   explanation, the card-by-card entry form) and of the home page, so that a game seen
   before still opens without a network, and an argument about a hand can still be
   settled from its page. Never caches a POST, the JSON API or the live sheet.

   A page sent "Cache-Control: no-store" (every page drawn for a phone that may change
   the game) is not kept, and an older copy of it is dropped, with one exception: an
   editor's sheet and its card-by-card entry form, the pages a hand is typed on while
   the Wi-Fi is gone. The server puts no edit secret in them, except in the sheet drawn
   right after the game was made, which says so ("X-Shows-Edit-Link") and is not kept
   either (the edit link is otherwise shown only on its share page, never kept).

   A new hand's POST that cannot reach the server (the Wi-Fi dropped while the phone still
   thinks it is online) is not lost: its form data goes where the page keeps hands waiting
   to be sent (IndexedDB, keyed by the form's idempotency token) and the phone is sent back
   to the sheet, which shows "waiting to send (n)" and sends it exactly once later. */
"use strict";

const VERSION = {{ version | tojson }};
const ASSETS = {{ assets | tojson }};
const STATIC = "sk-static-" + VERSION;
const PAGES = "sk-pages-v2";  // v1 could hold an editor's sheet with its edit link
const KEEP_PAGES = 300;  // the newest copies kept; older ones make room
const PAGE = /^\/(g\/[A-Za-z0-9_-]{1,64}(\/history|\/hands\/(new|[0-9]{1,5}))?)?$/;
const ENTRY = /^\/g\/[A-Za-z0-9_-]{1,64}(\/hands\/new)?$/;  // kept even when no-store
const NEW_HAND = /^\/g\/([A-Za-z0-9_-]{1,64})\/hands(\/new)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => (k.startsWith("sk-static-") && k !== STATIC)
                           || (k.startsWith("sk-pages-") && k !== PAGES))
          .map((k) => caches.delete(k))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method === "POST" && request.mode === "navigate" && url.origin === self.location.origin) {
    const hand = NEW_HAND.exec(url.pathname);
    if (hand) event.respondWith(sendOrKeep(request, url, hand[1]));
    return;
  }
  if (request.method !== "GET") return;
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.startsWith("/api/") || /^\/g\/[^/]+\/live/.test(path)) return;
  if (path.startsWith("/static/")) {
    event.respondWith(staticFile(request));
  } else if (request.mode === "navigate" && PAGE.test(path)) {
    event.respondWith(networkFirst(request, url));
  }
});

async function staticFile(request) {
  const cache = await caches.open(STATIC);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

async function networkFirst(request, url) {
  const key = url.origin + url.pathname;  // ?key=… (the edit link) only redirects here
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    const type = response.headers.get("Content-Type") || "";
    if (response.ok && response.type === "basic" && !response.redirected && type.startsWith("text/html")) {
      await cache.delete(key);  // put back last: the newest copies are the last keys
      if (!noStore(response) || (ENTRY.test(url.pathname) && !response.headers.has("X-Shows-Edit-Link"))) {
        await cache.put(key, response.clone());
        const keys = await cache.keys();
        await Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP_PAGES)).map((k) => cache.delete(k)));
      }
    }
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (!kept) throw error;
    // The page's script shows "offline — as of HH:MM" on a copy served from here.
    const text = (await kept.text()).replace('data-served="network"', 'data-served="cache"');
    return new Response(text, { status: 200, headers: kept.headers });
  }
}

function noStore(response) {
  const directives = (response.headers.get("Cache-Control") || "").toLowerCase().split(",");
  return directives.some((d) => d.trim() === "no-store");
}

// --- hands kept while the server cannot be reached (the page's app/store.js shares the store)
function openKept() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open("scorekeeper", 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore("hands", { keyPath: "token" }).createIndex("game", "game");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function newToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function keepHand(item) {
  const db = await openKept();
  try {
    await new Promise((resolve, reject) => {
      const tx = db.transaction("hands", "readwrite");
      const store = tx.objectStore("hands");
      const same = store.get(item.token);
      same.onsuccess = () => {
        const earlier = same.result;
        // The same token with other fields: a second hand typed on an old copy of the
        // page. It is a different hand, so it gets a token of its own.
        if (earlier && JSON.stringify(earlier.fields) !== JSON.stringify(item.fields)) {
          item.token = newToken();
          item.fields = item.fields.map((f) => (f[0] === "token" ? ["token", item.token] : f));
        }
        store.put(item);
      };
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

// A hand is kept only when one of the app's own pages sent it (the page's address is
// its referrer: Referrer-Policy same-origin) with the form's hand token. A form on another
// site may post to the app too; sent, the server refuses it (no CSRF token), and kept,
// its values would come back into this phone's form as "Correct it".
function fromOurForm(request, fields) {
  let origin;
  try { origin = new URL(request.referrer).origin; } catch { return false; }  // no referrer
  return origin === self.location.origin && fields.some((f) => f[0] === "token" && f[1]);
}

async function sendOrKeep(request, url, game) {
  const copy = request.clone();
  try {
    return await fetch(request);
  } catch (error) {
    let fields;
    try {
      const data = await copy.formData();
      fields = [];
      for (const [name, value] of data.entries()) {
        if (typeof value === "string") fields.push([name, value]);
      }
    } catch {  // no form in its body
      throw error;
    }
    if (!fromOurForm(copy, fields)) throw error;
    const token = fields.find((f) => f[0] === "token")[1];
    const sheet = "/g/" + game;
    await keepHand({
      token: token,
      game: game,
      action: url.pathname,
      page: url.pathname.endsWith("/new") ? url.pathname : sheet,
      fields: fields,
      summary: "",
      state: "waiting",
      queuedAt: Date.now()
    });
    return Response.redirect(sheet, 303);
  }
}
