"""A player's pictures on their page: their rating after each rated game, and their win
rate after each counted game (``lines.line_chart``). The numbers are the ones the page
prints beside them (``services/players.py``), so the pictures and the figures agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from .lines import Series, line_chart
from .margins import MAX_POINTS


def _sampled(values: Sequence[Decimal]) -> tuple[list[int], list[Decimal]]:
    """At most ``MAX_POINTS`` positions, evenly spread, the first and the last kept."""
    count = len(values) - 1
    step = -(-count // MAX_POINTS) if count > 0 else 1
    kept = sorted({*range(0, count + 1, step), count})
    return kept, [values[i] for i in kept]


def rating_chart(name: str, start: float, history: Sequence[float]) -> Markup | None:
    """The rating before the first game (``start``) and after each rated game, one
    decimal; ``None`` before two rated games."""
    if len(history) < 2:
        return None
    values = [Decimal(f"{v:.1f}") for v in (start, *history)]
    kept, shown = _sampled(values)
    return line_chart(
        [Series(name, shown)],
        x_labels=["" if i == 0 else str(i) for i in kept],
        target=None,
        title=_("Rating after each rated game"),
        description=_("%(name)s: rating %(rating)s after %(games)s rated games",
                      name=name, rating=shown[-1], games=len(history)),
        rtl=str(get_locale()) == "fa",
        chart_id="rating-chart",
        legend=False,
    )


def win_rate_chart(name: str, rates: Sequence[float]) -> Markup | None:
    """The share of games won (in per cent, whole) after each counted game; ``None``
    before two games."""
    if len(rates) < 2:
        return None
    values = [Decimal(round(r * 100)) for r in rates]
    kept, shown = _sampled(values)
    return line_chart(
        [Series(name, shown)],
        x_labels=[str(i + 1) for i in kept],
        target=None,
        title=_("Win rate after each game (%)"),
        description=_("%(name)s: %(rate)s%% of games won after %(games)s games",
                      name=name, rate=shown[-1], games=len(rates)),
        rtl=str(get_locale()) == "fa",
        chart_id="win-rate-chart",
        legend=False,
    )
