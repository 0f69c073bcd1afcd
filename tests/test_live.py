"""The live sheet's address: ``GET /g/<id>/live`` answers 304 while the game's version
is the one asked about, 200 with the new version and a sentence once it moved on."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.db import get_session
from scorekeeper.models import Game
from scorekeeper.security import HEADERS
from tests.helpers import new_game, quick, version_of, win

SAVED = "The sheet changed on another phone: %s."
KEPT = "What you typed is kept; check the sheet before you save."


def live(client: FlaskClient, game: str, etag: str | None = None, **headers: str) -> Any:
    if etag is not None:
        headers["If-None-Match"] = etag
    return client.get(f"/g/{game}/live", headers=headers)


def test_a_new_game_is_version_0(client: FlaskClient) -> None:
    game = new_game(client)
    response = live(client, game)
    assert response.status_code == 200
    assert response.headers["ETag"] == '"0"'
    assert response.get_json() == {
        "version": 0,
        "changed": "The sheet changed on another phone.",
        "kept": KEPT,
    }


def test_the_same_version_is_an_empty_304(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 20)
    response = live(client, game, '"1"')
    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Cache-Control"] == "private, no-cache"
    assert response.headers["Vary"] == "Cookie, Accept-Language"


def test_a_saved_hand_is_a_200_with_the_new_version(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 20)
    response = live(client, game, '"0"')
    assert response.status_code == 200
    assert response.headers["ETag"] == '"1"'
    assert response.get_json() == {"version": 1, "changed": SAVED % "hand 1 added", "kept": KEPT}


@pytest.mark.parametrize(
    ("change", "version", "what"),
    [
        ("edit", 3, "hand 1 changed"),
        ("delete", 3, "hand 1 deleted"),
        ("undo", 3, "hand 2 undone"),
    ],
)
def test_every_kind_of_change_is_told(
    client: FlaskClient, change: str, version: int, what: str
) -> None:
    game = new_game(client)
    win(client, game, 0, 20)
    win(client, game, 1, 30)
    data = {"version": str(version_of(client, game))}
    if change == "edit":
        response = client.post(f"/g/{game}/hands/1/edit", data={**data, "outcome": "dead"})
    elif change == "delete":
        response = client.post(f"/g/{game}/hands/1/delete", data=data)
    else:
        response = client.post(f"/g/{game}/undo", data=data)
    assert response.status_code == 302
    response = live(client, game, '"2"')
    assert response.status_code == 200
    assert response.get_json()["version"] == version
    assert response.get_json()["changed"] == SAVED % what


def test_the_watch_link_follows_the_game_too(client: FlaskClient) -> None:
    game = new_game(client)
    watcher = client.application.test_client()
    assert live(watcher, game, '"0"').status_code == 304
    win(client, game, 1, 25)
    response = live(watcher, game, '"0"')
    assert response.status_code == 200 and response.get_json()["version"] == 1
    assert live(watcher, game, '"1"').status_code == 304


def test_another_process_on_the_same_database_sees_the_change(make_app: Any) -> None:
    first, second = make_app(), make_app()
    client = first.test_client()
    game = new_game(client)
    assert live(second.test_client(), game, '"0"').status_code == 304
    win(client, game, 0, 20)
    assert live(second.test_client(), game, '"0"').get_json()["version"] == 1


def test_a_poll_is_answered_while_another_process_is_saving(make_app: Any) -> None:
    """A save in progress elsewhere (the game's row locked; on SQLite the write lock
    taken) holds up no poll: the version is read without the writer's lock."""
    saver, watcher = make_app(), make_app()  # two processes, as two gunicorn workers
    game = new_game(saver.test_client())
    answers: list[int] = []
    poll = threading.Thread(
        target=lambda: answers.append(live(watcher.test_client(), game, '"0"').status_code)
    )
    with saver.test_request_context(method="POST"):
        db = get_session()  # a POST's: the writer's
        assert db.scalar(select(Game.version).where(Game.id == game).with_for_update()) == 0
        try:
            poll.start()
            poll.join(timeout=10)
            assert not poll.is_alive(), "a poll waited for a save"
        finally:
            db.rollback()
            poll.join()
    assert answers == [304]


def test_a_wrong_game_is_404(client: FlaskClient) -> None:
    assert live(client, "no-such-game").status_code == 404
    assert live(client, "no-such-game", '"0"').status_code == 404
    assert client.get("/g/bad%00id/live").status_code == 404


def test_answers_carry_the_security_headers(client: FlaskClient) -> None:
    game = new_game(client)
    for response in (live(client, game), live(client, game, '"0"')):
        for name, value in HEADERS.items():
            assert response.headers[name] == value
    assert "unsafe-inline" not in HEADERS["Content-Security-Policy"]


def test_polling_leaves_the_session_alone(client: FlaskClient) -> None:
    game = new_game(client)
    response = live(client, game, '"0"')
    assert "Set-Cookie" not in response.headers


def test_the_sentence_is_in_the_readers_language(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 20)
    client.set_cookie("lang", "ru")
    ru = live(client, game).get_json()
    assert ru["changed"] == "Лист изменили на другом телефоне: раздача 1 добавлена."
    client.set_cookie("lang", "fa")
    fa = live(client, game).get_json()
    assert fa["changed"].startswith("برگه در گوشی دیگری تغییر کرد")


def script_of(page: str) -> dict[str, str]:
    """The attributes of the page's live.js script tag."""
    match = re.search(r'<script src="/static/live\.js" defer\s+([^>]*)>', page)
    assert match, "no live.js on the page"
    return dict(re.findall(r'data-(\w+)="([^"]*)"', match.group(1)))


def test_every_page_of_a_game_follows_it(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 20)
    pages = {
        f"/g/{game}": f"/g/{game}",
        f"/g/{game}/history": f"/g/{game}/history",
        f"/g/{game}/hands/1": f"/g/{game}/hands/1",
        f"/g/{game}/hands/1/edit": f"/g/{game}/hands/1/edit",
        f"/g/{game}/hands/1/delete": f"/g/{game}/hands/1/delete",
        f"/g/{game}/hands/new": f"/g/{game}/hands/new",
        f"/g/{game}/hands/1/edit?mode=cards": f"/g/{game}/hands/1/edit?mode=cards",
    }
    for path, page in pages.items():
        response = client.get(path)
        assert response.status_code == 200, path
        assert script_of(response.get_data(as_text=True)) == {
            "src": f"/g/{game}/live",
            "version": "1",
            "page": page,
        }, path


def regions(page: str) -> list[str]:
    return re.findall(r'data-live-region="(\w+)"', page)


def test_the_sheet_marks_its_live_parts(client: FlaskClient) -> None:
    game = new_game(client)
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert regions(page) == ["sheet", "entry", "actions", "race"]
    watcher = client.application.test_client()
    assert regions(watcher.get(f"/g/{game}").get_data(as_text=True)) == ["sheet", "race"]
    form = re.search(r'<form method="post" action="/g/[\w-]+/hands#enter"[^>]*>', page)
    assert form and "data-live-keep" not in form.group(0)


def test_a_form_sent_back_with_errors_is_kept(client: FlaskClient) -> None:
    game = new_game(client)
    response = quick(client, game, "knock", 0, 50, 3)  # over the knock limit
    assert response.status_code == 422
    form = re.search(
        r'<form method="post" action="/g/[\w-]+/hands#enter"[^>]*>', response.get_data(as_text=True)
    )
    assert form and "data-live-keep" in form.group(0)


def test_corrections_and_deletions_are_never_swapped(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 20)
    for path in ("hands/1/edit", "hands/1/delete"):
        page = client.get(f"/g/{game}/{path}").get_data(as_text=True)
        assert re.search(r"<form [^>]*data-live-keep", page), path


def test_a_background_fetch_leaves_flash_messages_and_the_session(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client)
    client.get("/")  # a page drawn before: the session holds its CSRF token
    quick(client, game, "dead", None)  # flashes "Hand 1 saved." for the next page
    background = client.get(f"/g/{game}", headers={"X-Scorekeeper-Live": "1"})
    assert 'class="flash' not in background.get_data(as_text=True)
    assert "Set-Cookie" not in background.headers
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert re.search(r'<p class="flash flash-message" role="status">Hand 1 saved\.</p>', page)


def test_a_restored_hand_is_told_as_restored(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 20)
    win(client, game, 1, 30)
    assert client.post(f"/g/{game}/undo", data={"version": "2"}).status_code == 302
    page = client.get(f"/g/{game}").get_data(as_text=True)
    action = re.search(r'<form method="post" class="restore" action="([^"]+)"', page)
    assert action, page
    assert client.post(action.group(1), data={"version": "3"}).status_code == 302
    response = live(client, game, '"3"')
    assert response.get_json()["version"] == 4
    assert response.get_json()["changed"] == SAVED % "hand 2 restored"
