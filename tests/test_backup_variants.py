"""Every kind of game survives an export and an import: the sheet comes back identical."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.db import get_session
from scorekeeper.models import Game
from scorekeeper.variants import VARIANTS
from tests.helpers import comparable, counts, upload

QUICK = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20}
GAMES: dict[str, tuple[list[str], list[dict[str, Any]]]] = {
    "oklahoma": (["Ann", "Bob"], [{**QUICK, "upcard": "9S"}, {"outcome": "dead", "upcard": "AH"}]),
    "hollywood": (["Ann", "Bob"], [QUICK, {**QUICK, "knocker": 1}, QUICK]),
    "three_hand": (["Xan", "Yul", "Zed"], [QUICK, {**QUICK, "knocker": 1}, {"outcome": "dead"}]),
    "partnership": (["Ann", "Bob", "Cid", "Dan"], [{"tables": [QUICK, {"outcome": "dead"}]}]),
    "remi": (["Ann", "Bob", "Cid"], [{"went_out": 0, "discard_value": 15, "players": [
        {"plus": 50, "minus": 0}, {"plus": 20, "minus": 30}, {"plus": 0, "minus": 25}]}]),
}


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_a_round_trip_reproduces_the_sheet(client: FlaskClient, variant: str) -> None:
    players, hands = GAMES[variant]
    created = client.post("/api/v1/games", json={"variant": variant, "players": players})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    for i, hand in enumerate(hands):
        added = client.post(f"/api/v1/games/{game['id']}/hands", json=hand, headers={
            "X-Edit-Secret": game["edit_secret"], "Idempotency-Key": f"k{i}"})
        assert added.status_code == 201, added.get_json()
    exported = client.get(f"/g/{game['id']}/export.json").get_json()
    response = upload(client, json.dumps(exported).encode())
    assert response.status_code == 302, response.get_data(as_text=True)
    new_id = re.search(r"/g/([\w-]+)", response.headers["Location"])
    assert new_id and new_id.group(1) != game["id"]
    copy = client.get(f"/g/{new_id.group(1)}/export.json").get_json()
    assert comparable(copy) == comparable(exported)
    assert len(copy["hands"]) == len(hands)


# --- a file the API would refuse a hand of imports nothing --------------------------------

KNOCK = {"mode": "quick", "outcome": "knock", "knocker": 0, "knocker_deadwood": 3,
         "defender_deadwood": 20, "upcard": None}
CARDS = {"mode": "cards", "knocker": 0, "knocker_cards": ["7H", "8H", "9H", "2S", "3S", "4S",
                                                          "KC", "KD", "KS", "AD"],
         "knocker_melds": None, "defender_cards": ["5H", "6H", "2C", "3C", "4C", "QD", "JD",
                                                   "9C", "9D", "8S"],
         "defender_melds": None, "layoffs": None, "upcard": None}
DEAD = {"mode": "quick", "outcome": "dead", "knocker": None, "knocker_deadwood": None,
        "defender_deadwood": None, "upcard": None}
REMI = {"mode": "quick", "went_out": 0, "players": [
    {"plus": 50, "minus": 0, "discard_value": 15}, {"plus": 20, "minus": 30, "discard_value": None},
    {"plus": 0, "minus": 25, "discard_value": None}]}
# Each kind of game: players, setup, and a hand (as an export stores it) the API takes.
KINDS: dict[str, tuple[list[str], dict[str, int], dict[str, Any]]] = {
    "gin": (["Ann", "Bob"], {"dealer": 0}, KNOCK),
    "oklahoma": (["Ann", "Bob"], {"dealer": 0}, {**KNOCK, "upcard": "9S"}),
    "hollywood": (["Ann", "Bob"], {"dealer": 0}, KNOCK),
    "three_hand": (["Xan", "Yul", "Zed"], {"box": 0, "captain": 1}, KNOCK),
    "partnership": (["Ann", "Bob", "Cid", "Dan"], {"dealer": 0},
                    {"mode": "deal", "tables": [KNOCK, DEAD]}),
    "remi": (["Ann", "Bob", "Cid"], {"dealer": 0}, REMI),
}
PRESETS = {"gin": "classic", "oklahoma": "oklahoma", "hollywood": "russian",
           "three_hand": "three_hand", "partnership": "partnership", "remi": "remi"}


def tables(first: dict[str, Any], second: dict[str, Any] = DEAD) -> dict[str, Any]:
    return {"mode": "deal", "tables": [first, second]}


def remi(**changes: Any) -> dict[str, Any]:
    return {**REMI, **changes}


def remi_player(seat: int, **changes: Any) -> dict[str, Any]:
    players = [dict(p) for p in REMI["players"]]
    players[seat].update(changes)
    return remi(players=players)


# (kind, the second hand's stored inputs, the field the answer names, its message; None:
# the engine's own words, not checked here). Worked out from the API's reading of a hand
# body (its shape by the body's type, hands/bodies.py: a seat is 0 to 3 at any table; then
# the variants' hand_inputs/deal_inputs: a seat of this game), never from an import's output.
HOSTILE: list[tuple[str, dict[str, Any], str, str | None]] = [
    ("gin", {**KNOCK, "knocker": 5}, "knocker", "must be between 0 and 3"),
    ("gin", {**KNOCK, "knocker": -1}, "knocker", "must be between 0 and 3"),
    ("gin", {**KNOCK, "knocker": 2}, "knocker", "must be between 0 and 1"),
    ("gin", {**KNOCK, "knocker": "0"}, "knocker", "must be a whole number"),
    ("gin", {**KNOCK, "knocker": True}, "knocker", "must be a whole number"),
    ("gin", {**KNOCK, "knocker_deadwood": 3.5}, "knocker_deadwood", "must be a whole number"),
    ("gin", {**KNOCK, "defender_deadwood": "20"}, "defender_deadwood", "must be a whole number"),
    ("gin", {**KNOCK, "outcome": "win"}, "outcome", "must be one of knock, gin, big_gin, dead"),
    ("gin", {**KNOCK, "mode": "x"}, "mode", "a hand is entered quick or with cards"),
    ("gin", {**CARDS, "knocker": 2}, "knocker", "must be between 0 and 1"),
    ("gin", {**CARDS, "knocker": None}, "knocker", "must be a whole number"),
    ("gin", {**CARDS, "defender_cards": 7}, "defender_cards",
     'must be cards: one string like "7H 8H 9H" or a list of strings'),
    ("gin", {**CARDS, "layoffs": [{"card": "6H", "meld": "0"}]}, "layoffs[0].meld",
     "must be a whole number"),
    ("oklahoma", {**KNOCK, "upcard": 9}, "upcard",
     'must be a card as a string, like "7H" or "10♦"'),
    ("oklahoma", {**KNOCK, "knocker": 2}, "knocker", "must be between 0 and 1"),
    ("hollywood", {**KNOCK, "knocker": 5}, "knocker", "must be between 0 and 3"),
    ("hollywood", {**KNOCK, "knocker": 3}, "knocker", "must be between 0 and 1"),
    ("hollywood", {**KNOCK, "knocker_deadwood": 2.5}, "knocker_deadwood", "must be a whole number"),
    # Three-hand: the knocker is a role, the box (0) or the captain (1); seat 2 sits out.
    ("three_hand", {**KNOCK, "knocker": 2}, "knocker", "must be between 0 and 1"),
    ("three_hand", {**CARDS, "knocker": 2}, "knocker", "must be between 0 and 1"),
    ("three_hand", {**KNOCK, "knocker": "out"}, "knocker", "must be a whole number"),
    ("three_hand", {**KNOCK, "knocker": 1.5}, "knocker", "must be a whole number"),
    ("partnership", tables(DEAD, {**KNOCK, "knocker": 2}), "tables[1].knocker",
     "must be between 0 and 1"),
    ("partnership", tables({**CARDS, "knocker": 3}), "tables[0].knocker",
     "must be between 0 and 1"),
    ("partnership", tables({**KNOCK, "defender_deadwood": None}), "tables[0].defender_deadwood",
     "must be a whole number"),
    ("partnership", {"mode": "deal", "tables": [KNOCK]}, "tables",
     "a deal is two hands: seat 0's table, then seat 2's"),
    ("partnership", KNOCK, "mode", 'a deal is stored as "deal"'),
    ("remi", remi(went_out=3), "went_out", "must be between 0 and 2"),
    ("remi", remi(went_out=True), "went_out", "must be a whole number"),
    ("remi", remi_player(1, plus=2.5), "players[1].plus", "must be a whole number"),
    ("remi", remi_player(2, minus="25"), "players[2].minus", "must be a whole number"),
    ("remi", remi_player(0, discard_value="15"), "players[0].discard_value",
     "must be a whole number"),
    ("remi", remi(players=REMI["players"][:2]), "players",
     "this game has 3 players: send one entry for each, in seat order"),
    ("remi", remi(mode="both"), "mode", "must be quick or cards"),
]


def document(kind: str, second: dict[str, Any]) -> dict[str, Any]:
    players, setup, good = KINDS[kind]
    return {"format": "scorekeeper-export", "format_version": 1, "variant": kind,
            "players": players, "rules": {"preset": PRESETS[kind]}, "setup": setup,
            "hands": [{"number": 1, "inputs": good}, {"number": 2, "inputs": second}]}


def file_field_text(page: str) -> str:
    """The words of the import form's file field, marked wrong (its label, the input,
    what is said under it), tags left out."""
    start = page.index('<form method="post" enctype="multipart/form-data"')
    form = page[start:page.index("</form>", start)]
    field = re.search(r'<div class="field has-error">(.*?type="file".*)</div>', form, re.S)
    assert field is not None, form
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", field.group(1))))


def refused_by_both_importers(
    app: Flask, client: FlaskClient, tmp_path: Path, content: bytes, where: str,
    message: str | None,
) -> None:
    """Neither ``/import`` nor ``scorekeeper import`` writes anything from ``content``; both
    name ``where`` (and ``message``): the page at its file field, the command on stderr."""
    before = counts(app)
    response = upload(client, content)
    assert response.status_code == 422
    said = file_field_text(response.get_data(as_text=True))
    assert "Nothing was imported" in said
    assert f"{where}:" in said
    if message is not None:
        assert f"{where}: {message}" in said
    assert counts(app) == before
    path = tmp_path / "hostile.json"
    path.write_bytes(content)
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code != 0
    assert f"{where}: {message if message is not None else ''}" in result.stderr
    assert "nothing was imported" in result.stderr and result.stdout == ""
    assert counts(app) == before


@pytest.mark.parametrize(("kind", "hand", "field", "message"), HOSTILE,
                         ids=[f"{k}-{f}-{i}" for i, (k, _h, f, _m) in enumerate(HOSTILE)])
def test_a_hand_the_api_refuses_imports_nothing(
    app: Flask, client: FlaskClient, tmp_path: Path, kind: str, hand: dict[str, Any],
    field: str, message: str | None,
) -> None:
    content = json.dumps(document(kind, hand)).encode()
    refused_by_both_importers(app, client, tmp_path, content, f"game.hands[1].inputs.{field}",
                              message)
    # The API refuses the same hand, as the body that stores these inputs.
    game = client.post("/api/v1/games", json={
        "variant": kind, "players": KINDS[kind][0], "rules": PRESETS[kind]}).get_json()
    body, _fields = VARIANTS[kind].stored_body(KINDS[kind][2])
    headers = {"X-Edit-Secret": game["edit_secret"]}
    assert client.post(f"/api/v1/games/{game['id']}/hands", json=body,
                       headers=headers).status_code == 201


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_good_hand_of_every_kind_imports_by_both_importers(
    app: Flask, client: FlaskClient, tmp_path: Path, kind: str
) -> None:
    _players, _setup, good = KINDS[kind]
    content = json.dumps(document(kind, good)).encode()
    response = upload(client, content)
    assert response.status_code == 302, response.get_data(as_text=True)
    path = tmp_path / "good.json"
    path.write_bytes(content)
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        games = get_session().scalars(select(Game)).all()
        assert len(games) == 2
        for game in games:
            assert [h.inputs for h in sorted(game.hands, key=lambda h: h.number)] == [good, good]
    for game in games:
        for page in ("", "/history", "/rules"):
            assert client.get(f"/g/{game.id}{page}").status_code == 200, page


@pytest.mark.parametrize("kind", ["gin", "three_hand", "partnership"])
def test_a_hand_entered_with_cards_imports_as_it_was_stored(
    app: Flask, client: FlaskClient, kind: str
) -> None:
    """Melds and layoffs left for the engine are stored as null: the import reads them as
    left out, and stores the hand as the file has it."""
    players, _setup, _good = KINDS[kind]
    hand = tables(CARDS) if kind == "partnership" else CARDS
    response = upload(client, json.dumps(document(kind, hand)).encode())
    assert response.status_code == 302, response.get_data(as_text=True)
    with app.app_context():
        game = get_session().scalars(select(Game)).one()
        assert game.players == players
        assert sorted(game.hands, key=lambda h: h.number)[1].inputs == hand


@pytest.mark.parametrize("kind", ["gin", "three_hand", "partnership", "remi"])
def test_a_repeated_hand_number_imports_nothing(
    app: Flask, client: FlaskClient, tmp_path: Path, kind: str
) -> None:
    file = document(kind, KINDS[kind][2])
    file["hands"][1]["number"] = 1
    refused_by_both_importers(app, client, tmp_path, json.dumps(file).encode(),
                              "game.hands[1].number", "must be 2: the hands are numbered "
                              "1, 2, 3… in the order they were played")


@pytest.mark.parametrize(("action", "side"), [("delete", "before"), ("undo", "before"),
                                              ("add", "after"), ("edit", "after")])
def test_a_hand_in_the_history_is_read_as_a_hand(
    app: Flask, client: FlaskClient, tmp_path: Path, action: str, side: str
) -> None:
    """A deleted or undone hand in the history can be restored: it is checked as the hand
    it would become (three-hand gin: the knocker is the box or the captain)."""
    file = document("three_hand", KNOCK)
    change = {"action": action, "hand_number": 2, "before": KNOCK, "after": KNOCK, "by": "PIN"}
    change[side] = {**KNOCK, "knocker": 2}
    file["history"] = [{"action": "create", "by": "edit link"}, change]
    refused_by_both_importers(app, client, tmp_path, json.dumps(file).encode(),
                              f"game.history[1].{side}.knocker", "must be between 0 and 1")
