/* Times in the phone's own clock. The server writes a time in the zone the tz cookie
   names, else in UTC (times.py); a <time data-local> is written again in the phone's
   zone and the page's language, in the same styles: data-local="" a date and time,
   "medium" or "long" a date. Persian in the Solar Hijri calendar, every language with
   the Latin digits the app uses. The cookie lets the next page, and a print, be dated
   in this zone by the server itself. */
function showLocalTimes() {
  if (!window.Intl || !Intl.DateTimeFormat) return;
  let lang = document.documentElement.lang || "en";
  lang += "-u-ca-" + (lang === "fa" ? "persian" : "gregory") + "-nu-latn";
  const formats = {};
  try {
    formats[""] = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
    formats.medium = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });
    formats.long = new Intl.DateTimeFormat(lang, { dateStyle: "long" });
  } catch { return; }
  const zone = formats[""].resolvedOptions().timeZone;
  const kept = ("; " + document.cookie + ";").indexOf("; tz=" + zone + ";") !== -1;
  if (zone && !kept && /^[\w+\-/]+$/.test(zone)) {
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  }
  document.querySelectorAll("time[data-local]").forEach((el) => {
    const when = new Date(el.getAttribute("datetime"));
    const format = formats[el.dataset.local];
    if (isNaN(when) || !format || el.dataset.shown === el.getAttribute("datetime")) return;
    el.textContent = format.format(when);
    el.dataset.shown = el.getAttribute("datetime");
  });
}

// Now, and again whenever live.js swaps a part of the page for a fresh one.
export function startLocalTimes() {
  showLocalTimes();
  document.addEventListener("scorekeeper:live", showLocalTimes);
}
