"""Text that follows the phone, pages that reflow, targets a finger hits: the checks
tests/browser/test_layout.py makes on every kind of page in English, Russian and Persian
while it has each page open (the text size the reader sets, every text's computed size,
every control's box), and the root size read back from the browser's."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.once]

# The computed font size of every element that holds text of its own, by a path that
# names it the same at both sizes.
SIZES_JS = """() => {
  const out = {};
  let n = 0;
  for (const el of document.body.querySelectorAll("*")) {
    n++;
    const own = [...el.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    // An SVG chart scales as a picture with the column; its text alternative is text.
    if (!own || !el.checkVisibility() || el.closest("svg")) continue;
    out[n + ":" + el.tagName.toLowerCase() + "." + (el.className || "")]
      = parseFloat(getComputedStyle(el).fontSize);
  }
  return out;
}"""

# Controls a finger taps, each with its box; a radio button or a check box is tapped
# through its label. A link inside a sentence is exempt (WCAG 2.5.5: inline).
TARGETS_JS = """() => {
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className
       ? "." + el.className.split(" ").join(".") : "")
    + " '" + (el.value || el.textContent || "").trim().slice(0, 24) + "'";
  const shown = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.checkVisibility({visibilityProperty: true}); };
  const targets = [];
  for (const el of document.querySelectorAll(
      "a[href], button, input:not([type=hidden]), select, textarea, summary")) {
    if (!shown(el)) continue;
    let target = el;
    if (el.type === "radio" || el.type === "checkbox") target = el.closest("label") || el;
    if (el.tagName === "A" && getComputedStyle(el).display === "inline") continue;
    if (targets.some((t) => t.el === target)) continue;
    targets.push({el: target, r: target.getBoundingClientRect()});
  }
  const out = [];
  for (const t of targets) {
    if (t.r.width < 43.5 || t.r.height < 43.5) {
      out.push("small: " + describe(t.el) + " "
               + Math.round(t.r.width) + "×" + Math.round(t.r.height));
    }
  }
  for (let i = 0; i < targets.length; i++) {
    for (let j = i + 1; j < targets.length; j++) {
      const a = targets[i], b = targets[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const dx = Math.max(a.r.left, b.r.left) - Math.min(a.r.right, b.r.right);
      const dy = Math.max(a.r.top, b.r.top) - Math.min(a.r.bottom, b.r.bottom);
      if (Math.max(dx, dy) < 1.5) out.push("touching: " + describe(a.el) + " / " + describe(b.el));
    }
  }
  return out;
}"""


def text_size(page: Any, points: int) -> None:
    """The browser's default font size, as a reader sets it in the phone's settings."""
    session = page.context.new_cdp_session(page)
    session.send("Page.setFontSizes", {"fontSizes": {"standard": points, "fixed": points}})


def test_the_root_size_follows_the_browsers(live_url: str, browser: Any) -> None:
    """The page's root text is the browser's size times 18/16 (the app's 18 px at the
    usual 16): 36 px when the reader set 32, 9 px apart from nothing at 8."""
    context = browser.new_context()
    try:
        page = context.new_page()
        for points, root in ((16, 18), (32, 36), (8, 9)):
            text_size(page, points)
            page.goto(live_url + "/")
            assert page.evaluate(ROOT_JS) == root
    finally:
        context.close()


ROOT_JS = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
