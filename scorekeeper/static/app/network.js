/* "Offline — as of HH:MM" in the page's #netstatus: shown while the phone is offline,
   on a copy of the page the service worker served from the phone's cache
   (<body data-served="cache">), and while the live sheet finds no server though the
   phone thinks it is online ("scorekeeper:unreachable"). The time is when the page last
   showed the game as it is: when it was drawn, or last brought up to date by the live
   sheet ("scorekeeper:current", or a part of it swapped). */
const root = document.body;
const status = document.getElementById("netstatus");
// The live sheet found no server the last time it asked, though the phone thinks it is
// online (the Wi-Fi dropped, the server stopped): the page is as of its last answer.
let unreachable = false;

function pad(n) { return (n < 10 ? "0" : "") + n; }

function showOffline() {
  if (!status) return;
  const marker = status.querySelector(".offline-marker");
  const fromCache = root.dataset.served === "cache";
  if (fromCache || !navigator.onLine || unreachable) {
    const when = new Date(status.dataset.rendered);
    const time = isNaN(when) ? "" : pad(when.getHours()) + ":" + pad(when.getMinutes());
    marker.textContent = status.dataset.offlineText.replace("{time}", time);
    marker.hidden = false;
  } else {
    marker.hidden = true;
  }
}

function stamp() { return new Date().toISOString().replace(/\.\d+Z$/, "Z"); }

export function startNetworkStatus() {
  // The live sheet reached the server and the page shows the game as it is: a copy from
  // the phone's cache (the network came back while it loaded) is current again, and the
  // hand being typed on it stays where it is.
  document.addEventListener("scorekeeper:current", () => {
    unreachable = false;
    if (!status || !navigator.onLine) return;
    root.dataset.served = "network";
    status.dataset.rendered = stamp();
    showOffline();
  });
  document.addEventListener("scorekeeper:unreachable", () => {
    unreachable = true;
    showOffline();
  });
  // The live sheet replaces parts of the page as other phones change the game: the page
  // is then as of now, and "offline — as of" says so if the network goes later.
  if (status && window.MutationObserver) {
    new MutationObserver((changes) => {
      if (!navigator.onLine || unreachable || root.dataset.served === "cache") return;
      const sheetChanged = changes.some((c) => !status.contains(c.target));
      if (sheetChanged) status.dataset.rendered = stamp();
    }).observe(document.querySelector("main") || document.body, { childList: true, subtree: true });
  }
  showOffline();
  window.addEventListener("offline", showOffline);
  window.addEventListener("online", showOffline);
}
