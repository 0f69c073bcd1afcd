"""Printed text is shaped once for its layout and once to draw it (pdf/textlayout.py),
and every printed document comes out the same, byte for byte, as with WeasyPrint's
own way of building each line's Pango layout again to draw it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import replaced_parts
from flask import Flask
from flask.testing import FlaskClient
from layout import KINDS
from test_pdf_parse import PAD_KINDS, all_pages

from scorekeeper.pdf import render, textlayout

pytestmark = pytest.mark.once  # the same on every database: the SQLite pass only

PART = replaced_parts.Part(textlayout, "weasyprint.text.line_break", "Layout", "weasyprint_layout")


@pytest.fixture
def weasyprint_layout() -> Iterator[Any]:
    """WeasyPrint's own ``Layout`` class, with ours put back in place afterwards."""
    yield from PART.weasyprints_own()


@pytest.mark.parametrize("language", ["en", "ru", "fa"])
def test_every_printed_document_is_the_same_bytes_either_way(
    client: FlaskClient, weasyprint_layout: Any, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    urls, ours, theirs = PART.every_document_both_ways(client, language, monkeypatch)
    assert len(ours) == len(KINDS) + 1 + len(PAD_KINDS)
    for url, mine, whole in zip(urls, ours, theirs, strict=True):
        assert mine == whole, url


# What a template of ours may one day use, and the paths that must not keep a layout:
# justified lines (drawn with word spacing added), letter spacing, a clipped line with
# an ellipsis, preserved line breaks, right-to-left text, a line split over two pages.
ODD_TEXT = """<!DOCTYPE html><html lang="en"><head><style>
@page { size: 80mm 40mm; margin: 5mm }
p { margin: 0 0 2mm }
</style></head><body>
<p style="text-align: justify; width: 50mm">Ann knocks with four, Bob lays off three cards
and undercuts her by two: twenty-five and two for the undercut, and the box is his.</p>
<p style="letter-spacing: 0.5pt; word-spacing: 2pt">Gin · 25 + 31 ♠×2</p>
<p style="white-space: nowrap; overflow: hidden; text-overflow: ellipsis; width: 30mm">
A name far too long for its column, cut with an ellipsis</p>
<p style="white-space: pre-wrap; tab-size: 13mm">1\t+8\t8\t■\n2\t\t8\t\n3\t+10\t18</p>
<p dir="rtl" lang="fa">علی با ۱۲ برد · دست ۳ · \u200e+15</p>
<p style="white-space: pre-line">""" + "\n".join(f"line {n}" for n in range(1, 15)) + """</p>
</body></html>"""


def test_odd_text_prints_the_same_bytes_either_way(
    app: Flask, weasyprint_layout: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app.test_request_context():
        ours, theirs = PART.both_ways(lambda: [render.html_to_pdf(ODD_TEXT)], monkeypatch)
    assert ours == theirs
    assert len(all_pages(ours[0])) >= 2  # the paragraphs go on over the pages


def test_a_sheet_builds_fewer_pango_layouts(
    app: Flask, client: FlaskClient, weasyprint_layout: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each line drawn from the layout it was laid out with: a 40-line block of text
    builds a Pango layout (``setup``) about twice a line WeasyPrint's way, once ours."""
    built: list[Any] = []
    setup = weasyprint_layout.setup

    def counted(self: Any, style: Any) -> None:
        built.append(self)
        setup(self, style)

    monkeypatch.setattr(weasyprint_layout, "setup", counted)
    lines = "\n".join(f"{n}\t+{n}\t{n * 3}\tknock · Ann" for n in range(1, 41))
    html = (f'<!DOCTYPE html><html><body><p style="white-space: pre-wrap">{lines}</p>'
            "</body></html>")

    def print_one() -> list[int]:
        with app.test_request_context():
            render.html_to_pdf(html)  # the font's metrics are looked up once a process
            built.clear()
            render.html_to_pdf(html)
        return [len(built)]

    ours, theirs = PART.both_ways(print_one, monkeypatch)
    assert theirs[0] >= 80  # laid out once and drawn once a line, at least
    assert ours[0] <= theirs[0] - 40  # each of the 40 lines drawn without a new layout


def test_a_weasyprint_written_otherwise_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    from weasyprint.text import line_break

    textlayout.uninstall()
    original = line_break.Layout
    assert textlayout.fits(original)

    class Changed(original):  # type: ignore[misc,valid-type]
        def reactivate(self, style: Any) -> None:
            self.setup(style)
            self.set_text(self.text, justify=False)

    monkeypatch.setattr(line_break, "Layout", Changed)
    assert not textlayout.fits(Changed)
    assert textlayout.install() is False
    assert line_break.Layout is Changed
    monkeypatch.undo()
    assert textlayout.install() is True
