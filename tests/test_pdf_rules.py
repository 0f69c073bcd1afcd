"""The gin sheet's ruled lines (print.css ``.lines``): a grey rule under every line of
hands and of the settlement, on every page they reach, and the seat rules down them.
(A rule tiled down the block as a CSS gradient did not stay there: poppler drew the
tiles a whole number of device pixels high, so at 300 dpi the rules crept up a pixel
every two or three lines, by the fortieth line about 18 pixels, 1.5 mm, above where CSS
puts it.)"""

from __future__ import annotations

import io
import subprocess

import pytest
from flask import Flask
from flask.testing import FlaskClient
from layout import pdf_pages
from PIL import Image

# The same on every database: the SQLite pass only. Slow: a 60-hand sheet typeset and read
# at 300 dpi.
pytestmark = [pytest.mark.once, pytest.mark.slow]

DPI = 300
PX = DPI / 25.4  # device pixels a millimetre


def long_game(client: FlaskClient, hands: int, language: str) -> str:
    """A finished gin game of ``hands`` hands, entered through the API."""
    created = client.post("/api/v1/games", json={
        "players": ["Ann", "Пётр"], "rules": {"preset": "classic", "target": 10 * hands + 5}})
    body = created.get_json()
    secret = {"X-Edit-Secret": body["edit_secret"]}
    for number in range(1, hands + 1):
        hand = {"outcome": "knock", "knocker": number % 2, "knocker_deadwood": 2,
                "defender_deadwood": 12}  # 10 points a hand to the knocker
        saved = client.post(f"/api/v1/games/{body['id']}/hands", json=hand, headers=secret)
        assert saved.status_code == 201, saved.get_json()
    game_id: str = body["id"]
    return game_id


def pages(pdf: bytes) -> list[Image.Image]:
    found = []
    for page in (1, 2):
        png = subprocess.run(["pdftoppm", "-r", str(DPI), "-f", str(page), "-l", str(page),
                              "-singlefile", "-gray", "-png", "-"],
                             input=pdf, capture_output=True, check=True).stdout
        found.append(Image.open(io.BytesIO(png)).convert("L"))
    return found


def runs(values: list[int], darker_than: int) -> list[tuple[int, int]]:
    """The (first, last) pixel of each run of pixels darker than ``darker_than``."""
    found: list[tuple[int, int]] = []
    for i, value in enumerate(values):
        if value < darker_than:
            if found and found[-1][1] == i - 1:
                found[-1] = (found[-1][0], i)
            else:
                found.append((i, i))
    return found


def blocks(rules: list[float], pitch: float) -> list[list[float]]:
    """Rules one line apart, grouped into the blocks they rule."""
    grouped: list[list[float]] = []
    for rule in rules:
        if grouped and abs(rule - grouped[-1][-1] - pitch) < 1:
            grouped[-1].append(rule)
        else:
            grouped.append([rule])
    return grouped


@pytest.mark.parametrize("language", ["en", "fa"])
def test_every_line_has_its_rule_on_every_page(
    app: Flask, client: FlaskClient, language: str
) -> None:
    """A 60-hand sheet, whose hands go on over the page and whose settlement follows
    on the second, read at 300 dpi: down the page (where no text is) a grey hairline
    5.2 mm after another under each line of hands and of the settlement, just under its
    words, the last one on each page too; across a line, the three seat rules where the
    tab stops are."""
    game_id = long_game(client, 60, language)
    response = client.get(f"/g/{game_id}/sheet.pdf", headers={"Accept-Language": language})
    assert response.status_code == 200
    rtl = language == "fa"
    pt = 72 / DPI  # a device pixel, in points
    pitch = 5.2 * 72 / 25.4  # a line, in points
    texts = pdf_pages(response.data)
    ruled_lines = 0
    for image, text in zip(pages(response.data), texts, strict=True):
        width = image.width
        margin = round(13 * PX)  # the page's side margins, 13 mm
        # Where no text is: either side of the first seat rule, and near the far end
        # of the line. A rule is grey at all three (a letter's stroke, or the race's
        # grid under the settlement, is not).
        inward = [round(mm * PX) for mm in (10, 15, 181)]
        xs = [width - margin - c if rtl else margin + c for c in inward]
        found = []
        for column_x in xs:
            column = [image.getpixel((column_x, y)) for y in range(image.height)]
            found.append({(a, b) for a, b in runs(column, 235)
                          if b - a <= 3 and min(column[a:b + 1]) > 120})  # grey, not black
        hairlines = sorted((a + b + 1) / 2 * pt for a, b in set.intersection(*found))
        ruled = blocks(hairlines, pitch)
        assert ruled, "no ruled block"
        for block in ruled:
            inside = [word for word in text.words
                      if block[0] - pitch < word.y1 < block[-1] and word.x0 > 13 / 25.4 * 72]
            rows = {round(word.y1, 1) for word in inside}
            assert len(rows) == len(block), (len(rows), len(block))
            for word in inside:  # its rule just under it, not a line off
                assert any(0.3 < rule - word.y1 < 4 for rule in block), (word, block[:3])
            ruled_lines += len(block)
            # Across the middle of the block's last line: the seat rules, 0.3 mm wide.
            middle = round((block[-1] - pitch / 2) / pt)
            row = runs([image.getpixel((x, middle)) for x in range(width)], 128)
            seat_rules = [a for a, b in row if 3 <= b - a + 1 <= 5]
            starts = [margin + round((13 * stop - 0.15) * PX) for stop in (1, 4, 7)]
            if rtl:
                starts = [width - start - round(0.3 * PX) for start in starts]
            for start in starts:
                assert any(abs(a - start) <= 2 for a in seat_rules), (start, row)
    # 60 hand lines and the settlement's two (the sum so far, what each still needs),
    # but for the last of each block, whose rule lies under the black rule at its foot.
    assert ruled_lines == 60 + 2 - 2
