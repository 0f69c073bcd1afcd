"""A printed gin sheet's hand lines, written in Python rather than by Jinja macros.

Each hand is one tab-separated line of the sheet's one table cell (pdf/sheet.html says
why), a block of its own that print.css rules underneath: the hand number, then per
player the points (isolated left to right, so that "+15" does not read "15+" on a
right-to-left sheet: a left-to-right mark there moved the cells after it, and a
player's totals stood in two columns, one for the hands they scored in; a dead hand
prints "–"), the running total and the box mark, then
the hand in words and its dealer (isolated, like every name on paper). Three macro
calls a hand, each escaping and joining its pieces, cost 2.5 ms of a 40-hand sheet;
this costs a tenth of that.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from flask_babel import gettext as _
from markupsafe import Markup, escape

from ..hands.fields import show_html
from ..i18n import outcome_label
from ..names import isolated
from ..scoring import Card
from ..variants.replay import GinSheet

FIGURE_SPACE = "\u2007"  # as wide as a digit: numbers padded with it line up on the right
TAB, BOX, DASH = "\t", "■", "–"
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"

# Every cell of a line is padded to the same width, whatever it holds: WeasyPrint draws
# a line's text about 2.4 % narrower than it lays it out, so a tab ends short by 2.4 %
# of the text before it, and a total after a wider or narrower cell ("+15", "", "–",
# "■") would stand a little left or right of the one above. The cells' characters'
# advances in print.css's font (DejaVu Sans, 2048 units to the em); any other counts
# as a digit.
_ADVANCE = {FIGURE_SPACE: 1303, LRI: 0, FSI: 0, PDI: 0, "+": 1716, DASH: 1024, BOX: 1935,
            "Σ": 1294, " ": 651}
_DIGIT = 1303
# The cells' widths in digits: a hand's number (or Σ), then each player's points (a
# sign and up to four digits), running total and boxes ("12 ■").
NUMBER, POINTS, TOTAL, BOXES = 3, 6, 5, 4
# Spaces narrower than a digit, to make up the rest of a cell's width (within 0.2 pt at
# 9pt, which moves the next tab a hundredth of that).
_FINE_SPACES = ((1024, "\u2002"), (675, "\u2004"), (512, "\u2005"), (409, "\u2009"),
                (342, "\u2006"), (204, "\u200a"))


def _padding(units: int) -> str:
    """Spaces ``units`` wide, as near as they come: figure spaces, then the finer space
    nearest what is left, if it is nearer than nothing."""
    digits, rest = divmod(max(0, units), _DIGIT)
    width, space = min(_FINE_SPACES, key=lambda fine: abs(rest - fine[0]))
    return FIGURE_SPACE * digits + (space if abs(rest - width) < rest else "")


def figures(value: object, width: int, end: bool = False) -> str:
    """``value`` in a cell ``width`` digits wide, for a tab-aligned column: right-aligned
    (padded before), or left-aligned with ``end`` (padded after). A number of digits is
    padded with figure spaces only.

    >>> figures("15", 4) == FIGURE_SPACE * 2 + "15"
    True
    >>> figures("+15", 5) == FIGURE_SPACE + "\u2002+15"  # a + is 1716 wide
    True
    """
    text = str(value)
    pad = _padding(width * _DIGIT - sum(_ADVANCE.get(ch, _DIGIT) for ch in text))
    return text + pad if end else pad + text


def line(cls: str, number: object, cells: Iterable[object], text: object) -> Markup:
    """One tab-separated line: the number, the cells, the words, in a ``line`` span
    (print.css makes it a ruled block) of the further class ``cls`` if it is given.

    >>> line("dead", 3, ["a", "<b>"], "c")
    Markup('<span class="line dead">3\\ta\\t&lt;b&gt;\\tc</span>')
    """
    body = TAB.join([str(escape(number)), *(str(escape(cell)) for cell in cells),
                     str(escape(text))])
    classes = f"line {cls}" if cls else "line"
    return Markup(f'<span class="{classes}">{body}</span>')


def gin_hand_lines(sheet: GinSheet, names: Sequence[str] | None = None, start: int = 0,
                   stop: int | None = None) -> Markup:
    """The hands ``start``–``stop`` (0-based, every hand by default) of a gin (or
    Oklahoma) sheet as their printed lines, one per line; the dealer by ``names`` (the
    players' short forms), else by their name."""
    names = names or sheet.players
    upcard_word = _("upcard")
    labels: dict[str, Markup] = {}  # each outcome's words looked up once, not once a hand
    lines = []
    for row, scored in zip(sheet.game.rows[start:stop], sheet.hands[start:stop], strict=True):
        outcome = row.hand.outcome.value
        dead = outcome == "dead"
        cells: list[object] = []
        for seat in (0, 1):
            points = row.points[seat]
            shown = f"{LRI}+{points}{PDI}" if points else (DASH if dead else "")
            box = BOX if row.box == seat else ""
            cells += [figures(shown, POINTS), figures(row.totals[seat], TOTAL),
                      figures(box, BOXES, end=True)]
        if outcome not in labels:
            labels[outcome] = escape(outcome_label(outcome))
        words = labels[outcome]
        if row.hand.doubled:
            words += " ×2 ♠"
        upcard = scored.inputs.get("upcard")
        if upcard:
            words += Markup(" · {} {}").format(upcard_word, show_html(Card.parse(upcard)))
        if scored.cards_mode:
            words += " ✎"
        words += Markup(" · ") + isolated(names[row.dealer])
        cls = "after-end" if row.after_end else ("dead" if dead else "")
        lines.append(line(cls, figures(row.number, NUMBER, end=True), cells, words))
    return Markup("\n").join(lines)
