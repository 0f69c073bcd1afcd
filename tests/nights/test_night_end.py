"""The night's end: once every round is played and confirmed, the organiser's page and
the board say the night is over, name the winner and the podium and keep the final
standings; the results print carries the night's name, its date and the final standings
with their tie-breaks explained."""

from __future__ import annotations

import io
import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.db import get_session
from scorekeeper.models import Night
from tests.helpers import night_tables as tables
from tests.helpers import play_out
from tests.helpers import start_night as start

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def test_the_end_of_a_night_names_its_winner_and_podium(client: FlaskClient, app: Flask) -> None:
    # Three players, a round robin of three rounds, each with one table and a bye: Bob
    # v Cy, Cy v Ann, Ann v Bob; the first seat wins each.
    night_id = start(client, "Ann\nBob\nCy", name="Friday cards")
    winners = {1: 0, 2: 0, 3: 0}  # the seat that wins each round's table
    for number in (1, 2, 3):
        assert client.post(f"/n/{night_id}/rounds",
                           data={"round": str(number - 1)}).status_code == 302
        (table,) = tables(app, night_id, number)
        play_out(client, table.game_id, winners[number])
        assert client.post(f"/g/{table.game_id}/confirm").status_code == 302
    seated = [(t.a, t.b) for n in (1, 2, 3) for t in tables(app, night_id, n)]
    # Each player wins one table (110 – 0) and has one bye: 4 match points each, one game
    # won each, shutouts 1 each, point difference +110 − 110 = 0 each: level on all.
    won = {seated[n - 1][winners[n]] for n in (1, 2, 3)}
    assert won == {"Ann", "Bob", "Cy"}
    page = words(client.get(f"/n/{night_id}").get_data(as_text=True))
    assert "The night is over" in page
    assert "The winners, level: Ann · Bob · Cy" in page
    assert "1 Ann 4 match points 1 Bob 4 match points 1 Cy 4 match points" in page
    assert "Final standings" in page
    board = words(client.get(f"/n/{night_id}/board").get_data(as_text=True))
    assert "The night is over" in board and "1 Ann 4 match points" in board
    pdf = client.get(f"/n/{night_id}/results.pdf").data
    printed = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
                       .split())
    with app.test_request_context():
        night = get_session().get(Night, night_id)
        assert night is not None
        made = night.created_at
    assert "Friday cards" in printed
    assert f"{MONTHS[made.month - 1]} {made.day}, {made.year}" in printed
    assert "Final standings" in printed and "The night is over" in printed
    assert "Those level on all of these share a place." in printed


def test_a_night_still_playing_shows_no_podium(client: FlaskClient, app: Flask) -> None:
    night_id = start(client, "Ann\nBob\nCy")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    assert "data-night-over" not in page and "Final standings" not in page
    assert "data-night-over" not in client.get(f"/n/{night_id}/board").get_data(as_text=True)
