"""Signed numbers on a Persian sheet read as on the pages: "+100", "3 × 25 = +75", the
sign in front of the digits, left to right inside the right-to-left text.

poppler gives a word's letters in the order they stand on the paper, left to right, so
"100+" is a sign printed after the digits."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from layout import Word, pdf_pages

pytestmark = pytest.mark.once

NUMERIC = re.compile(r"^[\d+×=−()\-]+$")
SIGN_AFTER = re.compile(r"\d[+−\-]$")


def persian_pdf(client: FlaskClient, variant: str, rules: str, players: list[str],
                hands: list[dict[str, Any]]) -> list[list[Word]]:
    created = client.post("/api/v1/games",
                          json={"variant": variant, "rules": rules, "players": players})
    assert created.status_code == 201, created.get_json()
    game_id, secret = created.get_json()["id"], created.get_json()["edit_secret"]
    for number, hand in enumerate(hands):
        response = client.post(f"/api/v1/games/{game_id}/hands", json=hand,
                               headers={"X-Edit-Secret": secret, "Idempotency-Key": f"k{number}"})
        assert response.status_code == 201, response.get_json()
    response = client.get(f"/g/{game_id}/sheet.pdf", headers={"Accept-Language": "fa"})
    assert response.status_code == 200
    return [line for page in pdf_pages(response.data) for line in page.lines]


def numbers(line: list[Word]) -> str:
    """The line's numbers and signs as they stand left to right."""
    return " ".join(w.text for w in sorted(line, key=lambda w: w.x0) if NUMERIC.match(w.text))


def test_a_persian_gin_sheet_prints_every_sign_before_its_number(client: FlaskClient) -> None:
    # Modern: gin 25, game bonus 100, box 25. Maryam: 21 (knock 24 − 3), 27 (undercut
    # 6 − 8 + 25), 85 (gin 60 + 25) = 133, three boxes; Ali: gin 31 + 25 = 56, one box.
    hands = [
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 24},
        {"outcome": "gin", "knocker": 1, "defender_deadwood": 31},
        {"outcome": "knock", "knocker": 1, "knocker_deadwood": 8, "defender_deadwood": 6},
        {"outcome": "gin", "knocker": 0, "defender_deadwood": 60},
    ]
    lines = persian_pdf(client, "gin", "modern", ["مریم", "علی"], hands)
    signed_after = [w.text for line in lines for w in line if SIGN_AFTER.search(w.text)]
    assert signed_after == []
    shown = [numbers(line) for line in lines]
    # The settlement's steps, each beside its amount: the game bonus, Maryam's three
    # boxes and Ali's one (poppler reads the step and its cell as lines of their own).
    assert shown.count("+100") == 2
    assert "3 × 25 = +75" in shown
    assert "1 × 25 = +25" in shown


def test_a_persian_partnership_sheet_prints_the_hands_signs_before_the_points(
    client: FlaskClient,
) -> None:
    hands = [{"tables": [
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 24},
        {"outcome": "gin", "knocker": 1, "defender_deadwood": 31},
    ]}]
    lines = persian_pdf(client, "partnership", "partnership",
                        ["مریم", "علی", "سارا", "رضا"], hands)
    words = [w.text for line in lines for w in line]
    assert [w for w in words if SIGN_AFTER.search(w)] == []
    assert "+21" in words  # Maryam's knock: 24 − 3
