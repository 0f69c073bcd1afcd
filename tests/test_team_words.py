"""A team of two is a plural subject: in Russian «Ann & Cid выигрывают», never
«выигрывает», in every sentence about a team of partnership gin (its deals, its
settlement, the sheet's heading, the printed sheet), in the reader's language.

The game is ``test_variant_partnership``'s worked example: Ann & Cid win both hands
of deal 1 (10 + 45 = 55), Bob & Dan win deal 2 by 10 (30 − 20), and Ann & Cid win the
game 275 to 70, by 205 (two boxes each).
"""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from helpers import enter_partnership, new_partnership, pdf_text

from tests.examples import PARTNERSHIP_DEALS


def words(html: str) -> str:
    """The page's text: tags, isolates and runs of spaces left out."""
    text = re.sub(r"<[^>]+>", "", html).replace("&amp;", "&")
    return " ".join(re.sub("[\u2066-\u2069\u200e\u200f]", "", text).split())


@pytest.fixture
def finished(client: FlaskClient) -> str:
    game = new_partnership(client)
    for deal in PARTNERSHIP_DEALS:
        assert enter_partnership(client, game, deal).status_code == 302
    return game


def test_russian_sentences_about_a_team_take_the_plural_verb(
    client: FlaskClient, finished: str
) -> None:
    ru = {"Accept-Language": "ru"}
    sheet = words(client.get(f"/g/{finished}", headers=ru).get_data(as_text=True))
    deals = " ".join(
        words(client.get(f"/g/{finished}/hands/{n}", headers=ru).get_data(as_text=True))
        for n in (1, 2))
    printed = " ".join(pdf_text(client.get(f"/g/{finished}/sheet.pdf", headers=ru).data).split())
    assert "Ann & Cid выигрывают партию" in sheet
    assert "Ann & Cid выигрывают с разницей 205 (275 − 70)." in sheet
    assert "Ann & Cid выигрывают обе раздачи: 10 + 45 = 55" in deals
    assert "Bob & Dan выигрывают 10: 30 − 20" in deals
    assert "Ann & Cid выигрывают с разницей 205" in printed
    assert "Коробки команды Ann & Cid: 2 × 25 = +50" in printed
    for text in (sheet, deals, printed):
        assert "выигрывает" not in text
        assert "игрока Ann & Cid" not in text and "игрока Bob & Dan" not in text


def test_english_says_a_team_wins_as_one_says_of_two(client: FlaskClient, finished: str) -> None:
    sheet = words(client.get(f"/g/{finished}").get_data(as_text=True))
    assert "Ann & Cid win the game" in sheet
    assert "Ann & Cid win by 205 (275 − 70)." in sheet
    printed = " ".join(pdf_text(client.get(f"/g/{finished}/sheet.pdf").data).split())
    assert "Team Ann & Cid's boxes: 2 × 25 = +50" in printed
