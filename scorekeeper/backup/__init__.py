"""Backup: export games as JSON and import them back as new games."""

from flask import Blueprint

bp = Blueprint("backup", __name__)
