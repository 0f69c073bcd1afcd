"""A group's pictures: each player's running margin, game after game, and each pair's
net margin as a bar.

The running margins are a line chart (``lines.line_chart``); the head-to-head is a few
bars of its own. The numbers are the group's standings (``groups.standings``), so the
pictures and the tables agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup, escape

from .lines import COLOURS, Series, isolate, line_chart, num, shorten

MAX_LINES = 6  # more lines than this no longer read on a phone; the table has them all
MAX_POINTS = 60  # a phone's width shows no more; a longer history is sampled evenly


def margin_chart(lines: Mapping[str, Sequence[int]]) -> Markup | None:
    """The running margins as an SVG line chart: per player (the first ``MAX_LINES``
    given), 0 and then their summed margin after each counted game; ``None`` before two
    games are counted."""
    chosen = list(lines.items())[:MAX_LINES]
    count = len(chosen[0][1]) - 1 if chosen else 0
    if count < 2:
        return None
    step = -(-count // MAX_POINTS)
    kept = sorted({*range(0, count + 1, step), count})  # always the start and the last game
    sampled = {name: [values[i] for i in kept] for name, values in chosen}
    description = "; ".join(
        _("%(name)s: %(margin)s after %(games)s games", name=n, margin=v[-1], games=count)
        for n, v in sampled.items()
    )
    svg = line_chart(
        [Series(name, values) for name, values in sampled.items()],
        x_labels=["" if i == 0 else str(i) for i in kept],
        target=None,
        title=_("Running margin after each game"),
        description=description,
        rtl=str(get_locale()) == "fa",
        chart_id="group-chart",
    )
    return Markup(svg)


ROW, BAR_LEFT, WIDTH = 22, 150, 320


def head_to_head_chart(pairs: Iterable[tuple[str, str, int]]) -> Markup | None:
    """Each pair's net margin (first player, second player, the first's net) as a bar,
    longest lead first, the leader named at its end; ``None`` with fewer than two pairs
    that are not level (the table says it as well)."""
    ordered = sorted((p for p in pairs if p[2]), key=lambda p: (-abs(p[2]), p[0], p[1]))
    if len(ordered) < 2:
        return None
    most = max(abs(net) for _first, _second, net in ordered)
    height = ROW * len(ordered) + 4
    title = _("Head-to-head: net margin of each pair")
    bars = []
    for i, (first, second, net) in enumerate(ordered):
        leader = first if net > 0 else second
        y = 2 + i * ROW
        length = max(2.0, (WIDTH - BAR_LEFT - 56) * abs(net) / most)
        pair = _("%(first)s v %(second)s", first=first, second=second)
        bars.append(
            f'<text x="0" y="{y + 15}" font-size="11">{escape(isolate(shorten(pair, 24)))}</text>'
            f'<rect x="{BAR_LEFT}" y="{y + 4}" width="{num(length)}" height="14" '
            f'fill="{COLOURS[i % len(COLOURS)]}"/>'
            f'<text x="{num(BAR_LEFT + length + 4)}" y="{y + 15}" font-size="11">'
            f"{escape(isolate(shorten(leader, 12)))} +{abs(net)}</text>"
        )
    description = "; ".join(
        _("%(first)s v %(second)s: %(net)s", first=first, second=second, net=f"{net:+d}")
        for first, second, net in ordered
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" direction="ltr" role="img" '
        f'aria-labelledby="h2h-title h2h-desc" font-family="sans-serif">'
        f'<title id="h2h-title">{escape(title)}</title>'
        f'<desc id="h2h-desc">{escape(description)}</desc>{"".join(bars)}</svg>'
    )
    return Markup(svg)
