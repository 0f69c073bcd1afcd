"""What the share sections say when other phones cannot open their links, the group's
QR code, a finished game's card page, the manifest's language, and refused forms that
hold no write lock while they are drawn again."""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, before_render_template
from flask.testing import FlaskClient

from scorekeeper.charts import qr
from tests.conftest import PG_URL
from tests.helpers import new_game, quick, version_of, win


class _Text(HTMLParser):
    """The text of the element with a given id (and of everything inside it)."""

    def __init__(self, wanted: str) -> None:
        super().__init__(convert_charrefs=True)
        self.wanted = wanted
        self.depth = 0
        self.parts: list[str] = []
        self.found = False
        self.attrs: dict[str, str | None] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.depth += tag not in {"br", "img", "input", "meta", "link"}
        elif dict(attrs).get("id") == self.wanted:
            self.found = True
            self.attrs = dict(attrs)
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.parts.append(data)


def element(html: str, element_id: str) -> tuple[str, dict[str, str | None]] | None:
    """The whitespace-collapsed text and the attributes of ``#element_id``, or ``None``."""
    parser = _Text(element_id)
    parser.feed(html)
    if not parser.found:
        return None
    return " ".join("".join(parser.parts).split()), parser.attrs


LOOPBACK_NOTE = (
    "Other phones cannot open this link or its QR code: the server listens on this "
    "computer only ({host}). To open it to the table, start it with "
    "HOST=0.0.0.0 make run or scorekeeper serve --host 0.0.0.0."
)
PROXY_NOTE = (
    "Other phones cannot open this link or its QR code: it names this computer ({host}). "
    "The reverse proxy has to pass on the host the phones asked for, as nginx does with "
    "proxy_set_header Host $host."
)


def editable_game(client: FlaskClient, **headers: str) -> str:
    created = client.post(
        "/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]}, headers=headers
    ).get_json()
    client.get(f"/g/{created['id']}?key={created['edit_secret']}", headers=headers)
    return str(created["id"])


def editable_group(client: FlaskClient, **headers: str) -> str:
    response = client.post(
        "/groups/new", data={"name": "Friday", "players": "Ann\nBob"}, headers=headers
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[-1]


# --- links other phones cannot open ------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1:5000", "localhost:5000", "[::1]:5000"])
def test_a_server_on_loopback_only_says_so_at_the_games_qr_code(
    make_app: Any, host: str
) -> None:
    app = make_app(LISTEN_HOST="127.0.0.1", LISTEN_PORT="5000")
    client = app.test_client()
    headers = {"Host": host}
    game = editable_game(client, **headers)
    for editor in (client, app.test_client()):  # the keeper, and a phone that watches
        html = editor.get(f"/g/{game}", headers=headers).get_data(as_text=True)
        note = element(html, "lan-note")
        assert note is not None
        assert note[0] == LOOPBACK_NOTE.format(host=host.rsplit(":", 1)[0].strip("[]"))


def test_a_server_open_to_the_network_says_nothing_of_the_kind(make_app: Any) -> None:
    app = make_app(LISTEN_HOST="0.0.0.0", LISTEN_PORT="5000", LAN_ADDRESSES=["192.168.1.23"])
    client = app.test_client()
    headers = {"Host": "127.0.0.1:5000"}
    game = editable_game(client, **headers)
    group = editable_group(client, **headers)
    for page in (f"/g/{game}", f"/groups/{group}", f"/g/{game}/share/edit"):
        html = client.get(page, headers=headers).get_data(as_text=True)
        assert element(html, "lan-note") is None, page
        assert element(html, "watch-qr") or element(html, "edit-qr"), page


def test_behind_a_proxy_the_links_are_the_proxys_and_need_no_note(make_app: Any) -> None:
    app = make_app(LISTEN_HOST="127.0.0.1", LISTEN_PORT="5000", PROXIES=1)
    client = app.test_client()
    public = {
        "Host": "127.0.0.1:5000",
        "X-Forwarded-Host": "cards.example.org",
        "X-Forwarded-Proto": "https",
    }
    game = editable_game(client, **public)
    html = client.get(f"/g/{game}", headers=public).get_data(as_text=True)
    assert element(html, "lan-note") is None
    watch = element(html, "watch-url")
    assert watch is not None and watch[1]["value"] == f"https://cards.example.org/g/{game}"

    # A proxy that passes on neither the host nor X-Forwarded-Host: the links name the
    # app's own loopback address, and the note says what the proxy must do.
    hidden = {"Host": "127.0.0.1:5000", "X-Forwarded-Proto": "https"}
    html = client.get(f"/g/{game}", headers=hidden).get_data(as_text=True)
    note = element(html, "lan-note")
    assert note is not None and note[0] == PROXY_NOTE.format(host="127.0.0.1")


def test_the_edit_qr_page_and_the_group_say_so_too(make_app: Any) -> None:
    app = make_app(LISTEN_HOST="127.0.0.1", LISTEN_PORT="5000")
    client = app.test_client()
    headers = {"Host": "127.0.0.1:5000"}
    game = editable_game(client, **headers)
    group = editable_group(client, **headers)
    for page in (f"/g/{game}/share/edit", f"/groups/{group}"):
        html = client.get(page, headers=headers).get_data(as_text=True)
        note = element(html, "lan-note")
        assert note is not None, page
        assert note[0] == LOOPBACK_NOTE.format(host="127.0.0.1"), page


def test_the_note_is_in_persian_too(make_app: Any) -> None:
    app = make_app(LISTEN_HOST="127.0.0.1", LISTEN_PORT="5000")
    client = app.test_client()
    headers = {"Host": "127.0.0.1:5000", "Accept-Language": "fa"}
    game = editable_game(client, **headers)
    note = element(client.get(f"/g/{game}", headers=headers).get_data(as_text=True), "lan-note")
    assert note is not None
    assert note[0].startswith("گوشی‌های دیگر نمی‌توانند این پیوند یا کد QR آن را باز کنند: سرور فقط")
    assert "HOST=0.0.0.0 make run" in note[0] and "scorekeeper serve --host 0.0.0.0" in note[0]


# --- the group's QR code ------------------------------------------------------------


def test_the_groups_share_section_has_a_qr_code_of_its_watch_link(make_app: Any) -> None:
    app = make_app(LISTEN_HOST="0.0.0.0", LISTEN_PORT="5000", LAN_ADDRESSES=["192.168.1.23"])
    client = app.test_client()
    headers = {"Host": "127.0.0.1:5000"}
    group = editable_group(client, **headers)
    html = client.get(f"/groups/{group}", headers=headers).get_data(as_text=True)
    image = element(html, "watch-qr")
    assert image is not None and image[1]["src"] == f"/groups/{group}/qr/watch.svg"
    link = element(html, "watch-url")
    assert link is not None and link[1]["value"] == f"http://192.168.1.23:5000/groups/{group}"

    svg = client.get(f"/groups/{group}/qr/watch.svg", headers=headers)
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.data == qr.svg(f"http://192.168.1.23:5000/groups/{group}", "Watch link (read-only):")
    assert client.get("/groups/nonesuch/qr/watch.svg").status_code == 404


# --- a finished game's card page --------------------------------------------------------


def test_a_finished_games_card_page_says_the_game_is_over_and_has_no_form(
    client: FlaskClient,
) -> None:
    game = new_game(client, "classic", target="50")
    win(client, game, 0, 60)
    response = client.get(f"/g/{game}/hands/new")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    over = element(html, "game-over")
    assert over is not None
    assert over[0] == "The game is over: no more hands. Corrections still work."
    assert "<form" not in html.split("<main", 1)[1].split("</main>", 1)[0]

    playing = new_game(client)
    html = client.get(f"/g/{playing}/hands/new").get_data(as_text=True)
    assert element(html, "game-over") is None and "data-offline-queue" in html


# --- the manifest ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "name", "description"),
    [
        ("en", "Scorekeeper", "Keep score at the card table"),
        ("fa", "امتیازنویس", "امتیازنویسی سر میز ورق"),
        ("ru", "Счётчик", "Счёт за карточным столом"),
    ],
)
def test_the_manifest_speaks_the_language_chosen_on_the_page(
    app: Flask, language: str, name: str, description: str
) -> None:
    chooser = app.test_client()
    chooser.post("/lang", data={"lang": language, "next": "/"})
    html = chooser.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    link = element(html, "manifest")
    assert link is not None and link[1]["href"] == f"/manifest.webmanifest?lang={language}"
    # Browsers fetch the manifest without cookies: its address carries the language.
    data = app.test_client().get(str(link[1]["href"])).get_json()
    assert (data["name"], data["short_name"], data["description"]) == (name, name, description)
    assert data["lang"] == language and data["dir"] == ("rtl" if language == "fa" else "ltr")


# --- refused forms hold no write lock while they are drawn -----------------------------


@contextmanager
def writes_while_drawing(app: Flask) -> Iterator[list[str]]:
    """Whenever a page is drawn, whether another connection and another process could
    write to the database at that moment; what stopped them, per template."""
    database = app.config["DATABASE_URL"].removeprefix("sqlite:///")
    held: list[str] = []

    def check(_sender: Any, template: Any, **_extra: Any) -> None:
        with closing(sqlite3.connect(database, timeout=0, isolation_level=None)) as other:
            try:
                other.execute("BEGIN IMMEDIATE")
                other.execute("ROLLBACK")
            except sqlite3.OperationalError:
                held.append(f"{template.name}: SQLite's write lock")
        fd = os.open(database + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
        except BlockingIOError:
            held.append(f"{template.name}: the processes' file lock")
        finally:
            os.close(fd)

    before_render_template.connect(check, app)
    try:
        yield held
    finally:
        before_render_template.disconnect(check, app)


@pytest.mark.skipif(PG_URL is not None, reason="SQLite's write lock")
def test_refused_forms_are_drawn_again_without_the_write_lock(app: Flask, tmp_path: Path) -> None:
    client = app.test_client()
    game = new_game(client)
    group = editable_group(client)
    version = version_of(client, game)
    win(client, game, 0, 20)
    refused = [
        ("quick hand, a mistake", f"/g/{game}/hands",
         {"outcome": "knock", "knocker": "0", "knocker_deadwood": "14",
          "defender_deadwood": "20", "version": str(version + 1)}, 422),
        ("quick hand, a stale form", f"/g/{game}/hands",
         {"outcome": "knock", "knocker": "0", "knocker_deadwood": "3",
          "defender_deadwood": "20", "version": str(version)}, 409),
        ("cards, a mistake", f"/g/{game}/hands/new",
         {"knocker": "0", "knocker_cards": "AS", "version": str(version + 1)}, 422),
        ("correction, a mistake", f"/g/{game}/hands/1/edit",
         {"outcome": "knock", "knocker": "0", "knocker_deadwood": "14",
          "defender_deadwood": "20", "version": str(version + 1)}, 422),
        ("new game, no names", "/games/new",
         {"variant": "gin", "preset": "classic", "player1": "", "player2": "",
          "dealer": "0", "group": group}, 422),
        ("new group, no players", "/groups/new", {"name": "Friday", "players": ""}, 422),
        ("payment, no amount", f"/groups/{group}/payments",
         {"payer": "Ann", "payee": "Bob", "amount": "", "paid_on": "2026-01-02"}, 422),
        ("game PIN, too long", f"/g/{game}/unlock", {"pin": "1234567"}, 422),
        ("game PIN, wrong", f"/g/{game}/unlock", {"pin": "9999"}, 422),
        ("group PIN, too long", f"/groups/{group}/unlock", {"pin": "1234567"}, 422),
        ("group PIN, wrong", f"/groups/{group}/unlock", {"pin": "9999"}, 422),
    ]
    client.post(f"/g/{game}/pin", data={"pin": "1234", "version": str(version + 1)})
    client.post(f"/groups/{group}/pin", data={"pin": "1234"})
    problems = []
    with writes_while_drawing(app) as held:
        for what, path, data, status in refused:
            response = client.post(path, data=data)
            assert response.status_code == status, (what, response.get_data(as_text=True))
            problems.extend(f"{what}: {lock}" for lock in held)
            held.clear()
        assert client.get(f"/g/{game}").status_code == 200
        assert not held  # the check itself sees a page drawn with no lock as free
    assert problems == [], "\n".join(problems)
    quick(client, game, "knock", 1, 2, 30)  # and the game still takes hands
    assert version_of(client, game) == version + 2
