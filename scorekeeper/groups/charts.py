"""The group page's picture: each player's running margin, game after game.

Drawn by ``scorekeeper.charts.line_chart`` (server-side SVG, no JavaScript); the
numbers come from the standings' records, so the picture and the tables agree.
"""

from __future__ import annotations

from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup, escape

from ..charts import COLOURS, Series, isolate, line_chart, num, shorten
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


ROW, BAR_LEFT, WIDTH = 22, 150, 320


def head_to_head_chart(standings: Standings) -> Markup | None:
    """Each pair's net margin as a bar, longest lead first, the leader named at its end;
    ``None`` with fewer than two pairs (the table says it as well)."""
    pairs = sorted(
        (p for p in standings.pairs if p.net), key=lambda p: (-abs(p.net), p.first, p.second)
    )
    if len(pairs) < 2:
        return None
    most = max(abs(p.net) for p in pairs)
    height = ROW * len(pairs) + 4
    title = _("Head-to-head: net margin of each pair")
    lines = []
    for i, p in enumerate(pairs):
        leader = p.first if p.net > 0 else p.second
        y = 2 + i * ROW
        length = max(2.0, (WIDTH - BAR_LEFT - 56) * abs(p.net) / most)
        pair = _("%(first)s v %(second)s", first=p.first, second=p.second)
        lines.append(
            f'<text x="0" y="{y + 15}" font-size="11">{escape(isolate(shorten(pair, 24)))}</text>'
            f'<rect x="{BAR_LEFT}" y="{y + 4}" width="{num(length)}" height="14" '
            f'fill="{COLOURS[i % len(COLOURS)]}"/>'
            f'<text x="{num(BAR_LEFT + length + 4)}" y="{y + 15}" font-size="11">'
            f"{escape(isolate(shorten(leader, 12)))} +{abs(p.net)}</text>"
        )
    description = "; ".join(
        _("%(first)s v %(second)s: %(net)s", first=p.first, second=p.second, net=f"{p.net:+d}")
        for p in pairs
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" direction="ltr" role="img" '
        f'aria-labelledby="h2h-title h2h-desc" font-family="sans-serif">'
        f'<title id="h2h-title">{escape(title)}</title>'
        f'<desc id="h2h-desc">{escape(description)}</desc>{"".join(lines)}</svg>'
    )
    return Markup(svg)
