"""RULES.md §9's worked examples played through the API: the finished game's
``payments``, and a group's balances and settle-up."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import DEAD, api, knock, pdf_text, play


def game(client: FlaskClient, body: dict[str, Any], hands: list[dict[str, Any]]) -> Any:
    created = api(client, "/games", body, body.pop("secret", None))
    play(client, created, hands)
    return client.get(f"/api/v1/games/{created['id']}").get_json()


def paid(state: dict[str, Any]) -> set[tuple[str, str, str, str]]:
    return {(p["from"], p["to"], p["amount"], p["currency"]) for p in state["payments"]}


def wins(seat: int, points: int) -> dict[str, Any]:
    return knock(seat, 1, points + 1)


def test_russian_game_b_pays_a_1_53(client: FlaskClient) -> None:
    state = game(
        client,
        {
            "variant": "gin",
            "rules": "russian",
            "players": ["A", "B"],
            "stake": "0.01",
            "currency": "EUR",
        },
        [wins(0, 15), wins(1, 47), wins(0, 55), wins(1, 28), wins(0, 33)],
    )
    assert state["settlement"]["finals"] == [278, 125]
    assert state["payments"] == [{"from": "B", "to": "A", "amount": "1.53", "currency": "EUR"}]


def test_hollywood_pays_the_sum_of_its_columns_9_70(client: FlaskClient) -> None:
    points = [(0, 20), (1, 15), (0, 30), (0, 40), (1, 35), (0, 25), (0, 10), (0, 30)]
    state = game(
        client,
        {
            "variant": "hollywood",
            "rules": "russian",
            "players": ["A", "B"],
            "stake": "0.01",
            "currency": "EUR",
        },
        [wins(seat, p) for seat, p in points],
    )
    assert [c["settlement"]["finals"] for c in state["columns"]] == [
        [315, 100],
        [305, 60],
        [510, 0],
    ]
    assert paid(state) == {("B", "A", "9.70", "EUR")}


def test_three_hand_everyone_settles_with_everyone(client: FlaskClient) -> None:
    # X 12, Y 71, Z 0: Y in the box, X captain; X +6 as captain, X +6 in the box,
    # Y +16 as captain, Y (box) gins against Z's 30: +55, reaching the target of 71.
    state = game(
        client,
        {
            "variant": "three_hand",
            "rules": {"preset": "three_hand", "target": 71},
            "players": ["X", "Y", "Z"],
            "dealer": 1,
            "captain": 0,
            "stake": "0.10",
            "currency": "EUR",
        },
        [knock(1, 1, 7), knock(0, 1, 7), knock(1, 4, 20), knock(0, 0, 30, "gin")],
    )
    assert state["settlement"]["finals"] == [12, 71, 0]
    assert paid(state) == {
        ("X", "Y", "5.90", "EUR"),
        ("Z", "Y", "7.10", "EUR"),
        ("Z", "X", "1.20", "EUR"),
    }


def test_partnership_each_loser_pays_one_winner(client: FlaskClient) -> None:
    deals = [
        {"tables": [wins(0, 70), DEAD]},
        {"tables": [wins(1, 60), DEAD]},
        {"tables": [wins(1, 50), DEAD]},
        {"tables": [wins(0, 70), DEAD]},
    ]
    state = game(
        client,
        {
            "variant": "partnership",
            "players": ["A", "B", "C", "D"],
            "stake": "0.02",
            "currency": "EUR",
        },
        deals,
    )
    assert state["settlement"]["finals"] == [290, 160]
    assert paid(state) == {("B", "A", "2.60", "EUR"), ("D", "C", "2.60", "EUR")}


def test_remi_balances_and_settle_up_in_a_group(client: FlaskClient) -> None:
    group = api(
        client,
        "/groups",
        {"name": "Remi night", "players": list("ABCD"), "stake": "0.05", "currency": "EUR"},
    )
    deal = {
        "went_out": 0,
        "discard_value": 15,
        "players": [
            {"plus": 50, "minus": 0},
            {"plus": 20, "minus": 30},
            {"plus": 15, "minus": 0},
            {"plus": 0, "minus": 60},
        ],
    }
    state = game(
        client,
        {
            "variant": "remi",
            "rules": {"preset": "remi", "deals": 1},
            "players": list("ABCD"),
            "group": group["id"],
            "secret": group["edit_secret"],
        },
        [deal],
    )
    assert state["totals"] == [200, -10, 15, -60]
    assert state["stake"] == "0.05"  # the group's stake
    data = client.get(f"/api/v1/groups/{group['id']}").get_json()
    assert data["balances"] == {"A": "32.75", "B": "-9.25", "C": "-4.25", "D": "-19.25"}
    assert data["settle_up"] == [
        {"from": "D", "to": "A", "amount": "19.25", "currency": "EUR"},
        {"from": "B", "to": "A", "amount": "9.25", "currency": "EUR"},
        {"from": "C", "to": "A", "amount": "4.25", "currency": "EUR"},
    ]


def test_a_game_not_over_settles_nothing(client: FlaskClient) -> None:
    state = game(
        client,
        {"variant": "gin", "rules": "russian", "players": ["A", "B"], "stake": "0.01",
         "currency": "EUR"},
        [wins(0, 15)],
    )
    assert "payments" not in state
    assert (state["stake"], state["currency"]) == ("0.01", "EUR")


@pytest.mark.parametrize(
    ("body", "where", "status"),
    [
        ({"stake": "abc"}, "stake", 422),
        ({"stake": 0.01}, "stake", 422),  # a float is never money
        ({"stake": "0.01", "currency": "EURO"}, "currency", 422),
        ({"group": "nope"}, "group", 422),
    ],
)
def test_bad_stakes_and_groups_are_refused(
    client: FlaskClient, body: dict[str, Any], where: str, status: int
) -> None:
    response = client.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"], **body})
    assert response.status_code == status
    assert response.get_json()["errors"][0]["where"] == where


def test_a_game_joins_a_group_only_with_its_edit_secret(client: FlaskClient) -> None:
    group = api(client, "/groups", {"name": "G", "players": ["A", "B"]})
    body = {"variant": "gin", "players": ["A", "B"], "group": group["id"]}
    assert client.post("/api/v1/games", json=body).status_code == 403
    wrong = client.post("/api/v1/games", json=body, headers={"X-Edit-Secret": "x"})
    assert wrong.status_code == 403
    right = client.post("/api/v1/games", json=body, headers={"X-Edit-Secret": group["edit_secret"]})
    assert right.status_code == 201
    data = client.get(f"/api/v1/groups/{group['id']}").get_json()
    assert [g["id"] for g in data["games"]] == [right.get_json()["id"]]


def test_the_finished_game_page_and_its_pdf_say_who_pays_whom(client: FlaskClient) -> None:
    import re

    state = game(
        client,
        {
            "variant": "gin",
            "rules": "russian",
            "players": ["A", "B"],
            "stake": "0.01",
            "currency": "EUR",
        },
        [wins(0, 15), wins(1, 47), wins(0, 55), wins(1, 28), wins(0, 33)],
    )
    html = client.get(f"/g/{state['id']}").get_data(as_text=True)
    section = re.search(r'<section class="stakes" id="stakes">(.*?)</section>', html, re.S)
    assert section
    assert re.findall(r"<li>(.*?)</li>", section.group(1)) == [
        "<bdi>B</bdi> pays <bdi>A</bdi> €1.53"]
    text = pdf_text(client.get(f"/g/{state['id']}/sheet.pdf").data)
    assert "B pays A €1.53" in text.splitlines()
