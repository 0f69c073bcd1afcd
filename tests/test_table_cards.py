"""A club night's table cards (/n/<id>/tables.pdf) as the organiser cuts them apart: as
many whole cards on a page as fit, four on A4, two by two."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from layout import pdf_pages

from tests.helpers import start_night as start

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once

TABLE = {"en": "Table", "ru": "Стол", "fa": "میز"}


@pytest.mark.parametrize("language", ["en", "ru", "fa"])
def test_four_tables_on_one_a4_page_and_a_fifth_on_the_next(
    client: FlaskClient, language: str
) -> None:
    # Ten players, names of 40 letters in every script and two short ones: five tables.
    players = [
        "Alexandra Catherine Montgomery-Fairweath", "Maximilian Bartholomew Featherstonehaugh",
        "Александра Константиновна Преображенская", "Вячеслав Александрович Преображенский-Ли",
        "محمدرضا حسینی‌زاده اصفهانی شیرازی بوشهری", "سیدعبدالحسین امیرحسینی فراهانی سمنانیانی",
        "Christopher Jonathan Wolverhampton-Stone", "Святослав Игоревич Долгоруков-Оболенский",
        "Ann", "Bob",
    ]
    night_id = start(client, "\n".join(players))
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    response = client.get(f"/n/{night_id}/tables.pdf", headers={"Accept-Language": language})
    assert response.status_code == 200
    pages = pdf_pages(response.data)
    assert len(pages) == 2
    # Each card's heading: "Table" and its number (in Persian the number stands left).
    headings: list[list[tuple[str, float, float]]] = []
    for page in pages:
        found = []
        for word in page.words:
            # (poppler gives a Persian word's letters in the order they are drawn)
            big = word.y1 - word.y0 > 20  # the card's heading, not "table" in its words
            if big and word.text in (TABLE[language], TABLE[language][::-1]):
                beside = [w for w in page.words if abs(w.y0 - word.y0) < 2 and w.text.isdigit()]
                number = min(beside, key=lambda w: min(abs(w.x0 - word.x1), abs(word.x0 - w.x1)))
                found.append((number.text, round(word.x0), round(word.y0)))
        headings.append(found)
    assert sorted(n for n, _x, _y in headings[0]) == ["1", "2", "3", "4"]
    assert [n for n, _x, _y in headings[1]] == ["5"]
    # Two by two: two columns and two rows of cards, table 1 first in reading order.
    by_number = {n: (x, y) for n, x, y in headings[0]}
    assert len({x for x, _y in by_number.values()}) == 2
    assert len({y for _x, y in by_number.values()}) == 2
    assert by_number["1"][1] == by_number["2"][1] < by_number["3"][1] == by_number["4"][1]
    first_is_left = by_number["1"][0] < by_number["2"][0]
    assert first_is_left == (language != "fa")
    # Each card whole: its words inside the page's text, the last (the link) included.
    for page in pages:
        assert max(w.y1 for w in page.words if "localhost" in w.text) < page.height - 40
