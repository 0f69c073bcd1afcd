"""A night keeps the limits an export is read back with: its players stop at the most a
night takes (late arrivals too), its history at the most a history holds
(``limits.MOST_CHANGES``), so every night exported imports again."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import limits
from scorekeeper.db import get_session
from scorekeeper.models import Night, NightChange
from scorekeeper.services import nights as service
from tests.helpers import start_night as start
from tests.helpers import upload


def night(app: Flask, night_id: str) -> tuple[list[str], list[str], int]:
    """The night's players, who is away, and how many entries its history holds."""
    with app.test_request_context():
        db = get_session()
        found = db.get(Night, night_id)
        assert found is not None
        held = db.scalar(select(func.count()).select_from(NightChange)
                         .where(NightChange.night_id == night_id))
        return list(found.players), list(found.away), int(held or 0)


def test_a_late_arrival_stops_at_the_most_a_night_takes(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "MOST_ENTRANTS", 5)
    night_id = start(client, "Ann\nBob\nCy\nDi")
    assert client.post(f"/n/{night_id}/arrive", data={"player": "Eve"}).status_code == 302
    refused = client.post(f"/n/{night_id}/arrive", data={"player": "Fay Hollister"})
    assert refused.status_code == 422
    page = unescape(refused.get_data(as_text=True))
    assert "A night takes at most 5 players." in page
    assert re.search(r'<input[^>]*name="player"[^>]*value="Fay Hollister"', page), page
    assert night(app, night_id)[0] == ["Ann", "Bob", "Cy", "Di", "Eve"]


def test_a_full_history_takes_no_more_changes_and_the_night_imports_again(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MOST_CHANGES", 4)
    night_id = start(client, "Ann\nBob\nCy\nDi")  # 1: created
    for away in ("1", "", "1"):  # 2, 3, 4: Cy away, back, away again
        answer = client.post(f"/n/{night_id}/away", data={"player": "Cy", "away": away})
        assert answer.status_code == 302
    # A fifth change is refused on the page, and nothing of it is kept.
    refused = client.post(f"/n/{night_id}/away", data={"player": "Cy", "away": ""})
    assert refused.status_code == 302 and refused.headers["Location"].endswith(f"/n/{night_id}")
    page = unescape(client.get(f"/n/{night_id}").get_data(as_text=True))
    assert "The night's history holds 4 changes, the most it may: it takes no more." in page
    assert night(app, night_id) == (["Ann", "Bob", "Cy", "Di"], ["Cy"], 4)
    # And in the API: the next round is refused with 409, no round made.
    with app.test_request_context():
        found = get_session().get(Night, night_id)
        assert found is not None
        secret = found.organiser_secret
    answer = client.post(f"/api/v1/nights/{night_id}/rounds",
                         headers={"X-Edit-Secret": secret})
    assert answer.status_code == 409
    assert answer.get_json() == {"errors": [{
        "where": "night",
        "message": "the night's history holds 4 changes, the most it may: it takes no more"}]}
    assert client.get(f"/api/v1/nights/{night_id}").get_json()["rounds"] == []
    # Its file imports again, every entry of its history with it.
    document = json.loads(client.get(f"/n/{night_id}/export.json").data)
    assert len(document["nights"][0]["history"]) == 4
    answer = upload(client, json.dumps(document).encode())
    assert answer.status_code == 302, answer.get_data(as_text=True)
    with app.test_request_context():
        copy_ = get_session().scalars(select(Night).where(Night.id != night_id)).one()
        assert [c.action for c in copy_.changes] == ["create", "away", "back", "away"]
