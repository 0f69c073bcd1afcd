/* The service worker (templates/pwa/sw.js): it makes the app installable, keeps the
   app's files and the game pages seen for opening offline, and keeps a hand whose
   connection drops on the way. */

// Registers the worker <body data-sw> names, for the whole site.
export function registerWorker() {
  const url = document.body.dataset.sw;
  if ("serviceWorker" in navigator && url) {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(() => {});
  }
}

// Whether the service worker handles this page's requests: it keeps a hand whose
// connection drops on the way. Browsers give none to a page over plain HTTP on another
// machine (a phone on the table's Wi-Fi opening http://192.168.x.y:5000), nor to the
// first page before the worker has taken over.
export function guarded() {
  return "serviceWorker" in navigator && navigator.serviceWorker.controller !== null;
}
