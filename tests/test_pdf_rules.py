"""The gin sheet's ruled lines (scorekeeper/pdf/pictures.py ``Ruling``): drawn by the
app under the text of the hand lines and the settlement, on every page they reach,
where tiled CSS gradients used to rule them. (poppler drew those gradients' tiles a
whole number of device pixels high, so at 300 dpi the rules crept up a pixel every two
or three lines: by the fortieth line about 18 pixels, 1.5 mm, above where CSS puts it.)"""

from __future__ import annotations

import io
import subprocess
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from layout import pdf_pages
from PIL import Image

from scorekeeper.pdf.pictures import Pictures, Ruling

pytestmark = pytest.mark.once  # the same on every database: the SQLite pass only

DPI = 300
PX = DPI / 25.4  # device pixels a millimetre


def test_a_fragment_is_ruled_under_every_line_and_down_every_seat() -> None:
    # Border box 10..110 x 20..50, padding box from y 20.5 (a half-pixel top border):
    # the bands are 10 high from 20.5, and the clip meets the bands -1 to 2, whose
    # rules (1 high, at each band's bottom) are at 19.5, 29.5, 39.5 and 49.5; a seat
    # rule 2 wide starts 5 from the start edge: x 15, or 110 - 5 - 2 = 103 from the right.
    ruling = Ruling("ruled-x", pitch=10, line=1, line_colour="#aaa", seats=(5,),
                    seat_width=2, seat_colour="#111")
    border, padding = (10, 20, 100, 30), (10, 20.5, 100, 29)
    assert ruling.drawn(border, padding).decode() == (
        "q 10 20 100 30 re W n 0.667 0.667 0.667 rg "
        "10 19.5 100 1 re 10 29.5 100 1 re 10 39.5 100 1 re 10 49.5 100 1 re f "
        "0.067 0.067 0.067 rg 15 20 2 30 re f Q"
    )
    assert b" 103 20 2 30 re f Q" in replace(ruling, rtl=True).drawn(border, padding)


def test_without_the_laid_out_boxes_the_anchor_says_where_the_block_is() -> None:
    """A WeasyPrint whose pages keep no box tree (``_page_box``) still gets its blocks
    ruled, from the rectangle ``Page.anchors`` gives (the block's border box); one that
    gives only a corner gets none rather than a guess."""

    class Page:
        def __init__(self) -> None:
            self.height = 1000.0
            self.anchors = {"ruled-hands": (10.0, 20.0, 110.0, 40.0),
                            "ruled-settlement": (5.0, 6.0)}

    pictures = Pictures()
    pictures.rule("hands")
    pictures.rule("settlement")
    rules = pictures._rules(Page())
    # 1000 CSS px is 750 pt. Lines 5.2 mm = 19.6535 px apart from y 20, the border box
    # 20 high: the bands 0 and 1 meet it, their rules (0.4 pt = 0.5333 px) at
    # 20 + 19.6535 - 0.5333 = 39.12 and 58.774 (clipped away); seat rules 0.3 mm =
    # 1.134 px wide, at 10 + 12.85, 51.85 and 90.85 mm = 58.567, 205.969, 353.37.
    assert rules == [
        b"q 0.75 0 0 -0.75 0 750 cm",
        b"q 10 20 100 20 re W n 0.667 0.667 0.667 rg 10 39.12 100 0.533 re "
        b"10 58.774 100 0.533 re f 0.067 0.067 0.067 rg 58.567 20 1.134 20 re "
        b"205.969 20 1.134 20 re 353.37 20 1.134 20 re f Q",
        b"Q",
    ]


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
