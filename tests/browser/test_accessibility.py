"""Every kind of page in English and Persian, with every <details> open, passes axe-core's
WCAG 2.2 AA rules (axe-core from npm: ``make test`` runs ``npm ci``) in every theme: light,
dark and high contrast as the device asks for them, and dark or high contrast chosen on
the page (the cookie) against the device's setting."""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest

from tests.browser.helpers import AXE, LANGUAGES, pages, violations

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
# A choice is the same colours as the device's setting: one language each is enough.
RUNS = [(language, theme) for language in ("en", "fa") for theme in THEMES
        if (theme, language) not in (("chosen-dark", "en"), ("chosen-contrast", "fa"))]


@pytest.mark.parametrize(("language", "theme"), RUNS)
def test_every_page_passes_axe(live_url: str, browser: Any, language: str, theme: str) -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: `make test` installs it with `npm ci`")
    media, chosen = THEMES[theme]
    # The app's Content-Security-Policy lets no inline script in: axe's is let in.
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  locale=LANGUAGES[language], bypass_csp=True, **media)
    if chosen:
        context.add_cookies([{"name": "theme", "value": chosen, "path": "/",
                              "domain": urllib.parse.urlsplit(live_url).hostname}])
    try:
        phone = context.new_page()
        problems: dict[str, list[str]] = {}
        for name, path in pages(live_url, language):
            answer = phone.goto(live_url + path)
            assert answer is not None and answer.ok, f"{name}: {path} answered {answer}"
            if name.endswith("-edit"):  # the edit link lets this window change the game
                continue
            assert phone.get_attribute("html", "data-theme") == (chosen or "auto"), name
            if found := violations(phone):
                problems[name] = found
        assert problems == {}, "\n".join(
            f"{name}: {line}" for name, lines in problems.items() for line in lines
        )
    finally:
        context.close()


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
