"""Text that follows the phone, pages that reflow, targets a finger hits.

Every kind of page in English, Russian and Persian (with every <details> open):
- with the browser's text set to 200 % (its default font size 32 px instead of 16,
  WCAG 1.4.4) every text's computed size is twice what it is at 100 %, and at a phone's
  width (390 px) nothing scrolls sideways or is wider than the screen;
- at 320 px (WCAG 1.4.10 reflow) nothing scrolls sideways either;
- every control is at least 44 × 44 px, none touches another (WCAG 2.5.5).
Sizes are read from what Chromium computed and drew."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import OUTPUT
from tests.browser.test_layout import LANGUAGES, OPEN_DETAILS_JS, PROBLEMS_JS, pages

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


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_text_follows_the_phone_and_nothing_scrolls_sideways(
    live_url: str, browser: Any, language: str
) -> None:
    from tests.test_i18n import compile_catalogs

    compile_catalogs()
    folder = OUTPUT / f"large-text-{language}"
    folder.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=1, locale=LANGUAGES[language])
    problems: dict[str, Any] = {}
    try:
        page = context.new_page()
        for name, path in pages(live_url, language):
            text_size(page, 16)
            answer = page.goto(live_url + path)
            assert answer is not None and answer.ok, f"{name}: {path} answered {answer}"
            if name.endswith("-edit"):
                continue
            page.evaluate(OPEN_DETAILS_JS)
            page.set_viewport_size({"width": 390, "height": 844})
            normal = page.evaluate(SIZES_JS)
            for width in (390, 360):
                page.set_viewport_size({"width": width, "height": 844})
                if found := page.evaluate(TARGETS_JS):
                    problems[f"{name} at {width} px: targets"] = found[:8]
            page.set_viewport_size({"width": 320, "height": 844})
            if (scroll := page.evaluate("document.scrollingElement.scrollWidth")) > 320:
                problems[f"{name} at 320 px scrolls sideways"] = scroll
            page.set_viewport_size({"width": 390, "height": 844})
            text_size(page, 32)
            large = page.evaluate(SIZES_JS)
            unscaled = sorted({key.split(":", 1)[1] for key, size in normal.items()
                               if key in large and abs(large[key] - 2 * size) > 0.6})
            if unscaled:
                problems[f"{name}: text that did not double"] = unscaled[:6]
            wide = [line for line in page.evaluate(PROBLEMS_JS) if line.startswith("wider")]
            if wide:
                problems[f"{name} at 200 %"] = wide[:5]
            if (scroll := page.evaluate("document.scrollingElement.scrollWidth")) > 390:
                problems[f"{name} at 200 % scrolls sideways"] = scroll
            # A full-page screenshot sets the text size back: the window is made as tall
            # as the page instead.
            tall = page.evaluate("document.scrollingElement.scrollHeight")
            page.set_viewport_size({"width": 390, "height": min(tall, 12000)})
            page.screenshot(path=str(folder / f"{name}.png"))
    finally:
        context.close()
    (folder / "problems.json").write_text(json.dumps(problems, indent=1, ensure_ascii=False))
    assert problems == {}


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
