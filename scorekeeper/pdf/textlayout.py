"""A line of printed text shaped by Pango once for its layout and once to draw it, not
three times with two Pango contexts.

WeasyPrint (70) lays a line of text out with a Pango layout, then lets the layout go
(``Layout.deactivate``) and, when it draws the page, builds it again from nothing
(``Layout.reactivate``: a new Pango context, font description and language, the text
set and shaped again); drawing then switches the layout to single-paragraph mode,
which makes Pango shape the line once more. For every line box of every page.

``KeptLayout`` keeps the layout a line was laid out with until the line is drawn, when
nothing can have changed it: the same style, and no justification (which
``reactivate`` would add as word spacing). It is let go once drawn, as WeasyPrint
does. A line whose text holds no paragraph break is put in single-paragraph mode as
soon as its text is set, which lays it out the same (there is no second paragraph to
break), so drawing finds it shaped already.

The printed pages are the same to the byte: ``tests/test_pdf_textlayout.py`` prints
every kind of sheet and pad in every language both ways and compares the PDFs.
``install`` puts it in place only over the WeasyPrint code it was written against
(the two methods it replaces, compared by their source); over any other, printing is
as WeasyPrint does it, only slower.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import replaced

# Where Pango ends a paragraph (and a line separator, to be safe): text without any of
# these is one paragraph whatever the mode.
PARAGRAPH_BREAKS = frozenset("\n\r\x0b\x0c\x85\u2028\u2029")

# The WeasyPrint methods ``KeptLayout`` stands in for, as WeasyPrint 70 writes them.
EXPECTED = {
    "deactivate": "def deactivate(self): del self.layout, self.language, self.style",
    "reactivate": "def reactivate(self, style): self.setup(style) "
                  "self.set_text(self.text, justify=True)",
}

@cache
def fits(layout_class: Any) -> bool:
    """Whether ``layout_class`` deactivates and reactivates as ``KeptLayout`` expects
    (read once a class: every print asks, until it is in place)."""
    return all(replaced.source(getattr(layout_class, name, None)) == source
               for name, source in EXPECTED.items())


def kept_layout_class(base: Any, pango: Any) -> Any:
    """``KeptLayout`` over WeasyPrint's ``Layout`` class ``base``."""

    class KeptLayout(base):
        weasyprint_layout = base  # what it stands in for (``uninstall``)
        # The style it was laid out with while the layout is kept for drawing; and
        # whether it is being drawn (then ``deactivate`` lets it go).
        _kept: Any = None
        _drawing = False

        def set_text(self, text: str, justify: bool = False) -> None:
            super().set_text(text, justify)
            if PARAGRAPH_BREAKS.isdisjoint(self.text):
                pango.pango_layout_set_single_paragraph_mode(self.layout, True)

        def deactivate(self) -> None:
            if self._drawing or "layout" not in vars(self):
                self._kept = None
                self._drawing = False
                super().deactivate()
            else:
                self._kept = self.style

        def reactivate(self, style: Any) -> None:
            kept, self._kept = self._kept, None
            self._drawing = True
            if kept is style and not self.justification_spacing:
                return
            super().reactivate(style)

    return KeptLayout


def install() -> bool:
    """Put ``KeptLayout`` in WeasyPrint's place for the layouts it creates from now on;
    whether it is in place (False: this WeasyPrint is not the one it was written for)."""
    from weasyprint.text import line_break
    from weasyprint.text.ffi import pango

    return replaced.put_in_place(line_break, "Layout", "weasyprint_layout", fits,
                                 lambda theirs: kept_layout_class(theirs, pango))


def uninstall() -> None:
    """WeasyPrint's own ``Layout`` back in its place (the tests print both ways)."""
    from weasyprint.text import line_break

    replaced.put_back(line_break, "Layout", "weasyprint_layout")
