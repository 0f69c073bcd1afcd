"""A long game costs its own requests, not everyone's: its replay is kept per version, a
save replays it before taking the write lock, its sheet and history show a page at a
time, and no game grows past ``limits.MOST_HANDS`` hands."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import subprocess
import threading
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert

from scorekeeper import limits
from scorekeeper.db import get_session
from scorekeeper.gunicorn_config import ThreadedWSGI
from scorekeeper.models import Change, Game, Hand
from scorekeeper.variants import VARIANTS
from scorekeeper.variants.base import Variant
from tests.helpers import upload

# A knock with 5 against 6: one point to the knocker.
ONE = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 6}
STORED_ONE = {"mode": "quick", "outcome": "knock", "knocker": 0, "knocker_deadwood": 5,
              "defender_deadwood": 6, "upcard": None}


def new_game(client: FlaskClient, **rules: Any) -> dict[str, Any]:
    body = {"players": ["Ann", "Bob"], "rules": {"preset": "classic", **rules}}
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    game: dict[str, Any] = created.get_json()
    return game


def stored_hands(app: Flask, game_id: str, count: int, changes: bool = False) -> None:
    """``count`` one-point knocks for Ann written straight into the game (and, with
    ``changes``, a history entry each), as a long game imported before would hold them."""
    with app.app_context():
        db = get_session()
        db.execute(insert(Hand), [{"game_id": game_id, "number": n, "inputs": STORED_ONE}
                                  for n in range(1, count + 1)])
        if changes:
            db.execute(insert(Change), [
                {"game_id": game_id, "action": "add", "hand_number": n, "after": STORED_ONE,
                 "by": "API"} for n in range(1, count + 1)])
        db.commit()


def edit(client: FlaskClient, game: dict[str, Any]) -> FlaskClient:
    assert client.get(f"/g/{game['id']}?key={game['edit_secret']}").status_code == 302
    return client


@pytest.fixture
def replays() -> Iterator[dict[str, list[str]]]:
    """The games each kind of game replayed, by id, while the test runs."""
    seen: dict[str, list[str]] = {}

    def counting(variant: Variant) -> Any:
        real = variant.replay

        def replay(game: Any) -> Any:
            seen.setdefault(variant.name, []).append(game.id)
            return real(game)

        return replay

    with mock.patch.multiple(VARIANTS["gin"], replay=counting(VARIANTS["gin"])):
        yield seen


# --- the replay kept per version -------------------------------------------------------

def test_views_of_an_unchanged_game_replay_it_once(
    client: FlaskClient, replays: dict[str, list[str]]
) -> None:
    game = new_game(client)
    headers = {"X-Edit-Secret": game["edit_secret"]}
    for _ in range(3):
        assert client.post(f"/api/v1/games/{game['id']}/hands", json=ONE,
                           headers=headers).status_code == 201
    # The first save replays the game as created (nothing was kept for it); each later
    # one plays its hand on the replay the save before kept.
    assert replays["gin"] == [game["id"]]
    views = [f"/g/{game['id']}", f"/g/{game['id']}/table", f"/api/v1/games/{game['id']}",
             f"/g/{game['id']}/hands/2", f"/g/{game['id']}/hands.csv"]
    for url in views * 2:
        assert client.get(url).status_code == 200, url
    # The last save kept its replay: the views of that version replayed nothing more.
    assert replays["gin"] == [game["id"]]
    totals = client.get(f"/api/v1/games/{game['id']}").get_json()["totals"]
    assert totals == [3, 0]


def test_a_new_version_is_replayed_once_and_the_old_one_is_not_shown(
    app: Flask, client: FlaskClient, replays: dict[str, list[str]]
) -> None:
    game = new_game(client)
    stored_hands(app, game["id"], 4)  # written without a save: nothing kept for it
    for _ in range(3):
        assert client.get(f"/api/v1/games/{game['id']}").get_json()["totals"] == [4, 0]
    assert replays["gin"] == [game["id"]]
    # A correction on the sheet's form: hand 2 becomes Bob's gin, 20 for the gin and
    # Ann's 5 deadwood (classic rules).
    editor = edit(client, game)
    version = client.get(f"/api/v1/games/{game['id']}").get_json()["version"]
    answer = editor.post(f"/g/{game['id']}/hands/2/edit", data={
        "outcome": "gin", "knocker": "1", "defender_deadwood": "5", "version": str(version)})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    for _ in range(3):
        assert client.get(f"/api/v1/games/{game['id']}").get_json()["totals"] == [3, 25]
    # The correction was checked on the kept replay; the new version replays once.
    assert replays["gin"] == [game["id"]] * 2


# --- no replay under the write lock ----------------------------------------------------

def test_a_refused_save_replays_without_holding_up_another_games_save(
    app: Flask, replays: dict[str, list[str]]
) -> None:
    """A stale form for game A replays A (held up here, as a huge game's replay would
    be) while a save to game B goes through; A is then refused, B's hand is stored."""
    a_client, b_client = app.test_client(), app.test_client()
    a, b = new_game(a_client), new_game(b_client)
    edit(a_client, a)
    assert a_client.post(f"/api/v1/games/{a['id']}/hands", json=ONE,
                         headers={"X-Edit-Secret": a["edit_secret"]}).status_code == 201
    app.extensions.pop("scorekeeper.sheets", None)  # A's replay is not kept: it runs again
    gin = VARIANTS["gin"]
    counted = gin.replay
    replaying, go_on, b_saved = threading.Event(), threading.Event(), threading.Event()

    def held(game: Any) -> Any:
        if game.id == a["id"]:
            replaying.set()
            go_on.wait(60)
        return counted(game)

    answers: dict[str, Any] = {}

    def save_a() -> None:  # drawn from version 0: another hand came first
        answers["a"] = a_client.post(f"/g/{a['id']}/hands", data={
            "outcome": "knock", "knocker": "1", "knocker_deadwood": "2",
            "defender_deadwood": "9", "version": "0"})

    def save_b() -> None:
        answers["b"] = b_client.post(f"/api/v1/games/{b['id']}/hands", json=ONE,
                                     headers={"X-Edit-Secret": b["edit_secret"]})
        b_saved.set()

    with mock.patch.object(gin, "replay", held):
        first = threading.Thread(target=save_a)
        first.start()
        assert replaying.wait(60)
        second = threading.Thread(target=save_b)
        second.start()
        # B's save ends while A's replay is still held up: no lock of A's is in its way.
        b_finished_first = b_saved.wait(60)
        go_on.set()
        first.join(60)
        second.join(60)
    assert b_finished_first
    assert answers["b"].status_code == 201 and answers["b"].get_json()["totals"] == [1, 0]
    assert answers["a"].status_code == 409
    assert "Another phone changed this game" in answers["a"].get_data(as_text=True)
    document = a_client.get(f"/api/v1/games/{a['id']}").get_json()
    assert (document["version"], document["totals"]) == (1, [1, 0])


def test_api_saves_racing_for_one_game_all_count(app: Flask) -> None:
    """Saves replay before the lock and check the version under it: one whose game
    moved on meanwhile replays again, and every hand is stored once."""
    game = new_game(app.test_client())
    headers = {"X-Edit-Secret": game["edit_secret"]}
    answers: list[int] = []

    def save(key: str) -> None:
        answer = app.test_client().post(f"/api/v1/games/{game['id']}/hands", json=ONE,
                                        headers={**headers, "Idempotency-Key": key})
        answers.append(answer.status_code)

    threads = [threading.Thread(target=save, args=(f"k{i}",)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert answers == [201] * 6
    document = app.test_client().get(f"/api/v1/games/{game['id']}").get_json()
    assert [h["number"] for h in document["hands"]] == [1, 2, 3, 4, 5, 6]
    assert document["totals"] == [6, 0]


# --- pages of a long sheet -------------------------------------------------------------

def rows(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr id="hand-(\d+)"', html)]


def first_total(html: str) -> str:
    found = re.search(r'<tr id="hand-\d+".*?<span class="total num">(\d+)</span>', html,
                      re.DOTALL)
    assert found is not None
    return found.group(1)


def test_the_sheet_shows_the_latest_hands_and_pages_back(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, target=10000)
    stored_hands(app, game["id"], 250)
    latest = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert rows(latest) == list(range(151, 251))
    assert first_total(latest) == "151"  # the running total counts every hand before it
    assert f'href="/g/{game["id"]}?page=2"' in latest
    assert "151–250 of 250" in latest
    older = client.get(f"/g/{game['id']}?page=2").get_data(as_text=True)
    assert rows(older) == list(range(51, 151))
    assert first_total(older) == "51"
    assert f'href="/g/{game["id"]}?page=3"' in older and f'href="/g/{game["id"]}"' in older
    # The live sheet fetches this page again, not the latest.
    assert f'data-page="/g/{game["id"]}?page=2"' in older
    oldest = client.get(f"/g/{game['id']}?page=3").get_data(as_text=True)
    assert rows(oldest) == list(range(1, 51))
    assert "?page=4" not in oldest
    # A page past the end, or no page number, shows the nearest page.
    assert rows(client.get(f"/g/{game['id']}?page=99").get_data(as_text=True)) == rows(oldest)
    assert rows(client.get(f"/g/{game['id']}?page=x").get_data(as_text=True)) == rows(latest)
    # The totals are the whole game's on every page.
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["totals"] == [250, 0]


def test_a_short_game_has_no_page_links(client: FlaskClient) -> None:
    game = new_game(client)
    client.post(f"/api/v1/games/{game['id']}/hands", json=ONE,
                headers={"X-Edit-Secret": game["edit_secret"]})
    page = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert rows(page) == [1]
    assert "?page=" not in page


def test_the_history_pages_back_through_older_changes(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, target=10000)
    stored_hands(app, game["id"], 250, changes=True)  # with the game's "create": 251
    latest = client.get(f"/g/{game['id']}/history").get_data(as_text=True)
    assert len(re.findall(r'<li id="change-', latest)) == 100
    assert '<ol class="history" reversed start="251">' in latest
    assert "Hand 151 added" in latest and "Hand 150 added" not in latest
    assert f'href="/g/{game["id"]}/history?page=2"' in latest
    oldest = client.get(f"/g/{game['id']}/history?page=3").get_data(as_text=True)
    assert len(re.findall(r'<li id="change-', oldest)) == 51
    assert '<ol class="history" reversed start="51">' in oldest
    assert "Hand 50 added" in oldest and "Hand 51 added" not in oldest


# --- the limit -------------------------------------------------------------------------

def test_the_limits_follow_from_the_most_hands() -> None:
    assert limits.MOST_HANDS == 1000
    assert limits.MOST_CHANGES == 2000
    # 64 kB for the game's head, 10 kB a hand and 4.5 kB a change at most.
    assert limits.IMPORT_BYTES == 65_536 + 1000 * 10_000 + 2000 * 4_500


def test_an_import_of_a_game_past_the_limit_is_refused(app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    stored_hands(app, game["id"], 3)
    exported = client.get(f"/g/{game['id']}/export.json").get_json()
    hands = exported["games"][0]["hands"] if "games" in exported else exported["hands"]
    hands.extend(dict(hands[0], number=n) for n in range(4, limits.MOST_HANDS + 2))
    answer = upload(client, json.dumps(exported).encode())
    assert answer.status_code == 422
    assert "at most 1000 hands per game" in answer.get_data(as_text=True)


def test_a_game_stored_longer_than_the_limit_opens_and_exports(
    app: Flask, client: FlaskClient
) -> None:
    game = new_game(client, target=10000)
    stored_hands(app, game["id"], limits.MOST_HANDS + 5)
    page = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert rows(page) == list(range(906, 1006))
    assert first_total(page) == "906"
    exported = client.get(f"/g/{game['id']}/export.json")
    assert exported.status_code == 200
    assert exported.get_data(as_text=True).count('"number":') >= limits.MOST_HANDS + 5
    refused = client.post(f"/api/v1/games/{game['id']}/hands", json=ONE,
                          headers={"X-Edit-Secret": game["edit_secret"]})
    assert refused.status_code == 409

    with app.app_context():
        stored = get_session().get(Game, game["id"])
        assert stored is not None and len(stored.hands) == limits.MOST_HANDS + 5


def pdf_text(data: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True,
                          check=True).stdout.decode()


def test_a_long_game_prints_a_page_of_its_sheet_at_a_time(
    app: Flask, client: FlaskClient
) -> None:
    game = new_game(client, target=10000)
    stored_hands(app, game["id"], 150)
    sheet = client.get(f"/g/{game['id']}?page=2").get_data(as_text=True)
    assert f'href="/g/{game["id"]}/sheet.pdf?page=2"' in sheet
    latest = pdf_text(client.get(f"/g/{game['id']}/sheet.pdf").data)
    assert "51–150 of 150." in latest
    lines = [line.split() for line in latest.splitlines()]
    numbered = [int(words[0]) for words in lines if words and words[0].isdigit()
                and len(words) > 2 and words[1].startswith("+")]
    assert numbered == list(range(51, 151))
    # The first line printed: Ann's point and her total of 51 (the hands before count).
    assert next(words for words in lines if words and words[0] == "51")[1:3] == ["+1", "51"]
    older = pdf_text(client.get(f"/g/{game['id']}/sheet.pdf?page=2").data)
    assert "1–50 of 150." in older
    assert [int(w[0]) for w in (line.split() for line in older.splitlines())
            if w and w[0].isdigit() and len(w) > 2 and w[1].startswith("+")] == list(range(1, 51))


# --- work dropped when its client has gone ---------------------------------------------

def test_the_server_tells_the_app_when_the_client_has_gone() -> None:
    """``ThreadedWSGI`` sets the request's ``scorekeeper.client_gone`` event when the
    client closes its connection while the app runs."""
    seen: dict[str, bool] = {}
    messages = iter([{"type": "http.request", "body": b"", "more_body": False}])

    async def receive() -> dict[str, Any]:
        return next(messages, {"type": "http.disconnect"})

    async def send(_message: dict[str, Any]) -> None:
        return None

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        gone = environ["scorekeeper.client_gone"]
        seen["told"] = gone.wait(30)  # the client leaves while the app runs
        start_response("200 OK", [])
        return [b""]

    scope = {"type": "http", "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": "/", "raw_path": b"/", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"localhost")],  # HTTP/1.1 wants one (refusal)
             "server": ("127.0.0.1", 5000), "client": ("127.0.0.1", 40000)}
    with concurrent.futures.ThreadPoolExecutor(1) as apart:
        apart.submit(asyncio.run, ThreadedWSGI(app, threads=1, most_body=1024)(
            scope, receive, send)).result()
    assert seen == {"told": True}


def test_a_print_whose_client_has_gone_is_not_typeset(
    client: FlaskClient, typeset: list[str]
) -> None:
    game = new_game(client)
    gone = threading.Event()
    printed = client.get(f"/g/{game['id']}/sheet.pdf",
                         environ_overrides={"scorekeeper.client_gone": gone})
    assert printed.status_code == 200 and len(typeset) == 1
    gone.set()
    left = client.get(f"/g/{game['id']}/sheet.pdf",
                      environ_overrides={"scorekeeper.client_gone": gone})
    assert left.status_code == 400 and len(typeset) == 1


def test_a_refused_correction_shows_its_form_again(app: Flask, client: FlaskClient) -> None:
    """Drawn from an older sheet, the correction is refused, and the page comes back
    with what was typed and the game as it is now."""
    game = new_game(client)
    stored_hands(app, game["id"], 2)
    editor = edit(client, game)
    assert editor.get(f"/g/{game['id']}").status_code == 200  # its replay is kept
    answer = editor.post(f"/g/{game['id']}/hands/1/edit", data={
        "outcome": "gin", "knocker": "1", "defender_deadwood": "17", "version": "7"})
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert "Another phone changed this game while you were editing" in page
    field = re.search(r'<input[^>]*name="defender_deadwood"[^>]*>', page)
    assert field is not None and 'value="17"' in field.group(0)
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["totals"] == [2, 0]
