"""Colours: the device's own light or dark and contrast settings, or the reader's choice.

"Auto" follows ``prefers-color-scheme`` and ``prefers-contrast`` (style.css); a
choice made on any page is kept in a cookie for this device and written on ``<html
data-theme>`` by the server, so the first paint is already in it, scripts or not.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, has_request_context, request
from flask_babel import lazy_gettext as _l

AUTO = "auto"
THEMES: dict[str, Any] = {
    AUTO: _l("Auto"),
    "light": _l("Light"),
    "dark": _l("Dark"),
    "contrast": _l("High contrast"),
}
COOKIE = "theme"


def current_theme() -> str:
    """The theme this device chose, ``auto`` until it chooses one."""
    if not has_request_context():
        return AUTO
    chosen = request.cookies.get(COOKIE, AUTO)
    return chosen if chosen in THEMES else AUTO


def init_app(app: Flask) -> None:
    """Give every template the themes and the one in use."""

    @app.context_processor
    def _theme() -> dict[str, Any]:
        return {"themes": THEMES, "current_theme": current_theme()}
