/* Scorekeeper's service worker (scope /): keeps the app's own files, and network-first
   the last copy of each game page and of the home page, so that a game seen before still
   opens without a network. Never touches POSTs, the JSON API or the live sheet. */
"use strict";

const VERSION = {{ version | tojson }};
const ASSETS = {{ assets | tojson }};
const STATIC = "sk-static-" + VERSION;
const PAGES = "sk-pages-v1";
const PAGE = /^\/(g\/[A-Za-z0-9_-]{1,64})?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith("sk-static-") && k !== STATIC).map((k) => caches.delete(k))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
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
      await cache.put(key, response.clone());
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
