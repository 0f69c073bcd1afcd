"""The race: every player's (or team's) running total after each hand, as a picture.

Each kind of game says what its race is (``Variant.races``) from its own replay — the
totals are the engine's, never added up again here. This module only turns a
``Race`` into the page's and the PDF's SVG (``lines.line_chart``) with its title,
its description and the legend in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from ..i18n import text_direction
from ..names import isolated
from .lines import Series, line_chart

# What a race shows, per kind of game (lazily translated: the variants hold them).
THE_RACE = _l("The race")
HANDS = _l("Running totals after each hand; marked: the hands each player won.")
TEAM_DEALS = _l("Each team's running total after each deal; marked: the deals each team won.")
REMI_DEALS = _l("Running totals after each deal (they can go below zero); marked: who went out.")


@dataclass(frozen=True)
class Race:
    """One race: a line per player or team over ``x_labels`` (the start, then hand numbers).

    ``title`` names it ("The race", "Game 2"); ``caption`` says what is drawn and what
    the marks are, in the reader's language.
    """

    series: tuple[Series, ...]
    x_labels: tuple[str, ...]
    target: int | None
    title: str
    caption: str

    @property
    def hands(self) -> int:
        """How many hands (or deals) the race has run."""
        return len(self.x_labels) - 1

    def marked(self, series: Series) -> str:
        """The numbers of the hands a series marks: ``"1, 3, 4"``."""
        return ", ".join(self.x_labels[m] for m in series.marks)


def race_of(
    names: Sequence[str],
    rows: Iterable[tuple[int, Sequence[int], Iterable[int | None]]],
    *,
    target: int | None,
    title: object = THE_RACE,
    caption: object = HANDS,
) -> Race:
    """A race from the replay's rows: (hand number, totals after it, the seats it marks).

    Every line starts at 0 before the first hand; hand ``k``'s totals sit at index ``k``
    of the listed rows, so a mark is the row's position plus one.
    """
    values: list[list[int]] = [[0] for _name in names]
    marks: list[list[int]] = [[] for _name in names]
    labels = [""]
    for index, (number, totals, marked) in enumerate(rows, start=1):
        labels.append(str(number))
        for seat, total in enumerate(totals):
            values[seat].append(total)
        for winner in marked:
            if winner is not None:
                marks[winner].append(index)
    series = tuple(
        Series(name, tuple(v), tuple(m)) for name, v, m in zip(names, values, marks, strict=True)
    )
    return Race(series, tuple(labels), target, str(title), str(caption))


def target_in_reach(race: Race) -> int | None:
    """The target when the chart draws it as a line: once the leader has half of it.

    Further off, a line at the target would squeeze every total into the bottom of the
    chart (a game to 500 after three hands, or to 10000); the scale then follows the
    totals and the legend beside the chart names the target alone.

    >>> ann, bob = Series("Ann", (20, 49)), Series("Bob", (0, 10))
    >>> [target_in_reach(Race((ann, bob), ("", "1", "2"), target, "", ""))
    ...  for target in (98, 100, 500, None)]
    [98, None, None, None]
    """
    if race.target is None:
        return None
    leader = max((v for s in race.series for v in s.values), default=0)
    return race.target if 2 * leader >= race.target else None


def race_chart(
    race: Race, chart_id: str, *, width: int = 320, height: int = 160, printing: bool = False
) -> Markup:
    """The race as inline SVG, with a description that reads the final standing aloud."""
    standing = ", ".join(
        f"{isolated(s.label)} {s.values[-1] if s.values else 0}" for s in race.series
    )
    description = " ".join(
        part
        for part in (
            race.caption,
            _("Standing: %(standing)s.", standing=standing),
            _("Target: %(points)s.", points=race.target) if race.target is not None else "",
        )
        if part
    )
    return line_chart(
        race.series,
        x_labels=race.x_labels,
        target=target_in_reach(race),
        title=race.title,
        description=description,
        rtl=text_direction() == "rtl",
        width=width,
        height=height,
        chart_id=chart_id,
        legend=False,  # in HTML beside it (_race.html): it prints Persian correctly
        printing=printing,
    )

