"""The race on every kind of game's page and in its PDF: one line per player
or team through its running totals, the target line, the won hands marked."""

from __future__ import annotations

import html
import io
import re
import unicodedata
import xml.etree.ElementTree as ET
from typing import Any

from flask.testing import FlaskClient
from layout import Picture, printed_pictures
from pypdf import PdfReader

from scorekeeper.charts.lines import swatch

NS = {"svg": "http://www.w3.org/2000/svg"}
SWATCH = [str(swatch(0)), str(swatch(1))]
SVG = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" class="chart".*?</svg>', re.S)


# --- reading the pictures --------------------------------------------------------------


def charts(page: str) -> list[ET.Element]:
    """Every race chart in a page (or the HTML a PDF is typeset from), parsed."""
    return [ET.fromstring(m) for m in SVG.findall(page)]


def page_charts(client: FlaskClient, game_id: str, lang: str = "en") -> list[ET.Element]:
    client.set_cookie("lang", lang)
    response = client.get(f"/g/{game_id}")
    assert response.status_code == 200
    return charts(response.get_data(as_text=True))


def lines(chart: ET.Element) -> list[str]:
    return [p.get("points", "") for p in chart.iterfind("svg:polyline", NS)]


def words(fragment: str) -> str:
    """HTML as the reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def legends(page: str) -> list[list[str]]:
    """Each race's legend (HTML beside the SVG): one entry per line, then the target."""
    return [
        [words(item) for item in re.findall(r"<li>(.*?)</li>", legend, re.S)]
        for legend in re.findall(r'<ul class="race-legend">(.*?)</ul>', page, re.S)
    ]


def marked(chart: ET.Element) -> list[int]:
    """How many marks each series' marker path draws (one ``M`` per mark)."""
    return [
        (p.get("d") or "").count("M") for p in chart.iterfind("svg:path[@class='chart-marks']", NS)
    ]


def values(chart: ET.Element) -> list[list[float]]:
    """Each line's points read back as totals through the chart's own y scale (its first
    and last tick; a tick's number sits 3.5 below it), so a test can state totals
    instead of coordinates."""
    ticks = [
        (float(t.get("y", "0")) - 3.5, float(t.text or "0"))
        for t in chart.iterfind("svg:text[@class='chart-y']", NS)
    ]
    (y_low, low), (y_high, high) = ticks[0], ticks[-1]
    per_unit = (high - low) / (y_low - y_high)
    return [
        [round(low + (y_low - float(p.split(",")[1])) * per_unit) for p in line.split()]
        for line in lines(chart)
    ]


def heights(chart: ET.Element) -> list[list[str]]:
    """Each line's y coordinates (the same at any width)."""
    return [[p.split(",")[1] for p in line.split()] for line in lines(chart)]


def target_y(chart: ET.Element) -> str | None:
    line = chart.find("svg:line[@class='chart-target']", NS)
    return None if line is None else line.get("y1")


def printed(client: FlaskClient, game_id: str) -> tuple[str, list[Picture]]:
    """The sheet PDF's text, and the pictures drawn into it (read back from the PDF)."""
    response = client.get(f"/g/{game_id}/sheet.pdf")
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return unicodedata.normalize("NFKC", text), printed_pictures(response.data)


def printed_lines(picture: Picture) -> list[str]:
    """A printed race's lines (stroked 2 wide, as the page's polylines) as ``points``."""
    return [shape.points for shape in picture.stroked(2)]


def printed_heights(picture: Picture) -> list[list[str]]:
    return [[p.split(",")[1] for p in line.split()] for line in printed_lines(picture)]


# --- making games ------------------------------------------------------------------------


def api_game(client: FlaskClient, variant: str, players: list[str], **body: Any) -> tuple[str, str]:
    response = client.post("/api/v1/games", json={"variant": variant, "players": players, **body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"], response.get_json()["edit_secret"]


def api_hand(client: FlaskClient, game: str, secret: str, body: dict[str, Any]) -> None:
    response = client.post(
        f"/api/v1/games/{game}/hands", json=body, headers={"X-Edit-Secret": secret}
    )
    assert response.status_code == 201, response.get_json()


def knock(seat: int, points: int) -> dict[str, Any]:
    """A knock that scores exactly ``points`` for ``seat``."""
    return {
        "outcome": "knock",
        "knocker": seat,
        "knocker_deadwood": 1,
        "defender_deadwood": points + 1,
    }


def gin_game(client: FlaskClient) -> str:
    game, secret = api_game(client, "gin", ["Ann", "Bob"], rules="classic")
    for seat, points in [(0, 25), (1, 20), (0, 30)]:
        api_hand(client, game, secret, knock(seat, points))
    return game


# Plot of the page's 320 x 160 chart: x from 36 to 312, y from 140 (bottom) to 8.
# Classic, target 100: ticks 0, 50, 100, so a point is 132 / 100 = 1.32 units.
# Ann 25, 25, 55 -> y 107, 107, 67.4; Bob 0, 20, 20 -> 140, 113.6, 113.6; x every 92.
GIN_LINES = ["36,140 128,107 220,107 312,67.4", "36,140 128,140 220,113.6 312,113.6"]


# --- the tests ---------------------------------------------------------------------------


def test_gin_page_draws_one_line_per_player_through_the_totals(client: FlaskClient) -> None:
    game = gin_game(client)
    (chart,) = page_charts(client, game)
    assert lines(chart) == GIN_LINES
    assert legends(client.get(f"/g/{game}").get_data(as_text=True)) == [
        ["Ann 55", "Bob 20", "target 100"]
    ]
    assert marked(chart) == [2, 1]  # Ann won hands 1 and 3, Bob hand 2
    assert target_y(chart) == "8"
    title = chart.find("svg:title", NS)
    assert title is not None and title.text == "The race"
    desc = chart.find("svg:desc", NS)
    assert desc is not None and desc.text == (
        "Running totals after each hand; marked: the hands each player won. "
        "Standing: \u2068Ann\u2069 55, \u2068Bob\u2069 20. Target: 100."  # names isolated
    )


def test_gin_page_lists_the_totals_in_words(client: FlaskClient) -> None:
    game = gin_game(client)
    page = client.get(f"/g/{game}").get_data(as_text=True)
    hidden = re.search(r'<ul class="visually-hidden">(.*?)</ul>', page, re.S)
    assert hidden is not None
    items = [
        " ".join(re.sub(r"<[^>]+>", "", li).split())
        for li in re.findall(r"<li>(.*?)</li>", hidden.group(1), re.S)
    ]
    assert items == ["Ann: 25, 25, 55; marked: 1, 3", "Bob: 0, 20, 20; marked: 2"]


def test_no_race_before_the_first_hand(client: FlaskClient) -> None:
    game, _secret = api_game(client, "gin", ["Ann", "Bob"])
    assert page_charts(client, game) == []
    assert 'id="race"' not in client.get(f"/g/{game}").get_data(as_text=True)


def test_gin_pdf_prints_the_same_race(client: FlaskClient) -> None:
    game = gin_game(client)
    text, pictures = printed(client, game)
    (picture,) = pictures
    assert printed_lines(picture) == GIN_LINES
    printed_text = [" ".join(line.split()) for line in text.splitlines()]
    assert "The race" in printed_text
    assert "● Ann 55 ■ Bob 20 - - target 100" in printed_text  # the legend under the picture
    # Ann's two won hands are dots (zero-length round-capped lines, 7 wide); Bob's one
    # a square filled in his orange (#d55e00); the axis numbers are strokes 0.8 wide.
    (dots,) = picture.stroked(7)
    assert dots.points == "128,107 128,107 312,67.4 312,67.4" and dots.moves == 2
    (square,) = [shape for shape in picture.shapes if shape.fill == (0.835, 0.369, 0.0)]
    assert square.moves == 1 and square.path[0] == ("m", (217.0, 110.6))  # 220 - 3, 113.6 - 3
    (digits,) = picture.stroked(0.8)
    assert any(op == "c" for op, _values in digits.path)


def test_hollywood_has_one_small_race_per_column(client: FlaskClient) -> None:
    game, secret = api_game(client, "hollywood", ["A", "B"], rules="russian")
    # A 20 (game 1), A 30 (games 1-2), B 10 (game 1: his first win), A 5 (games 1-3).
    for seat, points in [(0, 20), (0, 30), (1, 10), (0, 5)]:
        api_hand(client, game, secret, knock(seat, points))
    one, two, three = page_charts(client, game)
    # Small charts: 320 x 120, y from 100 to 8 over 0..100, 0.92 a point.
    assert lines(one) == [
        "36,100 105,81.6 174,54 243,54 312,49.4",  # A: 20, 50, 50, 55 (hands 1-4)
        "36,100 105,100 174,100 243,90.8 312,90.8",  # B: 0, 0, 10, 10
    ]
    # Games 2 and 3 are far from 100 (A 35 and 5, less than half): no target line, the
    # scale follows the totals. Game 2: ticks 0..40, 2.3 a point (A 30 -> 31, 35 -> 19.5);
    # game 3: ticks 0, 2, 4, 6, 92 / 6 a point (A 5 -> 23.3).
    assert lines(two) == ["36,100 174,31 312,19.5", "36,100 174,100 312,100"]  # hands 2, 4
    assert lines(three) == ["36,100 312,23.3", "36,100 312,100"]  # hand 4
    assert [marked(c) for c in (one, two, three)] == [[3, 1], [2], [1]]
    assert [target_y(c) for c in (one, two, three)] == ["8", None, None]
    titles = [c.find("svg:title", NS) for c in (one, two, three)]
    assert [t.text for t in titles if t is not None] == ["Game 1", "Game 2", "Game 3"]
    x_labels = [
        [t.text for t in c.iterfind("svg:text[@class='chart-x']", NS)] for c in (two, three)
    ]
    assert x_labels == [["2", "4"], ["4"]]  # the hands as numbered on the sheet
    text, pictures = printed(client, game)
    # Printed three abreast at 240 units wide: the same totals through the same scale.
    assert [printed_heights(p) for p in pictures] == [heights(c) for c in (one, two, three)]
    assert values(one) == [[0, 20, 50, 50, 55], [0, 0, 0, 10, 10]]
    printed_text = [" ".join(t.split()) for t in text.splitlines()]
    legend = [line for line in printed_text if line.startswith("●")]
    assert legend == [
        "● A 55 ■ B 10 - - target 100",
        "● A 35 ■ B 0 - - target 100",
        "● A 5 ■ B 0 - - target 100",
    ]


def remi_game(client: FlaskClient) -> str:
    game, secret = api_game(client, "remi", ["Ann", "Bob", "Cy"])

    def deal(scores: list[tuple[int, int]], went_out: int | None, discard: int | None) -> None:
        players = [{"plus": plus, "minus": minus} for plus, minus in scores]
        body = {"went_out": went_out, "discard_value": discard, "players": players}
        api_hand(client, game, secret, body)

    deal([(30, 0), (0, 40), (15, 5)], None, None)  # 30, -40, 10
    deal([(0, 50), (20, 0), (0, 10)], None, None)  # -20, -20, 0
    deal([(20, 0), (0, 30), (15, 5)], 0, 5)  # Ann goes out: 20 + 10 x 5 = 70 -> 50, -50, 10
    return game


def test_remi_totals_go_below_zero(client: FlaskClient) -> None:
    game = remi_game(client)
    (chart,) = page_charts(client, game)
    assert values(chart) == [[0, 30, -20, 50], [0, -40, -20, -50], [0, 10, 0, 10]]
    assert legends(client.get(f"/g/{game}").get_data(as_text=True)) == [
        ["Ann 50", "Bob −50", "Cy 10", "target 500"]
    ]
    assert marked(chart) == [1]  # Ann went out in deal 3; nobody else did
    ticks = [t.text for t in chart.iterfind("svg:text", NS) if t.get("x") == "32"]
    assert ticks == ["-50", "0", "50"]  # -50 .. 50: the target 500 is far off, not drawn
    assert target_y(chart) is None
    zero = chart.find("svg:line[@class='chart-zero']", NS)
    assert zero is not None and zero.get("y1") == "74"  # 140 - 50 * 132 / 100
    text, pictures = printed(client, game)
    assert [printed_lines(p) for p in pictures] == [lines(chart)]
    printed_text = [" ".join(t.split()) for t in text.splitlines()]
    assert "● Ann 50 ■ Bob −50 ▲ Cy 10 - - target 500" in printed_text


def test_remi_by_number_of_deals_has_no_target_line(client: FlaskClient) -> None:
    game, secret = api_game(client, "remi", ["Ann", "Bob"], rules={"preset": "remi", "deals": 5})
    players = [
        {"plus": 0, "minus": 15, "discard_value": None},
        {"plus": 15, "minus": 10, "discard_value": None},
    ]
    api_hand(client, game, secret, {"mode": "quick", "went_out": None, "players": players})
    (chart,) = page_charts(client, game)
    assert target_y(chart) is None
    assert values(chart) == [[0, -15], [0, 5]]


def test_partnership_draws_the_teams(client: FlaskClient) -> None:
    # The worked example of test_variant_partnership: nets 55, 10 (B&D), 10 (B&D), 0, 70.
    game, secret = api_game(client, "partnership", ["Ann", "Bob", "Cid", "Dan"], dealer=2)
    deals = [
        [knock(0, 10), {"outcome": "gin", "knocker": 0, "defender_deadwood": 20}],
        [
            {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 22},
            {"outcome": "knock", "knocker": 1, "knocker_deadwood": 5, "defender_deadwood": 35},
        ],
        [
            {"outcome": "dead"},
            {"outcome": "knock", "knocker": 1, "knocker_deadwood": 4, "defender_deadwood": 14},
        ],
        [
            {"outcome": "knock", "knocker": 0, "knocker_deadwood": 6, "defender_deadwood": 6},
            {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 26},
        ],
        [
            {"outcome": "gin", "knocker": 0, "defender_deadwood": 30},
            {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 16},
        ],
    ]
    for tables in deals:
        api_hand(client, game, secret, {"tables": tables})
    (chart,) = page_charts(client, game)
    assert legends(client.get(f"/g/{game}").get_data(as_text=True)) == [
        ["Ann & Cid 125", "Bob & Dan 20", "target 125"]
    ]
    assert values(chart) == [[0, 55, 55, 55, 55, 125], [0, 0, 10, 20, 20, 20]]
    assert marked(chart) == [2, 2]  # deals 1 and 5; deals 2 and 3 (deal 4 a wash)
    text, pictures = printed(client, game)
    assert [printed_lines(p) for p in pictures] == [lines(chart)]
    printed_text = [" ".join(t.split()) for t in text.splitlines()]
    assert "● Ann & Cid 125 ■ Bob & Dan 20 - - target 125" in printed_text


def test_three_hand_draws_three_lines(client: FlaskClient) -> None:
    game, secret = api_game(client, "three_hand", ["A", "B", "C"])
    for role, points in [(0, 12), (1, 20), (0, 7)]:
        api_hand(client, game, secret, knock(role, points))
    data = client.get(f"/api/v1/games/{game}").get_json()
    (chart,) = page_charts(client, game)
    assert len(lines(chart)) == 3
    assert values(chart) == [[0, *(h["totals"][seat] for h in data["hands"])] for seat in range(3)]
    assert sum(marked(chart)) == 3  # every hand had a winner


def test_persian_page_keeps_the_axis_and_isolates_the_legend(client: FlaskClient) -> None:
    game, secret = api_game(client, "remi", ["علی", "Bob"])
    players = [{"plus": 0, "minus": 15}, {"plus": 15, "minus": 0}]
    api_hand(client, game, secret, {"went_out": None, "players": players})
    client.set_cookie("lang", "fa")
    page = client.get(f"/g/{game}").get_data(as_text=True)
    (chart,) = charts(page)
    assert chart.get("direction") == "ltr"  # deals run left to right, like the numbers
    assert values(chart) == [[0, -15], [0, 15]]
    title = chart.find("svg:title", NS)
    assert title is not None and title.text == "روند امتیازها"
    legend = re.search(r'<ul class="race-legend">(.*?)</ul>', page, re.S)
    assert legend is not None
    items = [" ".join(li.split()) for li in re.findall(r"<li>(.*?)</li>", legend.group(1), re.S)]
    # Each name and each signed total isolated, so "−15" never reads "15−" right to left.
    assert items[:2] == [
        f'{SWATCH[0]} <bdi>علی</bdi> <bdi dir="ltr" class="num">−15</bdi>',
        f'{SWATCH[1]} <bdi>Bob</bdi> <bdi dir="ltr" class="num">15</bdi>',
    ]
    assert words(items[2]) == "هدف 500"


def test_oklahoma_draws_the_race_like_gin(client: FlaskClient) -> None:
    game, secret = api_game(client, "oklahoma", ["Ann", "Bob"])
    # A 4 upcard (knock limit 4), no spade: Ann knocks 1 against 21, Bob 1 against 11.
    api_hand(client, game, secret, {**knock(0, 20), "upcard": "4H"})
    api_hand(client, game, secret, {**knock(1, 10), "upcard": "4D"})
    (chart,) = page_charts(client, game)
    assert values(chart) == [[0, 20, 20], [0, 0, 10]]
    assert marked(chart) == [1, 1]
    # Oklahoma plays to 150, far beyond Ann's 20: no target line, ticks up to the totals.
    assert target_y(chart) is None
    ticks = [t.text for t in chart.iterfind("svg:text[@class='chart-y']", NS)]
    assert ticks == ["0", "5", "10", "15", "20"]
