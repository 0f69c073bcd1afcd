"""Every printed sheet and blank pad, in every language and on both papers, laid out as
a player would want it: the pages expected and no near-empty last page, the header as
wide as the rows, every word inside the printable area, no two words over each other."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from layout import KINDS, NAMES, Word, pdf_problems, sample_game, table_problems

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once

LANGUAGES = ("en", "ru", "fa")
PAPERS = ("a4", "letter")
PAD_KINDS = ("gin", "hollywood", "three_hand", "partnership", "remi")


def fetch(client: FlaskClient, url: str, language: str) -> bytes:
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    assert response.mimetype == "application/pdf"
    data: bytes = response.data
    return data


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", PAD_KINDS)
def test_a_blank_pad_of_30_rows_is_one_clean_page(
    client: FlaskClient, typeset: list[str], kind: str, language: str, paper: str
) -> None:
    names = "".join(f"&player{i + 1}={n}" for i, n in enumerate(NAMES[language]))
    data = fetch(client, f"/pads/pad.pdf?game={kind}&rows=30&size={paper}{names}", language)
    assert table_problems(typeset[-1]) == []
    assert pdf_problems(data, pages=1) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", PAD_KINDS)
def test_a_long_pad_goes_on_over_pages_cleanly(
    client: FlaskClient, typeset: list[str], kind: str, language: str
) -> None:
    data = fetch(client, f"/pads/pad.pdf?game={kind}&rows=75", language)
    assert table_problems(typeset[-1]) == []
    assert pdf_problems(data, pages=3 if kind == "remi" else 2) == []  # Remi's rows are taller


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", KINDS)
def test_a_game_sheet_with_a_few_hands_is_one_clean_page(
    client: FlaskClient, typeset: list[str], kind: str, language: str, paper: str
) -> None:
    game_id = sample_game(client, kind, language)
    data = fetch(client, f"/g/{game_id}/sheet.pdf?size={paper}", language)
    assert table_problems(typeset[-1]) == []
    assert pdf_problems(data, pages=1) == []


def test_the_checks_see_what_was_wrong_with_the_gin_pad() -> None:
    """The broken pad of issue 14: four player groups over rows of two and a third, and
    a second page holding one line."""
    head = "<th>#</th>" + '<th colspan="3">x</th>' * 4 + "<th>Hand</th>"
    row = "<tr><td>1</td>" + "<td></td>" * 7 + "</tr>"
    html = f"<table><thead><tr>{head}</tr></thead><tbody>{row}</tbody></table>"
    assert table_problems(html) == ["table 1: tbody row 1 fills 8 columns, the header 14"]
    tabbed = (
        '<table><thead><tr><th>#</th><th colspan="2">A</th></tr></thead>'
        '<tbody><tr><td colspan="3">1\t2\t3\n2\t4</td></tr></tbody></table>'
    )
    assert table_problems(tabbed) == ["table 1: a line has 2 values, the header 3 columns: '2\\t4'"]
    a, b = Word("Hand", 100, 100, 130, 110), Word("points", 110, 101, 140, 111)
    assert a.overlaps(b) and not a.overlaps(Word("x", 131, 100, 140, 110))
    # Lines set solid (boxes touching by their ascent and descent) do not overlap.
    assert not a.overlaps(Word("Boxes", 100, 108, 130, 118))
