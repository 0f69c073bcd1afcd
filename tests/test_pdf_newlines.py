"""A line of preserved text is laid out up to its newline (pdf/newlines.py), and every
printed document comes out the same, byte for byte, as with WeasyPrint's own
``split_first_line``, which lays out some 226 characters to find where a line ends."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import replaced_parts
from flask import Flask
from flask.testing import FlaskClient
from test_pdf_textlayout import ODD_TEXT

from scorekeeper.pdf import newlines, render

pytestmark = pytest.mark.once  # the same on every database: the SQLite pass only

PART = replaced_parts.Part(
    newlines, "weasyprint.layout.inline", "split_first_line", "weasyprint_split"
)


@pytest.fixture
def weasyprint_split() -> Iterator[Any]:
    """WeasyPrint's own ``split_first_line``, with ours put back in place afterwards."""
    yield from PART.weasyprints_own()


@pytest.mark.parametrize("language", ["en", "ru", "fa"])
def test_every_printed_document_is_the_same_bytes_either_way(
    client: FlaskClient, weasyprint_split: Any, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    urls, ours, theirs = PART.every_document_both_ways(client, language, monkeypatch)
    for url, mine, whole in zip(urls, ours, theirs, strict=True):
        assert mine == whole, url


# Preserved lines that wrap before their newline, in a narrow box: the first of each
# pair is laid out again WeasyPrint's way, with the text after it.
WRAPPING = ('<p style="white-space: pre-wrap; width: 25mm">Ann knocks with four and Bob'
            " undercuts her\nBox to Bob\n\nAnn's gin, twenty-five and the box\nEnd</p>")


@pytest.mark.parametrize("html", [ODD_TEXT, f"<!DOCTYPE html><html><body>{WRAPPING}</body></html>"],
                         ids=["odd text", "wrapping"])
def test_other_text_prints_the_same_bytes_either_way(
    app: Flask, weasyprint_split: Any, html: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def print_one() -> list[bytes]:
        with app.test_request_context():
            return [render.html_to_pdf(html)]

    ours, theirs = PART.both_ways(print_one, monkeypatch)
    assert ours == theirs


def laid_out(app: Flask, html: str, weasyprint_split: Any, monkeypatch: pytest.MonkeyPatch
             ) -> list[str]:
    """The texts WeasyPrint's ``split_first_line`` is handed while ``html`` is printed
    with ours in place (``newlines.split_at_newline``)."""
    from weasyprint.layout import inline

    handed: list[str] = []

    def spy(text: str, *rest: Any) -> Any:
        handed.append(text)
        return weasyprint_split(text, *rest)

    monkeypatch.setattr(inline, "split_first_line", newlines.split_at_newline(spy))
    with app.test_request_context():
        render.html_to_pdf(html)
    return handed


def test_a_sheets_lines_are_laid_out_a_line_at_a_time(
    app: Flask, weasyprint_split: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [f"{n}\t+{n}\t{n * 3}\t■\tknock · Ann" for n in range(1, 41)]
    text = "\n".join(lines)
    html = (f'<!DOCTYPE html><html><body><p style="white-space: pre-wrap">{text}</p>'
            "</body></html>")
    handed = laid_out(app, html, weasyprint_split, monkeypatch)
    # Each line with its newline, the last as it is; nothing else, nothing twice.
    assert handed == [line + "\n" for line in lines[:-1]] + [lines[-1]]


def test_a_line_that_wraps_before_its_newline_is_laid_out_weasyprints_way(
    app: Flask, weasyprint_split: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    handed = laid_out(app, f"<!DOCTYPE html><html><body>{WRAPPING}</body></html>",
                      weasyprint_split, monkeypatch)
    first = "Ann knocks with four and Bob undercuts her\n"
    assert handed[:2] == [first, first + "Box to Bob\n\nAnn's gin, twenty-five and the box\nEnd"]


def test_text_whose_white_space_collapses_is_laid_out_weasyprints_way(
    app: Flask, weasyprint_split: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``pre-line`` (the finals' steps) spaces collapse: the text after a newline
    goes to WeasyPrint with the line."""
    steps = "1. Ann reached 315 first.\n2. Ann: 315 + 100 = 415\n3. Bob: 178"
    html = (f'<!DOCTYPE html><html><body><p style="white-space: pre-line">{steps}</p>'
            "</body></html>")
    handed = laid_out(app, html, weasyprint_split, monkeypatch)
    assert handed[0] == steps


def test_a_weasyprint_written_otherwise_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    from weasyprint.layout import inline

    newlines.uninstall()
    original = inline.split_first_line
    assert newlines.fits(original)

    def changed(text: str, style: Any, context: Any, max_width: Any,
                justification_spacing: Any, is_line_start: bool = True,
                minimum: bool = False) -> Any:
        return original(text, style, context, max_width, justification_spacing)

    monkeypatch.setattr(inline, "split_first_line", changed)
    assert not newlines.fits(changed)
    assert newlines.install() is False
    assert inline.split_first_line is changed
    monkeypatch.undo()
    assert newlines.install() is True
