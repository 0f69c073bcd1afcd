"""A line of preserved text laid out up to its newline, not some 226 characters on.

To find where a line of text ends, WeasyPrint (70: ``split_first_line`` in
``weasyprint/text/line_break.py``) has Pango lay out as many characters as four times
the line's width in ems, 226 on a sheet's line, then the line alone again. A sheet's
hand lines and settlement are one preserved text (``white-space: pre-wrap``), a newline
after each line, so that is the next five or six lines laid out for every line.

``split_first_line`` here hands WeasyPrint's the text up to and with the first newline,
and keeps what it finds if the line ends at that newline (as every line of a sheet
does). A line that wraps before its newline is laid out again WeasyPrint's way, with
the text after it, as is text whose white space is not kept as written (anything but
``pre`` and ``pre-wrap``): there the next line's first word may change where a line
ends.

The printed pages are the same to the byte: ``tests/test_pdf_newlines.py`` prints every
kind of sheet and pad in every language, and text that wraps, both ways and compares
the PDFs. ``install`` puts it in place only over the WeasyPrint function it was written
against (compared by its source); over any other, printing is as WeasyPrint does it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .replaced import put_back, put_in_place, source_digest

# WeasyPrint 70's ``split_first_line``: the SHA-256 of its source, white space squeezed.
EXPECTED_DIGEST = "274dcf25a1775b52b20fb5cefe80f2d3602f11bda892360cc82d77c81b54db1e"

PRESERVED = frozenset({"pre", "pre-wrap"})  # white-space values that keep newlines

@cache
def fits(function: Any) -> bool:
    """Whether ``function`` is the ``split_first_line`` this module stands in for."""
    return source_digest(function) == EXPECTED_DIGEST


def split_at_newline(weasyprint_split: Any) -> Any:
    """A ``split_first_line`` over WeasyPrint's own ``weasyprint_split``."""

    def split_first_line(text: str, style: Any, context: Any, max_width: Any,
                         justification_spacing: Any, is_line_start: bool = True,
                         minimum: bool = False) -> Any:
        """``(layout, length, resume_index, width, height, baseline)`` of the first
        line of ``text``, as WeasyPrint's gives them."""
        if style["white_space"] in PRESERVED:
            end = text.find("\n") + 1
            if 0 < end < len(text):
                line = text[:end]
                found = weasyprint_split(line, style, context, max_width,
                                         justification_spacing, is_line_start, minimum)
                if found[2] == len(line.encode()):  # the next line starts after the newline
                    return found
        return weasyprint_split(text, style, context, max_width, justification_spacing,
                                is_line_start, minimum)

    split_first_line.weasyprint_split = weasyprint_split  # type: ignore[attr-defined]
    return split_first_line


def install() -> bool:
    """Put ``split_first_line`` in WeasyPrint's place where lines are laid out
    (``weasyprint.layout.inline``); whether it is in place (False: this WeasyPrint is
    not the one it was written for)."""
    from weasyprint.layout import inline

    return put_in_place(inline, "split_first_line", "weasyprint_split", fits,
                        split_at_newline)


def uninstall() -> None:
    """WeasyPrint's own ``split_first_line`` back in its place (the tests print both
    ways)."""
    from weasyprint.layout import inline

    put_back(inline, "split_first_line", "weasyprint_split")
