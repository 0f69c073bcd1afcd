"""``POST /api/v1/remi/settle``: RULES.md §8's Remi deal as JSON, and errors with ``where``."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

URL = "/api/v1/remi/settle"


def deal(**changes: Any) -> dict[str, Any]:
    """RULES.md §8's four-player deal (B is seed 002's −10 hand)."""
    players: list[dict[str, Any]] = [
        {"name": "A", "hand": "2♥ 3♥ 4♥ 5♥ K♣ K♦ K♠", "went_out": True, "final_discard": "A♦"},
        {"name": "B", "hand": ["QC", "JD", "JC", "6C", "5C", "4C", "3C"]},
        {"name": "C", "table": [["7S", "8S", "9S"]], "hand": "9D 9C 9H AS"},
        {"name": "D", "hand": "qs qh qd 2s 6h 8d ah"},
    ]
    return {"rules": "remi", "players": players, **changes}


def settle(client: FlaskClient, body: Any) -> Any:
    return client.post(URL, json=body)


def errors(response: Any) -> list[tuple[str, str]]:
    assert response.status_code == 422, response.get_data(as_text=True)
    return [(e["where"], e["message"]) for e in response.get_json()["errors"]]


def test_rules_section_8_deal(client: FlaskClient) -> None:
    response = settle(client, deal())
    assert response.status_code == 200
    players = {p["name"]: p for p in response.get_json()["players"]}
    assert {name: p["points"] for name, p in players.items()} == {
        "A": 200, "B": -10, "C": 15, "D": -60,
    }
    assert sorted(map(sorted, players["A"]["combinations"])) == [
        ["2H", "3H", "4H", "5H"], ["KC", "KD", "KS"],
    ]
    assert players["A"]["unmatched"] == []
    assert players["A"]["closing_bonus"] == 150
    assert sorted(players["B"]["unmatched"]) == ["JC", "JD", "QC"]
    assert ["7S", "8S", "9S"] in players["C"]["combinations"]
    assert players["C"]["unmatched"] == ["AS"]
    assert players["D"]["combinations"] == []
    assert len(players["D"]["unmatched"]) == 7


def test_explanation_is_english_sentences_citing_their_rules(client: FlaskClient) -> None:
    explanation = settle(client, deal()).get_json()["explanation"]
    assert explanation[0] == {"text": "A went out.", "rule": "going-out"}
    assert {"text": "A went out discarding A♦: 10 × 15 = +150.", "rule": "going-out"} in explanation
    assert {"text": "D has no sequence, so the set Q♠ Q♥ Q♦ does not count.",
            "rule": "sets"} in explanation
    assert {"text": "A scores 50 − 0 + 150 = 200.", "rule": "remi-scoring"} in explanation


@pytest.mark.parametrize(
    ("rules", "d_points"),
    [
        ("remi", -60),
        ({"preset": "remi", "sets_need_sequence": True}, -60),
        ({"sets_need_sequence": False}, 0),  # no preset named: remi's
        ({"preset": "remi", "sets_need_sequence": False}, 0),
    ],
)
def test_sequence_first_setting(client: FlaskClient, rules: Any, d_points: int) -> None:
    players = settle(client, deal(rules=rules)).get_json()["players"]
    assert players[3]["points"] == d_points


def test_rules_default_to_remi(client: FlaskClient) -> None:
    body = deal()
    del body["rules"]
    assert settle(client, body).get_json()["players"][0]["points"] == 200


def test_stock_ran_out(client: FlaskClient) -> None:
    body = deal()
    body["players"][0] = {"name": "A", "hand": "2H 3H 4H 5H KC KD KS AD"}
    data = settle(client, body).get_json()
    assert data["players"][0]["points"] == 50 - 15
    assert data["explanation"][0]["text"].startswith("The stock ran out")
    assert data["explanation"][0]["rule"] == "going-out"


def test_seed_002_hand(client: FlaskClient) -> None:
    body = {"players": [{"name": "Ann", "hand": "Q♣ J♦ J♣ 6♣ 5♣ 4♣ 3♣"},
                        {"name": "Bob", "hand": "2H 3H 4H 8S 9D TD KH"}]}
    assert settle(client, body).get_json()["players"][0]["points"] == -10


@pytest.mark.parametrize(
    ("seat", "key", "value", "where"),
    [
        (2, "table", [["7S", "8S", "AS"]], "players[2].table[0]"),  # aces are never in a sequence
        (1, "hand", "QC JD JC 6C 5C 4C 2D AD", "players[1].hand"),  # A♦ is A's final discard
        (0, "final_discard", None, "players[0].final_discard"),  # went out: name it
        (1, "went_out", True, "players"),  # two went out
        (1, "name", "A", "players[1].name"),  # two players named A
        (1, "name", "  ", "players[1].name"),
        (0, "hand", "2H 3H 4H 5H KC KD 8C", "players[0].hand"),  # 8♣ in no combination
    ],
)
def test_engine_problems_name_the_field(
    client: FlaskClient, seat: int, key: str, value: Any, where: str
) -> None:
    body = deal()
    body["players"][seat][key] = value
    assert where in [w for w, _ in errors(settle(client, body))]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ([], "request"),
        ({"players": None}, "players"),
        ({"players": "A B"}, "players"),
        ({"players": [{"name": "A", "hand": "2H 3H 4H"}]}, "players"),
        ({"players": [{"name": f"P{i}", "hand": "2H"} for i in range(5)]}, "players"),
        ({"players": [{"name": "A", "hand": "2H 3H 4H"}, 7]}, "players[1]"),
        ({"players": [{"name": 3, "hand": "2H"}, {"name": "B", "hand": "3H"}]}, "players[0].name"),
        ({"players": [{"hand": "2H"}, {"name": "B", "hand": "3H"}]}, "players[0].name"),
        ({"players": [{"name": "A", "hand": "2H", "went_out": 1},
                      {"name": "B", "hand": "3H"}]}, "players[0].went_out"),
        ({"players": [{"name": "A", "hand": "2H", "table": "3H 4H 5H"},
                      {"name": "B", "hand": "3S"}]}, "players[0].table"),
        ({"players": [{"name": "A", "hand": "2H", "table": [[1, 2]]},
                      {"name": "B", "hand": "3S"}]}, "players[0].table[0][0]"),
        ({"players": [{"name": "A", "hand": "2H ZZ"},
                      {"name": "B", "hand": "3S"}]}, "players[0].hand"),
        ({"players": [{"name": "A", "hand": "2H", "went_out": True, "final_discard": ["AD"]},
                      {"name": "B", "hand": "3S"}]}, "players[0].final_discard"),
        ({"rules": "bridge", "players": [{"name": "A", "hand": "2H"},
                                         {"name": "B", "hand": "3S"}]}, "rules"),
        ({"rules": 5, "players": [{"name": "A", "hand": "2H"},
                                  {"name": "B", "hand": "3S"}]}, "rules"),
        ({"rules": {"sets_need_sequence": "no"}, "players": [{"name": "A", "hand": "2H"},
                                                             {"name": "B", "hand": "3S"}]},
         "rules.sets_need_sequence"),
    ],
)
def test_malformed_requests(client: FlaskClient, body: Any, where: str) -> None:
    assert where in [w for w, _ in errors(settle(client, body))]


def test_every_problem_at_once(client: FlaskClient) -> None:
    body = {"rules": "bridge", "players": [{"name": 1, "hand": "ZZ"}, {"name": "B", "went_out": 0}]}
    wheres = {w for w, _ in errors(settle(client, body))}
    assert {"rules", "players[0].name", "players[0].hand", "players[1].went_out"} <= wheres


def test_not_json(client: FlaskClient) -> None:
    response = client.post(URL, data="players=2", content_type="text/plain")
    assert errors(response) == [
        ("request", "send a JSON body with Content-Type: application/json")
    ]


# --- fuzz: whatever JSON arrives, the answer is 200 or 422 -------------------------------

CARDISH = st.sampled_from(["AS", "2H", "10♦", "qc", "KD", "9S", "8S", "7S", "ZZ", "", "3♣"])
SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
)
JSON = st.recursive(
    SCALARS | CARDISH,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
CARDS = st.lists(CARDISH, max_size=8) | st.text(max_size=20) | JSON
PLAYER = st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(max_size=5) | JSON,
        "table": st.lists(CARDS, max_size=3) | JSON,
        "hand": CARDS,
        "went_out": st.booleans() | JSON,
        "final_discard": CARDISH | JSON,
    },
)
BODY = st.fixed_dictionaries(
    {},
    optional={
        "rules": st.sampled_from(["remi", "classic", "nope"]) | JSON,
        "players": st.lists(PLAYER | JSON, max_size=5) | JSON,
    },
) | JSON


FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(body=BODY)
def test_fuzz_only_200_or_422(client: FlaskClient, body: Any) -> None:
    response = settle(client, body)
    assert response.status_code in (200, 422), body
    data = response.get_json()
    if response.status_code == 422:
        assert data["errors"] and all({"where", "message"} == set(e) for e in data["errors"])
    else:
        assert len(data["players"]) == len(body["players"])


# Well-shaped deals of real cards reach the engine: random shapes are mostly refused,
# so a second strategy deals distinct cards from a shuffled pack (stock ran out).
REAL = st.sampled_from([rank + suit for rank in "A23456789TJQK" for suit in "SHDC"])
SHAPED_PLAYER = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["A", "B", "C", "D", "", " A "]),
        "table": st.lists(st.lists(REAL, min_size=1, max_size=4), max_size=2),
        "hand": st.lists(REAL, max_size=9),
        "went_out": st.booleans(),
    },
    optional={"final_discard": REAL},
)


@FUZZ
@given(players=st.lists(SHAPED_PLAYER, min_size=2, max_size=4))
def test_fuzz_real_cards(client: FlaskClient, players: list[dict[str, Any]]) -> None:
    response = settle(client, {"players": players})
    assert response.status_code in (200, 422), players


def remi_value(card: str) -> int:
    return 15 if card[0] == "A" else 10 if card[0] in "JQK" else 5


@FUZZ
@given(
    pack=st.permutations([rank + suit for rank in "A23456789TJQK" for suit in "SHDC"]),
    seats=st.integers(2, 4),
    tabled=st.integers(0, 4),
    lenient=st.booleans(),
)
def test_fuzz_dealt_cards(
    client: FlaskClient, pack: list[str], seats: int, tabled: int, lenient: bool
) -> None:
    """Every card counts once, plus or minus; a table group is checked, never a 500."""
    hands = [pack[7 * seat : 7 * seat + 7] for seat in range(seats)]
    players: list[dict[str, Any]] = [{"name": f"P{i}", "hand": h} for i, h in enumerate(hands)]
    if tabled < seats:  # that player put his first three cards down (often not a combination)
        players[tabled] = {"name": f"P{tabled}", "table": [hands[tabled][:3]],
                           "hand": hands[tabled][3:]}
    body = {"rules": {"sets_need_sequence": not lenient}, "players": players}
    response = settle(client, body)
    if tabled < seats and response.status_code == 422:
        wheres = {e["where"] for e in response.get_json()["errors"]}
        assert wheres == {f"players[{tabled}].table[0]"}
        return
    assert response.status_code == 200, response.get_json()
    for hand, result in zip(hands, response.get_json()["players"], strict=True):
        assert result["plus"] + result["minus"] == sum(map(remi_value, hand))
        assert result["points"] == result["plus"] - result["minus"]
        shown = [card for group in result["combinations"] for card in group] + result["unmatched"]
        assert sorted(shown) == sorted(hand)


def test_six_cards_are_refused_at_that_player(client: FlaskClient) -> None:
    # 7 are dealt: the player who went out holds 7 besides his final discard.
    body = deal()
    body["players"][0]["hand"] = "2H 3H 4H KC KD KS"
    response = settle(client, body)
    assert response.status_code == 422
    assert errors(response) == [
        (
            "players[0].hand",
            "A went out, so they hold at least 7 cards besides the final discard "
            "(table and hand); cards entered: 6",
        )
    ]
