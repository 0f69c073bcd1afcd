"""A printed gin sheet's hand lines, written in Python rather than by Jinja macros.

Each hand is one tab-separated line of the sheet's one table cell (pdf/sheet.html says
why), a block of its own that print.css rules underneath: the hand number, then per
player the points (a left-to-right mark keeps "+15" from reading "15+" on a
right-to-left sheet; a dead hand prints "–"), the running total and the box mark, then
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
TAB, BOX, DASH, LRM = "\t", "■", "–", "\u200e"


def figures(value: object, width: int) -> str:
    """``value`` right-aligned in ``width`` digit widths, for a tab-aligned column.

    >>> figures("+15", 4) == FIGURE_SPACE + "+15"
    True
    """
    text = str(value)
    return FIGURE_SPACE * max(0, width - len(text)) + text


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
    players' short forms), else by his name."""
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
            shown = f"{LRM}+{points}" if points else (DASH if dead else "")
            box = BOX if row.box == seat else ""
            cells += [figures(shown, 6), figures(row.totals[seat], 5), box]
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
        lines.append(line(cls, row.number, cells, words))
    return Markup("\n").join(lines)
