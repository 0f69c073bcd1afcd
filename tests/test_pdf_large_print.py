"""Large print (``?large=1`` on a game's PDF): the sheet in type 16/9 times the usual
(9pt text at 16pt, the smallest 7pt at 12.4pt) on A4 or Letter turned sideways, every
word on the page, none over another, every hand printed; a long game of every kind in
English, Persian and Russian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from layout import KINDS, MM, NAMES, PLAYERS, Page, Word, hands, pdf_pages

pytestmark = pytest.mark.once

LARGE = 16 / 9
# Points: the paper turned sideways (A4 297 × 210 mm, Letter 11 × 8.5 in).
LANDSCAPE = {"a4": (297 * MM, 210 * MM), "letter": (792.0, 612.0)}
# _page.html: margins of 10, 7 and 12 mm, enlarged 16/9 times with the rest.
SIDE = 7 * MM * LARGE
OUTPUT = Path(__file__).resolve().parents[1] / "test-output" / "large-print"
# poppler's word box runs from DejaVu Sans's ascent to its descent: 1.164 em.
BOX = 1.164


def long_game(client: FlaskClient, kind: str, language: str, rounds: int) -> str:
    """A game of ``kind`` with ``rounds`` times the sample hands (a knock, a gin, a dead
    hand, an undercut; two deals of Remi) by players of ``language``."""
    players = list(NAMES[language][: PLAYERS.get(kind, 2)])
    created = client.post("/api/v1/games", json={"variant": kind, "players": players})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    for number, hand in enumerate(hands(kind) * rounds):
        response = client.post(
            f"/api/v1/games/{game['id']}/hands", json=hand,
            headers={"X-Edit-Secret": game["edit_secret"], "Idempotency-Key": f"h{number}"},
        )
        if response.status_code == 409:  # the game is over
            break
        assert response.status_code == 201, response.get_json()
    return str(game["id"])


def long_gin_game(client: FlaskClient, language: str, number_of_hands: int) -> str:
    """A gin game of knocks won by a point each, turn about: no one reaches 100."""
    players = list(NAMES[language][:2])
    created = client.post("/api/v1/games", json={"players": players}).get_json()
    for number in range(number_of_hands):
        hand = {"outcome": "knock", "knocker": number % 2, "knocker_deadwood": 5,
                "defender_deadwood": 6}
        response = client.post(
            f"/api/v1/games/{created['id']}/hands", json=hand,
            headers={"X-Edit-Secret": created["edit_secret"], "Idempotency-Key": f"h{number}"},
        )
        assert response.status_code == 201, response.get_json()
    return str(created["id"])


def sheet(client: FlaskClient, game_id: str, query: str, language: str,
          keep: str = "") -> list[Page]:
    """The sheet's pages; kept under test-output/large-print/``keep``.pdf to look at."""
    response = client.get(f"/g/{game_id}/sheet.pdf{query}", headers={"Accept-Language": language})
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    if keep:
        OUTPUT.mkdir(parents=True, exist_ok=True)
        (OUTPUT / f"{keep}.pdf").write_bytes(response.data)
    return pdf_pages(response.data)


def problems(pages: list[Page], paper: str) -> list[str]:
    """Pages not of the paper sideways, words off the page or over each other."""
    width, height = LANDSCAPE[paper]
    found = []
    for number, page in enumerate(pages, start=1):
        if abs(page.width - width) > 1 or abs(page.height - height) > 1:
            found.append(f"page {number} is {page.width:.0f} × {page.height:.0f} pt")
        words = page.words
        for i, word in enumerate(words):
            where = f"page {number}: {word.text!r} at ({word.x0:.0f}, {word.y0:.0f})"
            if word.x0 < SIDE - 1 or word.x1 > width - SIDE + 1:
                found.append(f"{where} runs off the side")
            if word.y0 < 6 * MM or word.y1 > height - 6 * MM:
                found.append(f"{where} runs off the top or the bottom")
            # Measured at the usual size, where two words may touch by 0.3 pt.
            found += [f"{where} lies over {other.text!r}"
                      for other in words[i + 1:] if usual(word).overlaps(usual(other))]
    return found


def usual(word: Word) -> Word:
    """A word of a large-print page as large as it is on the usual sheet."""
    return Word(word.text, word.x0 / LARGE, word.y0 / LARGE, word.x1 / LARGE, word.y1 / LARGE)


@pytest.mark.slow  # a long game typeset in every kind and language
@pytest.mark.parametrize("language", ["en", "fa", "ru"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_long_game_in_large_print(client: FlaskClient, kind: str, language: str) -> None:
    """Each kind of game played to its end: on A4 in English and Russian, on Letter (the
    narrower) in Persian."""
    paper = "letter" if language == "fa" else "a4"
    game_id = long_game(client, kind, language, rounds=10)
    large = sheet(client, game_id, f"?large=1&size={paper}", language,
                  keep=f"{kind}-{language}-{paper}")
    assert problems(large, paper) == []
    usual = sheet(client, game_id, f"?size={paper}", language)
    # Every word 16/9 times the height it has on the usual sheet: the smallest (the
    # notes, 8pt) at 14.2pt, none under 12.4pt (the usual 7pt).
    smallest = min(w.y1 - w.y0 for p in usual for w in p.words)
    assert smallest <= 8 * BOX + 0.01
    least = max(smallest * LARGE, 12.4 * BOX) - 0.01
    assert min(w.y1 - w.y0 for p in large for w in p.words) >= least
    # The numbers of the sheet: 9pt, in large print 16pt.
    body = [w.y1 - w.y0 for p in large for w in p.words if re.fullmatch(r"\d+", w.text)]
    assert max(body) >= 16 * BOX - 0.01
    assert len(large) > len(usual)  # the same lines, fewer to a page


@pytest.mark.slow  # a long game typeset in every kind and language
@pytest.mark.parametrize(("language", "paper"), [("en", "letter"), ("fa", "a4"), ("ru", "letter")])
def test_every_hand_of_a_long_gin_game_is_printed_in_large_print(
    client: FlaskClient, language: str, paper: str
) -> None:
    game_id = long_gin_game(client, language, 40)
    pages = sheet(client, game_id, f"?large=1&size={paper}", language,
                  keep=f"gin-40-hands-{language}-{paper}")
    assert problems(pages, paper) == []
    # Each hand's line starts with its number (1.2 mm from the margin, on the right in
    # Persian).
    width = pages[0].width
    numbers = sorted(
        (n, w.y0, int(w.text)) for n, page in enumerate(pages) for w in page.words
        if re.fullmatch(r"\d+", w.text) and (w.x0 < SIDE + 3 * MM or w.x1 > width - SIDE - 3 * MM)
    )
    assert [number for _page, _y, number in numbers] == list(range(1, 41))


def test_a_bad_large_print_link_says_what_to_use(client: FlaskClient) -> None:
    game_id = long_game(client, "gin", "en", rounds=1)
    response = client.get(f"/g/{game_id}/sheet.pdf?large=yes")
    assert response.status_code == 400
    assert "Large print: large must be 0 or 1." in response.get_data(as_text=True)
