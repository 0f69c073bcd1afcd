/* The hands kept on the phone: IndexedDB "scorekeeper", store "hands", one record per
   idempotency token, indexed by game. The service worker (templates/pwa/sw.js) keeps a
   hand in the same store when its connection drops on the way.

   A record: {token, game, action (the form's path), page (where it was typed), fields
   ([name, value] pairs, as the form sends them), summary (the hand in words; "" when the
   worker kept it), state ("waiting" or "refused"), problems, serverVersion, queuedAt}. */
const DB_NAME = "scorekeeper";
const STORE = "hands";

function openDb() {
  return new Promise((resolve, reject) => {
    if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: "token" });
      store.createIndex("game", "game");
    };
    req.onsuccess = () => { resolve(req.result); };
    req.onerror = () => { reject(req.error); };
  });
}

// Runs ``work`` on the store in one transaction; resolves, once it is done, to what the
// request ``work`` returns answered (or to what ``work`` returned).
function transaction(mode, work) {
  return openDb().then((db) => new Promise((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const result = work(t.objectStore(STORE));
    t.oncomplete = () => { db.close(); resolve(result && "result" in result ? result.result : result); };
    t.onerror = () => { db.close(); reject(t.error); };
  }));
}

// The hands kept for ``game``, in the order they were entered.
export function keptFor(game) {
  return transaction("readonly", (store) => store.index("game").getAll(game))
    .then((items) => (items || []).sort((a, b) => a.queuedAt - b.queuedAt));
}

// The hand kept under ``token``, or undefined.
export function keptHand(token) {
  return transaction("readonly", (store) => store.get(token));
}

export function keep(item) { return transaction("readwrite", (store) => { store.put(item); }); }

export function forget(token) { return transaction("readwrite", (store) => { store.delete(token); }); }
