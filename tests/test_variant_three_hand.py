"""Three-hand gin (RULES.md §5) through the pages and the API: roles move after every
hand, the sitter never scores, and the §8 worked example adds up."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from helpers import (
    BOX,
    CAPTAIN,
    X,
    Y,
    Z,
    new_three_hand,
    pdf_lines,
    play_three_hand_example,
    quick_three_hand,
    roles,
    state,
)


def test_rules_example_through_the_pages(client: FlaskClient) -> None:
    game = new_three_hand(client)
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "X (box)" in page and "Y (captain)" in page and "Z (" not in page
    play_three_hand_example(client, game)
    data = state(client, game)
    assert data["totals"] == [12, 71, 0]
    assert [h["points"] for h in data["hands"]] == [[0, 16, 0], [0, 55, 0], [12, 0, 0], [0, 0, 0]]
    assert [h["winner"] for h in data["hands"]] == [Y, Y, X, None]
    assert [h["dealer"] for h in data["hands"]] == [X, Y, Y, X]
    assert not data["finished"]
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert 'class="next-box"><bdi>X</bdi><' in page
    assert 'class="next-captain"><bdi>Z</bdi><' in page
    assert 'class="next-out"><bdi>Y</bdi><' in page
    assert "X (box)" in page and "Z (captain)" in page
    for total in ('total-0">12', 'total-1">71', 'total-2">0'):
        assert total in page


def test_rules_example_through_the_api(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games",
        json={"variant": "three_hand", "players": ["X", "Y", "Z"], "dealer": 0, "captain": 1},
    )
    assert created.status_code == 201, created.get_json()
    game, secret = created.get_json()["id"], created.get_json()["edit_secret"]
    data = state(client, game)
    assert data["rules"]["gin_bonus"] == 25 and data["rules"]["undercut_bonus"] == 10
    assert data["setup"] == {"box": 0, "captain": 1}
    bodies = [
        {"outcome": "knock", "knocker": 1, "knocker_deadwood": 4, "defender_deadwood": 20},
        {"outcome": "gin", "knocker": "box", "defender_deadwood": 30},
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 7, "defender_deadwood": 5},
        {"outcome": "dead"},
    ]
    for number, body in enumerate(bodies, start=1):
        response = client.post(
            f"/api/v1/games/{game}/hands",
            json=body,
            headers={"X-Edit-Secret": secret, "Idempotency-Key": f"k{number}"},
        )
        assert response.status_code == 201, response.get_json()
        # After each hand: Y +16; Y +55 → 71; X +12; a dead hand changes nothing.
        assert (
            response.get_json()["totals"]
            == [[0, 16, 0], [0, 71, 0], [12, 71, 0], [12, 71, 0]][number - 1]
        )
    data = state(client, game)
    assert data["totals"] == [12, 71, 0]
    assert roles(data) == (X, Z, Y)
    assert [h["roles"] for h in data["hands"]][:2] == [
        {"box": X, "captain": Y, "out": Z},
        {"box": Y, "captain": Z, "out": X},
    ]
    assert data["hands"][2]["winner_role"] == "captain"
    assert data["hands"][1]["knocker_seat"] == Y


@pytest.mark.parametrize("knocker", [2, "out", -1, True])
def test_the_sitter_can_never_be_chosen_by_the_api(client: FlaskClient, knocker: Any) -> None:
    created = client.post(
        "/api/v1/games", json={"variant": "three_hand", "players": ["X", "Y", "Z"]}
    ).get_json()
    response = client.post(
        f"/api/v1/games/{created['id']}/hands",
        json={
            "outcome": "knock",
            "knocker": knocker,
            "knocker_deadwood": 2,
            "defender_deadwood": 9,
        },
        headers={"X-Edit-Secret": created["edit_secret"]},
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["where"] == "knocker"
    assert state(client, created["id"])["hands"] == []


def test_the_sitter_can_never_be_chosen_on_the_page(client: FlaskClient) -> None:
    game = new_three_hand(client)
    response = quick_three_hand(client, game, "knock", 2, 2, 9)
    assert response.status_code == 422
    assert state(client, game)["hands"] == []
    page = response.get_data(as_text=True)
    values = re.findall(r'<input[^>]*name="knocker"[^>]*value="(\d)"', page)
    assert values == ["0", "1"]  # the form comes back offering only the box and the captain


def test_a_correction_changes_later_roles(client: FlaskClient) -> None:
    game = new_three_hand(client)
    play_three_hand_example(client, game)
    # Hand 1 was really the box's (X) win: X knocks 4 vs Y 20 → X +16.
    form = client.get(f"/g/{game}/hands/1/edit").get_data(as_text=True)
    assert "X (box)" in form and "Y (captain)" in form
    assert quick_three_hand(client, game, "knock", BOX, 4, 20, number=1).status_code == 302
    data = state(client, game)
    # X stays in the box; the same later inputs now mean other seats:
    # hand 2: the box (X) gins against the captain (Z) with 30 → X +55;
    # hand 3: the box (X) knocks 7, the captain (Y) has 5 → Y +12; Y moves into the box.
    assert [h["roles"]["box"] for h in data["hands"]] == [X, X, X, Y]
    assert data["hands"][1]["roles"] == {"box": X, "captain": Z, "out": Y}
    assert [h["winner"] for h in data["hands"]] == [X, X, Y, None]
    assert data["totals"] == [71, 12, 0]
    assert roles(data) == (Y, Z, X)
    form = client.get(f"/g/{game}/hands/2/edit").get_data(as_text=True)
    assert "X (box)" in form and "Z (captain)" in form and "Y (" not in form
    export = client.get(f"/g/{game}/export.json").get_json()
    edits = [c for c in export["history"] if c["action"] == "edit"]
    assert [(c["hand_number"], c["before"]["knocker"], c["after"]["knocker"]) for c in edits] == [
        (1, CAPTAIN, BOX)
    ]


def test_first_to_the_target_wins(client: FlaskClient) -> None:
    game = new_three_hand(client, box="2", captain="0", target="50")
    # X +30, X box
    assert quick_three_hand(client, game, "knock", CAPTAIN, 1, 31).status_code == 302
    assert quick_three_hand(client, game, "knock", BOX, 1, 21).status_code == 302  # X +20 → 50
    data = state(client, game)
    assert data["finished"] and data["winner"] == X
    assert data["settlement"]["finals"] == [50, 0, 0]
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "<bdi>X</bdi> wins the game" in page
    assert f'action="/g/{game}/hands"' not in page


def test_gin_bonus_twenty_is_the_documented_alternative(client: FlaskClient) -> None:
    game = new_three_hand(client, gin_bonus="20")
    assert quick_three_hand(client, game, "gin", BOX, None, 30).status_code == 302
    assert state(client, game)["totals"] == [50, 0, 0]


def test_undercut_scores_ten(client: FlaskClient) -> None:
    game = new_three_hand(client)
    assert quick_three_hand(client, game, "knock", BOX, 6, 6).status_code == 302  # Y undercuts X
    data = state(client, game)
    assert data["totals"] == [0, 10, 0]
    assert roles(data) == (Y, Z, X)


@pytest.mark.parametrize(
    ("box", "captain", "message"),
    [("1", "1", "cannot also be in the box"), ("3", "auto", "one of the three players")],
)
def test_bad_first_roles_are_refused_at_the_field(
    client: FlaskClient, box: str, captain: str, message: str
) -> None:
    response = client.post(
        "/games/new",
        data={
            "variant": "three_hand",
            "player1": "X",
            "player2": "Y",
            "player3": "Z",
            "preset": "three_hand",
            "dealer": box,
            "captain": captain,
        },
    )
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_card_mode_knocker_is_a_role(client: FlaskClient) -> None:
    game = new_three_hand(client, box="1")  # Y box, Z captain
    page = client.get(f"/g/{game}/hands/new").get_data(as_text=True)
    assert "Y (box)" in page and "Z (captain)" in page
    response = client.post(
        f"/g/{game}/hands/new",
        data={
            "knocker": "1",  # the captain, Z, goes gin
            "knocker_cards": "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D",
            "defender_cards": "TC JC QC KC 8H 8C 8S 5D 7S TH",
            "version": state(client, game)["version"],
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    data = state(client, game)
    assert data["totals"] == [0, 0, 22 + 25]
    assert roles(data) == (Z, X, Y)
    hand = client.get(f"/g/{game}/hands/1").get_data(as_text=True)
    assert "<bdi>Z</bdi> (captain)" in hand


def test_rematch_puts_the_winner_in_the_box(client: FlaskClient) -> None:
    game = new_three_hand(client, target="20")
    quick_three_hand(client, game, "knock", BOX, 1, 6)  # X +5
    quick_three_hand(client, game, "knock", CAPTAIN, 1, 21)  # Z (captain now) +20 → wins
    data = state(client, game)
    assert data["winner"] == Z
    response = client.post(f"/g/{game}/rematch")
    new = response.headers["Location"].rsplit("/", 1)[-1]
    assert state(client, new)["setup"] == {"box": Z, "captain": X}


def test_the_printed_sheet_holds_names_roles_points_and_finals(
    app: Any, client: FlaskClient
) -> None:
    from scorekeeper.db import get_session
    from scorekeeper.models import Game
    from scorekeeper.printing.render import render_pdf
    from scorekeeper.variants import VARIANTS
    from scorekeeper.variants.window import SHEET_PAGE, Window

    game_id = new_three_hand(client, target="70")
    quick_three_hand(client, game_id, "knock", CAPTAIN, 4, 20)  # Y +16
    quick_three_hand(client, game_id, "gin", BOX, None, 30)  # Y +55 → 71: the game is over
    variant = VARIANTS["three_hand"]
    with app.test_request_context():
        game = get_session().get(Game, game_id)
        data = render_pdf(
            variant.pdf_template, game=game, sheet=variant.sheet(game), paper="A4",
            window=Window.of(len(game.hands), None, size=SHEET_PAGE), appendix=True
        )
    lines = pdf_lines(data)
    assert "Three-hand gin" in lines[1]
    # Hand 1: X box, Y captain knocks 4 vs 20 → Y +16; hand 2: Y box gins vs Z 30 → +55.
    first = next(line for line in lines if line.startswith("1 "))
    second = next(line for line in lines if line.startswith("2 "))
    # Per player: role (B box, C captain, – out), the hand's points (■ won), the total.
    assert first == "1 B 0 C +16■ 16 – 0 knock"
    assert second == "2 – 0 B +55■ 71 C 0 gin"
    assert "= 0 71 0 Final" in lines
    assert "Y wins by 71" in lines
    assert "Y won no hand" not in lines and "X won no hand" not in lines  # no shutout set


def test_the_blank_pad_has_three_players(app: Any) -> None:
    from scorekeeper.printing.render import render_pdf
    from scorekeeper.scoring import PRESETS
    from scorekeeper.variants import VARIANTS

    with app.test_request_context():
        data = render_pdf(
            VARIANTS["three_hand"].pad_template,
            rules=PRESETS["three_hand"],
            preset_name="Three-hand",
            players=["Ann", "Bob"],
            rows=25,
            paper="A4",
        )
    lines = pdf_lines(data)
    assert lines[0] == "Three-hand gin · score pad · Three-hand"
    assert "Players: Ann · Bob · Date:" in lines
    assert "Role Points Total Role Points Total Role Points Total" in lines  # three players
    assert [line for line in lines if line.isdigit()] == [str(n) for n in range(1, 26)]
    assert "Final" in lines


def test_the_sheet_pdf_route_prints_three_hand(client: FlaskClient) -> None:
    game_id = new_three_hand(client)
    play_three_hand_example(client, game_id)
    response = client.get(f"/g/{game_id}/sheet.pdf")
    assert response.status_code == 200
    lines = pdf_lines(response.data)
    rows = [line for line in lines if re.match(r"[1-4] ", line)]
    assert rows == [
        "1 B 0 C +16■ 16 – 0 knock",
        "2 – 0 B +55■ 71 C 0 gin",
        "3 C +12■ 12 B 71 – 0 undercut",
        "4 B 12 – 71 C 0 dead hand",
    ]
    assert "Σ 1 ■ 12 2 ■ 71 0 ■ 0 Hand points and hands won" in lines
