"""Rulings: a settled dispute kept under an unguessable link, read-only and printable,
exactly as it was decided (``/rulings/<id>``)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("rulings", __name__)

from . import views  # noqa: E402,F401 - the routes register themselves on bp
