"""How fast one client may create: games and groups (API and pages together), kept
rulings and imports, per client address, answered past the limit with 429 and
Retry-After."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.models import Game, Group, Ruling
from scorekeeper.scoring import PRESETS

NEW_GAME = {"variant": "gin", "player1": "Ann", "player2": "Bob", "preset": "classic",
            "dealer": "0"}


@pytest.fixture
def limited(make_app: Any) -> Flask:
    """Two creations and two rulings a minute, one import an hour (the other tests run
    without limits)."""
    app: Flask = make_app(RATELIMIT_ENABLED=True, RATELIMIT_CREATE="2 per minute",
                          RATELIMIT_IMPORT="1 per hour", RATELIMIT_RULINGS="2 per minute")
    return app


def stored(app: Flask) -> tuple[int, int]:
    with app.extensions["scorekeeper.db"]() as db:
        return (db.scalar(select(func.count()).select_from(Game)) or 0,
                db.scalar(select(func.count()).select_from(Group)) or 0)


def retry_after(response: Any) -> int:
    seconds = int(response.headers["Retry-After"])
    assert 1 <= seconds <= 60
    return seconds


def too_many(response: Any) -> None:
    """The API's answer past a limit: 429, ``Retry-After`` and the seconds in words."""
    assert response.status_code == 429
    seconds = retry_after(response)
    assert response.get_json() == {"errors": [{
        "where": "request",
        "message": "Too many new games, rulings or imports from this device. "
                   f"Try again in {seconds} seconds.",
    }]}


def test_the_api_answers_429_with_retry_after_past_the_limit(limited: Flask) -> None:
    client = limited.test_client()
    for _ in range(2):
        assert client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).status_code == 201
    too_many(client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}))
    assert stored(limited) == (2, 0)
    # A group is a creation too: the same count.
    group = client.post("/api/v1/groups", json={"name": "Friday", "players": ["Ann"]})
    assert group.status_code == 429
    assert stored(limited) == (2, 0)
    # Reading is never limited.
    assert client.get("/").status_code == 200


def test_the_pages_and_the_api_share_one_count_per_client(limited: Flask) -> None:
    phone = limited.test_client()
    assert phone.get("/games/new").status_code == 200
    assert phone.post("/games/new", data=NEW_GAME).status_code == 302
    assert phone.post("/groups/new", data={"name": "Friday", "players": "Ann"}).status_code == 302
    page = phone.post("/games/new", data=NEW_GAME)
    assert page.status_code == 429
    retry_after(page)
    assert "Too many new games, rulings or imports from this device." in page.get_data(
        as_text=True)
    assert phone.post("/groups/new", data={"name": "Sat", "players": "Ann"}).status_code == 429
    assert phone.get("/games/new").status_code == 200  # the form itself still opens
    # Another client (another address) has its own count.
    other = limited.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert other.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).status_code == 201
    assert stored(limited) == (2, 1)


def test_a_refused_creation_costs_nothing(limited: Flask) -> None:
    client = limited.test_client()
    for _ in range(5):  # a form sent back with its mistakes, a body refused at its field
        assert client.post("/games/new", data={**NEW_GAME, "player2": ""}).status_code == 422
        assert client.post("/api/v1/games", json={"players": ["Ann"]}).status_code == 422
    for _ in range(2):
        assert client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).status_code == 201
    assert client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).status_code == 429


def export_file() -> bytes:
    return json.dumps({"format": "scorekeeper-export", "format_version": 1, "variant": "gin",
                       "players": ["Ann", "Bob"], "rules": PRESETS["classic"].to_dict(),
                       "setup": {"dealer": 0}, "hands": []}).encode()


def test_imports_have_their_own_limit(limited: Flask) -> None:
    client = limited.test_client()
    sent = {"file": (io.BytesIO(export_file()), "backup.json")}
    assert client.post("/import", data=sent, content_type="multipart/form-data").status_code == 302
    again = client.post("/import", data={"file": (io.BytesIO(export_file()), "backup.json")},
                        content_type="multipart/form-data")
    assert again.status_code == 429
    assert 1 <= int(again.headers["Retry-After"]) <= 3600
    assert stored(limited) == (1, 0)
    # Creating has a count of its own.
    assert client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).status_code == 201


def test_the_answer_is_in_the_pages_language(limited: Flask) -> None:
    client = limited.test_client()
    for _ in range(2):
        client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
    page = client.post("/games/new", data=NEW_GAME, headers={"Accept-Language": "ru"})
    assert page.status_code == 429
    assert "С этого устройства слишком много новых игр, решений или импортов." in (
        page.get_data(as_text=True))


def test_the_limits_come_from_the_environment(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_RATELIMIT_CREATE", "1 per minute")
    monkeypatch.setenv("SCOREKEEPER_RATELIMIT_RULINGS", "1 per minute")
    app: Flask = make_app(RATELIMIT_ENABLED=True)
    assert app.config["RATELIMIT_CREATE"] == app.config["RATELIMIT_RULINGS"] == "1 per minute"
    client = app.test_client()
    for path, body in (("/api/v1/games", {"players": ["Ann", "Bob"]}),
                       ("/api/v1/rulings", RULING)):
        assert client.post(path, json=body).status_code == 201
        assert client.post(path, json=body).status_code == 429
    monkeypatch.setenv("SCOREKEEPER_RATELIMIT_ENABLED", "0")
    monkeypatch.delenv("SCOREKEEPER_RATELIMIT_CREATE")
    from scorekeeper import create_app

    plain = create_app({"TESTING": True, "SECRET_KEY": "t",
                        "DATABASE_URL": app.config["DATABASE_URL"]})
    plain.extensions["scorekeeper.engine"].dispose()  # its connection, closed now
    assert plain.config["RATELIMIT_ENABLED"] is False


def test_an_app_without_settings_limits_creation() -> None:
    """The defaults a fresh install runs with."""
    from scorekeeper.limits import DEFAULTS

    assert DEFAULTS["RATELIMIT_ENABLED"] is True
    assert DEFAULTS["RATELIMIT_CREATE"] == "30 per minute;300 per day"
    assert DEFAULTS["RATELIMIT_IMPORT"] == "10 per hour"
    assert DEFAULTS["RATELIMIT_RULINGS"] == "30 per minute;300 per day"


# RULES.md §8 example 7 (tests/test_rulings.py): the defender undercuts.
KNOCKER = "KS KH KD 5S 6S 7S 9C TC JC JD"
DEFENDER = "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"
RULING = {"rules": "russian", "knocker": {"cards": KNOCKER}, "defender": {"cards": DEFENDER}}
KEEP_FORM = {"preset": "modern", "knocker_cards": KNOCKER, "defender_cards": DEFENDER}


def rulings_kept(app: Flask) -> int:
    with app.extensions["scorekeeper.db"]() as db:
        return db.scalar(select(func.count()).select_from(Ruling)) or 0


def test_rulings_have_their_own_limit(limited: Flask) -> None:
    """``POST /api/v1/rulings`` and the checkers' "Keep this ruling" share one count;
    a ruling refused at its fields costs nothing; games have a count of their own."""
    client = limited.test_client()
    for _ in range(3):
        refused = client.post("/api/v1/rulings", json={**RULING, "defender": {"cards": KNOCKER}})
        assert refused.status_code == 422
        assert client.post("/rulings", data={**KEEP_FORM, "defender_cards": ""}).status_code == 422
    assert client.post("/api/v1/rulings", json=RULING).status_code == 201
    assert client.post("/rulings", data=KEEP_FORM).status_code == 303
    too_many(client.post("/api/v1/rulings", json=RULING))
    page = client.post("/rulings", data=KEEP_FORM, headers={"Accept-Language": "fa"})
    assert page.status_code == 429
    retry_after(page)
    assert "از این دستگاه بازی تازه، رأی یا وارد کردن بیش از حد انجام شده است." in page.get_data(
        as_text=True)
    assert rulings_kept(limited) == 2
    assert client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).status_code == 201
    other = limited.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    assert other.post("/api/v1/rulings", json=RULING).status_code == 201


def test_the_api_document_says_a_ruling_may_be_refused_for_now() -> None:
    from scorekeeper.api.openapi import document

    described = document()
    responses = described["paths"]["/rulings"]["post"]["responses"]
    assert responses["429"] == {"$ref": "#/components/responses/429"}
    retry = described["components"]["responses"]["429"]["headers"]["Retry-After"]
    assert retry["schema"] == {"type": "integer", "minimum": 1}
