"""Every printed sheet and blank pad, in every language and on both papers, laid out as
a player would want it: the pages expected and no near-empty last page, the header as
wide as the rows, every word inside the printable area, no two words over each other."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from layout import (
    KINDS,
    MARGIN_BOTTOM,
    MARGIN_SIDE,
    MARGIN_TOP,
    NAMES,
    Word,
    pdf_pages,
    pdf_problems,
    sample_game,
    table_problems,
)

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once
# Each test typesets a document (a few seconds): `make test` runs them, `make check` not.
SLOW = pytest.mark.slow

LANGUAGES = ("en", "ru", "fa")
PAPERS = ("a4", "letter")
PAD_KINDS = ("gin", "hollywood", "three_hand", "partnership", "remi")


def fetch(client: FlaskClient, url: str, language: str) -> bytes:
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    assert response.mimetype == "application/pdf"
    data: bytes = response.data
    return data


@SLOW
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


@SLOW
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", PAD_KINDS)
def test_a_long_pad_goes_on_over_pages_cleanly(
    client: FlaskClient, typeset: list[str], kind: str, language: str
) -> None:
    data = fetch(client, f"/pads/pad.pdf?game={kind}&rows=75", language)
    assert table_problems(typeset[-1]) == []
    assert pdf_problems(data, pages=3 if kind == "remi" else 2) == []  # Remi's rows are taller


@SLOW
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
    """A broken gin pad as it once printed: four player groups over rows of two and a third, and
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


@SLOW
@pytest.mark.parametrize("language", ("en", "ru"))
def test_the_settlement_stands_under_the_hand_lines_columns(
    client: FlaskClient, language: str
) -> None:
    """The settlement's totals and words line up with the hand lines above them.
    WeasyPrint draws a tab 2.4 % wider than it lays it out, so a line with longer tabs
    (empty cells not padded) was drawn further right: the Σ line's total 0.9 pt, its
    words up to 2.7 pt."""
    names = NAMES[language][:2]
    created = client.post("/api/v1/games", json={
        "players": list(names), "rules": {"target": 40, "game_bonus": 100, "box_bonus": 25},
    }).get_json()
    for hand in (
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 24},
        {"outcome": "gin", "knocker": 1, "defender_deadwood": 12},
        {"outcome": "dead"},
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 22},
    ):
        saved = client.post(f"/api/v1/games/{created['id']}/hands", json=hand,
                            headers={"X-Edit-Secret": created["edit_secret"]})
        assert saved.status_code == 201, saved.get_json()
    [page] = pdf_pages(fetch(client, f"/g/{created['id']}/sheet.pdf", language))
    rows: dict[float, list[Word]] = {}  # the page's words by the line they stand on
    for word in page.words:
        rows.setdefault(round(word.y0), []).append(word)
    lines = [sorted(rows[y], key=lambda w: w.x0) for y in sorted(rows)]
    hand_lines = [line for line in lines if line[0].text in {"1", "2", "3", "4"}]
    first = lines.index(hand_lines[-1]) + 1
    settlement = lines[first:first + 6]  # Σ, game bonus, two box lines, final, margin
    assert [line[0].text for line in settlement[:2]] == ["Σ", "+100"]
    # Where the lines' text starts (the page margin and the cell's padding) and a tab
    # stop's width (13 mm, which WeasyPrint sets as 49 px), in points.
    start, stop = 40.25, 36.75
    # The words column: every line's first word past the last seat rule (91 mm in).
    column = start + 7 * stop - 6

    def words_start(line: list[Word]) -> float:
        return min(word.x0 for word in line if word.x0 > column)

    starts = [words_start(line) for line in hand_lines]
    assert max(starts) - min(starts) < 0.5, starts
    for line in settlement:
        assert abs(words_start(line) - starts[0]) < 1.0, (line, starts)
    # Ann's running total (the third column) ends where the hand lines' totals end.
    total_column = (start + 2 * stop, start + 3 * stop)

    def total_end(line: list[Word]) -> float:
        [end] = [w.x1 for w in line if total_column[0] < w.x1 <= total_column[1]]
        return end

    ends = [total_end(line) for line in hand_lines]
    assert abs(total_end(settlement[0]) - max(ends)) < 0.5, (total_end(settlement[0]), ends)


@SLOW
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("language", ("en", "fa"))
def test_the_page_counter_is_centred_and_the_running_title_stands_at_the_left(
    client: FlaskClient, language: str, paper: str
) -> None:
    """Every page's "page x of y" stands in the middle of the paper under the text, and
    from the second page on the running title (the document's title) stands at the left margin
    above it, in a right-to-left language too (the margin boxes are as wide as the page's
    text, so their alignment, not their content, places the words: print.css)."""
    names = "".join(f"&player{i + 1}={n}" for i, n in enumerate(NAMES[language][:2]))
    data = fetch(client, f"/pads/pad.pdf?game=gin&rows=75&size={paper}{names}", language)
    pages = pdf_pages(data)
    assert len(pages) >= 2
    for number, page in enumerate(pages, start=1):
        footer = [w for w in page.words if w.y0 > page.height - MARGIN_BOTTOM]
        assert {str(number), str(len(pages))} <= {w.text for w in footer}, footer
        middle = (min(w.x0 for w in footer) + max(w.x1 for w in footer)) / 2
        assert abs(middle - page.width / 2) < 1, (number, middle, page.width)
        header = [w for w in page.words if w.y1 < MARGIN_TOP]
        if number == 1:
            assert header == []
        else:
            # The pad's title (its h1 on the first page) repeated.
            assert header and {w.text for w in header} <= {w.text for w in pages[0].words}
            assert abs(min(w.x0 for w in header) - MARGIN_SIDE) < 1, header
