"""Every kind of game survives an export and an import: the sheet comes back identical."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.test_trust_backup import comparable, upload

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
