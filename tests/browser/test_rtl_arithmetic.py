"""Arithmetic reads as written on Persian pages: every sum of an explanation stands left to
right in the order it is computed ("22 − 1 = 21", "108 + 100 game bonus + 2 × 25 boxes =
258", "(258 − 92)"), its words between its figures, with Persian and with Latin names;
a card list keeps its order. Read from where Chromium drew each figure, operator and
card on a 360 px phone. The same sums in print: tests/test_pdf_arithmetic.py."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.browser.helpers import api, picture

pytestmark = [pytest.mark.browser, pytest.mark.once]

# Every figure (with its sign), operator and card of an element, each with its box.
TOKENS_JS = r"""(element) => {
  const token = /(?:10|[2-9AJQK])[♠♥♦♣]|[+\u2212]?\d+|[×=+\u2212<>≤≥]/g;
  const found = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest(".rule-ref")) continue;
    for (const match of node.data.matchAll(token)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const box = range.getBoundingClientRect();
      found.push({text: match[0], left: box.left, top: box.top, bottom: box.bottom});
    }
  }
  return found;
}"""


def as_drawn(tokens: list[dict[str, Any]]) -> str:
    """The tokens line by line from the top, each line left to right."""
    lines: list[list[dict[str, Any]]] = []
    for token in sorted(tokens, key=lambda t: t["top"]):
        middle = (token["top"] + token["bottom"]) / 2
        if lines and lines[-1][0]["top"] <= middle <= lines[-1][0]["bottom"]:
            lines[-1].append(token)
        else:
            lines.append([token])
    return " | ".join(" ".join(t["text"] for t in sorted(line, key=lambda t: t["left"]))
                      for line in lines)


def steps_as_drawn(page: Any) -> list[str]:
    """Each explanation step's figures, operators and cards as they stand on screen."""
    return [as_drawn(page.evaluate(TOKENS_JS, step))
            for step in page.locator("ol.explanation > li").element_handles()]


def reads(expected: str, drawn: list[str]) -> bool:
    """Whether a step reads ``expected`` left to right (a line break may fall inside)."""
    return any(expected in step.replace(" | ", " ") for step in drawn)


def game(live_url: str, players: list[str], rules: str,
         hands: list[dict[str, Any]]) -> dict[str, Any]:
    made = api(f"{live_url}/api/v1/games", {"players": players, "rules": rules})
    for hand in hands:
        api(f"{live_url}/api/v1/games/{made['id']}/hands", hand, made["edit_secret"])
    return made


# Modern rules (gin 25, game bonus 100, box 25, target 100), worked by hand:
#  1. the first player knocks with 1 against 22: 22 − 1 = 21;
#  2. the second goes gin against 42: 42 + 25 = 67;
#  3. the first goes gin against 62: 62 + 25 = 87, 108 in all: the game is over.
# Finals: 108 + 100 game bonus + 2 × 25 boxes = 258 and 67 + 1 × 25 boxes = 92;
# the first wins by 166 (258 − 92).
MODERN = [
    {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 22},
    {"outcome": "gin", "knocker": 1, "defender_deadwood": 42},
    {"outcome": "gin", "knocker": 0, "defender_deadwood": 62},
]


@pytest.mark.parametrize("players", [["Ann", "Bob"], ["مریم", "علی"]], ids=["latin", "persian"])
def test_a_hands_and_the_finals_sums_read_left_to_right(
    live_url: str, narrow: Any, players: list[str]
) -> None:
    made = game(live_url, players, "modern", MODERN)
    page = narrow("fa")
    page.goto(f"{live_url}/g/{made['id']}/hands/1")
    first = steps_as_drawn(page)
    assert reads("1 < 22", first), first
    assert reads("22 − 1 = 21", first), first
    page.goto(f"{live_url}/g/{made['id']}/hands/3")
    third = steps_as_drawn(page)
    assert reads("62 + 25 = 87", third), third
    page.goto(f"{live_url}/g/{made['id']}")
    picture(page, "rtl-arithmetic", f"finals-{players[0]}")
    finals = steps_as_drawn(page)
    assert reads("108 + 100 + 2 × 25 = 258", finals), finals
    assert reads("67 + 1 × 25 = 92", finals), finals
    assert reads("258 − 92", finals), finals


def test_a_shutouts_brackets_and_a_card_lists_order(live_url: str, narrow: Any) -> None:
    """Russian rules (gin 25, game bonus 100, box 25, shutout doubles the points): Ann
    goes gin against 62 (87) and knocks with 1 against 22 (21), Bob wins no hand:
    (108 + 100) × 2 + 2 × 25 = 466. A hand entered with cards: Bob's deadwood
    A♠ 2♣ 3♠ 4♦ 5♦ 6♣ 8♦ 10♣ Q♦ K♣ = 59, and Ann's gin (classic, gin 20) 59 + 20 = 79."""
    shutout = game(live_url, ["Ann", "Bob"], "russian", [
        {"outcome": "gin", "knocker": 0, "defender_deadwood": 62},
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 22},
    ])
    page = narrow("fa")
    page.goto(f"{live_url}/g/{shutout['id']}")
    finals = steps_as_drawn(page)
    assert reads("108 + 100 × 2 + 2 × 25 = 466", finals), finals
    # The brackets around the first sum: "(" left of 108, ")" between 100 and "×".
    brackets = page.evaluate("""() => [...document.querySelectorAll("ol.explanation > li")]
      .filter((li) => li.textContent.includes("466") && li.textContent.includes("×"))
      .map((li) => { const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
        const at = {};
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (const m of n.data.matchAll(/[()]|108|100|×/g)) {
            if (m[0] in at) continue;
            const r = document.createRange(); r.setStart(n, m.index);
            r.setEnd(n, m.index + m[0].length);
            const box = r.getBoundingClientRect(); at[m[0]] = [box.top, box.bottom, box.left];
          }
        }
        return at; })""")
    assert len(brackets) == 1
    order = ["(", "108", "100", ")", "×"]
    at = brackets[0]
    for before, after in itertools.pairwise(order):
        (_, bottom, left), (next_top, _, next_left) = at[before], at[after]
        # On the same line further right, or on a line below.
        assert next_top >= bottom - 1 or (next_top < bottom and next_left > left), (
            before, after, at)
    cards = game(live_url, ["Ann", "علی"], "classic", [{
        "knocker": {"seat": 0, "cards": "3H 4H 5H 6H 7C 7D 7S 9C 9D 9H"},
        "defender": {"cards": "2C 4D 6C 8D TC QD KC AS 3S 5D"}}])
    page.goto(f"{live_url}/g/{cards['id']}/hands/1")
    picture(page, "rtl-arithmetic", "cards")
    steps = steps_as_drawn(page)
    assert reads("A♠ 2♣ 3♠ 4♦ 5♦ 6♣ 8♦ 10♣ Q♦ K♣ = 59", steps), steps
    assert reads("59 + 20 = 79", steps), steps
