"""The printed gin sheet as a reader follows a column down the page: each player's
running totals stand one under another, whether or not the player scored the hand, in
every language (Persian right to left) and in large print."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from layout import NAMES, Word, pdf_pages

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once

# Classic rules (gin 20), worked out by hand: the totals after each hand.
HANDS = (
    ({"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 24},
     (21, 0)),  # 24 − 3
    ({"outcome": "gin", "knocker": 1, "defender_deadwood": 12}, (21, 32)),  # 12 + 20
    ({"outcome": "dead"}, (21, 32)),
    ({"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 22},
     (41, 32)),
    ({"outcome": "knock", "knocker": 1, "knocker_deadwood": 2, "defender_deadwood": 100},
     (41, 130)),
    ({"outcome": "gin", "knocker": 0, "defender_deadwood": 8}, (69, 130)),  # 8 + 20
)


def sheet_lines(client: FlaskClient, language: str, large: bool) -> list[list[Word]]:
    """The first page's lines of words, each in reading order."""
    created = client.post("/api/v1/games", json={
        "players": list(NAMES[language][:2]), "rules": {"preset": "classic", "target": 500},
    }).get_json()
    for number, (hand, _totals) in enumerate(HANDS):
        saved = client.post(f"/api/v1/games/{created['id']}/hands", json=hand,
                            headers={"X-Edit-Secret": created["edit_secret"],
                                     "Idempotency-Key": f"hand-{number}"})
        assert saved.status_code == 201, saved.get_json()
    response = client.get(f"/g/{created['id']}/sheet.pdf" + ("?large=1" if large else ""),
                          headers={"Accept-Language": language})
    assert response.status_code == 200
    page = pdf_pages(response.data)[0]
    rows: dict[int, list[Word]] = {}
    for word in page.words:
        rows.setdefault(round(word.y0), []).append(word)
    rtl = language == "fa"
    return [sorted(rows[y], key=lambda w: -w.x1 if rtl else w.x0) for y in sorted(rows)]


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("language", ["en", "ru", "fa"])
def test_each_players_running_totals_stand_in_one_column(
    client: FlaskClient, language: str, large: bool
) -> None:
    lines = sheet_lines(client, language, large)
    numbered = {line[0].text: line for line in lines}
    totals: list[list[Word]] = [[], []]
    for number, (_hand, expected) in enumerate(HANDS, start=1):
        # The line's figures after its number: the two totals (the points carry a sign,
        # the box mark is no figure).
        line = numbered[str(number)]
        figures = [w for w in line[1:] if w.text.isdigit()]
        assert [int(w.text) for w in figures] == list(expected), (number, line)
        for seat in (0, 1):
            totals[seat].append(figures[seat])
    sums = numbered["Σ"]
    for seat, value in enumerate(HANDS[-1][1]):
        [total] = [w for w in sums if w.text == str(value)]
        totals[seat].append(total)
    # A number's digits line up on the side it is padded from: the right in English and
    # Russian, the left in Persian (the padding stands at the start of the number).
    for seat in (0, 1):
        edges = [w.x0 if language == "fa" else w.x1 for w in totals[seat]]
        assert max(edges) - min(edges) < 0.1, (seat, [(w.text, round(e, 2)) for w, e in
                                                      zip(totals[seat], edges, strict=True)])


@pytest.mark.parametrize("count", [6, 9, 10])
def test_the_large_print_sums_stand_under_their_last_hand_and_headings(
    client: FlaskClient, count: int
) -> None:
    """Σ and the line under it never open a page alone: nine or ten hands fill the first
    page of a large print, and then the last hand and the column headings (the table
    repeats them) come over with them."""
    created = client.post("/api/v1/games", json={
        "players": ["Ann", "Bob"], "rules": {"preset": "classic", "target": 500}}).get_json()
    for number in range(count):
        hand, _totals = HANDS[number % len(HANDS)]
        saved = client.post(f"/api/v1/games/{created['id']}/hands", json=hand,
                            headers={"X-Edit-Secret": created["edit_secret"],
                                     "Idempotency-Key": f"hand-{number}"})
        assert saved.status_code == 201, saved.get_json()
    response = client.get(f"/g/{created['id']}/sheet.pdf?large=1")
    pages = pdf_pages(response.data)
    [page] = [p for p in pages if any(w.text == "Σ" for w in p.words)]
    [sums] = [w for w in page.words if w.text == "Σ"]
    # Above Σ on its page: the column headings, then hand lines, the last hand right
    # above Σ.
    above = [w for w in page.words if w.y1 <= sums.y0]
    assert {"#", "Points", "Total", "Box"} <= {w.text for w in above}
    starts = sorted((w for w in above if abs(w.x0 - sums.x0) < 1), key=lambda w: w.y0)
    assert starts and starts[-1].text == str(count), starts
    assert "Still" in {w.text for w in page.words}  # the line under Σ: still needed
