"""JSON written by orjson (``scorekeeper/jsoncodec.py``): the app's answers and the
values of PostgreSQL's JSON columns are the JSON the standard library wrote, compact,
keys sorted, letters outside ASCII as UTF-8; what orjson refuses is still written."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper.db import writer_engine
from scorekeeper.jsoncodec import dumps

HAND = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 6}


@dataclass
class Seat:
    name: str
    seat: int


def test_answers_are_compact_sorted_and_utf8(app: Flask) -> None:
    assert app.json.dumps({"players": ["Ана", "Дима"], "box": 1, "after": None}) == (
        '{"after":null,"box":1,"players":["Ана","Дима"]}'
    )


def test_answers_keep_flasks_own_defaults(app: Flask) -> None:
    """Dates as HTTP dates, decimals as text, dataclasses as objects, as Flask writes them."""
    at = datetime(2026, 12, 4, 20, 41, 56, tzinfo=UTC)
    assert app.json.dumps({"at": at, "stake": Decimal("0.50"), "seat": Seat("Ана", 1)}) == (
        '{"at":"Fri, 04 Dec 2026 20:41:56 GMT","seat":{"name":"Ана","seat":1},"stake":"0.50"}'
    )


def test_what_orjson_refuses_is_written_by_the_standard_library(app: Flask) -> None:
    assert app.json.dumps({"n": 2**70}) == '{"n": 1180591620717411303424}'
    assert dumps({"name": "Ана", "n": 2**64}) == '{"name":"Ана","n":18446744073709551616}'.encode()
    with pytest.raises(TypeError):
        app.json.dumps({"cards": {"7H", "8H"}})  # a set is no JSON, as before
    with pytest.raises(TypeError):
        dumps({"cards": {"7H"}})


def test_debug_answers_are_indented(app: Flask) -> None:
    assert app.json.dumps({"b": [1], "a": "Ана"}, indent=2) == (
        '{\n  "a": "Ана",\n  "b": [\n    1\n  ]\n}'
    )


def test_an_api_answer_reads_back_the_same(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"players": ["Ана", "Дима"]})
    assert created.status_code == 201
    game = created.get_json()
    answer = client.post(f"/api/v1/games/{game['id']}/hands", json=HAND,
                         headers={"X-Edit-Secret": game["edit_secret"]})
    assert answer.status_code == 201
    assert answer.mimetype == "application/json"
    assert '"players":["Ана","Дима"]' in answer.get_data(as_text=True)
    body = json.loads(answer.get_data())
    assert body["players"] == ["Ана", "Дима"]
    assert body["hand"] == 1
    assert body["totals"] == [1, 0]  # knocker 5 against 6: the difference, 1


def test_postgresql_json_columns_are_written_by_orjson(client: FlaskClient, app: Flask) -> None:
    """On PostgreSQL (whose ``json`` keeps the text it was sent) the columns hold orjson's
    text; SQLite's are written by SQLAlchemy's standard-library encoder, as before."""
    game = client.post("/api/v1/games", json={"players": ["Ана", "Дима"]}).get_json()
    saved = client.post(f"/api/v1/games/{game['id']}/hands", json=HAND,
                        headers={"X-Edit-Secret": game["edit_secret"]})
    assert saved.status_code == 201
    with app.app_context(), writer_engine().connect() as connection:
        players, inputs = connection.execute(
            text("SELECT CAST(g.players AS TEXT), CAST(h.inputs AS TEXT) FROM games g"
                 " JOIN hands h ON h.game_id = g.id WHERE g.id = :id"), {"id": game["id"]}).one()
        dialect = connection.dialect.name
    if dialect == "postgresql":
        assert players == '["Ана","Дима"]'
        assert " " not in inputs  # the standard library writes ", " and ": "
    else:
        assert players == '["\\u0410\\u043d\\u0430", "\\u0414\\u0438\\u043c\\u0430"]'
    assert json.loads(inputs) == HAND | {"mode": "quick", "upcard": None}
