"""Printed lines are written into the PDF from one read of their glyphs, each distinct
glyph's PDF text worked out once a document (pdf/glyphs.py), and every printed document
comes out the same, byte for byte, as with WeasyPrint's own ``draw_first_line``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import replaced_parts
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.pdf import glyphs, render

pytestmark = pytest.mark.once  # the same on every database: the SQLite pass only

PART = replaced_parts.Part(glyphs, "weasyprint.draw.text", "draw_first_line", "weasyprint_draw")


@pytest.fixture
def weasyprint_draw() -> Iterator[Any]:
    """WeasyPrint's own ``draw_first_line``, with ours put back in place afterwards."""
    yield from PART.weasyprints_own()


@pytest.mark.parametrize("language", ["en", "ru", "fa"])
def test_every_printed_document_is_the_same_bytes_either_way(
    client: FlaskClient, weasyprint_draw: Any, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    urls, ours, theirs = PART.every_document_both_ways(client, language, monkeypatch)
    for url, mine, whole in zip(urls, ours, theirs, strict=True):
        assert mine == whole, url


# Lines that are WeasyPrint's own to draw, each in a paragraph of its own after a plain
# one: a clipped line with an ellipsis, Persian letters with their vowel marks (each
# mark raised or lowered over its letter), a character no installed font has.
PLAIN = "Ann 25 · Пётр 31 ■"
ODD_LINES = {
    "ellipsis": ('<p style="white-space: nowrap; overflow: hidden; text-overflow: ellipsis;'
                 ' width: 30mm">A name far too long for its column</p>'),
    "marks": '<p dir="rtl" lang="fa">مُحَمَّد با ۱۲ بُرد</p>',
    "missing": "<p>Box \U0010fffd kept</p>",
}


def drawing_over(weasyprint_draw: Any) -> Any:
    """Our ``draw_first_line`` over ``weasyprint_draw`` (a spy, say)."""
    from weasyprint.text.ffi import FROM_UNITS, ffi, pango

    return glyphs.glyph_drawing(weasyprint_draw, ffi, pango, FROM_UNITS)


@pytest.mark.parametrize("odd", sorted(ODD_LINES))
def test_odd_lines_are_weasyprints_to_draw_and_print_the_same_bytes(
    app: Flask, weasyprint_draw: Any, odd: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from weasyprint.draw import text

    html = (f'<!DOCTYPE html><html lang="en"><body><p>{PLAIN}</p>{ODD_LINES[odd]}'
            "</body></html>")
    handed: list[str] = []  # the lines our drawing hands to WeasyPrint's

    def spy(stream: Any, textbox: Any, *rest: Any) -> Any:
        handed.append(textbox.text)
        return weasyprint_draw(stream, textbox, *rest)

    ours = text.draw_first_line
    monkeypatch.setattr(text, "draw_first_line", drawing_over(spy))
    with app.test_request_context():
        render.html_to_pdf(html)
    assert len(handed) == 1 and PLAIN not in handed[0], handed
    monkeypatch.setattr(text, "draw_first_line", ours)

    def print_one() -> list[bytes]:
        with app.test_request_context():
            return [render.html_to_pdf(html)]

    mine, theirs = PART.both_ways(print_one, monkeypatch)
    assert mine == theirs


def test_each_distinct_glyph_of_a_document_is_written_out_once(
    app: Flask, weasyprint_draw: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forty lines of a sheet's kind hold over 800 glyphs, a few dozen of them distinct
    (in their font, size, width and offset): each distinct one's PDF text is worked out
    once a document."""
    from weasyprint.draw import text

    lines = "\n".join(f"{n}\t+{n}\t{n * 3}\t■\tknock · Ann" for n in range(1, 41))
    html = (f'<!DOCTYPE html><html><body><p style="white-space: pre-wrap">{lines}</p>'
            "</body></html>")
    drawn: list[int] = []  # the glyphs of each line drawn
    worked_out: list[tuple[int, ...]] = []
    glyph_text = glyphs.glyph_text

    def counted(*args: Any) -> str:
        worked_out.append(args[-1])
        return glyph_text(*args)

    def spy(stream: Any, textbox: Any, *rest: Any) -> Any:
        raise AssertionError(f"a plain line handed to WeasyPrint: {textbox.text!r}")

    drawing = drawing_over(spy)

    def counting(stream: Any, textbox: Any, *rest: Any) -> Any:
        drawn.append(len(textbox.text))
        return drawing(stream, textbox, *rest)

    monkeypatch.setattr(glyphs, "glyph_text", counted)
    monkeypatch.setattr(text, "draw_first_line", counting)
    with app.test_request_context():
        render.html_to_pdf(html)
    assert len(drawn) == 40 and sum(drawn) > 800
    assert len(worked_out) == len(set(worked_out)) < 60, len(worked_out)


def test_a_weasyprint_written_otherwise_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    from weasyprint.draw import text

    glyphs.uninstall()
    original = text.draw_first_line
    assert glyphs.fits(original)

    def changed(stream: Any, textbox: Any, text_overflow: Any, block_ellipsis: Any,
                matrix: Any) -> list[Any]:
        return original(stream, textbox, text_overflow, block_ellipsis, matrix)

    monkeypatch.setattr(text, "draw_first_line", changed)
    assert not glyphs.fits(changed)
    assert glyphs.install() is False
    assert text.draw_first_line is changed
    monkeypatch.undo()
    assert glyphs.install() is True
