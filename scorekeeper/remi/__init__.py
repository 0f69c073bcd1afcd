"""Remi deal checker pages."""

from flask import Blueprint

bp = Blueprint("remi", __name__)

from scorekeeper.remi import views  # noqa: E402,F401
