"""Hollywood gin (RULES.md §4) as a game: created, played and corrected through the pages
and the JSON API; three game columns on one sheet."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from helpers import new_hollywood, pdf_text, state, win

# RULES.md §8: target 100, game 100, box 25; hand points given (seat 0 = A, seat 1 = B).
EXAMPLE = [(0, 20), (1, 15), (0, 30), (0, 40), (1, 35), (0, 25), (0, 10), (0, 30)]


def api_game(client: FlaskClient, rules: Any = "russian") -> tuple[str, str]:
    response = client.post(
        "/api/v1/games", json={"variant": "hollywood", "players": ["A", "B"], "rules": rules}
    )
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], body["edit_secret"]


def api_win(client: FlaskClient, game: str, secret: str, seat: int, points: int) -> Any:
    body = {
        "outcome": "knock",
        "knocker": seat,
        "knocker_deadwood": 1,
        "defender_deadwood": points + 1,
    }
    return client.post(f"/api/v1/games/{game}/hands", json=body, headers={"X-Edit-Secret": secret})


def columns(data: dict[str, Any]) -> list[dict[str, Any]]:
    cols: list[dict[str, Any]] = data["columns"]
    return cols


def check_example(data: dict[str, Any]) -> None:
    """The numbers RULES.md §8 gives for the Hollywood example (russian: shutout doubles)."""
    one, two, three = columns(data)
    assert one["totals"] == [115, 50] and one["boxes"] == [4, 2]
    assert one["settlement"]["finals"] == [315, 100]
    assert two["totals"] == [105, 35] and two["boxes"] == [4, 1]
    assert two["settlement"]["finals"] == [305, 60]
    assert three["totals"] == [105, 0] and three["boxes"] == [4, 0]
    assert three["settlement"]["shutout"] is True
    assert three["settlement"]["finals"] == [(105 + 100) * 2 + 4 * 25, 0]
    assert all(c["closed"] and c["winner"] == 0 for c in (one, two, three))
    assert data["finished"]
    assert data["match"]["finals"] == [315 + 305 + 510, 160]


def test_new_game_page_offers_hollywood(client: FlaskClient) -> None:
    page = client.get("/games/new?variant=hollywood").get_data(as_text=True)
    assert 'value="hollywood" selected' in page or 'selected value="hollywood"' in page
    assert "Hollywood gin" in page


def test_the_usual_rules_are_russian_and_the_fourth_column_is_a_checkbox(
    client: FlaskClient,
) -> None:
    game = new_hollywood(client, preset="", hollywood_fourth="y")
    data = state(client, game)
    assert data["rules"]["hollywood_fourth"] is True
    assert (data["rules"]["game_bonus"], data["rules"]["box_bonus"]) == (100, 25)  # russian
    assert len(columns(data)) == 4
    plain = new_hollywood(client, preset="")
    assert state(client, plain)["rules"]["preset"] == "russian"
    assert len(columns(state(client, plain))) == 3


def test_rules_example_through_the_pages(client: FlaskClient) -> None:
    game = new_hollywood(client)
    for seat, points in EXAMPLE:
        win(client, game, seat, points)
    data = state(client, game)
    check_example(data)
    assert [h["columns"] for h in data["hands"]] == [
        [1],
        [1],
        [1, 2],
        [1, 2, 3],
        [1, 2],
        [1, 2, 3],
        [2, 3],
        [3],
    ]
    assert [h["closes"] for h in data["hands"]] == [[], [], [], [], [], [1], [2], [3]]
    page = client.get(f"/g/{game}").get_data(as_text=True)
    for number in ("315", "100", "305", "60", "510", "1130"):
        assert number in page
    assert "The match is over" in page
    assert "Game 3: <bdi>A</bdi> wins, 510 to 0" in page
    assert f'action="/g/{game}/hands#enter"' not in page  # no more hands


def test_rules_example_through_the_api(client: FlaskClient) -> None:
    game, secret = api_game(client, {"preset": "russian"})
    for seat, points in EXAMPLE:
        assert api_win(client, game, secret, seat, points).status_code == 201
    check_example(state(client, game))
    refused = api_win(client, game, secret, 1, 10)
    assert refused.status_code == 409


def test_the_sheet_marks_the_columns_each_hand_went_into(client: FlaskClient) -> None:
    game = new_hollywood(client)
    for seat, points in EXAMPLE[:5]:
        win(client, game, seat, points)
    page = client.get(f"/g/{game}").get_data(as_text=True)
    row = re.search(r'<tr id="hand-5"[^>]*data-columns="([\d ]*)"', page)
    assert row and row.group(1) == "1 2"
    hand5 = page.split('id="hand-5"')[1].split("</tr>")[0]
    assert hand5.count('class="in') == 4  # two columns × two players
    assert "+35" in hand5
    hand_page = client.get(f"/g/{game}/hands/5").get_data(as_text=True)
    assert "Entered in games 1, 2." in hand_page


@pytest.mark.parametrize(
    ("wins", "expected"),
    [
        ([(0, 10)], [[1]]),
        ([(0, 10), (0, 10)], [[1], [1, 2]]),
        ([(0, 10), (0, 10), (0, 10), (0, 10)], [[1], [1, 2], [1, 2, 3], [1, 2, 3]]),
        # B's first win goes to game 1 (the first where he has no score), his second to 1–2
        ([(0, 10), (0, 10), (1, 5), (1, 5)], [[1], [1, 2], [1], [1, 2]]),
    ],
)
def test_column_assignment_rule(
    client: FlaskClient, wins: list[tuple[int, int]], expected: list[list[int]]
) -> None:
    game, secret = api_game(client)
    for seat, points in wins:
        api_win(client, game, secret, seat, points)
    assert [h["columns"] for h in state(client, game)["hands"]] == expected


def test_a_player_without_a_score_when_a_column_closes_starts_in_the_next(
    client: FlaskClient,
) -> None:
    game, secret = api_game(client)
    api_win(client, game, secret, 0, 60)  # game 1
    api_win(client, game, secret, 0, 50)  # games 1, 2: game 1 closes at 110
    api_win(client, game, secret, 1, 5)  # B has no score anywhere: first open is game 2
    data = state(client, game)
    assert data["hands"][-1]["columns"] == [2]
    assert columns(data)[0]["closed"] and not columns(data)[1]["closed"]


def test_dead_hands_go_nowhere_and_the_match_goes_on(client: FlaskClient) -> None:
    game, secret = api_game(client)
    response = client.post(
        f"/api/v1/games/{game}/hands", json={"outcome": "dead"}, headers={"X-Edit-Secret": secret}
    )
    assert response.status_code == 201
    data = state(client, game)
    assert data["hands"][0]["columns"] == [] and not data["finished"]
    assert [c["totals"] for c in columns(data)] == [[0, 0]] * 3


def test_the_fourth_column_opens_when_the_first_closes(client: FlaskClient) -> None:
    game, secret = api_game(client, {"preset": "russian", "hollywood_fourth": True})
    data = state(client, game)
    assert len(columns(data)) == 4 and columns(data)[3]["opened_after"] is None
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "Game 4" in page and "opens when game 1 closes" in page
    for seat, points in EXAMPLE[:6]:  # hand 6 closes game 1
        api_win(client, game, secret, seat, points)
    data = state(client, game)
    assert columns(data)[3]["opened_after"] == 6 and columns(data)[3]["open"]
    api_win(client, game, secret, 1, 20)  # B scored in games 1–2: now 2, and 3 fresh
    api_win(client, game, secret, 0, 10)  # A scored in 2 and 3; game 4 is his first fresh
    assert [h["columns"] for h in state(client, game)["hands"][-2:]] == [[2, 3], [2, 3, 4]]
    # Play A out: every column closes, then the match is over.
    for _ in range(12):
        if state(client, game)["finished"]:
            break
        api_win(client, game, secret, 0, 50)
    data = state(client, game)
    assert data["finished"] and all(c["closed"] for c in columns(data))
    assert columns(data)[3]["hands"][0]["hand"] == 8


def test_a_correction_reopens_a_column(client: FlaskClient) -> None:
    game = new_hollywood(client)
    for seat, points in EXAMPLE:
        win(client, game, seat, points)
    assert state(client, game)["finished"]
    # Hand 8 was really A +3: game 3 stands at 78 and opens again.
    response = client.post(
        f"/g/{game}/hands/8/edit",
        data={
            "outcome": "knock",
            "knocker": "0",
            "knocker_deadwood": "1",
            "defender_deadwood": "4",
            "version": str(state(client, game)["version"]),
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    data = state(client, game)
    assert not data["finished"]
    three = columns(data)[2]
    assert three["totals"] == [78, 0] and not three["closed"] and three["settlement"] is None
    assert columns(data)[0]["settlement"]["finals"] == [315, 100]  # untouched
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert f'action="/g/{game}/hands#enter"' in page  # hands may be entered again
    win(client, game, 1, 10)  # B's first score in game 3
    assert state(client, game)["hands"][-1]["columns"] == [3]


def test_bad_hand_keeps_what_was_typed(client: FlaskClient) -> None:
    game = new_hollywood(client)
    response = client.post(
        f"/g/{game}/hands",
        data={
            "outcome": "knock",
            "knocker": "0",
            "knocker_deadwood": "14",
            "defender_deadwood": "20",
            "version": str(state(client, game)["version"]),
        },
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "a knock needs 10 or less" in page and 'value="14"' in page


def test_api_refuses_bad_hands_with_where(client: FlaskClient) -> None:
    game, secret = api_game(client)
    response = client.post(
        f"/api/v1/games/{game}/hands",
        json={"outcome": "knock", "knocker": 2, "defender_deadwood": 3},
        headers={"X-Edit-Secret": secret},
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["where"] == "knocker"
    response = client.post(
        "/api/v1/games", json={"variant": "hollywood", "players": ["A", "B", "C"]}
    )
    assert response.status_code == 422


def test_rematch_lets_the_match_loser_deal(client: FlaskClient) -> None:
    game = new_hollywood(client)
    for seat, points in EXAMPLE:
        win(client, game, seat, points)
    response = client.post(f"/g/{game}/rematch")
    assert response.status_code == 302
    new = response.headers["Location"].rsplit("/", 1)[-1]
    data = state(client, new)
    assert data["variant"] == "hollywood" and data["setup"] == {"dealer": 1}


# --- print ------------------------------------------------------------------------------


def test_the_printed_sheet_holds_names_points_and_every_games_finals(
    app: Any, client: FlaskClient
) -> None:
    from scorekeeper.db import get_session
    from scorekeeper.models import Game
    from scorekeeper.printing.render import render_pdf
    from scorekeeper.variants import VARIANTS
    from scorekeeper.variants.window import SHEET_PAGE, Window

    game_id = new_hollywood(client, players=("Anastasia", "Bob"))
    for seat, points in EXAMPLE:
        win(client, game_id, seat, points)
    variant = VARIANTS["hollywood"]
    with app.test_request_context():
        game = get_session().get(Game, game_id)
        data = render_pdf(
            variant.pdf_template, game=game, sheet=variant.sheet(game), paper="A4",
            window=Window.of(len(game.hands), None, size=SHEET_PAGE), appendix=False
        )
    text = pdf_text(data)
    assert "Anastasia" in text and "Bob" in text and "Hollywood gin" in text
    assert "Game 1" in text and "Game 2" in text and "Game 3" in text
    for points in (20, 15, 30, 40, 35, 25, 10):
        assert re.search(rf"\+{points}\b", text), points
    for final in (315, 100, 305, 60, 510, 1130, 160):
        assert re.search(rf"\b{final}\b", text), final
    assert "Game 3: Anastasia wins, 510 to 0" in text


def test_the_sheet_pdf_route_prints_hollywood(client: FlaskClient) -> None:
    game_id = new_hollywood(client)
    for seat, points in EXAMPLE:
        win(client, game_id, seat, points)
    response = client.get(f"/g/{game_id}/sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = pdf_text(response.data)
    assert "Game 3" in text and re.search(r"\b510\b", text) and re.search(r"\b1130\b", text)


def test_the_pad_route_prints_the_hollywood_pad(client: FlaskClient) -> None:
    response = client.get("/pads/hollywood.pdf?rows=20&preset=russian&player1=Ann")
    assert response.status_code == 200, response.get_data(as_text=True)
    text = pdf_text(response.data)
    assert "Hollywood gin" in text and "Game 3" in text and "Ann" in text


@pytest.mark.parametrize("fourth", [False, True])
def test_the_blank_pad_has_three_games_and_the_rows_asked_for(app: Any, fourth: bool) -> None:
    from scorekeeper.printing.render import render_pdf
    from scorekeeper.scoring import PRESETS
    from scorekeeper.variants import VARIANTS

    rules = PRESETS["russian"].replace(hollywood_fourth=fourth)
    with app.test_request_context():
        data = render_pdf(
            VARIANTS["hollywood"].pad_template,
            rules=rules,
            preset_name="Russian",
            players=["Ann", ""],
            rows=25,
            paper="A4",
        )
    text = pdf_text(data)
    assert "Hollywood gin" in text and "Ann" in text and "25" in text
    assert ("Game 4" in text) is fourth and "Game 3" in text
    assert "Game bonus +100\nShutout: doubled\n" in text and "Final" in text
    import io

    from pypdf import PdfReader

    assert len(PdfReader(io.BytesIO(data)).pages) == 1


def test_every_game_page_works_for_hollywood(client: FlaskClient) -> None:
    game = new_hollywood(client)
    for seat, points in EXAMPLE[:3]:
        win(client, game, seat, points)
    for path in (
        f"/g/{game}",
        f"/g/{game}/hands/new",
        f"/g/{game}/hands/3",
        f"/g/{game}/hands/3/edit",
        f"/g/{game}/hands/3/edit?mode=cards",
        f"/g/{game}/hands/3/delete",
        f"/g/{game}/history",
        f"/g/{game}/export.json",
        "/",
    ):
        assert client.get(path).status_code == 200, path
    # A hand entered with cards goes into the columns like any other (B scored in game 1).
    response = client.post(
        f"/g/{game}/hands/new",
        data={
            "knocker": "1",
            "knocker_cards": "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D",
            "defender_cards": "TC JC QC KC 8H 8C 8S 5D 7S TH",
            "version": str(state(client, game)["version"]),
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    last = state(client, game)["hands"][-1]
    assert last["outcome"] == "gin" and last["winner"] == 1 and last["columns"] == [1, 2]
    # Undo takes it out of the columns again.
    response = client.post(f"/g/{game}/undo", data={"version": str(state(client, game)["version"])})
    assert response.status_code == 302
    assert len(state(client, game)["hands"]) == 3
