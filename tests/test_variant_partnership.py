"""Partnership gin (RULES.md §6) through the pages and the API.

Ann & Cid (seats 0, 2) play Bob & Dan (seats 1, 3) under the ``partnership`` preset
(target 125, gin 25, undercut 25, game 100, box 25, shutout doubles). Odd deals are
Ann v Bob and Cid v Dan, even deals Ann v Dan and Cid v Bob. Worked examples:

| deal | table 1 | table 2 | net |
|---|---|---|---|
| 1 | Ann knocks 3 v Bob 13: Ann +10 | Cid gins v Dan 20: Cid +45 | both won: Ann & Cid 55 |
| 2 | Ann knocks 2 v Dan 22: Ann +20 | Bob knocks 5 v Cid 35: Bob +30 | one each: Bob & Dan 10 |
| 3 | dead | Dan knocks 4 v Cid 14: Dan +10 | dead counts 0: Bob & Dan 10 |
| 4 | Ann knocks 6 v Dan 6: Dan +25 | Cid knocks 1 v Bob 26: Cid +25 | level: no box |
| 5 | Ann gins v Bob 30: Ann +55 | Cid knocks 1 v Dan 16: Cid +15 | Ann & Cid 70 → 125 |

End: Ann & Cid 125 + 100 game + 2 × 25 boxes = 275; Bob & Dan 20 + 2 × 25 = 70;
margin 205.
"""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from helpers import enter_partnership, new_partnership, partnership_form, pdf_text, state

from tests.examples import PARTNERSHIP_DEALS, TableHand

PLAYERS = ("Ann", "Bob", "Cid", "Dan")


def api_body(deal: tuple[TableHand, TableHand]) -> dict[str, Any]:
    tables = []
    for outcome, knocker, k, d in deal:
        body: dict[str, Any] = {"outcome": outcome}
        if knocker is not None:
            body |= {"knocker": knocker, "defender_deadwood": d}
        if k is not None:
            body["knocker_deadwood"] = k
        tables.append(body)
    return {"tables": tables}


def check_worked_example(data: dict[str, Any]) -> None:
    hands = data["hands"]
    assert [h["points"] for h in hands] == [[55, 0], [0, 10], [0, 10], [0, 0], [70, 0]]
    assert [h["box"] for h in hands] == [0, 1, 1, None, 0]
    assert [[t["team_points"] for t in h["tables"]] for h in hands[:2]] == [
        [[10, 0], [45, 0]],
        [[20, 0], [0, 30]],
    ]
    assert hands[3]["tables"][0]["outcome"] == "undercut" and hands[3]["tables"][0]["winner"] == 3
    assert [h["pairing"] for h in hands[:2]] == [[[0, 1], [2, 3]], [[0, 3], [2, 1]]]
    assert data["totals"] == [125, 20]
    assert data["boxes"] == [2, 2]
    assert data["finished"] and data["winner"] == 0
    assert data["settlement"]["finals"] == [275, 70]
    assert data["settlement"]["margin"] == 205
    assert "Ann & Cid won both hands: 10 + 45 = 55" in hands[0]["explanation"]
    assert "Bob & Dan won by 10: 30 − 20" in hands[1]["explanation"]


def test_worked_example_through_the_pages(client: FlaskClient) -> None:
    game = new_partnership(client)
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "Table 1: <bdi>Ann</bdi> v <bdi>Bob</bdi>" in page
    assert "Table 2: <bdi>Cid</bdi> v <bdi>Dan</bdi>" in page
    assert 'name="a-knocker"' in page and 'name="b-defender_deadwood"' in page
    for number, deal in enumerate(PARTNERSHIP_DEALS, start=1):
        response = enter_partnership(client, game, deal)
        assert response.status_code == 302, response.get_data(as_text=True)
        if number == 1:
            page = client.get(f"/g/{game}").get_data(as_text=True)
            # Opponents change for deal 2, partners stay.
            assert "Table 1: <bdi>Ann</bdi> v <bdi>Dan</bdi>" in page
            assert "Table 2: <bdi>Cid</bdi> v <bdi>Bob</bdi>" in page
    check_worked_example(state(client, game))
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "<bdi>Ann &amp; Cid</bdi> win the game" in page  # a team: the plural verb
    assert "275" in page and "205" in page
    assert f'action="/g/{game}/hands"' not in page
    shown = client.get(f"/g/{game}/hands/2").get_data(as_text=True)
    assert "Table 2: <bdi>Cid</bdi> v <bdi>Bob</bdi>" in shown
    assert "\u2068Bob &amp; Dan\u2069 won by 10" in shown


def test_worked_example_through_the_api(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games", json={"variant": "partnership", "players": list(PLAYERS), "dealer": 2}
    )
    assert created.status_code == 201, created.get_json()
    game, secret = created.get_json()["id"], created.get_json()["edit_secret"]
    data = state(client, game)
    assert data["rules"]["target"] == 125 and data["setup"] == {"dealer": 2}
    assert data["team_names"] == ["Ann & Cid", "Bob & Dan"]
    assert data["next_pairing"] == [[0, 1], [2, 3]]
    for number, deal in enumerate(PARTNERSHIP_DEALS, start=1):
        response = client.post(
            f"/api/v1/games/{game}/hands",
            json=api_body(deal),
            headers={"X-Edit-Secret": secret, "Idempotency-Key": f"deal-{number}"},
        )
        assert response.status_code == 201, response.get_json()
        assert "hands" not in response.get_json()
    assert response.get_json()["settlement"]["finals"] == [275, 70]
    check_worked_example(state(client, game))


def test_shutout_doubles(client: FlaskClient) -> None:
    """Ann & Cid win every deal: (125 + 100) × 2 + 2 × 25 = 500; Bob & Dan 0."""
    game = new_partnership(client)
    enter_partnership(client, game, PARTNERSHIP_DEALS[0])  # 55
    enter_partnership(client, game, (("knock", 0, 1, 41), ("knock", 0, 1, 31)))  # 40 + 30 → 125
    data = state(client, game)
    assert data["finished"] and data["settlement"]["shutout"]
    assert data["settlement"]["finals"] == [500, 0]


def test_settings_change_target_and_bonuses(client: FlaskClient) -> None:
    game = new_partnership(client, target="50", game_bonus="0", box_bonus="10", shutout="none")
    enter_partnership(client, game, PARTNERSHIP_DEALS[0])  # 55 ≥ 50
    data = state(client, game)
    assert data["settlement"]["finals"] == [65, 0]


def test_deleting_a_deal_rederives_the_pairings(client: FlaskClient) -> None:
    game = new_partnership(client)
    for deal in PARTNERSHIP_DEALS[:3]:
        enter_partnership(client, game, deal)
    version = state(client, game)["version"]
    response = client.post(f"/g/{game}/hands/2/delete", data={"version": version})
    assert response.status_code == 302
    data = state(client, game)
    # The old deal 3 is now deal 2: Dan (second of Cid's pair) is now Bob.
    assert data["hands"][1]["pairing"] == [[0, 3], [2, 1]]
    assert data["hands"][1]["tables"][1]["winner"] == 1
    assert data["totals"] == [55, 10]


def test_correcting_a_deal_shows_that_deals_pairing(client: FlaskClient) -> None:
    game = new_partnership(client)
    for deal in PARTNERSHIP_DEALS[:3]:
        enter_partnership(client, game, deal)
    page = client.get(f"/g/{game}/hands/2/edit").get_data(as_text=True)
    assert "Table 1: <bdi>Ann</bdi> v <bdi>Dan</bdi>" in page
    assert "Table 2: <bdi>Cid</bdi> v <bdi>Bob</bdi>" in page
    assert re.search(r'name="b-knocker_deadwood"[^>]*value="5"', page)
    data = partnership_form(client, game, (("knock", 0, 2, 22), ("knock", 0, 5, 35)))  # Cid won
    response = client.post(f"/g/{game}/hands/2/edit", data=data)
    assert response.status_code == 302
    assert state(client, game)["hands"][1]["points"] == [50, 0]


def test_bad_table_keeps_what_was_typed(client: FlaskClient) -> None:
    game = new_partnership(client)
    response = enter_partnership(client, game, (("knock", 0, 14, 20), ("knock", None, 2, 9)))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'value="14"' in page and 'value="20"' in page and 'value="9"' in page
    assert "Choose who went out." in page
    assert page.count('class="error"') >= 2
    assert state(client, game)["hands"] == []


def test_api_errors_name_the_table(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games", json={"variant": "partnership", "players": list(PLAYERS)}
    ).get_json()
    headers = {"X-Edit-Secret": created["edit_secret"]}
    url = f"/api/v1/games/{created['id']}/hands"
    one = client.post(url, json={"tables": [{"outcome": "dead"}]}, headers=headers)
    assert one.status_code == 422 and one.get_json()["errors"][0]["where"] == "tables"
    bad = client.post(
        url,
        json={
            "tables": [
                {"outcome": "dead"},
                {"outcome": "knock", "knocker": 2, "knocker_deadwood": 1, "defender_deadwood": 5},
            ]
        },
        headers=headers,
    )
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["where"] == "tables[1].knocker"
    over = client.post(
        url,
        json={
            "tables": [
                {"outcome": "dead"},
                {"outcome": "knock", "knocker": 0, "knocker_deadwood": 14, "defender_deadwood": 20},
            ]
        },
        headers=headers,
    )
    assert over.status_code == 422
    assert over.get_json()["errors"][0]["where"].startswith("tables[1].")
    assert state(client, created["id"])["hands"] == []


def test_card_mode_both_tables_one_dead(client: FlaskClient) -> None:
    game = new_partnership(client)
    page = client.get(f"/g/{game}/hands/new").get_data(as_text=True)
    assert "Table 1: <bdi>Ann</bdi> v <bdi>Bob</bdi>" in page and "Dead hand" in page
    response = client.post(
        f"/g/{game}/hands/new",
        data={
            "version": state(client, game)["version"],
            "a-knocker": "dead",
            "b-knocker": "1",  # Dan goes gin against Cid: 22 + 25 = 47
            "b-knocker_cards": "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D",
            "b-defender_cards": "TC JC QC KC 8H 8C 8S 5D 7S TH",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    data = state(client, game)
    assert data["hands"][0]["tables"][1]["winner"] == 3
    assert data["totals"] == [0, 47]
    hand = client.get(f"/g/{game}/hands/1").get_data(as_text=True)
    assert "Dan" in hand and "47" in hand
    # Re-entering it with cards keeps the dead table and the cards.
    page = client.get(f"/g/{game}/hands/1/edit?mode=cards").get_data(as_text=True)
    assert re.search(r'<input checked id="a-knocker-2"[^>]*value="dead"', page)
    assert re.search(r'<input checked id="b-knocker-1"', page)
    assert "4H 5H 6H" in page


def test_card_mode_errors_stay_at_their_table(client: FlaskClient) -> None:
    game = new_partnership(client)
    response = client.post(
        f"/g/{game}/hands/new",
        data={
            "version": state(client, game)["version"],
            "a-knocker": "0",
            "a-knocker_cards": "AS 2S 3S 4S 4H 5H 6H 7D 8D",  # nine cards
            "a-defender_cards": "TC JC QC KC 8H 8C 8S 5D 7S TH",
            "b-knocker": "dead",
        },
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "AS 2S 3S 4S 4H 5H 6H 7D 8D" in page
    assert state(client, game)["hands"] == []


def test_the_printed_sheet_holds_teams_tables_points_and_finals(
    app: Any, client: FlaskClient
) -> None:
    from scorekeeper.db import get_session
    from scorekeeper.models import Game
    from scorekeeper.printing.render import render_pdf
    from scorekeeper.variants import VARIANTS
    from scorekeeper.variants.window import SHEET_PAGE, Window

    game_id = new_partnership(client)
    for deal in PARTNERSHIP_DEALS:
        enter_partnership(client, game_id, deal)
    variant = VARIANTS["partnership"]
    with app.test_request_context():
        game = get_session().get(Game, game_id)
        data = render_pdf(
            variant.pdf_template, game=game, sheet=variant.sheet(game), paper="A4",
            window=Window.of(len(game.hands), None, size=SHEET_PAGE), appendix=True
        )
    text = pdf_text(data)
    assert "Partnership gin" in text and "Ann & Cid" in text and "Bob & Dan" in text
    assert "Ann v Dan" in text and "Cid v Bob" in text
    for points in ("+10", "+45", "+55", "+70"):
        assert points in text
    assert re.search(r"\b275\b", text) and re.search(r"\b70\b", text)
    assert "Ann & Cid win by 205" in text  # a team: the plural verb


def test_the_blank_pad_prints_the_pairings(app: Any) -> None:
    from scorekeeper.printing.render import render_pdf
    from scorekeeper.scoring import PRESETS
    from scorekeeper.variants import VARIANTS

    with app.test_request_context():
        data = render_pdf(
            VARIANTS["partnership"].pad_template,
            rules=PRESETS["partnership"],
            preset_name="Partnership",
            players=["Ann", "Bob"],
            rows=20,
            paper="A4",
        )
    text = pdf_text(data)
    assert "Partnership gin" in text and "Ann & Player 3" in text
    assert "Ann v Bob" in text and "Ann v Player 4" in text and "Player 3 v Bob" in text
    assert "Game bonus +100" in text and "Final" in text


def test_the_sheet_pdf_route_prints_partnership(client: FlaskClient) -> None:
    game_id = new_partnership(client)
    enter_partnership(client, game_id, PARTNERSHIP_DEALS[0])
    response = client.get(f"/g/{game_id}/sheet.pdf")
    assert response.status_code == 200
    assert "Ann & Cid" in pdf_text(response.data)


# --- one table with cards, the other quick -----------------------------------------------

MIXED = {
    "a-knocker": "1",  # Bob goes gin against Ann with cards: 22 + 25 = 47
    "a-knocker_cards": "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D",
    "a-defender_cards": "TC JC QC KC 8H 8C 8S 5D 7S TH",
    "b-knocker": "0",  # Cid knocks 4 against Dan's 14, typed: +10
    "b-outcome": "knock",
    "b-knocker_deadwood": "4",
    "b-defender_deadwood": "14",
}


def field_errors(page: str, field_id: str) -> list[str]:
    """The error messages in the field block of the input ``field_id``."""
    start = page.index(f'id="{field_id}"')
    block = page[page.rfind('class="field', 0, start) : page.find("</div>", start)]
    return re.findall(r'class="error"[^>]*>([^<]*)<', block)


def test_one_table_with_cards_the_other_quick(client: FlaskClient) -> None:
    game = new_partnership(client)
    response = client.post(
        f"/g/{game}/hands/new", data={"version": state(client, game)["version"], **MIXED}
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    data = state(client, game)
    first, second = data["hands"][0]["inputs"]["tables"]
    assert first["mode"] == "cards" and first["knocker"] == 1
    assert first["knocker_cards"] == ["AS", "2S", "3S", "4S", "4H", "5H", "6H", "7D", "8D", "9D"]
    assert second == {
        "mode": "quick",
        "outcome": "knock",
        "knocker": 0,
        "knocker_deadwood": 4,
        "defender_deadwood": 14,
        "upcard": None,
    }
    assert data["totals"] == [0, 37]  # Bob & Dan 47 − Ann & Cid 10
    # Correcting it opens the card page, each table in its own mode.
    page = client.get(f"/g/{game}/hands/1/edit").get_data(as_text=True)
    assert "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D</textarea>" in page
    assert re.search(r'id="b-knocker_deadwood"[^>]*value="4"', page)
    assert re.search(r'id="b-defender_deadwood"[^>]*value="14"', page)
    assert re.search(r'<input checked id="b-knocker-0"', page)


def test_a_table_left_blank_asks_for_its_quick_fields_not_this_field_is_required(
    client: FlaskClient,
) -> None:
    game = new_partnership(client)
    data = {k: v for k, v in MIXED.items() if k.startswith("a-")}
    response = client.post(
        f"/g/{game}/hands/new", data={"version": state(client, game)["version"], **data}
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "This field is required." not in page
    assert field_errors(page, "b-defender_deadwood") == [
        "Enter the defender&#39;s deadwood after layoffs."
    ]
    assert "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D" in page  # table 1's cards kept
    assert state(client, game)["hands"] == []


def test_a_quick_table_on_the_card_page_is_checked_at_its_fields(client: FlaskClient) -> None:
    game = new_partnership(client)
    data = {**MIXED, "b-knocker_deadwood": "9", "b-defender_deadwood": "4"}  # an undercut
    response = client.post(
        f"/g/{game}/hands/new", data={"version": state(client, game)["version"], **data}
    )
    assert response.status_code == 302  # an undercut is a hand like any other
    data = {**MIXED, "b-knocker_deadwood": "12"}  # over the knock limit
    response = client.post(
        f"/g/{game}/hands/new", data={"version": state(client, game)["version"], **data}
    )
    assert response.status_code == 422
    errors = field_errors(response.get_data(as_text=True), "b-knocker_deadwood")
    assert len(errors) == 1 and "12" in errors[0]


def test_api_accepts_one_table_with_cards_the_other_quick(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games", json={"variant": "partnership", "players": list(PLAYERS)}
    ).get_json()
    body = {
        "tables": [
            {
                "knocker": {"seat": 1, "cards": "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D"},
                "defender": {"cards": "TC JC QC KC 8H 8C 8S 5D 7S TH"},
            },
            {"outcome": "knock", "knocker": 0, "knocker_deadwood": 4, "defender_deadwood": 14},
        ]
    }
    response = client.post(
        f"/api/v1/games/{created['id']}/hands",
        json=body,
        headers={"X-Edit-Secret": created["edit_secret"]},
    )
    assert response.status_code == 201, response.get_json()
    data = state(client, created["id"])
    assert [t["mode"] for t in data["hands"][0]["inputs"]["tables"]] == ["cards", "quick"]
    assert data["totals"] == [0, 37]


def test_a_deals_net_and_its_tables_steps_link_their_rules(client: FlaskClient) -> None:
    game = new_partnership(client)
    for deal in PARTNERSHIP_DEALS[:4]:
        assert enter_partnership(client, game, deal).status_code == 302
    rules = f"/g/{game}/rules"
    leads = {}
    for number in (1, 2, 4):
        page = client.get(f"/g/{game}/hands/{number}").get_data(as_text=True)
        leads[number] = re.search(r'<p class="lead">(.*?)</p>', page, re.S).group(1)
    assert leads == {
        1: "\u2068Ann &amp; Cid\u2069 won both hands: 10 + 45 = 55 "
           f'<a class="rule-ref" href="{rules}#teams">rule</a>',
        2: "\u2068Bob &amp; Dan\u2069 won by 10: 30 − 20 "
           f'<a class="rule-ref" href="{rules}#teams">rule</a>',
        4: f'Level deal: no points, no box. <a class="rule-ref" href="{rules}#teams">rule</a>',
    }
    # Deal 4's first table, entered as totals: an undercut on equal deadwood, step by step.
    table = page.split('<section class="table-1">', 1)[1].split("</section>", 1)[0]
    assert re.findall(r'<a class="rule-ref" href="([^"]+)">rule</a>', table) == [
        f"{rules}#knock", f"{rules}#undercut"]
