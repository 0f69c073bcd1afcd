"""The rules of a night in words where its standings are read (the organiser's page, the
board's legend, the results print), and "Sits out" as a switch that shows its state and
leaves the player out of the pairing in every format, forfeiting nothing by itself."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.helpers import night_tables as tables
from tests.helpers import start_night as start

POINTS = "Match points: a win 2, a draw 1, a loss 0, a bye 2."
BYE = ("A bye counts as a win (2 match points, no game won); it shows as soon as the round "
       "is paired.")
# The helper's night orders its ties by games won, shutouts, point difference, head to head.
TIES = [
    "Games won: games won at the table (not by a bye or a forfeit).",
    "Shutouts: games won with the other side scoring nothing.",
    "Point difference: each game's final score minus the other side's, added up.",
    "Head-to-head: among those still level, the match points scored in their games "
    "against each other.",
]


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def test_the_standings_rules_are_said_where_the_standings_are_read(
    client: FlaskClient, app: Flask
) -> None:
    night_id = start(client, "Ann\nBob\nCy")
    organiser = client.get(f"/n/{night_id}").get_data(as_text=True)
    said = words(organiser)
    assert POINTS in said and BYE in said
    # Each tie-break of the night, defined, in the night's order.
    rules = re.search(r'<ol class="tie-breaks">(.*?)</ol>', organiser, re.S)
    assert rules, organiser
    assert [words(item) for item in re.findall(r"<li>(.*?)</li>", rules.group(1), re.S)] == TIES
    assert POINTS in words(client.get(f"/n/{night_id}/board").get_data(as_text=True))
    pdf = client.get(f"/n/{night_id}/results.pdf").data
    printed = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
                       .split())
    assert POINTS in printed and TIES[3] in printed


@pytest.mark.parametrize("format", ["swiss", "king_of_the_hill", "round_robin"])
def test_a_player_who_sits_out_is_not_paired_and_forfeits_nothing(
    client: FlaskClient, app: Flask, format: str
) -> None:
    night_id = start(client, "Ann\nBob\nCy\nDi\nEd", format=format, rounds="3")
    assert client.post(f"/n/{night_id}/away", data={"player": "Di", "away": "1"}).status_code == 302
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    # The switch shows its state: pressed for Di alone.
    pressed = re.findall(
        r'<input type="hidden" name="player" value="(\w+)">\s*<input type="hidden" '
        r'name="away" value="(\d)"><button type="submit" class="toggle" '
        r'aria-pressed="(\w+)">Sits out</button>', page)
    assert pressed == [("Ann", "1", "false"), ("Bob", "1", "false"), ("Cy", "1", "false"),
                       ("Di", "0", "true"), ("Ed", "1", "false")]
    assert client.post(f"/n/{night_id}/rounds", data={"round": "0"}).status_code == 302
    seated = [(t.a, t.b) for t in tables(app, night_id, 1)]
    assert len(seated) == 2 and all("Di" not in pair for pair in seated)
    assert all(t.result is None and t.confirmed_at is None for t in tables(app, night_id, 1))
    answer = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert "Di" not in answer["rounds"][0]["byes"]
    standing = {s["player"]: s for s in answer["standings"]}
    assert standing["Di"]["points"] == 0
