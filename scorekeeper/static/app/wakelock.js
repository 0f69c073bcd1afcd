/* "Keep the screen on" (#wakelock): the screen wake lock, asked for again whenever the
   page comes back into view, as long as the player wants it (kept on this phone) and
   the game is not over. Table mode (data-auto) keeps the screen on from the start,
   until it is tapped off. */
const WANT = "sk-wakelock";
const wake = document.getElementById("wakelock");
const status = document.getElementById("netstatus");
let lock = null;
let auto = wake !== null && wake.hasAttribute("data-auto");

function wanted() {
  if (auto) return true;
  try { return localStorage.getItem(WANT) === "1"; } catch { return false; }
}
function want(on) { try { localStorage.setItem(WANT, on ? "1" : "0"); } catch { /* private mode */ } }

function showWake() {
  if (!wake) return;
  const on = lock !== null;
  const text = on ? wake.dataset.onText : wake.dataset.offText;
  wake.setAttribute("aria-pressed", on ? "true" : "false");
  if (wake.textContent !== text) wake.textContent = text;
}

function acquire() {
  if (!wake || lock || document.visibilityState !== "visible") return Promise.resolve();
  return navigator.wakeLock.request("screen").then((sentinel) => {
    lock = sentinel;
    sentinel.addEventListener("release", () => { lock = null; showWake(); });
    showWake();
  }, () => { lock = null; showWake(); });
}

function release() {
  const held = lock;
  lock = null;
  showWake();
  return held ? held.release().catch(() => {}) : Promise.resolve();
}

function gameOver() {
  // data-game-finished sits next to the sheet, so it comes with a live update of it.
  return status !== null && (status.dataset.finished === "true" ||
    document.querySelector("[data-game-finished]") !== null);
}

export function startWakeLock() {
  // Over plain HTTP from another machine the browser gives no wake lock, service worker
  // or installing: one line says so where the button would be.
  const insecure = document.getElementById("insecure-note");
  if (insecure && window.isSecureContext === false && !gameOver()) insecure.hidden = false;

  if (!wake || !("wakeLock" in navigator) || gameOver()) return;
  wake.hidden = false;
  wake.addEventListener("click", () => {
    if (lock) { auto = false; want(false); release(); } else { want(true); acquire(); }
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && wanted() && !gameOver()) acquire();
  });
  // The live sheet may end the game while this page is open: the lock goes with it.
  const ending = new MutationObserver(() => {
    if (!gameOver()) return;
    ending.disconnect();
    wake.hidden = true;
    release();
  });
  ending.observe(document.querySelector("main") || document.body, { childList: true, subtree: true });
  if (wanted()) acquire();
}
