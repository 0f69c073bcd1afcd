"""Printed pictures (scorekeeper/pdf/pictures.py): a race is drawn into the PDF by the
app, in the box WeasyPrint laid out for it, with the very lines, marks and digits its SVG
describes; what the module cannot draw goes to WeasyPrint as an SVG, as before."""

from __future__ import annotations

import io
import subprocess

import pytest
from flask.testing import FlaskClient
from layout import KINDS, printed_pictures, sample_game
from PIL import Image, ImageChops

from scorekeeper.pdf import pictures
from scorekeeper.pdf.pictures import Pictures, Undrawable, path_operators, picture_from_svg

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once


def svg(body: str, box: str = "0 0 320 160") -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}">{body}</svg>'


# --- SVG into PDF operators ------------------------------------------------------------


def test_absolute_and_relative_commands_become_absolute_points() -> None:
    # From (10, 20): h5 -> (15, 20); v-4 -> (15, 16); l2 2 -> (17, 18); Z goes back to
    # (10, 20); m1 1 -> (11, 21), and the pair after a move is a line: 3 3 -> (14, 24).
    assert path_operators("M10 20h5v-4l2 2Zm1 1 3 3") == (
        "10 20 m 15 20 l 15 16 l 17 18 l h 11 21 m 14 24 l"
    )
    # A pen-stroke "0" of the printed axis: one cubic curve after another, closed.
    assert path_operators("M2 0C-0.6 0 -0.6 7 2 7C4.6 7 4.6 0 2 0Z") == (
        "2 0 m -0.6 0 -0.6 7 2 7 c 4.6 7 4.6 0 2 0 c h"
    )
    # Numbers run together as SVG allows ("l-4-4" is l -4 -4); absolute H and V, their
    # numbers copied as written (".5" is a PDF number too, "1e1" is not: written out).
    assert path_operators("M4 4l-4-4H9V.5H1e1") == "4 4 m 0 0 l 9 0 l 9 .5 l 10 .5 l"


@pytest.mark.parametrize("data", ["M1 2 3", "L1 2", "M1 2Q3 4 5 6", "M1 2h", "M1 2x3"])
def test_path_data_it_does_not_understand_is_refused(data: str) -> None:
    with pytest.raises(Undrawable):
        path_operators(data)


def test_each_shape_is_painted_as_its_attributes_say() -> None:
    picture = picture_from_svg(svg(
        '<polyline points="36,140 42.9,137.4" fill="none" stroke="#d55e00" stroke-width="2" '
        'stroke-linejoin="round" stroke-linecap="round" stroke-dasharray="6 3"/>'
        '<path d="M46.8 135h6v6h-6z" fill="#d55e00" stroke="#d55e00" stroke-width="1"/>'
        '<path d="M0 0H9" stroke="#ddd"/>'
        '<line x1="36" y1="8" x2="312" y2="8" stroke="#333" stroke-dasharray="4 3"/>'
    ), "p")
    # #d55e00 is 213/255, 94/255, 0 = 0.835, 0.369, 0; #ddd is #dddddd (221/255 = 0.867);
    # an SVG path without a fill is filled black (here it has no area, as on the page).
    assert picture.operators.split(b" Q ") == [
        b"q 2 w 1 J 1 j [6 3] 0 d 0.835 0.369 0 RG 36 140 m 42.9 137.4 l S",
        b"q 1 w 4 M 0.835 0.369 0 RG 0.835 0.369 0 rg 46.8 135 m 52.8 135 l 52.8 141 l "
        b"46.8 141 l h B",
        b"q 1 w 4 M 0.867 0.867 0.867 RG 0 0 0 rg 0 0 m 9 0 l B",
        b"q 1 w 4 M [4 3] 0 d 0.2 0.2 0.2 RG 36 8 m 312 8 l S Q",
    ]
    assert (picture.width, picture.height) == (320, 160)


@pytest.mark.parametrize("drawing", [
    svg('<text x="1" y="2">40</text>'),  # text: WeasyPrint's to lay out
    svg('<g><line x1="0" y1="0" x2="1" y2="1" stroke="#000"/></g>'),
    svg('<line x1="0" y1="0" x2="1" y2="1" stroke="#000" style="stroke: red"/>'),
    svg('<path d="M0 0H9" stroke="#000" transform="scale(2)"/>'),
    svg('<path d="M0 0H9" stroke="rgb(0, 0, 0)"/>'),
    svg('<path d="M0 0H9" stroke="#000" stroke-linecap="wide"/>'),
    svg('<polyline points="1,2" stroke="#000"/>'),
    svg('<path d="M0 0H9" stroke="#000"/>', box="-10 0 320 160"),
    "<p>not a picture</p>",
    "<svg",
])
def test_what_is_not_drawn_here_goes_to_weasyprint_as_it_is(drawing: str) -> None:
    with pytest.raises(Undrawable):
        picture_from_svg(drawing, "p")
    placed = Pictures()
    assert placed.place(drawing, "race-1", 110) == drawing
    assert not placed


def test_a_placed_picture_is_an_empty_box_of_its_printed_size() -> None:
    placed = Pictures()
    box = placed.place(svg('<path d="M0 0H9" stroke="#000"/>', "0 0 240 120"), "race-2", 58)
    assert box == ('<span class="picture" id="picture-race-2" style="display: inline-block; '
                   'width: 58mm; height: 29mm"></span>')  # 58 x 120 / 240
    assert list(placed.placed) == ["picture-race-2"]
    with pytest.raises(ValueError, match="two pictures"):
        placed.place(svg('<path d="M0 0H9" stroke="#000"/>'), "race-2", 58)


def test_the_viewbox_is_mapped_onto_the_box_in_points() -> None:
    placed = Pictures()
    placed.place(svg('<path d="M0 0H9" stroke="#000"/>'), "race-1", 110)
    picture = placed.placed["picture-race-1"]
    # 110 mm are 311.811 pt for 320 units: 0.97441 pt a unit, y turned down. The box's
    # corner, 100 px from the left and 200 from the top of a page 1000 px high, is at
    # 75 pt from the left and (1000 - 200) x 0.75 = 600 pt from the bottom.
    assert picture.placed((100, 200, 515.7, 407.9), 1000).startswith(
        b"q 0.97441 0 0 -0.97441 75 600 cm q 1 w")
    # WeasyPrints before 60 give the corner alone: the same.
    assert picture.placed((100, 200), 1000) == picture.placed((100, 200, 515.7, 407.9), 1000)


# --- printed sheets --------------------------------------------------------------------


def raster(pdf: bytes, page: int = 1) -> Image.Image:
    png = subprocess.run(
        ["pdftoppm", "-r", "100", "-f", str(page), "-l", str(page), "-singlefile", "-png", "-"],
        input=pdf, capture_output=True, check=True,
    ).stdout
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("language", ["en", "fa"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_drawn_race_prints_as_weasyprint_prints_its_svg(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, typeset: list[str], kind: str,
    language: str,
) -> None:
    """The same sheet with its races drawn by the app and (every picture refused) drawn
    by WeasyPrint from the SVG: every pixel alike but for anti-aliasing (differences of a
    quarter of the scale and more: none), and the app's pictures really in the PDF."""
    game_id = sample_game(client, kind, language)
    url = f"/g/{game_id}/sheet.pdf"
    headers = {"Accept-Language": language}
    drawn = client.get(url, headers=headers).data
    races = typeset[-1].count('<span class="picture"')
    assert races == (2 if kind == "hollywood" else 1)  # Hollywood: two columns begun
    assert len(printed_pictures(drawn)) == races

    def refused(_svg: str, _anchor: str) -> None:
        raise Undrawable("refused by the test")

    monkeypatch.setattr(pictures, "picture_from_svg", refused)
    svgs = client.get(url, headers=headers).data
    assert printed_pictures(svgs) == []
    assert typeset[-1].count('<svg xmlns="http://www.w3.org/2000/svg" class="chart"') == races
    ours, theirs = raster(drawn), raster(svgs)
    assert ours.size == theirs.size
    changed = ImageChops.difference(ours, theirs).convert("L").point(lambda v: 255 if v > 64 else 0)
    assert changed.getbbox() is None
    # ...and the race is there at all: the first player's blue (#0072b2) is on the page.
    blue = sum(1 for r, g, b in ours.get_flattened_data() if r < 60 and 90 < g < 140 and b > 150)
    assert blue > 100
