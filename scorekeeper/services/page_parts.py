"""What one feature shows on another's page, the page's own feature none the wiser.

A feature beside the page's (a club night's "Confirm this result" box on a game's
sheet, the rulings kept about its hands, the backup link) adds a part for a place when
its Blueprint is registered; the page's view asks ``parts`` for that place and hands
them to its template, which shows them as they come. Each part is drawn by the feature
it belongs to, from its own templates, and the page's feature imports nothing of it:
the features stand side by side in templates as in imports (tests/test_layers.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app
from flask.sansio.app import App
from markupsafe import Markup

# A part: the page's context by keyword (``game`` and ``editable`` on a game's sheet),
# its HTML back.
Part = Callable[..., str]

# The places a page offers, each given the same keywords by its view.
GAME_SHEET = "game_sheet"  # under the sheet: game, editable
GAME_ACTIONS = "game_actions"  # among the sheet's actions: game
NIGHT_ACTIONS = "night_actions"  # among the organiser's actions: night

KEY = "scorekeeper.page_parts"


def add(app: App, place: str, part: Part) -> None:
    """Show ``part`` at ``place`` on every page of ``app`` that has it, after the parts
    added before it (the Blueprints' order in the app factory)."""
    places: dict[str, list[Part]] = app.extensions.setdefault(KEY, {})
    places.setdefault(place, []).append(part)


def parts(place: str, **context: Any) -> list[Markup]:
    """Each part at ``place``, drawn for this page."""
    found: dict[str, list[Part]] = current_app.extensions.get(KEY, {})
    return [Markup(part(**context)) for part in found.get(place, [])]
