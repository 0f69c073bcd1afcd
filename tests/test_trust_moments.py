"""An import whose moment is out of range: ``9999-12-31T23:59:59-14:00`` is a valid ISO
8601 moment, but in UTC it falls in the year 10000, which no datetime (and no database
column) holds; ``0001-01-01T00:00:00+14:00`` falls before the year 1. Each is refused as
a problem of the file at its field, by the page and by ``scorekeeper import``, and
nothing is written (SQLite and PostgreSQL)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import Change, Game, Group, GroupChange, Night, NightChange
from tests.helpers import night_tables, play_out, start_night, upload

MOMENT_KEYS = ("created_at", "at", "confirmed_at")
OUT_OF_RANGE = ("9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00")


def moments(value: Any, where: str = "") -> Iterator[str]:
    """The place of every moment an import reads in an export document
    (``nights[0].created_at``): all but a group's ``created_at``, which an import does
    not read (the group it makes is new, as its id is)."""
    if isinstance(value, dict):
        for key, item in value.items():
            at = f"{where}.{key}" if where else key
            if key in MOMENT_KEYS and isinstance(item, str):
                if not re.fullmatch(r"groups\[\d+\]\.created_at", at):
                    yield at
            else:
                yield from moments(item, at)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from moments(item, f"{where}[{i}]")


def set_at(document: dict[str, Any], place: str, value: str) -> None:
    steps = place.replace("[", ".").replace("]", "").split(".")
    target: Any = document
    for step in steps[:-1]:
        target = target[int(step)] if step.isdigit() else target[step]
    target[steps[-1]] = value


def counts(app: Flask) -> list[int]:
    with app.app_context():
        db = get_session()
        return [db.scalar(select(func.count()).select_from(model)) or 0
                for model in (Game, Change, Group, GroupChange, Night, NightChange)]


@pytest.fixture
def document(client: FlaskClient, app: Flask) -> dict[str, Any]:
    """A group's export holding a game with a history, a payment and a club night whose
    first table is played out and confirmed."""
    made = client.post("/api/v1/groups", json={"name": "Club", "players": ["Ann", "Bob"]})
    assert made.status_code == 201, made.get_data(as_text=True)
    group = made.get_json()
    key = {"X-Edit-Secret": group["edit_secret"]}
    paid = client.post(f"/api/v1/groups/{group['id']}/payments", headers=key,
                       json={"from": "Ann", "to": "Bob", "amount": "2.50"})
    assert paid.status_code in (200, 201), paid.get_data(as_text=True)
    client.get(group["edit_url"])
    night_id = start_night(client, "Ann\nBob", group=group["id"])
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = night_tables(app, night_id, 1)
    assert table.game_id is not None
    play_out(client, table.game_id, 0)
    assert client.post(f"/g/{table.game_id}/confirm").status_code == 302
    exported = client.get(f"/groups/{group['id']}/export.json")
    assert exported.status_code == 200
    loaded: dict[str, Any] = json.loads(exported.data)
    return loaded


def test_every_kind_of_moment_is_in_the_file(document: dict[str, Any]) -> None:
    kinds = {place.split("]")[-1] if "]" in place else place for place in moments(document)}
    # A game's, its history's, a payment's history, a night's, a round's, a table's
    # confirmation and a night's history.
    assert {".created_at", ".at", ".confirmed_at"} <= kinds
    places = list(moments(document))
    for wanted in ("games[0].created_at", "games[0].history[0].at", "groups[0].history[0].at",
                   "nights[0].created_at", "nights[0].history[0].at"):
        assert wanted in places, places
    assert any(place.endswith(".confirmed_at") for place in places), places
    assert any("rounds[0]" in place and place.endswith(".created_at") for place in places)


@pytest.mark.parametrize("moment", OUT_OF_RANGE)
def test_an_out_of_range_moment_is_refused_at_its_field(
    document: dict[str, Any], client: FlaskClient, app: Flask, tmp_path: Path, moment: str
) -> None:
    before = counts(app)
    for place in moments(document):
        bad = copy.deepcopy(document)
        set_at(bad, place, moment)
        content = json.dumps(bad).encode()
        response = upload(client, content)
        page = response.get_data(as_text=True)
        assert response.status_code == 422, (place, page[:500])
        assert f"{place}: must be a date and time (ISO 8601) from the year 1 to 9999 in UTC" in (
            page), place
        assert counts(app) == before, place
        path = tmp_path / "bad.json"
        path.write_bytes(content)
        result = app.test_cli_runner().invoke(args=["import", str(path)])
        assert result.exit_code == 1, (place, result.output)
        assert f"{place}: must be a date and time" in result.output, place
        assert "nothing was imported" in result.output
        assert counts(app) == before, place


def test_a_moment_in_another_zone_is_kept_as_its_utc(
    document: dict[str, Any], client: FlaskClient, app: Flask
) -> None:
    document["games"][0]["created_at"] = "2026-03-01T10:00:00+03:30"
    response = upload(client, json.dumps(document).encode())
    assert response.status_code == 302, response.get_data(as_text=True)
    with app.app_context():
        created = get_session().scalars(select(Game.created_at).order_by(Game.created_at)).first()
    assert created is not None
    assert (created.year, created.month, created.day, created.hour, created.minute) == (
        2026, 3, 1, 6, 30)
