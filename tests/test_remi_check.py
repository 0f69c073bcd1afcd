"""The Remi deal checker page ``/remi/check``: a deal typed in, every player scored."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

URL = "/remi/check"


def deal(**changes: str) -> dict[str, str]:
    """RULES.md §8's four-player Remi deal as the form sends it (B is seed 002's hand)."""
    return {
        "rules": "strict",
        "players-0-player_name": "A",
        "players-0-hand": "2♥ 3♥ 4♥ 5♥ K♣ K♦ K♠",
        "players-1-player_name": "B",
        "players-1-hand": "QC JD JC 6C 5C 4C 3C",
        "players-2-player_name": "C",
        "players-2-table": "7S 8S 9S",
        "players-2-hand": "9d 9c 9h as",
        "players-3-player_name": "D",
        "players-3-hand": "QS QH QD 2S 6H 8D AH",
        "went_out": "0",
        "final_discard": "AD",
        **changes,
    }


def post(client: FlaskClient, data: dict[str, str]) -> tuple[int, str]:
    response = client.post(URL, data=data)
    return response.status_code, html.unescape(response.get_data(as_text=True))


def text(page: str) -> str:
    """The page's visible text (names' invisible isolates dropped), whitespace collapsed."""
    seen = re.sub(r"<[^>]+>", " ", page).replace("\u2068", "").replace("\u2069", "")
    return re.sub(r"\s+", " ", seen)


def scores(page: str) -> dict[str, str]:
    """The result's score table: name -> signed points."""
    table = page.split('class="remi-scores"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<th scope=\"row\"><bdi>(.*?)</bdi></th>\s*<td class=\"num\">(.*?)</td>",
                      table)
    return dict(rows)


def field_block(page: str, field_id: str) -> str:
    """The ``.field`` block holding the input ``field_id``, with its errors."""
    start = page.index(f'<label for="{field_id}"')
    return page[page.rindex('<div class="field', 0, start) : page.index("</div>", start)]


def test_get_shows_an_empty_form(client: FlaskClient) -> None:
    response = client.get(URL)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Check a Remi deal" in page
    for seat in range(4):
        assert f'name="players-{seat}-hand"' in page
        assert f'name="players-{seat}-table"' in page
    assert 'value="none"' in page and "stock ran out" in page
    assert 'id="result"' not in page


def test_rules_section_8_deal_strict(client: FlaskClient) -> None:
    status, page = post(client, deal())
    assert status == 200
    assert scores(page) == {"A": "+200", "B": "−10", "C": "+15", "D": "−60"}
    shown = text(page)
    assert "A went out discarding A♦ : 10 × 15 = +150." in shown
    assert "D has no sequence, so the set Q♠ Q♥ Q♦ does not count." in shown
    assert "7♠ 8♠ 9♠ on the table" in shown


def test_rules_section_8_deal_lenient(client: FlaskClient) -> None:
    _, page = post(client, deal(rules="lenient"))
    assert scores(page)["D"] == "0"


def test_typed_text_is_kept(client: FlaskClient) -> None:
    _, page = post(client, deal())
    assert "9d 9c 9h as</textarea>" in page
    assert 'value="AD"' in page
    assert re.search(r'value="0"[^>]*checked|checked[^>]*value="0"', page)
    assert re.search(r'value="strict"[^>]*checked|checked[^>]*value="strict"', page)


def test_stock_ran_out_two_players(client: FlaskClient) -> None:
    data = {
        "rules": "strict",
        "players-0-hand": "Q♣ J♦ J♣ 6♣ 5♣ 4♣ 3♣",  # seed 002: +20 − 30
        "players-1-player_name": "Bob",
        "players-1-hand": "2H 3H 4H 8S 9D TD KH",
        "went_out": "none",
    }
    status, page = post(client, data)
    assert status == 200
    assert scores(page) == {"Player 1": "−10", "Bob": "−10"}
    assert "The stock ran out" in text(page)


@pytest.mark.parametrize(
    ("changes", "field_id", "message"),
    [
        ({"players-2-table": "7S 8S AS"}, "players-2-table", "aces are never in a sequence"),
        ({"players-1-hand": "QC JD JC 6C 5C 4C XX"}, "players-1-hand", "XX"),
        ({"players-3-hand": "QS QH QD 2S 6H 8D AD"}, "players-3-hand", "A♦"),
        ({"final_discard": ""}, "final_discard", "name the final discard"),
        ({"final_discard": "AD AS"}, "final_discard", "one card"),
        ({"players-1-player_name": "A"}, "players-1-player_name", "two players are named A"),
        ({"players-0-hand": "2H 3H 4H 5H KC KD 8C"}, "players-0-hand", "8♣"),
        ({"went_out": "none"}, "final_discard", "Only the player who went out"),
        ({"players-2-table": "7S 8S 9S\n2C 3C ZZ"}, "players-2-table", "Combination 2"),
    ],
)
def test_errors_at_the_right_field(
    client: FlaskClient, changes: dict[str, str], field_id: str, message: str
) -> None:
    status, page = post(client, deal(**changes))
    assert status == 200
    block = field_block(page, field_id)
    assert "has-error" in block and message in block, block
    assert 'class="hand-result' not in page
    summary = page.split('class="remi-problems" id="result"', 1)[1]  # the form posts to #result
    assert f'href="#{field_id}"' in summary and message in summary
    for value in changes.values():  # what was typed comes back
        assert html.escape(value, quote=False) in page or value in page


def test_a_player_with_a_name_but_no_cards(client: FlaskClient) -> None:
    _, page = post(client, deal(**{"players-3-hand": ""}))
    assert "D has no cards" in field_block(page, "players-3-hand")


def test_one_player_is_not_a_deal(client: FlaskClient) -> None:
    data = {"rules": "strict", "players-0-hand": "2H 3H 4H", "went_out": "none"}
    status, page = post(client, data)
    assert status == 200 and "at least two players" in page.split('id="result"', 1)[1]


def test_the_player_who_went_out_must_be_entered(client: FlaskClient) -> None:
    data = deal(went_out="3", final_discard="", **{"players-3-player_name": "",
                                                   "players-3-hand": ""})
    _, page = post(client, data)
    assert "Player 4 has no cards" in field_block(page, "players-3-hand")
    assert "Player 4 went out" in field_block(page, "final_discard")


def test_csrf_is_enforced(make_app: Any) -> None:
    app: Flask = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get(URL).get_data(as_text=True)
    refused = client.post(URL, data=deal())
    assert refused.status_code == 400
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    accepted = client.post(URL, data={**deal(), "csrf_token": token.group(1)})
    assert accepted.status_code == 200
    assert 'class="hand-result' in accepted.get_data(as_text=True)


FORM_VALUE = st.text(max_size=30) | st.sampled_from(["7S 8S 9S", "AS", "2H 3H 4H", "QC\nQD\nQH"])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    data=st.dictionaries(
        st.sampled_from([*deal(), "players-4-hand", "csrf_token", "players-0"]),
        FORM_VALUE,
    )
)
def test_fuzz_never_a_500(client: FlaskClient, data: dict[str, str]) -> None:
    status, _ = post(client, data)
    assert status == 200


def test_six_cards_are_refused_at_that_players_hand(client: FlaskClient) -> None:
    # Nobody ends a deal with fewer than the 7 dealt cards.
    status, page = post(client, deal(**{"players-2-hand": "9d 9c as"}))
    assert status == 200  # the checker answers its problems as a page, like the others
    errors = re.findall(r'class="error"[^>]*>([^<]*)<', field_block(page, "players-2-hand"))
    assert errors == [
        "C holds at least 7 cards at the end of a deal (table and hand); cards entered: 6"
    ]
    assert 'class="hand-result' not in page


def step_rules(page: str) -> list[tuple[str, str | None]]:
    """The result's steps as (text, the href of its rule link or ``None``)."""
    steps = page.split('<ol class="explanation">', 1)[1].split("</ol>", 1)[0]
    found = []
    for item in re.findall(r"<li>(.*?)</li>", steps, re.S):
        link = re.search(r'<a class="rule-ref" href="([^"]+)">rule</a>', item)
        found.append((text(item.replace(link.group(0), "") if link else item).strip(),
                      link.group(1) if link else None))
    return found


def test_each_step_links_its_rule_on_the_remi_card(client: FlaskClient) -> None:
    _, page = post(client, deal())
    assert step_rules(page)[:5] == [
        ("A went out.", "/rules/remi#going-out"),
        ("A: 2♥ 3♥ 4♥ 5♥ in hand is a sequence, +20.", "/rules/remi#sequences"),
        ("A: K♠ K♦ K♣ in hand is a set, +30.", "/rules/remi#sets"),
        ("A went out discarding A♦ : 10 × 15 = +150.", "/rules/remi#going-out"),
        ("A scores 50 − 0 + 150 = 200.", "/rules/remi#remi-scoring"),
    ]
    assert step_rules(page)[-3:] == [
        ("D has no sequence, so the set Q♠ Q♥ Q♦ does not count.", "/rules/remi#sets"),
        ("D: Q♠ Q♥ Q♦ 2♠ 6♥ 8♦ A♥ in no combination, −60.", "/rules/remi#remi-scoring"),
        ("D scores 0 − 60 = −60.", "/rules/remi#remi-scoring"),
    ]
    # The stock running out is the going-out rule too; a lenient table reads the same card.
    _, page = post(client, deal(went_out="none", final_discard="", rules="lenient"))
    assert step_rules(page)[0] == (
        "The stock ran out: nobody went out, so nobody gets the closing bonus.",
        "/rules/remi#going-out",
    )
