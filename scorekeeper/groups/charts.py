"""The group page's picture: each player's running margin, game after game.

Drawn by ``scorekeeper.charts.line_chart`` (server-side SVG, no JavaScript); the
numbers come from the standings' records, so the picture and the tables agree.
"""

from __future__ import annotations

from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from ..charts import Series, line_chart
from .standings import Standings

MAX_LINES = 6  # more lines than this no longer read on a phone; the table has them all
MAX_POINTS = 60  # a phone's width shows no more; a longer history is sampled evenly


def running_margins(standings: Standings) -> dict[str, list[int]]:
    """Per player (most games first), the sum of his margins after each counted game;
    a game he sat out leaves his line flat."""
    names = sorted(
        (s.name for s in standings.players if s.games), key=lambda n: _games(standings, n)
    )[:MAX_LINES]
    running = dict.fromkeys(names, 0)
    lines: dict[str, list[int]] = {name: [0] for name in names}
    for record in standings.records:
        for name in names:
            if name in record.finals:
                running[name] += record.margin(name)
            lines[name].append(running[name])
    return lines


def _games(standings: Standings, name: str) -> tuple[int, str]:
    games = next(s.games for s in standings.players if s.name == name)
    return -games, name


def balance_chart(standings: Standings) -> Markup | None:
    """The running margins as an SVG line chart, ``None`` before two games are counted."""
    if len(standings.records) < 2:
        return None
    lines = running_margins(standings)
    count = len(standings.records)
    step = -(-count // MAX_POINTS)
    kept = sorted({*range(0, count + 1, step), count})  # always the start and the last game
    lines = {name: [values[i] for i in kept] for name, values in lines.items()}
    description = "; ".join(
        _("%(name)s: %(margin)s after %(games)s games", name=n, margin=v[-1], games=count)
        for n, v in lines.items()
    )
    svg = line_chart(
        [Series(name, values) for name, values in lines.items()],
        x_labels=["" if i == 0 else str(i) for i in kept],
        target=None,
        title=_("Running margin after each game"),
        description=description,
        rtl=str(get_locale()) == "fa",
        chart_id="group-chart",
    )
    return Markup(svg)
