"""What a browser may keep of a game or a group. Every page drawn for a browser that may
change the game (or the group) is sent ``Cache-Control: private, no-store``; a page
drawn for a browser that only watches keeps its caching. No such page holds the edit
secret: the edit link and its QR code are shown only on their own share pages, for a
game and for a group, sent ``private, no-store`` too and only to an editor."""

from __future__ import annotations

import html
import re
import urllib.parse
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.layout import KINDS, NAMES, PLAYERS, hands

# Where each kind of URL variable of a game's or a group's page points.
GAME_ARGUMENTS = {"game_id", "number"}
GROUP_ARGUMENTS = {"group_id", "name", "payment_id"}
FILES = (".pdf", ".svg", ".json")  # not pages: typeset, drawn or exported
# Answers whose view says how they are cached, the same for an editor and a watcher.
OWN_CACHING = {
    "pwa.watch_qr": {"public", "max-age=3600"},  # the watch link: no secret
    "pwa.group_watch_qr": {"public", "max-age=3600"},
    "games.live": {"private", "no-cache"},  # the live sheet's version, revalidated
}
SHARE_PAGES = {"pwa.edit_share", "pwa.group_edit_share", "pwa.edit_qr", "pwa.group_edit_qr"}


def api(client: FlaskClient, path: str, body: dict[str, Any], secret: str = "") -> Any:
    headers = {"X-Edit-Secret": secret} if secret else {}
    answer = client.post(path, json=body, headers=headers)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return answer.get_json()


def game_of(client: FlaskClient, kind: str, group: dict[str, Any] | None = None) -> Any:
    """A game of ``kind`` with its hands played, through the API."""
    body: dict[str, Any] = {"variant": kind, "players": list(NAMES["en"][: PLAYERS.get(kind, 2)])}
    if group is not None:
        body["group"] = group["id"]
    game = api(client, "/api/v1/games", body, group["edit_secret"] if group else "")
    for hand in hands(kind):
        api(client, f"/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
    return game


def group_with_a_game_and_a_payment(client: FlaskClient) -> tuple[Any, Any, int]:
    group = api(client, "/api/v1/groups", {"name": "Club", "players": ["Ann", "Bob"]})
    game = game_of(client, "gin", group)
    paid = api(client, f"/api/v1/groups/{group['id']}/payments",
               {"from": "Ann", "to": "Bob", "amount": "2"}, group["edit_secret"])
    return group, game, int(paid["payment"]["id"])


def pages(app: Flask, arguments: dict[str, str]) -> list[tuple[str, str]]:
    """(endpoint, path) of every page outside the API a browser GETs whose address
    names exactly what ``arguments`` fill (a game's pages, or a group's)."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") or "GET" not in (rule.methods or ()):
            continue
        if not rule.arguments <= set(arguments) or not rule.arguments & {"game_id", "group_id"}:
            continue
        built = rule.build({name: arguments[name] for name in rule.arguments})
        assert built is not None, rule
        found.append((rule.endpoint, built[1]))
    return sorted(found)


def game_pages(app: Flask, game_id: str) -> list[tuple[str, str]]:
    return pages(app, {"game_id": game_id, "number": "1"})


def group_pages(app: Flask, group_id: str, payment: int) -> list[tuple[str, str]]:
    return pages(app, {"group_id": group_id, "name": "Ann",
                       "payment_id": str(payment)})


def editor(app: Flask, link: str) -> FlaskClient:
    """A browser of its own that opened ``link`` (an edit link): it may change the game
    or the group from now on. The answer to the edit link itself is not kept either."""
    browser = app.test_client()
    path = link.split("://", 1)[1].split("/", 1)[1]
    opened = browser.get("/" + path)
    assert opened.status_code == 302, opened.get_data(as_text=True)[:300]
    assert opened.headers["Cache-Control"] == "private, no-store"
    return browser


def directives(response: Any) -> set[str]:
    return {d.strip() for d in response.headers.get("Cache-Control", "").split(",") if d.strip()}


def test_the_walk_reaches_every_page_of_a_game_and_of_a_group(app: Flask) -> None:
    """A guard against an empty walk: the pages that matter are among those checked."""
    game = {endpoint for endpoint, _path in game_pages(app, "x")}
    assert {"games.sheet", "games.history", "games.new_card_hand", "games.hand",
            "games.edit_hand", "games.delete_hand", "pwa.edit_share"} <= game, game
    assert "groups.page" not in game and "api.game" not in game
    group = {endpoint for endpoint, _path in group_pages(app, "x", 1)}
    assert {"groups.page", "groups.history", "groups.player", "groups.form_page",
            "groups.edit_payment", "pwa.group_edit_share"} <= group, group
    assert "games.sheet" not in group


@pytest.mark.parametrize("kind", KINDS)
def test_every_page_of_a_game_drawn_for_its_editor_is_not_stored(
    app: Flask, client: FlaskClient, kind: str
) -> None:
    game = game_of(client, kind)
    browser = editor(app, game["edit_url"])
    watcher = app.test_client()
    shown = 0
    watched_pages: list[str] = []
    for endpoint, path in game_pages(app, game["id"]):
        answer = browser.get(path)
        assert answer.status_code < 500, (path, answer.status_code)
        kept = directives(answer)
        if answer.mimetype == "text/html" or answer.status_code == 302:
            assert kept == {"private", "no-store"}, (path, kept)
            shown += answer.status_code == 200
        else:
            assert kept == OWN_CACHING.get(endpoint, kept | {"no-store"}), (path, kept)

        if path.endswith(FILES):
            continue
        watched = watcher.get(path)
        if watched.status_code == 200 and watched.mimetype == "text/html":
            # A watcher's page is what it was: the phone's service worker keeps a copy.
            assert "Cache-Control" not in watched.headers, (path, watched.headers)
            watched_pages.append(endpoint)
    assert watched_pages == ["games.hand", "games.history", "games.sheet", "games.table",
                             "games.unlock", "rulecards.game_rules"], watched_pages
    assert shown >= 6  # sheet, history, a hand, its correction, its deletion, the rules


def test_every_page_of_a_group_drawn_for_its_editor_is_not_stored(
    app: Flask, client: FlaskClient
) -> None:
    group, _game, payment = group_with_a_game_and_a_payment(client)
    browser = editor(app, group["edit_url"])
    watcher = app.test_client()
    statuses = []
    watched_pages: list[str] = []
    for endpoint, path in group_pages(app, group["id"], payment):
        answer = browser.get(path)
        statuses.append(answer.status_code)
        kept = directives(answer)
        if answer.mimetype == "text/html" or answer.status_code == 302:
            assert kept == {"private", "no-store"}, (path, kept)
        else:
            assert kept == OWN_CACHING.get(endpoint, kept | {"no-store"}), (path, kept)
        if path.endswith(FILES):
            continue
        watched = watcher.get(path)
        if watched.status_code == 200 and watched.mimetype == "text/html":
            assert "Cache-Control" not in watched.headers, (path, watched.headers)
            watched_pages.append(endpoint)
    assert watched_pages == ["groups.history", "groups.page", "groups.player",
                             "groups.unlock", "rulecards.group_rules"], watched_pages
    assert statuses.count(200) >= 6, statuses


def secrets_in(text: str, *secrets: str) -> list[str]:
    """Which of ``secrets`` ``text`` holds, as written or escaped for HTML or a URL."""
    plain = html.unescape(urllib.parse.unquote(text))
    return [s for s in secrets if s in text or s in plain]


@pytest.mark.parametrize("kind", KINDS)
def test_no_page_of_a_game_drawn_for_its_editor_holds_the_edit_secret(
    app: Flask, client: FlaskClient, kind: str
) -> None:
    game = game_of(client, kind)
    browser = editor(app, game["edit_url"])
    checked = []
    for endpoint, path in game_pages(app, game["id"]):
        if endpoint in SHARE_PAGES or path.endswith(FILES):
            continue
        answer = browser.get(path)
        if answer.status_code != 200 or answer.mimetype != "text/html":
            continue
        assert secrets_in(answer.get_data(as_text=True), game["edit_secret"]) == [], path
        checked.append(endpoint)
    expected = {"games.sheet", "games.history", "games.hand", "games.edit_hand"}
    if kind in ("gin", "oklahoma", "partnership", "remi"):  # card by card too
        expected.add("games.new_card_hand")
    assert expected <= set(checked), checked


def test_no_page_of_a_group_drawn_for_its_editor_holds_an_edit_secret(
    app: Flask, client: FlaskClient
) -> None:
    """Neither the group's secret nor its game's, for a browser that may change both."""
    group, game, payment = group_with_a_game_and_a_payment(client)
    browser = editor(app, group["edit_url"])
    browser.get(game["edit_url"].split("localhost", 1)[1])
    secrets = (group["edit_secret"], game["edit_secret"])
    checked = []
    for endpoint, path in [*group_pages(app, group["id"], payment),
                           *game_pages(app, game["id"])]:
        if endpoint in SHARE_PAGES or path.endswith(FILES):
            continue
        answer = browser.get(path)
        if answer.status_code != 200 or answer.mimetype != "text/html":
            continue
        assert secrets_in(answer.get_data(as_text=True), *secrets) == [], path
        checked.append(endpoint)
    assert {"groups.page", "groups.history", "groups.player", "groups.edit_payment",
            "games.sheet"} <= set(checked), checked


def field_value(page: str, field: str) -> str:
    found = re.search(rf'<input[^>]*value="([^"]*)"[^>]*id="{field}"', page)
    assert found, field
    return html.unescape(found.group(1))


def test_the_games_share_page_shows_its_edit_link_and_qr_code_to_its_editor_only(
    app: Flask, client: FlaskClient
) -> None:
    game = game_of(client, "gin")
    browser = editor(app, game["edit_url"])
    sheet = browser.get(f"/g/{game['id']}").get_data(as_text=True)
    # The sheet's share section has a button to the share page, and no edit link.
    assert re.search(rf'<a class="button" href="/g/{game["id"]}/share/edit">'
                     r"Show the edit link and its QR code</a>", sheet), sheet
    assert 'id="edit-url"' not in sheet

    page = browser.get(f"/g/{game['id']}/share/edit")
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "private, no-store"
    text = page.get_data(as_text=True)
    assert field_value(text, "edit-url") == f"http://localhost/g/{game['id']}?key={game['edit_secret']}"
    assert f'<img src="/g/{game["id"]}/qr/edit.svg"' in text
    assert "data-share-link" in text and "/static/share.js" in text
    assert browser.get(f"/g/{game['id']}/qr/edit.svg").headers["Cache-Control"] == (
        "private, no-store")

    watcher = app.test_client()
    assert watcher.get(f"/g/{game['id']}/share/edit").status_code == 403
    assert watcher.get(f"/g/{game['id']}/qr/edit.svg").status_code == 403
    assert f"/g/{game['id']}/share/edit" not in watcher.get(f"/g/{game['id']}").get_data(
        as_text=True)


def test_the_groups_share_page_shows_its_edit_link_and_qr_code_to_its_editor_only(
    app: Flask, client: FlaskClient
) -> None:
    group, _game, _payment = group_with_a_game_and_a_payment(client)
    browser = editor(app, group["edit_url"])
    page_html = browser.get(f"/groups/{group['id']}").get_data(as_text=True)
    assert re.search(rf'<a class="button" href="/groups/{group["id"]}/share/edit">'
                     r"Show the edit link and its QR code</a>", page_html), page_html
    assert 'id="edit-url"' not in page_html

    page = browser.get(f"/groups/{group['id']}/share/edit")
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "private, no-store"
    text = page.get_data(as_text=True)
    link = f"http://localhost/groups/{group['id']}?key={group['edit_secret']}"
    assert field_value(text, "edit-url") == link
    assert f'<img src="/groups/{group["id"]}/qr/edit.svg"' in text
    assert "anyone with it can change the group" in text
    assert f'href="/groups/{group["id"]}"' in text  # back to the group's page
    qr = browser.get(f"/groups/{group['id']}/qr/edit.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert qr.headers["Cache-Control"] == "private, no-store"

    watcher = app.test_client()
    assert watcher.get(f"/groups/{group['id']}/share/edit").status_code == 403
    assert watcher.get(f"/groups/{group['id']}/qr/edit.svg").status_code == 403
