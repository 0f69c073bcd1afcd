/* The board pages through itself: on a screen where the page does not scroll (a TV,
 * a projector: board.css), a list of tables or a standings table taller than its place
 * shows as many rows as fit, then the next ones every few seconds. After live.js swaps
 * a part ("scorekeeper:live") or the screen changes size, the pages are worked out
 * again. On a phone the page scrolls and every row shows. On a screen the print first
 * grows to fill its height.
 */
(function () {
  "use strict";

  var EVERY = 8000;
  var page = 0;
  var timer = null;

  function rowsOf(box) {
    if (box.tagName === "TABLE") {
      return Array.prototype.slice.call(box.tBodies[0] ? box.tBodies[0].rows : []);
    }
    return Array.prototype.slice.call(box.children);
  }

  function paged() {
    return getComputedStyle(document.body).overflow === "hidden";
  }

  /* Split ``box``'s rows into pages that fit the part of the screen it has. */
  function pagesOf(box) {
    var rows = rowsOf(box);
    rows.forEach(function (row) { row.hidden = false; });
    if (!paged() || !rows.length) {
      return [rows];
    }
    var holder = box.closest("section > div") || box.parentNode;
    var room = holder.getBoundingClientRect().bottom - rows[0].getBoundingClientRect().top;
    var pages = [[]];
    var used = 0;
    rows.forEach(function (row) {
      var height = row.getBoundingClientRect().height;
      if (used + height > room && pages[pages.length - 1].length) {
        pages.push([]);
        used = 0;
      }
      pages[pages.length - 1].push(row);
      used += height;
    });
    return pages;
  }

  /* Whether every part of the board holds what it shows, every row of it, within its
   * height and its width. */
  function fitsWhole() {
    var holders = document.querySelectorAll(".board-main section > div");
    return Array.prototype.every.call(holders, function (holder) {
      Array.prototype.forEach.call(holder.querySelectorAll("[hidden]"), function (row) {
        row.hidden = false;
      });
      return holder.scrollHeight <= holder.clientHeight + 1
        && holder.scrollWidth <= holder.clientWidth + 1;
    });
  }

  /* A screen across the room: the print grows until the tables or the standings fill
   * the screen's height, up to twice the size board.css starts from; what does not fit
   * at that size is paged (``show``). */
  function fill() {
    var root = document.documentElement;
    root.style.fontSize = "";
    if (!paged()) {
      return;
    }
    var low = parseFloat(getComputedStyle(root).fontSize);
    var high = low * 2;
    for (var step = 0; step < 7; step += 1) {
      var size = (low + high) / 2;
      root.style.fontSize = size + "px";
      if (fitsWhole()) {
        low = size;
      } else {
        high = size;
      }
    }
    root.style.fontSize = low + "px";
  }

  function show() {
    var boxes = document.querySelectorAll("[data-pages], table[data-page-rows]");
    var most = 1;
    Array.prototype.forEach.call(boxes, function (box) {
      var pages = pagesOf(box);
      most = Math.max(most, pages.length);
      var shown = page % pages.length;
      pages.forEach(function (rows, index) {
        rows.forEach(function (row) { row.hidden = index !== shown; });
      });
    });
    var note = document.querySelector("[data-page-note]");
    if (note) {
      note.textContent = most > 1
        ? note.getAttribute("data-words").replace("{page}", String(page % most + 1))
            .replace("{pages}", String(most))
        : "";
    }
    return most;
  }

  function turn() {
    page += 1;
    show();
  }

  function start() {
    fill();
    show();
    clearInterval(timer);
    timer = setInterval(turn, EVERY);
  }

  document.addEventListener("scorekeeper:live", function () { fill(); show(); });
  window.addEventListener("resize", function () { fill(); show(); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
