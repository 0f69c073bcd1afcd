/* The 52-card tap picker: progressive enhancement of the card text fields.
 *
 * Without JavaScript the picker stays hidden and players type cards. With it, the
 * picker appears under the card field last focused; tapping a card adds its code to
 * that field, or removes it when it is already there. Cards in the other hands are
 * taken: greyed and disabled, a tap on them does nothing. Declared melds
 * (``data-cards="melds"``, gin) are cards of their own hand; combinations put down on
 * the table (``data-cards="table"``, Remi) are cards of their own. A face-up card (the upcard,
 * ``data-faceup``) is seen by both players and may end up in a hand: it takes no card
 * and none is taken from it. The server parses whatever text results, so nothing here
 * decides anything about the rules.
 */
(function () {
  "use strict";

  start();
  // The live sheet (live.js) may swap the card form for a newer one: set that one up.
  document.addEventListener("scorekeeper:live", start);

  function start() {
    var box = document.querySelector("[data-picker]");
    var fields = Array.prototype.slice.call(document.querySelectorAll("[data-cards]"));
    if (!box || !fields.length || box.hasAttribute("data-picker-ready")) {
      return;
    }
    box.setAttribute("data-picker-ready", "");
    var buttons = Array.prototype.slice.call(box.querySelectorAll("button[data-card]"));
    var targetName = box.querySelector("[data-picker-target]");
    var meldButton = box.querySelector("[data-picker-action=meld]");
    var clearButton = box.querySelector("[data-picker-action=clear]");
    var SUITS = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C" };
    var TOKEN = /[^\s,;|]+/g;
    var target = null;

    /* A token in any notation (7h, 10♦, TD) as its canonical code, or null. */
    function canonical(token) {
      var t = token.replace(/[\uFE0E\uFE0F]/g, "").toUpperCase();
      var suit = t.slice(-1);
      var rank = t.slice(0, -1);
      suit = SUITS[suit] || suit;
      if (rank === "10") {
        rank = "T";
      }
      if (!/^[A2-9TJQK]$/.test(rank) || !/^[SHDC]$/.test(suit)) {
        return null;
      }
      return rank + suit;
    }

    function codesIn(text) {
      var codes = {};
      (text.match(TOKEN) || []).forEach(function (token) {
        var code = canonical(token);
        if (code) {
          codes[code] = true;
        }
      });
      return codes;
    }

    function labelOf(field) {
      var label = document.querySelector("label[for='" + field.id + "']");
      return label ? label.textContent.trim() : "";
    }

    function refresh() {
      var mine = target ? codesIn(target.value) : {};
      var taken = {};
      // A page may hold several packs (partnership gin's two tables, each [data-deck]):
      // only cards of the target's own pack are taken.
      var deck = target ? target.closest("[data-deck]") : null;
      fields.forEach(function (field) {
        var other = !target || field.dataset.hand !== target.dataset.hand;
        var samePack = field.closest("[data-deck]") === deck;
        var holds = field.dataset.cards !== "melds" && !("faceup" in field.dataset);
        if (other && samePack && holds && !(target && "faceup" in target.dataset)) {
          Object.assign(taken, codesIn(field.value));
        }
      });
      buttons.forEach(function (button) {
        var code = button.dataset.card;
        var isTaken = Boolean(taken[code]) && !mine[code];
        button.setAttribute("aria-pressed", mine[code] ? "true" : "false");
        button.classList.toggle("taken", isTaken);
        button.disabled = isTaken;
      });
    }

    function setTarget(field) {
      target = field;
      var container = field.closest(".field") || field;
      container.parentNode.insertBefore(box, container.nextSibling);
      targetName.textContent = labelOf(field);
      meldButton.hidden = field.dataset.cards !== "melds" && field.dataset.cards !== "table";
      refresh();
    }

    /* Remove the first token that is ``code`` (and the spaces or comma after it). */
    function without(text, code) {
      var match;
      TOKEN.lastIndex = 0;
      while ((match = TOKEN.exec(text)) !== null) {
        if (canonical(match[0]) === code) {
          var end = match.index + match[0].length;
          var after = text.slice(end).replace(/^[ \t,]+/, "");
          return (text.slice(0, match.index) + after).replace(/[ \t]+$/, "");
        }
      }
      return null;
    }

    function toggle(code) {
      var text = target.value;
      if (target.dataset.cards === "one") {
        target.value = canonical(text.trim()) === code ? "" : code;
        return;
      }
      var removed = without(text, code);
      if (removed !== null) {
        target.value = removed;
      } else {
        var joiner = text === "" || /[\s;|]$/.test(text) ? "" : " ";
        target.value = text + joiner + code;
      }
    }

    function changed() {
      target.dispatchEvent(new Event("input", { bubbles: true }));
      refresh();
    }

    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        toggle(button.dataset.card);
        changed();
      });
    });
    meldButton.addEventListener("click", function () {
      if (target.value.trim() !== "" && !/[;|\n]\s*$/.test(target.value)) {
        target.value = target.value.replace(/\s+$/, "") + "; ";
        changed();
      }
    });
    clearButton.addEventListener("click", function () {
      target.value = "";
      changed();
    });
    fields.forEach(function (field) {
      field.addEventListener("focus", function () {
        if (target !== field) {
          setTarget(field);
        }
      });
      field.addEventListener("input", refresh);
    });

    box.hidden = false;
    setTarget(fields[0]);
  }
})();
