"""The SVG line chart (scorekeeper/charts/lines.py), parsed and checked coordinate by coordinate."""

from __future__ import annotations

import doctest
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pytest

import scorekeeper.charts.lines
from scorekeeper.charts.lines import KEY_CSS, Series, line_chart, stroked

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(markup: str) -> ET.Element:
    return ET.fromstring(str(markup))


def lines(root: ET.Element) -> list[str]:
    return [p.get("points", "") for p in root.iterfind("svg:polyline", NS)]


def hand_worked() -> ET.Element:
    # Plot: x 36..192 (width 200 less margins 36 and 8), y 8..80 (height 100 less 8 and 20).
    # Values 0..30, -5, target 100 -> ticks of 50 from -50 to 100: 150 points over
    # 72 units, 0.48 a point; zero at 80 - 50 * 0.48 = 56.
    return parse(
        line_chart(
            [
                Series("Ann", [0, 25, 10], marks=[1]),
                Series("Bob", [0, -5, 30], marks=[2]),
            ],
            x_labels=["", "1", "2"],
            target=100,
            title="Race to 100",
            description="Ann 10, Bob 30 after 2 hands",
            width=200,
            height=100,
            chart_id="race",
            target_label="100",
        )
    )


def test_one_line_per_series_with_the_hand_worked_points() -> None:
    root = hand_worked()
    # Ann: 0 -> 56, 25 -> 56 - 12 = 44, 10 -> 56 - 4.8 = 51.2;
    # Bob: -5 -> 56 + 2.4 = 58.4, 30 -> 56 - 14.4 = 41.6.
    assert lines(root) == ["36,56 114,44 192,51.2", "36,56 114,58.4 192,41.6"]


def test_marks_sit_on_the_line_with_one_shape_per_series() -> None:
    root = hand_worked()
    marks = [p.get("d") for p in root.iterfind("svg:path[@class='chart-marks']", NS)]
    # Ann's hand 1 (a dot: a zero-length round-capped stroke on 114,44); Bob's hand 2 (a
    # 6x6 square on 192,41.6).
    assert marks == ["M114 44h0", "M189 38.6h6v6h-6z"]
    dots = root.find("svg:path[@class='chart-marks']", NS)
    assert dots is not None
    assert (dots.get("stroke-linecap"), dots.get("stroke-width"), dots.get("fill")) == (
        "round",
        "7",
        "none",
    )


def test_target_zero_line_and_ticks() -> None:
    root = hand_worked()
    target = root.find("svg:line[@class='chart-target']", NS)
    assert target is not None and (target.get("y1"), target.get("y2")) == ("8", "8")
    grid = root.find("svg:path[@class='chart-grid']", NS)
    assert grid is not None and grid.get("d") == "M36 80H192M36 32H192M36 8H192"
    zero = root.find("svg:line[@class='chart-zero']", NS)
    assert zero is not None and (zero.get("y1"), zero.get("stroke")) == ("56", "#888")
    ticks = [(t.text, t.get("y")) for t in root.iterfind("svg:text[@class='chart-y']", NS)]
    assert ticks == [("-50", "83.5"), ("0", "59.5"), ("50", "35.5"), ("100", "11.5")]
    label = root.find("svg:text[@class='chart-target-label']", NS)
    assert label is not None and label.text == "\u2068100\u2069"


def test_text_alternative_and_no_styles_or_handlers() -> None:
    markup = str(
        line_chart(
            [Series("Ann", [0, 1])],
            x_labels=["", "1"],
            target=None,
            title="T",
            description="D",
            chart_id="g1",
        )
    )
    root = parse(markup)
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "g1-title g1-desc"
    title, desc = root.find("svg:title", NS), root.find("svg:desc", NS)
    assert title is not None and (title.get("id"), title.text) == ("g1-title", "T")
    assert desc is not None and (desc.get("id"), desc.text) == ("g1-desc", "D")
    for element in root.iter():
        assert "style" not in element.attrib
        assert not any(name.startswith("on") for name in element.attrib)
    assert "<script" not in markup and "<style" not in markup and "filter" not in markup


def test_every_text_is_escaped() -> None:
    root = parse(
        line_chart(
            [Series('<b>"A&B"</b>', [0, 1])],
            x_labels=["", "<1>"],
            target=None,
            title="<script>x</script>",
            description="a & b",
            chart_id='x"y',
        )
    )
    title = root.find("svg:title", NS)
    assert title is not None and title.text == "<script>x</script>"
    assert root.find("svg:script", NS) is None
    legend = root.find("svg:g[@class='chart-legend']/svg:text", NS)
    assert legend is not None and legend.text == '\u2068<b>"A&B"</b>\u2069'
    assert [t.text for t in root.iterfind("svg:text[@class='chart-x']", NS)] == ["<1>"]


def test_series_are_told_apart_by_dash_and_shape_not_only_colour() -> None:
    root = parse(
        line_chart(
            [Series(n, [0, 1, 2], marks=[1]) for n in "ABCD"],
            x_labels=["", "1", "2"],
            target=None,
            title="T",
            description="D",
        )
    )
    polylines = root.findall("svg:polyline", NS)
    assert [p.get("stroke-dasharray") for p in polylines] == [None, "6 3", "2 3", "8 3 2 3"]
    assert len({p.get("stroke") for p in polylines}) == 4
    marks = [p.get("d", "") for p in root.iterfind("svg:path[@class='chart-marks']", NS)]
    # A dot, a square, a triangle, a diamond: the path data after the first point.
    shapes = [
        m[m.index("h") if m.endswith("h0") else m.index(next(c for c in m if c in "hl")) :]
        for m in marks
    ]
    assert shapes == ["h0", "h6v6h-6z", "l4 7h-8z", "l4 4l-4 4l-4 -4z"]
    assert len(root.findall("svg:g[@class='chart-legend']", NS)) == 4


def test_one_point_is_a_dot_in_the_middle() -> None:
    root = parse(
        line_chart(
            [Series("Ann", [7])],
            x_labels=["1"],
            target=None,
            title="T",
            description="D",
            width=200,
            height=100,
        )
    )
    # x: the middle of 36..192 = 114; 7 / 4 -> ticks of 2 from 0 to 8: 80 - 7 * 9 = 17.
    assert lines(root) == ["114,17 114,17"]


def test_two_hundred_hands_one_line_few_labels_and_deterministic() -> None:
    values = [(i * 37) % 23 - 11 for i in range(201)]
    args = dict(x_labels=[str(i) for i in range(201)], target=None, title="T", description="D")
    first = line_chart([Series("A", values), Series("B", values[::-1])], **args)  # type: ignore[arg-type]
    again = line_chart([Series("A", values), Series("B", values[::-1])], **args)  # type: ignore[arg-type]
    assert first == again
    root = parse(first)
    assert [len(p.split()) for p in lines(root)] == [201, 201]
    assert [t.text for t in root.iterfind("svg:text[@class='chart-x']", NS)] == [
        "0",
        "50",
        "100",
        "150",
        "200",
    ]
    assert len(str(first)) < 12_000  # one polyline per series, nothing per point


def test_negative_decimals() -> None:
    root = parse(
        line_chart(
            [Series("Ann", [Decimal("0"), Decimal("-1.50"), Decimal("0.75")])],
            x_labels=["", "1", "2"],
            target=None,
            title="T",
            description="D",
            width=200,
            height=100,
        )
    )
    # -1.5..0.75 over 4 steps -> 0.5625 -> step 1: ticks -2..1, 3 units over 72.
    # 0 -> 80 - 2*24 = 32; -1.5 -> 80 - 0.5*24 = 68; 0.75 -> 32 - 18 = 14.
    assert lines(root) == ["36,32 114,68 192,14"]


def test_right_to_left_legend_sits_at_the_right_and_labels_are_isolated() -> None:
    root = parse(
        line_chart(
            [Series("علی رضایی", [0, 3]), Series("Bob", [0, 1])],
            x_labels=["", "1"],
            target=None,
            title="T",
            description="D",
            rtl=True,
            width=200,
            height=100,
        )
    )
    assert root.get("direction") == "ltr"  # the axis reads left to right like numbers
    texts = root.findall("svg:g[@class='chart-legend']/svg:text", NS)
    assert [(t.get("x"), t.get("text-anchor"), t.text) for t in texts] == [
        ("162", "end", "\u2068علی رضایی\u2069"),
        ("162", "end", "\u2068Bob\u2069"),
    ]
    samples = root.findall("svg:g[@class='chart-legend']/svg:line", NS)
    assert [(s.get("x1"), s.get("x2"), s.get("y1")) for s in samples] == [
        ("168", "192", "108"),
        ("168", "192", "124"),
    ]
    assert root.get("viewBox") == "0 0 200 132"  # two legend rows of 16 below the plot


def test_long_labels_are_shortened_in_the_legend() -> None:
    name = "Bartholomew Alexandrovich Montgomery-Smythe"
    root = parse(
        line_chart(
            [Series(name, [0, 1])],
            x_labels=["", "1"],
            target=None,
            title="T",
            description="D",
        )
    )
    text = root.find("svg:g[@class='chart-legend']/svg:text", NS)
    assert text is not None and text.text == "\u2068Bartholomew Alexandrovich Montg…\u2069"


def test_bad_marks_and_lengths_are_refused() -> None:
    with pytest.raises(ValueError):
        line_chart(
            [Series("A", [0, 1], marks=[2])],
            x_labels=["", "1"],
            target=None,
            title="T",
            description="D",
        )
    with pytest.raises(ValueError):
        line_chart(
            [Series("A", [0, 1, 2])], x_labels=["", "1"], target=None, title="T", description="D"
        )


def test_doctests() -> None:
    assert doctest.testmod(scorekeeper.charts.lines).failed == 0


def test_printed_charts_draw_their_numbers_with_strokes() -> None:
    root = parse(
        line_chart(
            [Series("Ann", [0, 25, 10])],
            x_labels=["", "1", "2"],
            target=None,
            title="T",
            description="D",
            width=200,
            height=100,
            printing=True,
        )
    )
    assert root.find("svg:text", NS) is None  # WeasyPrint lays SVG text out per letter
    assert root.find("svg:title", NS) is None and root.find("svg:desc", NS) is None
    labels = root.find("svg:path[@class='chart-labels']", NS)
    assert labels is not None
    # Ticks 0, 10, 20, 30 right-aligned at x 32 (a digit is 4 wide, 5 apart; "1" 3.5);
    # 0 sits at y 80 (baseline 83.5, glyph top 76.5), then x labels 1 and 2 under
    # x = 114 and 192 (baseline 94).
    assert labels.get("d") == (
        stroked("0", 32, 83.5, "end")
        + stroked("10", 32, 59.5, "end")
        + stroked("20", 32, 35.5, "end")
        + stroked("30", 32, 11.5, "end")
        + stroked("1", 114, 94, "middle")
        + stroked("2", 192, 94, "middle")
    )
    # A 0 is an oval of two curves (a rectangle read as a missing glyph on paper),
    # from x 28 to 32 (the curves' widest point), y 76.5 to 83.5.
    assert stroked("0", 32, 83.5, "end") == (
        "M30 76.5C27.4 76.5 27.4 83.5 30 83.5C32.6 83.5 32.6 76.5 30 76.5Z"
    )
    assert stroked("2", 192, 94, "middle") == (
        "M190.3 88.4C190.9 86.7 194 86.7 194 88.9C194 90.4 191.5 92.2 190 94H194"
    )
    assert stroked("-7", 0, 7) == "M0 3.5H3M4 0H8L5.4 7"


def test_key_colours_are_in_both_stylesheets() -> None:
    root = Path(scorekeeper.charts.lines.__file__).parent.parent  # the package
    for sheet in ("static/style.css", "templates/pdf/print.css"):
        text = (root / sheet).read_text()
        assert all(line in text for line in KEY_CSS.splitlines()), sheet
