"""Persian (right to left): runs of Latin letters and signed numbers keep together, and a
score's marks (▮ box, ✓ went out, D dealt) sit on the same side of it in every row."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import sample
from tests.helpers import compile_catalogs

pytestmark = [pytest.mark.browser, pytest.mark.once]

# Each mark's box and its score's box, for every score with a mark on the page.
MARKS_JS = """() => [...document.querySelectorAll(".sheet td")].flatMap((td) => {
  const score = td.querySelector(".num, .pts");
  const marks = [...td.querySelectorAll(".box, .remi-out, .remi-dealer")];
  if (!score || !marks.length) return [];
  const s = score.getBoundingClientRect();
  return marks.map((m) => {
    const r = m.getBoundingClientRect();
    return {mark: m.textContent, right_of_score: r.left >= s.right - 0.5,
            same_line: Math.abs(r.top + r.height / 2 - (s.top + s.height / 2)) < s.height / 2};
  });
})"""

# Where each of J, Q and K of the Remi rules line is drawn, and the ":" after K.
LETTERS_JS = """() => {
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.search(/J.Q.K/);
    if (at < 0) continue;
    const box = (i) => {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      return [Math.round(r.left), Math.round(r.top)];
    };
    return [box(at), box(at + 2), box(at + 4), box(node.data.indexOf(":", at))];
  }
  return null;
}"""


@pytest.fixture
def persian(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fa-IR")
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("kind", ["gin", "three_hand", "partnership", "hollywood", "remi"])
def test_marks_sit_right_of_the_score_in_every_row(live_url: str, persian: Any, kind: str) -> None:
    compile_catalogs()
    game = sample(live_url, kind, "fa")
    persian.goto(f"{live_url}/g/{game['id']}")
    persian.screenshot(path=str(OUTPUT / f"bidi-{kind}.png"), full_page=True)
    marks = persian.evaluate(MARKS_JS)
    assert marks, "no marks on the sheet"
    assert [m for m in marks if not (m["right_of_score"] and m["same_line"])] == []


def test_j_q_k_stay_together_in_the_remi_rules(live_url: str, persian: Any) -> None:
    compile_catalogs()
    game = sample(live_url, "remi", "fa")
    persian.goto(f"{live_url}/g/{game['id']}")
    j, q, k, colon = persian.evaluate(LETTERS_JS)
    assert j[1] == q[1] == k[1] == colon[1], "J Q K: on one line"
    # Read left to right as in English, the colon after K: on a right-to-left line it
    # comes to the left of the letters.
    assert j[0] < q[0] < k[0]
    assert colon[0] < j[0]
