"""Every kind of page at a phone's width in English, Russian and Persian, with every
<details> open: at 390 px and at 360 px nothing scrolls sideways, no element is wider
than the screen and no two controls lie over each other. Screenshots go to
test-output/browser/."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import OUTPUT
from tests.layout import KINDS, NAMES, PLAYERS, hands

pytestmark = [pytest.mark.browser, pytest.mark.once]

LANGUAGES = {"en": "en-GB", "ru": "ru-RU", "fa": "fa-IR"}

# Controls a finger taps, and anything wider than the screen that is not inside a box
# of its own that scrolls (none is, today).
PROBLEMS_JS = """() => {
  const width = document.documentElement.clientWidth;
  const describe = (el) => el.tagName.toLowerCase()
    + (el.id ? "#" + el.id : "") + (el.name ? "[name=" + el.name + "]" : "")
    + (typeof el.className === "string" && el.className
       ? "." + el.className.split(" ").join(".") : "")
    + " '" + (el.value || el.textContent || "").trim().slice(0, 30) + "'";
  const shown = (el) => {  // not hidden, nor inside a closed <details>
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.checkVisibility({visibilityProperty: true});
  };
  const floating = (el) => {
    for (let p = el; p; p = p.parentElement) {
      const position = getComputedStyle(p).position;
      if (position === "fixed" || position === "sticky") return true;
    }
    return false;
  };
  const clipped = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (!shown(el) || clipped(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right > width + 0.5 || r.left < -0.5) {
      out.push("wider than the screen: " + describe(el)
               + " " + Math.round(r.left) + ".." + Math.round(r.right));
    }
  }
  const controls = [...document.querySelectorAll(
    "a, button, input:not([type=hidden]), select, textarea, summary")]
    .filter((el) => shown(el) && !floating(el));  // a picker kept in view floats over the form
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i], b = controls[j];
      if (a.contains(b) || b.contains(a)) continue;
      const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 1 && h > 1) out.push("overlap: " + describe(a) + " / " + describe(b));
    }
  }
  return out;
}"""


# Every <details> open, so that what it holds is laid out too.
OPEN_DETAILS_JS = "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"


def api(url: str, body: dict[str, Any], secret: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["X-Edit-Secret"] = secret
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def sample(live_url: str, kind: str, language: str) -> dict[str, Any]:
    """A game of ``kind`` with a few hands, created through the API."""
    players = list(NAMES[language][: PLAYERS.get(kind, 2)])
    game = api(f"{live_url}/api/v1/games", {"variant": kind, "players": players})
    for hand in hands(kind):
        api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
    return game


def pages(live_url: str, language: str) -> Iterator[tuple[str, str]]:
    """(name, path) of every kind of page: the games' pages for a game of every kind,
    a group's pages for a group with a game played. A name ending in ``-edit`` is an
    edit link, opened so that this phone may change the game or group after it."""
    yield "home", "/"
    yield "new", "/games/new"
    yield "new-group", "/groups/new"
    yield "check", "/check"
    yield "remi-check", "/remi/check"
    yield "pads", "/pads"
    yield "import", "/import"
    for kind in KINDS:
        game = sample(live_url, kind, language)
        yield f"{kind}-edit", game["edit_url"].removeprefix(live_url)  # this phone may edit
        base = f"/g/{game['id']}"
        yield f"{kind}-sheet", base
        yield f"{kind}-cards", f"{base}/hands/new"
        yield f"{kind}-hand", f"{base}/hands/1"
        yield f"{kind}-hand-edit", f"{base}/hands/1/edit"
        yield f"{kind}-history", f"{base}/history"
        yield f"{kind}-table", f"{base}/table"
        if kind == "gin":
            yield "hand-delete", f"{base}/hands/1/delete"
            yield "edit-qr", f"{base}/share/edit"
            yield "unlock", f"{base}/unlock"
            yield "table-turned", f"{base}/table?view=turned"
            yield "table-split", f"{base}/table?view=split"
    players = list(NAMES[language])
    group = api(f"{live_url}/api/v1/groups", {"name": " ".join(players[:2]), "players": players})
    yield "group-edit", group["edit_url"].removeprefix(live_url)
    game = api(f"{live_url}/api/v1/games",
               {"players": players[:2], "group": group["id"]}, group["edit_secret"])
    for hand in hands("gin"):
        api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
    yield "group", f"/groups/{group['id']}"
    yield "player", f"/groups/{group['id']}/players/{urllib.parse.quote(players[0])}"
    yield "group-unlock", f"/groups/{group['id']}/unlock"


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
def test_no_page_scrolls_sideways_or_overlaps(
    live_url: str, context_for: Any, language: str
) -> None:
    from tests.test_i18n import compile_catalogs

    compile_catalogs()
    # Each page is loaded once, at 390 px, then narrowed to 360 px: the page lays itself
    # out again by its CSS alone (no script of the app measures the screen).
    phone = context_for(language, 390).new_page()
    folder = OUTPUT / f"layout-{language}"
    folder.mkdir(parents=True, exist_ok=True)
    problems: dict[str, Any] = {}
    for name, path in pages(live_url, language):
        answer = phone.goto(live_url + path)
        assert answer is not None and answer.ok, f"{name}: {path} answered {answer}"
        if name.endswith("-edit"):  # the edit link lets this window change the game
            continue
        phone.evaluate(OPEN_DETAILS_JS)
        phone.screenshot(path=str(folder / f"{name}.png"), full_page=True)
        for width in (390, 360):
            phone.set_viewport_size({"width": width, "height": 844})
            found = phone.evaluate(PROBLEMS_JS)
            if found:
                problems[f"{name} at {width}"] = found[:5]
            scroll = phone.evaluate("document.scrollingElement.scrollWidth")
            if scroll > width:
                problems[f"{name} at {width} scrolls sideways"] = f"{scroll} px wide"
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
