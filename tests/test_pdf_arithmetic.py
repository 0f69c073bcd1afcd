"""Arithmetic reads as written in Persian prints: every sum of a printed explanation
stands left to right in the order it is computed, its words between its figures, with
Persian and with Latin names; a card list keeps its order. Read from where the figures,
operators and cards stand on the paper (poppler's words and their boxes). The same sums
on screen: tests/browser/test_rtl_arithmetic.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from layout import Word, pdf_pages

pytestmark = pytest.mark.once

TOKEN = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|[+−]?\d+|[×=+−<>≤≥]")


def lines_as_printed(data: bytes) -> list[str]:
    """Each printed line's figures, operators and cards, left to right: the words that
    stand on one line (poppler may give a line's parts as lines of their own)."""
    printed = []
    for page in pdf_pages(data):
        rows: list[list[Word]] = []
        for word in sorted(page.words, key=lambda w: w.y0):
            if rows and abs(rows[-1][0].y0 - word.y0) < 1:
                rows[-1].append(word)
            else:
                rows.append([word])
        for row in rows:
            words = sorted(row, key=lambda w: w.x0)
            printed.append(" ".join(t for w in words for t in TOKEN.findall(w.text)))
    return printed


def persian_sheet(client: FlaskClient, players: list[str], rules: str,
                  hands: list[dict[str, Any]]) -> list[str]:
    created = client.post("/api/v1/games", json={"players": players, "rules": rules})
    game_id, secret = created.get_json()["id"], created.get_json()["edit_secret"]
    for number, hand in enumerate(hands):
        answer = client.post(f"/api/v1/games/{game_id}/hands", json=hand,
                             headers={"X-Edit-Secret": secret, "Idempotency-Key": f"k{number}"})
        assert answer.status_code == 201, answer.get_json()
    response = client.get(f"/g/{game_id}/sheet.pdf", headers={"Accept-Language": "fa"})
    assert response.status_code == 200
    return lines_as_printed(response.data)


@pytest.mark.parametrize("players", [["Ann", "Bob"], ["مریم", "علی"]], ids=["latin", "persian"])
def test_the_finals_sums_print_left_to_right(client: FlaskClient, players: list[str]) -> None:
    # Modern (gin 25, game bonus 100, box 25): the first knocks with 1 against 22 (21),
    # the second goes gin against 42 (67), the first gin against 62 (87): 108 to 67.
    printed = persian_sheet(client, players, "modern", [
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 22},
        {"outcome": "gin", "knocker": 1, "defender_deadwood": 42},
        {"outcome": "gin", "knocker": 0, "defender_deadwood": 62},
    ])
    assert any(line.startswith("108 + 100 + 2 × 25 = 258") for line in printed), printed
    assert any(line.startswith("67 + 1 × 25 = 92") for line in printed), printed
    # "wins by 166 (258 − 92)": the sum left of the margin, which the sentence reads first.
    assert any(line.startswith("258 − 92 166") for line in printed), printed


def test_a_shutouts_brackets_print_left_to_right(client: FlaskClient) -> None:
    # Russian (gin 25, game bonus 100, box 25, a shutout doubles the points): Ann goes
    # gin against 62 (87) and knocks with 1 against 22 (21); Bob wins no hand:
    # (108 + 100) × 2 + 2 × 25 = 466.
    printed = persian_sheet(client, ["Ann", "Bob"], "russian", [
        {"outcome": "gin", "knocker": 0, "defender_deadwood": 62},
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 22},
    ])
    assert any(line.startswith("108 + 100 × 2 + 2 × 25 = 466") for line in printed), printed


def test_a_kept_rulings_card_list_and_sum_print_left_to_right(client: FlaskClient) -> None:
    # Classic (gin 20): the knocker lays 3♥-6♥, three 7s and three 9s; the defender's
    # deadwood is A♠ 2♣ 3♠ 4♦ 5♦ 6♣ 8♦ 10♣ Q♦ K♣ = 1 + 2 + … + 10 + 10 + 10 = 59.
    kept = client.post("/api/v1/rulings", json={
        "rules": "classic", "knocker": {"cards": "3H 4H 5H 6H 7C 7D 7S 9C 9D 9H"},
        "defender": {"cards": "2C 4D 6C 8D TC QD KC AS 3S 5D"}})
    assert kept.status_code == 201, kept.get_json()
    response = client.get(kept.get_json()["url"] + ".pdf", headers={"Accept-Language": "fa"})
    assert response.status_code == 200
    printed = lines_as_printed(response.data)
    # The defender's deadwood, and the step that counts it.
    deadwood = "A♠ 2♣ 3♠ 4♦ 5♦ 6♣ 8♦ 10♣ Q♦ K♣ = 59"
    assert sum(line.startswith(deadwood) for line in printed) == 2, printed
    assert any(line.startswith("59 + 20 = 79") for line in printed), printed
