"""Every kind of page at a phone's width in English, Russian and Persian, with every
<details> open, each page loaded once per language and looked at in every way:
- at 390 px and at 360 px nothing scrolls sideways, no element is wider than the
  screen and no two controls lie over each other;
- at 390 px and at 360 px every control is at least 44 × 44 px and none touches
  another (WCAG 2.5.5; tests/browser/test_large_text.py has the check);
- at 360 px in Russian no word of a table heading is cut over two lines;
- at 320 px (WCAG 1.4.10 reflow) nothing scrolls sideways either;
- with the browser's text set to 200 % (its default font size 32 px instead of 16,
  WCAG 1.4.4) every text's computed size is twice what it is at 100 %, and at 390 px
  nothing scrolls sideways or is wider than the screen.
Sizes are read from what Chromium computed and drew. Screenshots (at 100 %, and at
200 % of a page with a problem there) go to test-output/browser/layout-<language>/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import (
    LANGUAGES,
    OPEN_DETAILS_JS,
    PROBLEMS_JS,
    SIZES_JS,
    SPLIT_WORDS_JS,
    TARGETS_JS,
    pages,
    text_size,
)
from tests.helpers import compile_catalogs

pytestmark = [pytest.mark.browser, pytest.mark.once]


@pytest.fixture
def context_for(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(language: str, width: int) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": 844}, device_scale_factor=1,
            locale=LANGUAGES[language],
        )
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_no_page_scrolls_sideways_or_overlaps_at_any_width_or_text_size(
    live_url: str, context_for: Any, language: str
) -> None:
    compile_catalogs()
    # Each page is loaded once, at 390 px, then narrowed: the page lays itself out again
    # by its CSS alone (no script of the app measures the screen).
    phone = context_for(language, 390).new_page()
    folder = OUTPUT / f"layout-{language}"
    folder.mkdir(parents=True, exist_ok=True)
    problems: dict[str, Any] = {}
    for name, path in pages(live_url, language):
        text_size(phone, 16)
        answer = phone.goto(live_url + path)
        assert answer is not None and answer.ok, f"{name}: {path} answered {answer}"
        if name.endswith("-edit"):  # the edit link lets this window change the game
            continue
        phone.evaluate(OPEN_DETAILS_JS)
        phone.screenshot(path=str(folder / f"{name}.png"), full_page=True)
        normal = phone.evaluate(SIZES_JS)
        for width in (390, 360):
            phone.set_viewport_size({"width": width, "height": 844})
            found = phone.evaluate(PROBLEMS_JS)
            if found:
                problems[f"{name} at {width}"] = found[:5]
            scroll = phone.evaluate("document.scrollingElement.scrollWidth")
            if scroll > width:
                problems[f"{name} at {width} scrolls sideways"] = f"{scroll} px wide"
            if found := phone.evaluate(TARGETS_JS):
                problems[f"{name} at {width} px: targets"] = found[:8]
        if language == "ru" and (split := phone.evaluate(SPLIT_WORDS_JS)):
            problems[f"{name} at 360: heading words cut"] = split
        phone.set_viewport_size({"width": 320, "height": 844})
        if (scroll := phone.evaluate("document.scrollingElement.scrollWidth")) > 320:
            problems[f"{name} at 320 px scrolls sideways"] = scroll
        phone.set_viewport_size({"width": 390, "height": 844})
        text_size(phone, 32)
        large = phone.evaluate(SIZES_JS)
        at_200 = len(problems)
        unscaled = sorted({key.split(":", 1)[1] for key, size in normal.items()
                           if key in large and abs(large[key] - 2 * size) > 0.6})
        if unscaled:
            problems[f"{name}: text that did not double"] = unscaled[:6]
        wide = [line for line in phone.evaluate(PROBLEMS_JS) if line.startswith("wider")]
        if wide:
            problems[f"{name} at 200 %"] = wide[:5]
        if (scroll := phone.evaluate("document.scrollingElement.scrollWidth")) > 390:
            problems[f"{name} at 200 % scrolls sideways"] = scroll
        if len(problems) > at_200:
            # A full-page screenshot sets the text size back: the window is made as tall
            # as the page instead.
            tall = phone.evaluate("document.scrollingElement.scrollHeight")
            phone.set_viewport_size({"width": 390, "height": min(tall, 12000)})
            phone.screenshot(path=str(folder / f"{name}-200.png"))
            phone.set_viewport_size({"width": 390, "height": 844})
    (folder / "problems.json").write_text(json.dumps(problems, indent=1, ensure_ascii=False))
    assert problems == {}


def test_the_checker_finds_overlaps_and_overflow(context_for: Any) -> None:
    """The check above on a page made to fail it: two buttons over each other and a
    line wider than the screen are found; a wide table inside a box that scrolls, and a
    bar fixed over the form, are not problems."""
    page = context_for("en", 390).new_page()
    page.set_content("""<body style="margin:0">
      <button id="one" style="position:absolute;left:10px;top:10px;width:80px">One</button>
      <button id="two" style="position:absolute;left:50px;top:12px;width:80px">Two</button>
      <p id="long" style="width:500px">A line far too long</p>
      <div style="overflow-x:auto"><table style="width:700px"><tr><td>wide</td></tr></table></div>
      <a href="#" style="position:absolute;left:10px;top:200px">Under</a>
      <nav style="position:fixed;left:0;top:195px"><a href="#">Bar</a></nav>
    </body>""")
    found = page.evaluate(PROBLEMS_JS)
    assert found == ["wider than the screen: p#long 'A line far too long' 0..500",
                     "overlap: button#one 'One' / button#two 'Two'"]
