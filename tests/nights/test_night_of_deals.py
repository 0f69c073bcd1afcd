"""A night of a fixed number of deals (tournament play against the clock), of every kind
a night plays: each table's game takes the night's deals as its own rule, ends after
the last one (no hand more is taken), and the standings come from the tables' game
records. Every number below is worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import get_session
from scorekeeper.models import Game, Night
from tests.helpers import night_tables as tables
from tests.helpers import quick, win
from tests.helpers import start_night as start


def night(client: FlaskClient, variant: str, rules: Any, players: list[Any],
          deals: int) -> tuple[str, dict[str, str], dict[str, Any]]:
    """A night of two entrants started over the API, its first round made: its id, the
    organiser's header and the one table."""
    body = {"players": players, "variant": variant, "rules": rules,
            "format": "round_robin", "deals": deals}
    response = client.post("/api/v1/nights", json=body)
    assert response.status_code == 201, response.get_json()
    made = response.get_json()
    organiser = {"X-Edit-Secret": made["organiser_secret"]}
    (table,) = client.post(f"/api/v1/nights/{made['id']}/rounds", headers=organiser
                           ).get_json()["tables"]
    return made["id"], organiser, table


def knock(seat: int, points: int, **extra: Any) -> dict[str, Any]:
    """``seat`` knocks with 1 against ``points + 1``: exactly ``points`` to him."""
    return {"outcome": "knock", "knocker": seat, "knocker_deadwood": 1,
            "defender_deadwood": points + 1, **extra}


def send(client: FlaskClient, game: str, organiser: dict[str, str], body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/games/{game}/hands", json=body, headers=organiser)


def confirmed_standings(client: FlaskClient, night_id: str, game: str,
                        organiser: dict[str, str]) -> list[tuple[Any, ...]]:
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["rounds"][0]["tables"][0]["state"] == "finished"
    done = client.post(f"/api/v1/games/{game}/confirm", headers=organiser)
    assert done.get_json()["counted"] is True
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    return [(s["player"], s["points"], s["wins"], s["draws"], s["point_difference"])
            for s in seen["standings"]]


def the_rules_of(app: Flask, game_id: str) -> dict[str, Any]:
    with app.test_request_context():
        game = get_session().get(Game, game_id)
        assert game is not None
        return dict(game.rules)


@pytest.mark.parametrize(
    ("variant", "rules", "hands", "standings"),
    [
        # Classic, no bonuses: Ann +20, Bob +15; after 2 deals Ann wins 20 to 15.
        pytest.param("gin", "classic", [knock(0, 20), knock(1, 15)],
                     [("Ann", 2, 1, 0, 5), ("Bob", 0, 0, 0, -5)], id="gin"),
        # Oklahoma (modern values: game 100, box 25), king upcards: Ann 20 + 100 + 25 = 145,
        # Bob 15 + 25 = 40.
        pytest.param("oklahoma", "oklahoma",
                     [knock(0, 20, upcard="KH"), knock(1, 15, upcard="KH")],
                     [("Ann", 2, 1, 0, 105), ("Bob", 0, 0, 0, -105)], id="oklahoma"),
        # Hollywood, Russian: both hands go into game 1, A 20 + 100 + 25 = 145, B 15 + 25 = 40;
        # games 2 and 3 got no hand: drawn at 0. The match: 145 to 40.
        pytest.param("hollywood", "russian", [knock(0, 20), knock(1, 15)],
                     [("Ann", 2, 1, 0, 105), ("Bob", 0, 0, 0, -105)], id="hollywood"),
    ],
)
def test_a_two_player_night_of_two_deals(
    client: FlaskClient, app: Flask, variant: str, rules: str, hands: list[dict[str, Any]],
    standings: list[tuple[Any, ...]],
) -> None:
    night_id, organiser, table = night(client, variant, rules, ["Ann", "Bob"], 2)
    game = table["game"]
    assert the_rules_of(app, game)["deals"] == 2
    for hand in hands:
        assert send(client, game, organiser, hand).status_code == 201
    refused = send(client, game, organiser, hands[0])
    assert refused.status_code == 409
    assert refused.get_json()["errors"][0]["message"] == "the game is over: no more hands"
    assert confirmed_standings(client, night_id, game, organiser) == standings


def test_a_drawn_table_is_a_draw_in_the_standings(client: FlaskClient) -> None:
    night_id, organiser, table = night(client, "gin", "russian", ["Ann", "Bob"], 2)
    for hand in (knock(0, 20), knock(1, 20)):
        assert send(client, table["game"], organiser, hand).status_code == 201
    sheet = client.get(f"/api/v1/games/{table['game']}").get_json()
    assert sheet["finished"] is True and sheet["winner"] is None
    # Level at 20: a drawn game, no game or box bonus for anybody.
    assert sheet["settlement"]["winner"] is None
    assert sheet["settlement"]["finals"] == [20, 20] and sheet["settlement"]["margin"] == 0
    assert confirmed_standings(client, night_id, table["game"], organiser) == [
        ("Ann", 1, 0, 1, 0), ("Bob", 1, 0, 1, 0)]


def test_a_partnership_night_of_one_deal(client: FlaskClient) -> None:
    night_id, organiser, table = night(
        client, "partnership", "partnership", [["Ann", "Cid"], ["Bob", "Dan"]], 1)
    assert table["players"] == ["Ann & Cid", "Bob & Dan"]
    # Deal 1: Ann v Bob, Ann +20; Cid v Dan, Dan +5: net 15 to Ann & Cid, who shut
    # Bob & Dan out: (15 + 100) × 2 + 1 × 25 = 255.
    deal = {"tables": [knock(0, 20), knock(1, 5)]}
    assert send(client, table["game"], organiser, deal).status_code == 201
    assert send(client, table["game"], organiser, deal).status_code == 409
    assert confirmed_standings(client, night_id, table["game"], organiser) == [
        ("Ann & Cid", 2, 1, 0, 255), ("Bob & Dan", 0, 0, 0, -255)]


def test_a_hollywood_night_through_its_pages(client: FlaskClient, app: Flask) -> None:
    """The new-night page takes deals for Hollywood; a table's game ends after them."""
    night_id = start(client, "Ann\nBob", variant="hollywood", preset="russian",
                     night_deals="1")
    with app.test_request_context():
        kept = get_session().get(Night, night_id)
        assert kept is not None and kept.deals == 1
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = tables(app, night_id, 1)
    assert table.game_id is not None
    with app.test_request_context():
        game = get_session().get(Game, table.game_id)
        assert game is not None
        secret = game.edit_secret
    client.get(f"/g/{table.game_id}?key={secret}")
    win(client, table.game_id, 1, 30)
    # One hand: game 1 to Bob, shutout: (30 + 100) × 2 + 25 = 285; games 2, 3 drawn at 0.
    sheet = client.get(f"/g/{table.game_id}").get_data(as_text=True)
    assert "The match is over" in sheet
    assert "Game 2: a drawn game at 0" in sheet
    assert "Confirm this result" in sheet
    refused = quick(client, table.game_id, "knock", 0, 1, 11)
    assert refused.status_code == 409
    assert "The game is over: no more hands." in refused.get_data(as_text=True)
    assert client.post(f"/g/{table.game_id}/confirm").status_code == 302
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert [(s["player"], s["points"], s["point_difference"]) for s in seen["standings"]] == [
        ("Bob", 2, 285), ("Ann", 0, -285)]
