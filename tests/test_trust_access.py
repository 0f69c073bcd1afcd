"""Strangers: no change without the game's secret, CSRF on every form, safe headers,
bounded input, escaped names, unguessable tokens, a PIN that cannot be brute-forced."""

from __future__ import annotations

import re
import stat
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import scorekeeper
from tests.helpers import new_game, quick, state, version_of

HOSTILE = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


def game_with_a_hand(client: FlaskClient, **extra: Any) -> str:
    game = new_game(client, **extra)
    assert quick(client, game, "knock", 0, 3, 20).status_code == 302
    return game


def snapshot(client: FlaskClient, game: str) -> dict[str, Any]:
    return state(client, game)


# (method, path) of every change a watcher might try; {g} is the game's id
MUTATIONS = [
    ("POST", "/g/{g}/hands"),
    ("GET", "/g/{g}/hands/new"),
    ("POST", "/g/{g}/hands/new"),
    ("GET", "/g/{g}/hands/1/edit"),
    ("POST", "/g/{g}/hands/1/edit"),
    ("GET", "/g/{g}/hands/1/edit?mode=cards"),
    ("POST", "/g/{g}/hands/1/edit?mode=cards"),
    ("GET", "/g/{g}/hands/1/delete"),
    ("POST", "/g/{g}/hands/1/delete"),
    ("POST", "/g/{g}/undo"),
    ("POST", "/g/{g}/rematch"),
    ("POST", "/g/{g}/pin"),
]
FORM = {"outcome": "dead", "knocker": "0", "knocker_deadwood": "0", "defender_deadwood": "0",
        "pin": "1234", "version": "1", "token": "t"}


def test_a_watcher_cannot_change_the_game(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    before = snapshot(client, game)
    watcher = client.application.test_client()
    for method, path in MUTATIONS:
        response = watcher.open(path.format(g=game), method=method, data=FORM)
        assert response.status_code == 403, (method, path)
    assert snapshot(client, game) == before


def test_the_api_refuses_a_hand_without_the_secret(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    before = snapshot(client, game)
    for secret in (None, "", "wrong", "x" * 5000, game):
        headers = {} if secret is None else {"X-Edit-Secret": secret}
        response = client.post(f"/api/v1/games/{game}/hands", json={"outcome": "dead"},
                               headers=headers)
        assert response.status_code == 403, secret
        assert response.get_json()["errors"][0]["where"] == "X-Edit-Secret"
    assert snapshot(client, game) == before


def test_a_watcher_never_sees_the_edit_secret(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    watcher = client.application.test_client()
    for path in (f"/g/{created['id']}", f"/g/{created['id']}/history",
                 f"/api/v1/games/{created['id']}", f"/g/{created['id']}/export.json"):
        assert created["edit_secret"] not in watcher.get(path).get_data(as_text=True), path


def test_a_wrong_edit_link_gives_no_rights(client: FlaskClient) -> None:
    game = game_with_a_hand(client)
    watcher = client.application.test_client()
    page = watcher.get(f"/g/{game}?key=guess").get_data(as_text=True)
    assert "not right" in page
    assert watcher.post(f"/g/{game}/undo").status_code == 403


@pytest.fixture
def csrf_client(make_app: Any) -> FlaskClient:
    client: FlaskClient = make_app(WTF_CSRF_ENABLED=True).test_client()
    return client


def csrf_token(client: FlaskClient, path: str = "/games/new") -> str:
    page = client.get(path).get_data(as_text=True)
    match = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page)
    assert match, page
    return match.group(1)


def test_csrf_is_enforced_on_every_form(csrf_client: FlaskClient) -> None:
    new = {"variant": "gin", "player1": "Ann", "player2": "Bob", "preset": "classic",
           "dealer": "0"}
    assert csrf_client.post("/games/new", data=new).status_code == 400
    token = csrf_token(csrf_client)
    response = csrf_client.post("/games/new", data={**new, "csrf_token": token})
    assert response.status_code == 302
    game = response.headers["Location"].rsplit("/", 1)[-1]
    version = version_of(csrf_client, game)
    hand = {"outcome": "knock", "knocker": "0", "knocker_deadwood": "3",
            "defender_deadwood": "20", "version": version}
    for path, data in [(f"/g/{game}/hands", hand), (f"/g/{game}/hands/new", hand),
                       (f"/g/{game}/undo", {}), (f"/g/{game}/rematch", {}),
                       (f"/g/{game}/pin", {"pin": "1234"}), (f"/g/{game}/unlock", {"pin": "1"}),
                       ("/lang", {"lang": "ru"}), ("/import", {}),
                       (f"/g/{game}/hands", {**hand, "csrf_token": "forged"})]:
        response = csrf_client.post(path, data=data)
        assert response.status_code == 400, path
        assert "too old" in response.get_data(as_text=True)
    assert state(csrf_client, game)["hands"] == []
    saved = csrf_client.post(f"/g/{game}/hands", data={**hand, "csrf_token": token})
    assert saved.status_code == 302


def test_the_api_needs_no_csrf_token(csrf_client: FlaskClient) -> None:
    created = csrf_client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
    assert created.status_code == 201
    game = created.get_json()
    response = csrf_client.post(f"/api/v1/games/{game['id']}/hands", json={"outcome": "dead"},
                                headers={"X-Edit-Secret": game["edit_secret"]})
    assert response.status_code == 201


def test_security_headers_on_every_response(client: FlaskClient) -> None:
    for path in ("/", "/games/new", "/api/v1/games/nope", "/nowhere", "/import", "/check"):
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        csp = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert "'unsafe-inline'" not in csp["script-src"], path
        assert "'unsafe-eval'" not in csp["script-src"], path
        assert csp["frame-ancestors"] == "'none'", path
        assert headers["Referrer-Policy"] == "same-origin", path
        assert headers["X-Content-Type-Options"] == "nosniff", path


def test_session_cookie_is_http_only_and_same_site(client: FlaskClient) -> None:
    new_game(client)
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"


BIG_BODIES = [
    ("/api/v1/games", "json"), ("/api/v1/gin/settle", "json"), ("/api/v1/gin/arrange", "json"),
    ("/games/new", "form"), ("/import", "form"), ("/api/v1/games/{g}/hands", "json"),
    ("/g/{g}/hands", "form"), ("/g/{g}/unlock", "form"),
]


def test_a_body_over_a_mebibyte_is_refused(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    game = created["id"]
    client.get(f"/g/{game}?key={created['edit_secret']}")
    before = state(client, game)
    big = "x" * (1024 * 1024 + 1)
    headers = {"X-Edit-Secret": created["edit_secret"]}
    for path, kind in BIG_BODIES:
        if kind == "json":
            response = client.post(path.format(g=game), data='{"players": ["' + big + '"]}',
                                   content_type="application/json", headers=headers)
        else:
            response = client.post(path.format(g=game), data={"player1": big, "pin": big})
        assert response.status_code == 413, path
    assert state(client, game) == before


def test_names_over_forty_characters_are_refused(app: Flask, client: FlaskClient) -> None:
    response = client.post("/api/v1/games", json={"players": ["A" * 41, "Bob"]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["where"] == "players[0]"
    page = client.post("/games/new", data={"variant": "gin", "player1": "A" * 41,
                                           "player2": "Bob", "preset": "classic", "dealer": "0"})
    assert page.status_code != 302 and "40" in page.get_data(as_text=True)
    assert client.post("/api/v1/games", json={"players": ["A" * 40, "Bob"]}).status_code == 201


def test_a_hostile_name_is_shown_escaped(client: FlaskClient) -> None:
    game = new_game(client, players=(HOSTILE, '"><img src=x onerror=alert(1)>'))
    assert quick(client, game, "knock", 0, 3, 20).status_code == 302
    for path in (f"/g/{game}", f"/g/{game}/history", f"/g/{game}/hands/1", "/"):
        page = client.get(path).get_data(as_text=True)
        assert HOSTILE not in page and "<img src=x" not in page, path
    assert ESCAPED in client.get(f"/g/{game}").get_data(as_text=True)
    assert ESCAPED in client.get(f"/g/{game}/history").get_data(as_text=True)


def test_ids_and_secrets_are_long_random_tokens(client: FlaskClient) -> None:
    created = [client.post("/api/v1/games", json={"players": ["A", "B"]}).get_json()
               for _ in range(20)]
    ids = {g["id"] for g in created}
    secrets = {g["edit_secret"] for g in created}
    assert len(ids) == len(secrets) == 20
    token = re.compile(r"^[A-Za-z0-9_-]+$")
    assert all(token.match(i) and len(i) >= 21 for i in ids)  # ≥ 128 bits
    assert all(token.match(s) and len(s) >= 32 for s in secrets)  # ≥ 192 bits
    assert not ids & secrets
    edit_link = created[0]["edit_url"].split("://", 1)[1].split("/", 1)[1]
    assert client.get("/" + edit_link).status_code == 302
    page = client.get(f"/g/{created[0]['id']}").get_data(as_text=True)
    form_token = re.search(r'name="token" type="hidden" value="([^"]+)"', page)
    assert form_token and len(form_token.group(1)) >= 21


def test_the_pin_locks_after_ten_wrong_guesses(client: FlaskClient) -> None:
    game = new_game(client, pin="4321")
    guesser = client.application.test_client()
    for guess in range(10):
        response = guesser.post(f"/g/{game}/unlock", data={"pin": f"{guess:04d}"})
        assert response.status_code == 422
    response = guesser.post(f"/g/{game}/unlock", data={"pin": "4321"})
    assert response.status_code == 422  # the right PIN no longer works
    assert guesser.post(f"/g/{game}/undo").status_code == 403
    # the edit link still works, and setting a new PIN switches the PIN back on
    assert client.post(f"/g/{game}/pin", data={"pin": "5555"}).status_code == 302
    assert guesser.post(f"/g/{game}/unlock", data={"pin": "5555"}).status_code == 302


def test_nine_wrong_guesses_then_the_right_pin_works(client: FlaskClient) -> None:
    game = new_game(client, pin="4321")
    other = client.application.test_client()
    for guess in range(9):
        assert other.post(f"/g/{game}/unlock", data={"pin": f"{guess:04d}"}).status_code == 422
    assert other.post(f"/g/{game}/unlock", data={"pin": "4321"}).status_code == 302


def test_a_game_without_a_pin_cannot_be_unlocked(client: FlaskClient) -> None:
    game = new_game(client)
    other = client.application.test_client()
    for pin in ("", "0000", "1234"):
        assert other.post(f"/g/{game}/unlock", data={"pin": pin}).status_code in (200, 422)
    assert other.post(f"/g/{game}/undo").status_code == 403


def test_the_secret_key_is_generated_into_the_instance_folder(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    first = scorekeeper._instance_secret_key(tmp_path / "a")
    assert re.fullmatch(r"[0-9a-f]{64}", first)
    path = tmp_path / "a" / "secret_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert scorekeeper._instance_secret_key(tmp_path / "a") == first  # kept across restarts
    (tmp_path / "b").mkdir()
    assert scorekeeper._instance_secret_key(tmp_path / "b") != first  # per install


def test_the_factory_uses_the_instance_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           database_url: str) -> None:
    instance = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(instance))
    app = scorekeeper.create_app({"TESTING": True, "DATABASE_URL": database_url})
    try:
        key = app.config["SECRET_KEY"]
        assert key == (instance / "secret_key").read_text().strip()
        assert key not in ("dev", "test", "secret", "change-me") and len(key) == 64
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_try_pin_stops_working_after_ten_wrong_guesses() -> None:
    from scorekeeper.models import Game
    from scorekeeper.services import access

    game = Game(pin_failures=0)
    access.set_pin(game, "4321")
    assert [access.try_pin(game, "0000") for _ in range(access.PIN_ATTEMPTS)] == [False] * 10
    assert access.PIN_ATTEMPTS == 10
    assert access.try_pin(game, "4321") is False
    access.set_pin(game, "4321")
    assert access.try_pin(game, "4321") is True
