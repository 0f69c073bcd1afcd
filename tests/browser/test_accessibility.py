"""Every kind of page, with every <details> open, passes axe-core's WCAG 2.2 AA rules
(axe-core from npm: ``make test`` runs ``npm ci``): every page in English and in Persian
in the light theme (the default: a light device, nothing chosen), and in every other
theme — dark and high contrast as the device asks for them, dark or high contrast chosen
on the page (the cookie) against the device's setting — the pages that between them show
every style rule that sets a colour.

A theme is colours only: style.css gives each one its own values of the same custom
properties, and no rule of a theme changes what a page holds or where. What a theme can
break is therefore a colour rule's contrast, and every colour rule that applies to some
page is checked in every theme on a page it applies to. Those pages are worked out from
the pages themselves on each run (the light pass's pages, each with the colour rules
that apply to something shown on it; then the fewest pages that take in every rule), so
a new page with a component of its own is taken in by itself."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import (
    AXE,
    LANGUAGES,
    OPEN_DETAILS_JS,
    night_pages,
    pages,
    violations,
)

pytestmark = [pytest.mark.browser, pytest.mark.once]

# Each theme: the device's settings (Playwright's emulation) and the cookie of a choice.
THEMES: dict[str, tuple[dict[str, str], str | None]] = {
    "light": ({"color_scheme": "light"}, None),
    "dark": ({"color_scheme": "dark"}, None),
    "contrast": ({"color_scheme": "light", "contrast": "more"}, None),
    "contrast-dark": ({"color_scheme": "dark", "contrast": "more"}, None),
    "chosen-dark": ({"color_scheme": "light"}, "dark"),
    "chosen-contrast": ({"color_scheme": "dark"}, "contrast"),
}
# The themes other than light in each language; a choice is the same colours as the
# device's setting, so one language each is enough for those.
OTHER_THEMES = {
    "en": ["dark", "contrast", "contrast-dark", "chosen-contrast"],
    "fa": ["dark", "contrast", "contrast-dark", "chosen-dark"],
}

# The selectors of the style sheets' rules that set a colour (colour, background,
# border, outline, fill, stroke, opacity, shadow, filter, text decoration, a custom
# property) and match something shown on the page: each selector as it would match in
# any theme (a theme's ``[data-theme=…]`` left out) and in any state (``:hover``,
# ``:focus``…, pseudo-elements left out: their element is what counts).
COLOUR_RULES_JS = """() => {
  const colour = /color|background|border|outline|fill|stroke|opacity|shadow|filter|decoration|^--/;
  const general = (selector) => selector
    .replace(/\\[data-theme=[^\\]]*\\]/g, "")
    .replace(/::[-\\w]+(\\([^)]*\\))?/g, "")
    .replace(/:(hover|focus-visible|focus-within|focus|active|visited)/g, "")
    .trim() || "*";
  // A selector list's selectors, split at the commas outside brackets.
  const split = (text) => {
    const out = [];
    let depth = 0, start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "(" || c === "[") depth++;
      else if (c === ")" || c === "]") depth--;
      else if (c === "," && depth === 0) { out.push(text.slice(start, i)); start = i + 1; }
    }
    out.push(text.slice(start));
    return out.map((s) => s.trim()).filter(Boolean);
  };
  const found = new Set();
  const walk = (rules) => {
    for (const rule of rules) {
      if (rule.selectorText && [...rule.style].some((p) => colour.test(p))) {
        for (const selector of split(rule.selectorText)) {
          let shown = false;
          try {
            shown = [...document.querySelectorAll(general(selector))]
              .some((el) => el.checkVisibility({visibilityProperty: true}));
          } catch (error) { shown = false; }
          if (shown) found.add(selector);
        }
      }
      if (rule.cssRules) walk(rule.cssRules);
    }
  };
  for (const sheet of document.styleSheets) walk(sheet.cssRules);
  return [...found].sort();
}"""


def colour_rules(page: Any) -> set[str]:
    """The colour rules' selectors that apply to something shown on ``page``."""
    page.evaluate(OPEN_DETAILS_JS)
    return set(page.evaluate(COLOUR_RULES_JS))


def fewest_pages(rules: dict[str, set[str]]) -> list[str]:
    """Pages that between them show every rule: each time the page that shows the most
    not yet shown (greedy; the first such in the pages' order)."""
    left = set().union(*rules.values())
    chosen = []
    while left:
        best = max(rules, key=lambda name: len(rules[name] & left))
        chosen.append(best)
        left -= rules[best]
    return chosen


def themed(browser: Any, live_url: str, language: str, theme: str) -> Any:
    """A phone's browser context in ``theme`` reading ``language``; axe's script let in
    past the app's Content-Security-Policy (no inline script otherwise)."""
    media, chosen = THEMES[theme]
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  locale=LANGUAGES[language], bypass_csp=True, **media)
    if chosen:
        context.add_cookies([{"name": "theme", "value": chosen, "path": "/",
                              "domain": urllib.parse.urlsplit(live_url).hostname}])
    return context


def check(phone: Any, live_url: str, name: str, path: str, theme: str) -> list[str]:
    """Open the page in ``phone`` (in ``theme``): axe's violations there (none looked for
    on an edit link, which only lets this window change the game)."""
    answer = phone.goto(live_url + path)
    assert answer is not None and answer.ok, f"{name}: {path} answered {answer}"
    if name.endswith("-edit"):
        return []
    if not name.endswith("-board"):  # the board keeps its own colours in every theme
        assert phone.get_attribute("html", "data-theme") == (THEMES[theme][1] or "auto"), name
    return violations(phone)


def every_page(live_url: str, language: str) -> Iterator[tuple[str, str]]:
    """The games' and groups' pages, then a club night's (a table's sheet in each state)."""
    yield from pages(live_url, language)
    yield from night_pages(live_url, language)


def report(problems: dict[str, list[str]]) -> str:
    return "\n".join(f"{name}: {line}" for name, lines in problems.items() for line in lines)


def axe_is_there() -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: `make test` installs it with `npm ci`")


@pytest.mark.parametrize("language", list(OTHER_THEMES))
def test_every_page_passes_axe_and_every_colour_rule_in_every_theme(
    live_url: str, browser: Any, language: str
) -> None:
    """The pages in order in the light theme: axe run on each, and each with the colour
    rules it shows; then in each other theme the same pages in the same order (so that
    each is as it was: the edit links before it followed, the games before it seen), axe
    run on the fewest that show every rule. (One pass in the light theme does both: the
    games and pages are made and loaded once.)"""
    axe_is_there()
    every = list(every_page(live_url, language))
    context = themed(browser, live_url, language, "light")
    rules: dict[str, set[str]] = {}
    problems: dict[str, list[str]] = {}
    try:
        phone = context.new_page()
        for name, path in every:
            if found := check(phone, live_url, name, path, "light"):
                problems[name] = found
            # The board (a big screen across the room) keeps its own colours in every
            # theme: the light pass checks it.
            if not name.endswith(("-edit", "-board")):
                rules[name] = colour_rules(phone)
    finally:
        context.close()
    chosen = fewest_pages(rules)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / f"axe-themes-{language}.json").write_text(json.dumps(
        {name: sorted(rules[name]) for name in chosen}, indent=1, ensure_ascii=False))
    for theme in OTHER_THEMES[language]:
        context = themed(browser, live_url, language, theme)
        try:
            phone = context.new_page()
            shown: set[str] = set()
            for name, path in every:
                if name.endswith("-edit") or name in chosen:
                    if found := check(phone, live_url, name, path, theme):
                        problems[f"{name} ({theme})"] = found
                    if name in chosen:
                        shown |= colour_rules(phone)
            # Each page chosen was as in the light pass: every rule was on screen.
            assert shown >= set().union(*rules.values()), theme
        finally:
            context.close()
    assert problems == {}, report(problems)


def test_axe_finds_an_unlabelled_field(browser: Any) -> None:
    """The check on a page made to fail it: a read-only link field with no label, inside a
    closed <details>, is found."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content('<html lang="en"><head><title>t</title></head><body><main>'
                         '<details><summary>Share</summary><p>Link:<br>'
                         '<input type="text" readonly value="http://x/g/1" id="watch-url">'
                         '</p></details></main></body></html>')
        [found] = violations(page)
        assert found.startswith("label (critical): Form elements must have labels — #watch-url")
    finally:
        context.close()


def test_the_colour_rules_of_a_page_are_the_ones_it_shows(browser: Any) -> None:
    """The rules read from a page made for it: a rule of a theme counts as the rule
    without its theme, one for a hover as the element's, a rule that sets no colour or
    that matches nothing shown does not count; the fewest pages take in every rule."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("""<html data-theme="auto"><head><style>
          .a { color: red; }
          html[data-theme=dark] .b, .gone { background: black; }
          .c:hover::after { border-color: blue; }
          .d { margin: 1px; }
          .e { --x: 1; }
        </style></head><body><p class="a b c d">x</p><p class="e" hidden>y</p>
          <details><summary>s</summary><p class="gone">z</p></details></body></html>""")
        assert colour_rules(page) == {".a", 'html[data-theme="dark"] .b', ".gone",
                                      ".c:hover::after"}
    finally:
        context.close()
    assert fewest_pages({"one": {"a"}, "two": {"a", "b"}, "three": {"c"}, "four": {"b"}}) == [
        "two", "three"]
