"""A line of printed text written into the PDF from one read of its glyphs, each
distinct glyph's PDF text worked out once a document.

WeasyPrint (70) writes a line's glyphs into the page (``draw_first_line`` in
``weasyprint/draw/text.py``) one glyph at a time: it reads the glyph's id, width and
offsets out of Pango's glyph array field by field through cffi, and formats the id, the
offset and the kerning as PDF text anew for every glyph of every line. A 40-hand sheet
draws some 80 lines of up to 60 glyphs, from a few dozen distinct ones.

``draw_first_line`` here reads a run's glyphs in one go (the array's bytes, unpacked by
``struct``) and keeps the PDF text of each distinct glyph (its id, width and offset, in
its font and size) for the rest of the document. A line is handed to WeasyPrint's own
function as it is when it holds anything else: an ellipsis, a glyph raised or lowered
(a mark over a letter), a glyph the font lacks, or a font of colour or bitmap glyphs.

The printed pages are the same to the byte: ``tests/test_pdf_glyphs.py`` prints every
kind of sheet and pad in every language, and documents with each of those exceptions,
both ways and compares the PDFs. ``install`` puts it in place only over the WeasyPrint
function it was written against (compared by its source); over any other, printing is
as WeasyPrint does it.
"""

from __future__ import annotations

import struct
import weakref
from functools import cache
from typing import Any

from .replaced import put_back, put_in_place, source_digest

# WeasyPrint 70's ``draw_first_line``: the SHA-256 of its source with its white space
# squeezed (``replaced.source_digest``).
EXPECTED_DIGEST = "4228cb54f323a735caca1a799dd0a47c827913b88920942664c3885aad65bbde"

# A ``PangoGlyphInfo``: the glyph (guint32), its geometry (width, x and y offsets:
# gint32 each), then its attributes (a guint32 of bit fields), 20 bytes.
GLYPH_INFO = struct.Struct("<Iiii4x")

@cache
def fits(function: Any) -> bool:
    """Whether ``function`` is the ``draw_first_line`` this module stands in for."""
    return source_digest(function) == EXPECTED_DIGEST


def glyph_text(pango: Any, from_units: float, stream: Any, pango_font: Any, font: Any,
               font_size: float, glyph: tuple[int, int, int, int]) -> str:
    """One glyph as WeasyPrint writes it: its id (an empty glyph, a tab, as a move), its
    offset and its kerning, as text of a PDF ``TJ`` array."""
    glyph_id, width, x_offset, _ = glyph
    if glyph_id == pango.PANGO_GLYPH_EMPTY:
        return f">{-width / font_size}<"
    text = ""
    offset = x_offset / font_size
    if offset:
        text += f">{-offset}<"
    text += f"{glyph_id:02x}" if font.bitmap else f"{glyph_id:04x}"
    if glyph_id in font.widths:
        logical_width = font.widths[glyph_id]
    else:
        pango.pango_font_get_glyph_extents(
            pango_font, glyph_id, stream.ink_rect, stream.logical_rect)
        logical_width = font.widths[glyph_id] = round(
            stream.logical_rect.width * 1000 * from_units / font_size)
    kerning = logical_width + offset - width * 1000 * from_units / font_size
    if kerning:
        text += f">{int(kerning)}<"
    return text


def glyph_drawing(weasyprint_draw: Any, ffi: Any, pango: Any, from_units: float) -> Any:
    """A ``draw_first_line`` over WeasyPrint's own ``weasyprint_draw``."""
    empty = pango.PANGO_GLYPH_EMPTY
    unknown = pango.PANGO_GLYPH_UNKNOWN_FLAG
    # Each font's glyphs as PDF text, by (font size, glyph, width, x offset); the fonts
    # are a document's (``Stream.add_font``) and go with it.
    drawn: weakref.WeakKeyDictionary[Any, dict[tuple[float, int, int, int], str]] = (
        weakref.WeakKeyDictionary())

    def draw_first_line(stream: Any, textbox: Any, text_overflow: str, block_ellipsis: Any,
                        matrix: Any) -> Any:
        """The line of ``textbox`` written into ``stream``; its emojis (none, or
        WeasyPrint's for the lines it draws)."""
        if text_overflow == "ellipsis" or block_ellipsis != "none":
            return weasyprint_draw(stream, textbox, text_overflow, block_ellipsis, matrix)
        if not textbox.text.strip() or textbox.style["font_size"] < 1e-6:
            return []
        layout = textbox.pango_layout
        pango.pango_layout_set_single_paragraph_mode(layout.layout, True)
        first_line, _ = layout.get_first_line()
        # Every run's glyphs read first: a line with anything but plain glyphs is
        # WeasyPrint's to draw, before anything of it is written.
        runs = []
        previous_pango_font: Any = None
        font: Any = None
        font_size: Any = None
        known: dict[tuple[float, int, int, int], str] = {}
        run = first_line.runs[0]
        while run != ffi.NULL:
            glyph_item = run.data
            run = run.next
            glyph_string = glyph_item.glyphs
            glyphs = list(GLYPH_INFO.iter_unpack(
                ffi.buffer(glyph_string.glyphs, GLYPH_INFO.size * glyph_string.num_glyphs)))
            pango_font = glyph_item.item.analysis.font
            if pango_font != previous_pango_font:  # a line's runs mostly share a font
                previous_pango_font = pango_font
                font, font_size = stream.add_font(pango_font)
                if font.svg or font.png or font.colr or pango.pango_version() < 14802:
                    return weasyprint_draw(
                        stream, textbox, text_overflow, block_ellipsis, matrix)
                known = drawn.setdefault(font, {})
            for glyph_id, _, _, y_offset in glyphs:
                if y_offset or (glyph_id & unknown and glyph_id != empty):
                    return weasyprint_draw(
                        stream, textbox, text_overflow, block_ellipsis, matrix)
            runs.append((glyph_item, pango_font, font, font_size, known, glyphs))

        stream.set_text_matrix(*matrix.values)
        previous_pango_font = None
        string = ""
        for glyph_item, pango_font, font, font_size, known, glyphs in runs:
            if pango_font != previous_pango_font:
                previous_pango_font = pango_font
                if string:
                    stream.show_text(string)
                string = ""
                stream.set_font_size(font.hash, 1 if font.bitmap else font_size)
            to_unicode = font.to_unicode
            utf8_text = None
            parts = ["<"]
            for index, glyph in enumerate(glyphs):
                glyph_id = glyph[0]
                if glyph_id not in to_unicode and glyph_id != empty:
                    # The text the glyph stands for, for copying text out of the PDF.
                    clusters = glyph_item.glyphs.log_clusters
                    item = glyph_item.item
                    start = clusters[index]
                    if item.analysis.level % 2:  # right to left
                        end = item.length if index == 0 else clusters[index - 1]
                    else:
                        end = item.length if index == len(glyphs) - 1 else clusters[index + 1]
                    utf8_text = utf8_text or layout.text.encode()
                    to_unicode[glyph_id] = utf8_text[item.offset + start:item.offset + end].decode()
                key = (font_size, *glyph[:3])
                text = known.get(key)
                if text is None:
                    text = known[key] = glyph_text(
                        pango, from_units, stream, pango_font, font, font_size, glyph)
                parts.append(text)
            string += "".join(parts)
            # Close the run's glyphs, or drop the "<" of a run that ended on a move.
            string = string[:-1] if string[-1] == "<" else string + ">"
        stream.show_text(string)
        return []

    draw_first_line.weasyprint_draw = weasyprint_draw  # type: ignore[attr-defined]
    return draw_first_line


def install() -> bool:
    """Put ``draw_first_line`` in WeasyPrint's place; whether it is in place (False:
    this WeasyPrint is not the one it was written for)."""
    from weasyprint.draw import text
    from weasyprint.text.ffi import FROM_UNITS, ffi, pango

    return put_in_place(text, "draw_first_line", "weasyprint_draw", fits,
                        lambda theirs: glyph_drawing(theirs, ffi, pango, FROM_UNITS))


def uninstall() -> None:
    """WeasyPrint's own ``draw_first_line`` back in its place (the tests print both ways)."""
    from weasyprint.draw import text

    put_back(text, "draw_first_line", "weasyprint_draw")
