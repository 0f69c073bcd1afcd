"""What the browser tests share: the languages and every kind of page of the layout and
accessibility checks, what those checks run in the page (overflow and overlaps, text
sizes, targets, split words), axe-core's verdict, the QR decoder, a small phone, a
screenshot, a gin game made through the API with its hands read back, a Russian group
and a club night. The phones of a size (``narrow``, ``screen``) are fixtures in
conftest.py."""

from __future__ import annotations

import json
import shutil
import subprocess
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.browser.conftest import OUTPUT
from tests.layout import KINDS, NAMES, PLAYERS
from tests.layout import hands as sample_hands

# The browser's locale for each language the app speaks.
LANGUAGES = {"en": "en-GB", "ru": "ru-RU", "fa": "fa-IR"}
# The names of the languages on the language switcher's buttons.
LANGUAGE_NAMES = {"en": "English", "fa": "فارسی", "ru": "Русский"}

# Every <details> open, so that what it holds is laid out too.
OPEN_DETAILS_JS = "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"


def api(url: str, body: dict[str, Any] | None, secret: str | None = None) -> dict[str, Any]:
    """POST ``body`` as JSON (``None``: nothing) to the live server, with the edit secret
    if given; its answer."""
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["X-Edit-Secret"] = secret
    data = json.dumps(body).encode() if body is not None else b""
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    with urllib.request.urlopen(request) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def sample(live_url: str, kind: str, language: str) -> dict[str, Any]:
    """A game of ``kind`` with a few hands, created through the API."""
    players = list(NAMES[language][: PLAYERS.get(kind, 2)])
    game = api(f"{live_url}/api/v1/games", {"variant": kind, "players": players})
    for hand in sample_hands(kind):
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
    for hand in sample_hands("gin"):
        api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
    yield "group", f"/groups/{group['id']}"
    yield "group-edit-qr", f"/groups/{group['id']}/share/edit"
    yield "player", f"/groups/{group['id']}/players/{urllib.parse.quote(players[0])}"
    yield "group-unlock", f"/groups/{group['id']}/unlock"


def night_pages(live_url: str, language: str) -> Iterator[tuple[str, str]]:
    """(name, path) of a club night's pages, its first round holding a table of each
    state: one playing (a hand in), one over and waiting for its confirmation, one
    confirmed; the night's new page, the organiser's page (after the organiser's link)
    and the board."""
    yield "night-new", "/nights/new"
    night = api(f"{live_url}/api/v1/nights", {
        "players": [*NAMES[language], "Zoe", "Yan"], "variant": "gin", "rules": "classic",
        "format": "round_robin"})
    secret = night["organiser_secret"]
    yield "night-edit", night["organiser_url"].removeprefix(live_url)
    api(f"{live_url}/api/v1/nights/{night['id']}/rounds", None, secret)
    games = [table["game"] for table in json.load(urllib.request.urlopen(
        f"{live_url}/api/v1/nights/{night['id']}"))["rounds"][0]["tables"]]
    # Classic: to 100 with no bonuses; a knock 1 against 61 gives the knocker 60.
    knock = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 61}
    for number, game in enumerate(games):
        for _ in range(1 if number == 0 else 2):
            api(f"{live_url}/api/v1/games/{game}/hands", knock, secret)
    api(f"{live_url}/api/v1/games/{games[2]}/confirm", None, secret)
    yield "night", f"/n/{night['id']}"
    yield "night-board", f"/n/{night['id']}/board"
    for state, game in zip(("playing", "over", "confirmed"), games, strict=False):
        yield f"night-table-{state}", f"/g/{game}"


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
RUN_JS = """(tags) => axe.run(document, {runOnly: {type: "tag", values: tags}})
  .then((result) => result.violations.map((v) => ({
    rule: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ") + ": "
      + (n.failureSummary.split("\\n")[1] || "").trim()).slice(0, 5),
  })))"""


def violations(page: Any) -> list[str]:
    """axe-core's violations on the page as it is now, one readable line each."""
    page.evaluate(OPEN_DETAILS_JS)
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN_JS, TAGS)
    return [f"{v['rule']} ({v['impact']}): {v['help']} — {'; '.join(v['nodes'])}" for v in found]


ZBARIMG = shutil.which("zbarimg")


def decode(page: Any, selector: str, path: Path) -> str:
    """What a phone's camera reads from the QR code on screen."""
    if ZBARIMG is None:
        pytest.fail("zbarimg is missing: `make test` installs Debian's zbar-tools")
    page.locator(selector).scroll_into_view_if_needed()
    page.locator(selector).screenshot(path=str(path))
    done = subprocess.run(
        [ZBARIMG, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.rstrip("\n")


def small_phone(browser: Any, lang: str) -> Any:
    """A context and a page at 360×800 in ``lang``'s locale."""
    context = browser.new_context(viewport={"width": 360, "height": 800},
                                  device_scale_factor=1, locale=LANGUAGES[lang])
    return context, context.new_page()


def no_sideways_scroll(page: Any) -> None:
    """Nothing on ``page`` is wider than a 360 px screen."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, page.url


def shot(page: Any, request: pytest.FixtureRequest, name: str) -> None:
    """A screenshot of ``page`` named ``name`` in the test's own folder."""
    folder = OUTPUT / request.node.name.replace("[", "-").replace("]", "")
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def new_game(client: FlaskClient, rules: Any = "russian") -> dict[str, Any]:
    """A gin game, Ann v Bob, made through the API: its answer with the edit secret."""
    created = client.post(
        "/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"], "rules": rules}
    )
    assert created.status_code == 201
    game: dict[str, Any] = created.get_json()
    return game


def api_hand(client: FlaskClient, game: dict[str, Any], **body: Any) -> Any:
    """Another phone at the table saves a hand through the API."""
    return client.post(
        f"/api/v1/games/{game['id']}/hands", json=body,
        headers={"X-Edit-Secret": game["edit_secret"]},
    )


def hands(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    """Each hand of the game as it was entered (the API's ``inputs``)."""
    data = client.get(f"/api/v1/games/{game_id}").get_json()
    return [h["inputs"] for h in data["hands"]]


# A narrow phone's width.
WIDTH = 360


def picture(page: Any, folder: str, name: str, *, full: bool = True) -> None:
    """A screenshot of ``page`` as test-output/browser/<folder>/<name>.png."""
    where = OUTPUT / folder
    where.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(where / f"{name}.png"), full_page=full)


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
    """The browser's default font size, as a reader sets it in the phone's settings. A
    screenshot of the whole page (``full_page``) sets it back to Chromium's own: set it
    again before the next page."""
    session = page.context.new_cdp_session(page)
    session.send("Page.setFontSizes", {"fontSizes": {"standard": points, "fixed": points}})


# The words that run over two lines or more in the elements ``selector`` finds (the
# table headings by default): a Range over the word has boxes on more than one line. A
# word of Persian may hold a zero-width non-joiner; a double-barrelled name may break
# after its hyphen.
SPLIT_WORDS_JS = """(selector) => {
  const split = [];
  for (const holder of document.querySelectorAll(selector || "thead th")) {
    if (!holder.checkVisibility()) continue;
    const walker = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/[^\\s\\u200c-]+(\\u200c[^\\s\\u200c-]+)*-?/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.bottom)));
        if (lines.size > 1) split.push(match[0]);
      }
    }
  }
  return split;
}"""


def russian_group(live_url: str) -> dict[str, Any]:
    """A group of four with a gin game played, made through the API."""
    players = ["Александра", "Борислав", "Святослав", "Дмитрий"]
    group = api(f"{live_url}/api/v1/groups", {"name": "Пятница", "players": players})
    game = api(f"{live_url}/api/v1/games", {"players": players[:2], "group": group["id"]},
               group["edit_secret"])
    api(f"{live_url}/api/v1/games/{game['id']}/hands",
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 24},
        game["edit_secret"])
    return group


# A club night's entrants: long names in three scripts.
NIGHT_NAMES = ["Ann", "Борис Владимирович", "سارا", "Dmitri Alexandrovich Sokolov", "Eve",
               "Fariba", "Gus", "Hana"]


# Long names of each language: nine, a club night's entrants (four tables and a bye).
LONG_NAMES = {
    "en": ["Margaret Featherstonehaugh", "Bartholomew Oyelaran-Smith", "Christopher Wolverton",
           "Alexandra Montgomery-Jones", "Maximilian Vandersloot", "Guinevere Ashdown",
           "Theodore Blackwood", "Persephone Delacroix", "Sebastian Hargreaves"],
    "ru": ["Алексей Кузнецов", "Александра Константинова", "Святослав Лебедев",
           "Екатерина Волкова", "Владимир Преображенский", "Анастасия Воскресенская",
           "Дмитрий Соколов", "Татьяна Волкова", "Константин Рождественский"],
    "fa": ["فاطمه‌السادات حسینی", "محمدرضا شجریان", "عبدالرحمان کریمی",
           "سیدمحمدحسین طباطبایی", "زهرا موسوی", "امیرحسین رضایی", "مریم صادقی",
           "علیرضا قربانی", "نرگس محمدی"],
}


def night(live_url: str, players: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A round-robin night of ``players`` made through the API, and its first round."""
    made = api(f"{live_url}/api/v1/nights", {"players": players, "variant": "gin",
                                             "rules": "classic", "format": "round_robin"})
    first = api(f"{live_url}/api/v1/nights/{made['id']}/rounds", None, made["organiser_secret"])
    return made, first
