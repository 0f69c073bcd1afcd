"""Pictures drawn on the server as inline SVG: no JavaScript, no library.

``lines`` draws a line chart and the legend's samples; ``race`` makes a game's race
(every player's running total after each hand) into one; ``margins`` draws a group's
running margins and its head-to-head bars. The numbers come from the engine's replay
and the group's standings: nothing here counts a point.
"""

from __future__ import annotations

from flask import Flask

from .lines import key, swatch, target_swatch
from .race import race_chart


def init_app(app: Flask) -> None:
    """Make the race's chart and its legend's samples available to the templates."""
    app.add_template_global(race_chart)
    app.add_template_global(swatch, "race_swatch")
    app.add_template_global(key, "race_key")
    app.add_template_global(target_swatch, "race_target_swatch")
