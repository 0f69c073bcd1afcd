"""The gin JSON API: ``/api/v1/gin/arrange`` and ``/api/v1/gin/settle`` (DESIGN.md "JSON API")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.examples import EXAMPLE_7, EXAMPLES

ARRANGE = "/api/v1/gin/arrange"
SETTLE = "/api/v1/gin/settle"



def post(client: FlaskClient, url: str, body: Any) -> tuple[int, Any]:
    response = client.post(url, json=body)
    return response.status_code, response.get_json()


def wheres(body: Any) -> list[str]:
    return [error["where"] for error in body["errors"]]


def hand(knocker: Any, defender: Any, rules: Any = "classic", **extra: Any) -> dict[str, Any]:
    return {"rules": rules, "knocker": {"cards": knocker}, "defender": {"cards": defender}, **extra}


# --- RULES.md §8 ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "russian", "modern"])
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_rules_examples_settle(client: FlaskClient, name: str, preset: str) -> None:
    knocker, defender, outcome, winner, classic, russian = EXAMPLES[name]
    status, body = post(client, SETTLE, hand(knocker, defender, preset))
    assert status == 200, body
    assert body["outcome"] == outcome
    assert body["winner"] == winner
    assert body["points"] == (classic if preset == "classic" else russian)
    lines = body["explanation"]
    assert lines and all(set(line) == {"text", "rule"} and line["text"] and line["rule"]
                         for line in lines)
    assert lines[-1]["rule"] == outcome  # the last step scores by the outcome's rule


def test_example_1_deadwood_and_canonical_notation(client: FlaskClient) -> None:
    knocker, defender, *_ = EXAMPLES["1 knock 5 vs 9"]
    status, body = post(client, SETTLE, hand(knocker.lower().replace("t", "10"), defender))
    assert status == 200, body
    assert body["knocker"]["deadwood"] == ["5C"] and body["knocker"]["deadwood_points"] == 5
    assert body["defender"]["deadwood_points"] == 9
    assert ["9D", "TD", "JD"] in body["knocker"]["melds"]
    assert set(body) == {"outcome", "winner", "points", "knocker", "defender", "explanation"}
    assert set(body["knocker"]) == {"melds", "deadwood", "deadwood_points"}
    assert set(body["defender"]) == {"melds", "layoffs", "deadwood", "deadwood_points"}


def test_example_7_finds_the_layoffs(client: FlaskClient) -> None:
    status, body = post(client, SETTLE, hand(EXAMPLE_7[0], EXAMPLE_7[1]))
    assert status == 200, body
    melds = body["knocker"]["melds"]
    laid = {lo["card"]: melds[lo["meld"]] for lo in body["defender"]["layoffs"]}
    assert laid == {
        "8S": ["5S", "6S", "7S"], "9S": ["5S", "6S", "7S"],
        "7C": ["9C", "TC", "JC"], "8C": ["9C", "TC", "JC"],
    }
    assert body["defender"]["melds"] == [["2S", "2H", "2D", "2C"]]
    assert sorted(body["defender"]["deadwood"]) == ["8D", "AC"]
    assert body["defender"]["deadwood_points"] == 9


def test_cards_as_one_string_or_a_list_in_any_notation(client: FlaskClient) -> None:
    knocker, defender, *_ = EXAMPLES["2 gin vs 12"]
    as_list = [card.replace("T", "10").replace("D", "♦") for card in knocker.split()]
    status, body = post(client, SETTLE, hand(as_list, defender, "russian"))
    assert status == 200, body
    assert body["points"] == 37


def test_rules_object_with_overrides(client: FlaskClient) -> None:
    knocker, defender, *_ = EXAMPLES["3 knock 8 vs 5"]
    rules = {"preset": "classic", "undercut_bonus": 50}
    status, body = post(client, SETTLE, hand(knocker, defender, rules))
    assert (status, body["points"]) == (200, 53)


def test_tie_scores_nothing_when_not_an_undercut(client: FlaskClient) -> None:
    knocker, defender, *_ = EXAMPLES["4 knock 6 vs 6"]
    rules = {"preset": "classic", "tie_is_undercut": False}
    status, body = post(client, SETTLE, hand(knocker, defender, rules))
    assert status == 200, body
    assert (body["outcome"], body["winner"], body["points"]) == ("tie", None, 0)


# --- declared melds and layoffs --------------------------------------------------------------

EXAMPLE_7_MELDS = [["KS", "KH", "KD"], ["5S", "6S", "7S"], ["9C", "TC", "JC"]]


def declared(layoffs: Any, melds: Any = None) -> dict[str, Any]:
    body = hand(EXAMPLE_7[0], EXAMPLE_7[1])
    body["knocker"]["melds"] = EXAMPLE_7_MELDS if melds is None else melds
    body["defender"]["layoffs"] = layoffs
    body["defender"]["melds"] = [["2S", "2H", "2D", "2C"]]  # declared: the rest is deadwood
    return body


def test_declared_melds_and_layoffs_are_scored_as_declared(client: FlaskClient) -> None:
    layoffs = [{"card": "8S", "meld": 1}, {"card": "9S", "meld": 1}]
    status, body = post(client, SETTLE, declared(layoffs))
    assert status == 200, body
    assert body["knocker"]["melds"] == EXAMPLE_7_MELDS  # 0-based: meld 1 is the spade run
    assert body["defender"]["layoffs"] == layoffs
    # 7♣ 8♣ kept: 2s melded, A♣ 8♦ 7♣ 8♣ = 24 against 10: knocker scores 14.
    assert (body["winner"], body["points"]) == ("knocker", 14)


def test_all_four_declared_layoffs_give_the_rules_answer(client: FlaskClient) -> None:
    layoffs = [
        {"card": "8S", "meld": 1}, {"card": "9S", "meld": 1},
        {"card": "8C", "meld": 2}, {"card": "7C", "meld": 2},
    ]
    status, body = post(client, SETTLE, declared(layoffs))
    assert (status, body["winner"], body["points"]) == (200, "defender", 11)


def test_layoff_onto_the_wrong_meld_is_refused(client: FlaskClient) -> None:
    status, body = post(client, SETTLE, declared([{"card": "8S", "meld": 0}]))
    assert status == 422
    assert wheres(body) and all(w.startswith("defender.layoffs") for w in wheres(body)), body
    assert "8♠" in body["errors"][0]["message"]


def test_layoff_meld_index_out_of_range(client: FlaskClient) -> None:
    status, body = post(client, SETTLE, declared([{"card": "8S", "meld": 3}]))
    assert status == 422
    assert wheres(body) and all(w.startswith("defender.layoffs") for w in wheres(body)), body


def test_layoff_meld_index_negative_or_not_a_number(client: FlaskClient) -> None:
    layoffs = [{"card": "8S", "meld": -1}, {"card": 8, "meld": "1"}]
    status, body = post(client, SETTLE, declared(layoffs))
    assert status == 422
    assert wheres(body) == [
        "defender.layoffs[0].meld", "defender.layoffs[1].card", "defender.layoffs[1].meld",
    ]


def test_knocker_meld_that_is_not_a_meld(client: FlaskClient) -> None:
    melds = [["KS", "KH", "KD"], ["5S", "6S", "9C"], ["7S", "TC", "JC"]]
    status, body = post(client, SETTLE, declared([], melds))
    assert status == 422
    assert "knocker.melds" in [w.split("[")[0] for w in wheres(body)], body


def test_knocker_meld_of_cards_he_does_not_hold(client: FlaskClient) -> None:
    melds = [["KS", "KH", "KC"], ["5S", "6S", "7S"], ["9C", "TC", "JC"]]
    status, body = post(client, SETTLE, declared([], melds))
    assert status == 422
    assert "knocker.melds" in [w.split("[")[0] for w in wheres(body)], body
    assert any("K♣" in e["message"] for e in body["errors"]), body


def test_defender_melds_declared(client: FlaskClient) -> None:
    body = hand(EXAMPLE_7[0], EXAMPLE_7[1])
    body["defender"]["melds"] = ["2S 2H 2D 2C"]
    status, result = post(client, SETTLE, body)
    assert status == 200, result
    assert result["defender"]["melds"] == [["2S", "2H", "2D", "2C"]]


# --- arrange -----------------------------------------------------------------------------------


def test_arrange_ten_cards(client: FlaskClient) -> None:
    status, body = post(client, ARRANGE, {"cards": "5S 6S 7S 8S KH KD KC 2D 3C 9H"})
    assert status == 200, body
    assert body == {
        "melds": [["5S", "6S", "7S", "8S"], ["KH", "KD", "KC"]],
        "deadwood": ["2D", "3C", "9H"],
        "deadwood_points": 14,
        "gin": False,
    }


def test_arrange_eleven_cards_names_the_discard(client: FlaskClient) -> None:
    cards = ["5S", "6S", "7S", "8S", "KH", "KD", "KC", "2D", "3C", "9H", "4S"]
    status, body = post(client, ARRANGE, {"cards": cards, "rules": "classic"})
    assert status == 200, body
    assert body["discard"] == "9H" and body["deadwood_points"] == 5
    assert body["big_gin"] is False and body["gin"] is False


def test_arrange_big_gin(client: FlaskClient) -> None:
    cards = "AS 2S 3S 4S 5H 5D 5C 9D TD JD QD"
    status, body = post(client, ARRANGE, {"cards": cards, "rules": "modern"})
    assert status == 200, body
    assert body["big_gin"] is True and body["gin"] is True and body["discard"] is None


@pytest.mark.parametrize("count", [0, 9, 12])
def test_arrange_needs_10_or_11_cards(client: FlaskClient, count: int) -> None:
    cards = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"][:count]
    status, body = post(client, ARRANGE, {"cards": cards})
    assert (status, wheres(body)) == (422, ["cards"])


def test_arrange_card_twice(client: FlaskClient) -> None:
    status, body = post(client, ARRANGE, {"cards": "5S 6S 7S 8S KH KD KC 2D 3C 5s"})
    assert (status, wheres(body)) == (422, ["cards"])
    assert "5♠" in body["errors"][0]["message"]


# --- malformed requests -------------------------------------------------------------------------


@pytest.mark.parametrize("url", [ARRANGE, SETTLE])
@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        (b"{", "application/json"),
        (b"", "application/json"),
        (b"\xff\xfe{}", "application/json"),
        (b"\xc3\x28", "application/json"),
        (b"NaN", "application/json"),
        (b"[" * 100_000, "application/json"),
        (b'{"cards": "AS"}', "text/plain"),
        (b"cards=AS", "application/x-www-form-urlencoded"),
    ],
)
def test_not_json(client: FlaskClient, url: str, data: bytes, content_type: str) -> None:
    response = client.post(url, data=data, content_type=content_type)
    assert response.status_code == 422
    assert wheres(response.get_json()) == ["request"]


@pytest.mark.parametrize("url", [ARRANGE, SETTLE])
@pytest.mark.parametrize("body", [[], [1, 2], "cards", 7, None, True])
def test_body_not_an_object(client: FlaskClient, url: str, body: Any) -> None:
    response = client.post(url, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 422
    assert wheres(response.get_json()) == ["request"]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (hand(7, EXAMPLE_7[1]), "knocker.cards"),
        (hand(["5S", 6], EXAMPLE_7[1]), "knocker.cards[1]"),
        (hand([["5S"]], EXAMPLE_7[1]), "knocker.cards[0]"),
        (hand({"a": 1}, EXAMPLE_7[1]), "knocker.cards"),
        (hand(EXAMPLE_7[0], "7H 8H 1X"), "defender.cards"),
        (hand(EXAMPLE_7[0], ["AS"] * 1000), "defender.cards"),
        (hand(EXAMPLE_7[0], "AS " * 10_000), "defender.cards"),
        (hand(EXAMPLE_7[0], ["AS " * 10_000]), "defender.cards[0]"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], "bogus"), "rules"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], {"preset": "bogus"}), "rules.preset"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], {"preset": ["x"]}), "rules.preset"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], {"knock_limit": "ten"}), "rules.knock_limit"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], {"shutout": [1]}), "rules.shutout"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], {"gin_bonus": 10**40}), "rules.gin_bonus"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], {"nonsense": 1}), "rules.nonsense"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], 12), "rules"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], upcard=5), "upcard"),
        (hand(EXAMPLE_7[0], EXAMPLE_7[1], upcard="5H 6H"), "upcard"),
        ({"knocker": {"cards": EXAMPLE_7[0]}}, "defender"),
        ({"knocker": [], "defender": {"cards": EXAMPLE_7[1]}}, "knocker"),
        (declared([{"card": "8S", "meld": 1}], melds=[["KS", 1]]), "knocker.melds[0][1]"),
        (declared([{"card": "8S", "meld": 1}], melds="KS KH KD"), "knocker.melds"),
        (declared(["8S>1"]), "defender.layoffs[0]"),
        (declared({"card": "8S", "meld": 1}), "defender.layoffs"),
        (declared([{"card": "8S", "meld": True}]), "defender.layoffs[0].meld"),
        (declared([{"card": "8S", "meld": 1.5}]), "defender.layoffs[0].meld"),
    ],
)
def test_wrongly_typed_values_name_the_field(client: FlaskClient, body: Any, where: str) -> None:
    status, result = post(client, SETTLE, body)
    assert status == 422, result
    assert where in wheres(result), result


def test_every_problem_reported_at_once(client: FlaskClient) -> None:
    status, body = post(client, SETTLE, hand(7, "ZZ", "bogus", upcard=[]))
    assert status == 422
    assert sorted(wheres(body)) == ["defender.cards", "knocker.cards", "rules", "upcard"]


def test_duplicate_card_across_hands_names_the_card(client: FlaskClient) -> None:
    knocker, defender, *_ = EXAMPLES["1 knock 5 vs 9"]
    status, body = post(client, SETTLE, hand(knocker, defender.replace("KH", "7h")))
    assert status == 422
    assert any(
        e["where"] == "defender.cards" and "7♥" in e["message"] for e in body["errors"]
    ), body


def test_knock_over_the_limit_is_refused(client: FlaskClient) -> None:
    knocker = "2S 3S 4S 7H 7D 7C 9D TD 5C KC"  # deadwood 34
    defender = "KH KS AD 4H 5H 6H QS QH QC 5D"
    status, body = post(client, SETTLE, hand(knocker, defender))
    assert status == 422
    assert any(w.startswith("knocker") for w in wheres(body)), body


def test_wrong_method_is_json(client: FlaskClient) -> None:
    response = client.get(SETTLE)
    assert response.status_code == 405
    assert wheres(response.get_json()) == ["request"]


# --- never a 500 ----------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
CARD_TEXT = st.sampled_from(
    ["AS", "10♦", "td", "7h", "KC", "QS", "2C", "x", "", "8S>2", "5S 6S 7S", "2S 3S 4S 5S"]
)
CARDS = st.one_of(CARD_TEXT, st.lists(CARD_TEXT, max_size=12), JSON)
SIDE = st.fixed_dictionaries(
    {"cards": CARDS},
    optional={"melds": st.lists(CARDS, max_size=4) | JSON, "layoffs": JSON | st.lists(
        st.fixed_dictionaries({"card": CARD_TEXT | JSON, "meld": st.integers(-2, 5) | JSON}),
        max_size=4,
    )},
)
RULES = st.one_of(
    st.sampled_from(["classic", "russian", "pagat", "modern", "oklahoma", "remi", "nope"]),
    st.dictionaries(
        st.sampled_from(["preset", "knock_limit", "gin_bonus", "big_gin_bonus", "tie_is_undercut",
                         "oklahoma", "oklahoma_ace", "spade_doubles", "shutout", "x"]),
        JSON | st.sampled_from(["classic", "oklahoma", "one", "double"]),
        max_size=4,
    ),
    JSON,
)
SETTLE_BODY = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"knocker": SIDE | JSON, "defender": SIDE | JSON},
        optional={"rules": RULES, "upcard": CARD_TEXT | JSON},
    ),
)
ARRANGE_BODY = st.one_of(
    JSON, st.fixed_dictionaries({"cards": CARDS}, optional={"rules": RULES})
)
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(body=SETTLE_BODY)
def test_settle_never_fails_with_500(client: FlaskClient, body: Any) -> None:
    response = client.post(SETTLE, json=body)
    assert response.status_code in (200, 422), (body, response.get_json())
    if response.status_code == 422:
        assert all(set(e) == {"where", "message"} for e in response.get_json()["errors"])


@FUZZ
@given(body=ARRANGE_BODY)
def test_arrange_never_fails_with_500(client: FlaskClient, body: Any) -> None:
    response = client.post(ARRANGE, json=body)
    assert response.status_code in (200, 422), (body, response.get_json())


@FUZZ
@given(data=st.binary(max_size=60))
def test_any_bytes_never_fail_with_500(client: FlaskClient, data: bytes) -> None:
    for url in (ARRANGE, SETTLE):
        response = client.post(url, data=data, content_type="application/json")
        assert response.status_code == 422
