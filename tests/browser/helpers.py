"""What the browser tests share: the languages and every kind of page of the layout and
accessibility checks, axe-core's verdict, the QR decoder, a small phone, and a gin game
made through the API with its hands read back."""

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


def api(url: str, body: dict[str, Any], secret: str | None = None) -> dict[str, Any]:
    """POST ``body`` as JSON to the live server (with the edit secret, if given); its answer."""
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
