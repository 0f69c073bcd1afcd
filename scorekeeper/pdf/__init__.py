"""Printable score sheets and blank pads as PDF (WeasyPrint, imported lazily)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("pdf", __name__)

from . import views as views  # noqa: E402  (routes register on bp)
