/* Hands kept on the phone, on the sheet: they stand as rows marked "waiting to send"
   and count for the next hand's number and its dealer. Their points are the server's
   to work out: the totals leave them out, and a note says so. */
import { describe, fieldValue } from "./handform.js";

// ``status``: the page's #netstatus, which holds the words; ``items``: the hands waiting.
export function showPending(status, items) {
  const table = document.getElementById("sheet");
  if (!table || !table.tBodies[0]) return;
  const body = table.tBodies[0];
  body.querySelectorAll("tr.pending").forEach((tr) => { tr.remove(); });
  body.querySelectorAll("tr:not([id]) > td.muted").forEach((td) => {
    td.parentNode.hidden = items.length > 0;  // "No hands yet."
  });
  const form = document.querySelector("form[data-offline-queue][data-next]");
  if (form && !form.dataset.drawnNext) form.dataset.drawnNext = form.dataset.next;
  const first = form ? parseInt(form.dataset.drawnNext, 10) : NaN;
  const columns = table.tHead && table.tHead.rows[0] ? table.tHead.rows[0].cells.length : 2;
  items.forEach((item, i) => {
    const tr = document.createElement("tr");
    tr.className = "pending";
    const number = document.createElement("td");
    number.textContent = isNaN(first) ? "" : String(first + i);
    const what = document.createElement("td");
    what.colSpan = Math.max(1, columns - 1);
    const label = document.createElement("strong");
    label.textContent = status.dataset.pendingRow;
    what.appendChild(label);
    what.appendChild(document.createTextNode(" · " + describe(item)));
    tr.appendChild(number);
    tr.appendChild(what);
    body.appendChild(tr);
  });
  if (form && !isNaN(first)) {
    form.dataset.next = String(first + items.length);
    const heading = document.getElementById("enter");
    if (heading && heading.dataset.title) {
      heading.textContent = heading.dataset.title.replace("{n}", String(first + items.length));
    }
  }
  let note = document.getElementById("pending-note");
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
  const el = document.getElementById("next-dealer");
  if (!el || !el.dataset.names) return;
  const names = JSON.parse(el.dataset.names);
  let dealer = parseInt(el.dataset.seat, 10);
  for (const item of items) {
    const winner = winnerOf(item.fields, el.dataset.tieUndercut === "true");
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
  const outcome = fieldValue(fields, "outcome");
  if (outcome === "dead") return "dead";
  const knocker = parseInt(fieldValue(fields, "knocker"), 10);
  if (knocker !== 0 && knocker !== 1) return undefined;
  if (outcome === "gin" || outcome === "big_gin") return knocker;
  if (outcome !== "knock") return undefined;
  const k = parseInt(fieldValue(fields, "knocker_deadwood"), 10);
  const d = parseInt(fieldValue(fields, "defender_deadwood"), 10);
  if (isNaN(k) || isNaN(d)) return undefined;
  if (k < d) return knocker;
  if (k > d || tieIsUndercut) return 1 - knocker;
  return null;
}
