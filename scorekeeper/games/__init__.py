"""Games: the score sheet, hand entry, corrections and history."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("games", __name__)

# The view modules register their routes on ``bp`` when the app factory imports them
# (the variants build on this package's forms, and the views on the variants).

