"""Colours: light, dark (the device's dark setting or the reader's choice) and high
contrast (the device's "more contrast" setting or the choice), chosen in the header of
every page and kept for the device in a cookie that the server reads, so the first paint
is in it, scripts or not. The score numbers stand out from their background: 7:1 in high
contrast (WCAG 1.4.6), 4.5:1 in the others. Screenshots of a sheet, a group's page and
table mode in every theme at 390 px, English and Persian, go to test-output/browser/."""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest

from tests.browser.conftest import phone_page
from tests.browser.helpers import LANGUAGES, api, night_pages, sample
from tests.layout import NAMES, hands

pytestmark = [pytest.mark.browser, pytest.mark.once]  # colours: no database changes them

# How each theme is reached: the device's settings Playwright emulates, and the
# cookie of a choice made on this device (none: "Auto").
THEMES: dict[str, tuple[dict[str, str], str | None]] = {
    "light": ({"color_scheme": "light"}, None),
    "dark": ({"color_scheme": "dark"}, None),
    "contrast": ({"color_scheme": "light", "contrast": "more"}, None),
    "contrast-dark": ({"color_scheme": "dark", "contrast": "more"}, None),
    "chosen-dark": ({"color_scheme": "light"}, "dark"),
    "chosen-light": ({"color_scheme": "dark"}, "light"),
    "chosen-contrast": ({"color_scheme": "dark"}, "contrast"),
}
# style.css: the page's background and text in each theme, as Chromium reports them.
PAPER_INK = {
    "light": ("rgb(251, 250, 246)", "rgb(29, 29, 31)"),
    "dark": ("rgb(20, 21, 22)", "rgb(232, 230, 227)"),
    "contrast": ("rgb(255, 255, 255)", "rgb(0, 0, 0)"),
    "contrast-dark": ("rgb(0, 0, 0)", "rgb(255, 255, 255)"),
}
PAPER_INK |= {"chosen-dark": PAPER_INK["dark"], "chosen-light": PAPER_INK["light"],
              "chosen-contrast": PAPER_INK["contrast"]}

# Each element's text colour against the first background behind it that is not
# transparent, as WCAG's contrast ratio (relative luminance of sRGB).
CONTRAST_JS = """(selector) => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const channel = (v) => {
    v /= 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) =>
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] === 1) return c;
    }
    return [255, 255, 255];
  };
  return [...document.querySelectorAll(selector)].filter((el) => el.checkVisibility())
    .map((el) => {
      const a = luminance(rgb(getComputedStyle(el).color)), b = luminance(behind(el));
      return [el.textContent.trim(), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
    });
}"""
# The score numbers: the sheet's running totals, its Σ row and what each still needs;
# table mode's totals, still-needed and last-hand numbers.
SHEET_SCORES = "#sheet .total, #sheet tfoot .num, .status .num"
TABLE_SCORES = ".board .total, .board .side-needs .num, .board .side-last .num"


def open_in(browser: Any, request: pytest.FixtureRequest, live_url: str, theme: str,
            language: str = "en", **options: Any) -> Any:
    """A phone page in ``theme``'s settings (a context manager)."""
    media, chosen = THEMES[theme]
    page_options: dict[str, Any] = {"locale": LANGUAGES[language], **media, **options}
    context = phone_page(browser, request, **page_options)
    if chosen:
        host = urllib.parse.urlsplit(live_url).hostname
        context_page = context.__enter__()
        context_page.context.add_cookies([{"name": "theme", "value": chosen,
                                           "domain": host, "path": "/"}])
        return _Entered(context, context_page)
    return context


class _Entered:
    """A context manager already entered (its page made before the cookie was set)."""

    def __init__(self, manager: Any, page: Any) -> None:
        self.manager, self.page = manager, page

    def __enter__(self) -> Any:
        return self.page

    def __exit__(self, *exc: Any) -> None:
        self.manager.__exit__(*exc)


def group_with_a_game(live_url: str, language: str) -> str:
    players = list(NAMES[language])
    group = api(f"{live_url}/api/v1/groups", {"name": " ".join(players[:2]), "players": players})
    game = api(f"{live_url}/api/v1/games",
               {"players": players[:2], "group": group["id"]}, group["edit_secret"])
    for hand in hands("gin"):
        api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
    return f"/groups/{group['id']}"


@pytest.mark.parametrize("theme", list(THEMES))
def test_the_score_numbers_stand_out_in_every_theme(
    live_url: str, browser: Any, request: pytest.FixtureRequest, theme: str
) -> None:
    game = sample(live_url, "gin", "en")
    least = 7 if "contrast" in theme else 4.5
    with open_in(browser, request, live_url, theme) as phone:
        phone.goto(f"{live_url}/g/{game['id']}")
        body = phone.evaluate("() => [getComputedStyle(document.body).backgroundColor,"
                              " getComputedStyle(document.body).color]")
        assert tuple(body) == PAPER_INK[theme]
        sheet = phone.evaluate(CONTRAST_JS, SHEET_SCORES)
        # tests/layout.py's hands (classic rules): still needed 67 and 49, the running
        # totals 21 0, 21 51, 21 51, 33 51, Σ 33 51.
        assert [text for text, _ratio in sheet] == [
            "67", "49", "21", "0", "21", "51", "21", "51", "33", "51", "33", "51"]
        assert [(text, ratio) for text, ratio in sheet if ratio < least] == []
        phone.goto(f"{live_url}/g/{game['id']}/table")
        table = phone.evaluate(CONTRAST_JS, TABLE_SCORES)
        # Ann 33, still needs 67, won hand 4 by 12; Bob 51, needs 49 (no points in hand 4).
        assert [text for text, _ratio in table] == ["33", "67", "+12", "51", "49"]
        assert [(text, ratio) for text, ratio in table if ratio < least] == []


@pytest.mark.parametrize("language", ["ru", "fa"])
def test_a_night_tables_result_box_reads_in_every_theme(
    live_url: str, browser: Any, request: pytest.FixtureRequest, language: str
) -> None:
    """The result box on the sheet of a club night's table (its heading, what it says,
    the confirm field's label and button), in each of the table's states and in every
    theme (one night, looked at in each): its text stands out from the box as the rest
    of the page's does (4.5:1, 7:1 in high contrast; a light theme's white box under the
    dark theme's light text read at 1.24:1)."""
    tables = {name: path for name, path in night_pages(live_url, language)
              if name.startswith("night-table-")}
    problems: dict[str, Any] = {}
    for theme in THEMES:
        least = 7 if "contrast" in theme else 4.5
        with open_in(browser, request, live_url, theme, language) as phone:
            for name, path in tables.items():
                phone.goto(live_url + path)
                shown = phone.evaluate(CONTRAST_JS, "#night-result :is(h2, p, label, button)")
                if len(shown) < 2:  # the heading, and what the table's state is
                    problems[f"{name} ({theme})"] = shown
                elif low := [(text, ratio) for text, ratio in shown if ratio < least]:
                    problems[f"{name} ({theme})"] = low
    assert problems == {}


def test_high_contrast_scores_are_black_on_white(
    live_url: str, browser: Any, request: pytest.FixtureRequest
) -> None:
    """The ratios above read back from known colours: black on white is 21:1."""
    game = sample(live_url, "gin", "en")
    with open_in(browser, request, live_url, "chosen-contrast") as phone:
        phone.goto(f"{live_url}/g/{game['id']}/table")
        [(text, ratio), *_rest] = phone.evaluate(CONTRAST_JS, ".board .total")
        assert (text, round(ratio, 2)) == ("33", 21.0)


@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_choice_is_kept_for_the_device_and_shown(
    live_url: str, browser: Any, request: pytest.FixtureRequest, language: str
) -> None:
    labels = {"en": ("Colours", "Dark", "Auto"), "fa": ("رنگ‌ها", "تیره", "خودکار")}
    colours, dark, auto = labels[language]
    with open_in(browser, request, live_url, "light", language) as phone:
        phone.goto(f"{live_url}/pads")
        assert phone.get_attribute("html", "data-theme") == "auto"
        phone.get_by_text(colours).click()
        assert phone.get_by_role("button", name=auto).get_attribute("aria-current") == "true"
        phone.get_by_role("button", name=dark).click()
        phone.wait_for_url(f"{live_url}/pads")  # back on the page it was chosen on
        assert phone.get_attribute("html", "data-theme") == "dark"
        [cookie] = [c for c in phone.context.cookies() if c["name"] == "theme"]
        assert cookie["value"] == "dark" and cookie["httpOnly"]
        assert cookie["expires"] > 0  # kept, not only for this visit
        phone.goto(f"{live_url}/")  # any other page: still dark, and shown chosen
        assert phone.get_attribute("html", "data-theme") == "dark"
        background = phone.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(20, 21, 22)"
        buttons = phone.locator(".themes button").all()
        assert [b.get_attribute("aria-current") for b in buttons] == [None, None, "true", None]
        phone.shot(f"header-{language}")


def test_the_first_paint_is_in_the_chosen_theme_without_scripts(
    live_url: str, browser: Any, request: pytest.FixtureRequest
) -> None:
    """The server writes the cookie's theme on <html>: no script is needed to paint it."""
    game = sample(live_url, "gin", "en")
    with open_in(browser, request, live_url, "chosen-contrast", java_script_enabled=False) as phone:
        answer = phone.goto(f"{live_url}/g/{game['id']}")
        assert answer is not None
        assert '<html lang="en" dir="ltr" data-theme="contrast">' in answer.text()
        header = phone.locator("header.top")
        assert header.evaluate("(el) => getComputedStyle(el).backgroundColor") == "rgb(0, 0, 0)"


@pytest.mark.parametrize("language", ["en", "fa"])
def test_screenshots_of_every_theme(
    live_url: str, browser: Any, request: pytest.FixtureRequest, language: str
) -> None:
    """A sheet (with its race), a group's page (with its charts) and table mode, with the
    colours open in the header, in the light, dark and both high-contrast themes (one
    game and one group, looked at in each); nothing drawn in the page's own background
    colour."""
    game = sample(live_url, "gin", language)
    group = group_with_a_game(live_url, language)
    wrong: dict[str, set[str]] = {}
    for theme in ("light", "dark", "contrast", "contrast-dark"):
        _paper, ink = PAPER_INK[theme]
        with open_in(browser, request, live_url, theme, language) as phone:
            for name, path in (("sheet", f"/g/{game['id']}"), ("group", group),
                               ("table", f"/g/{game['id']}/table")):
                phone.goto(live_url + path)
                phone.evaluate("() => { document.querySelector('.theme-choice').open = true; }")
                # The charts' words are in the theme's ink.
                fills = phone.evaluate("() => [...document.querySelectorAll('svg text')]"
                                       ".map((t) => getComputedStyle(t).fill)")
                if not set(fills) <= {ink}:
                    wrong[f"{name} ({theme})"] = set(fills)
                phone.shot(f"{name}-{theme}-{language}")
    assert wrong == {}
