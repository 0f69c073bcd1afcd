"""Languages: English, Persian (right-to-left) and Russian.

The language follows the browser's Accept-Language until the player picks one on
any page; the choice is remembered in a cookie.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask_babel import Babel, get_locale, gettext
from flask_babel import lazy_gettext as _l

LANGUAGES: dict[str, str] = {"en": "English", "fa": "فارسی", "ru": "Русский"}
RTL = {"fa"}
COOKIE = "lang"


def select_locale() -> str:
    """The player's chosen language, else the browser's best match, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


def text_direction() -> str:
    """``rtl`` for Persian pages, ``ltr`` otherwise."""
    return "rtl" if str(get_locale()) in RTL else "ltr"


def translate(template: str) -> str:
    """Look an engine template up in the catalog (``gettext`` without %-formatting)."""
    translated: str = gettext(template.replace("%", "%%"))
    return translated


OUTCOMES = {
    "knock": _l("knock"),
    "undercut": _l("undercut"),
    "gin": _l("gin"),
    "big_gin": _l("big gin"),
    "tie": _l("tie"),
    "dead": _l("dead hand"),
}


def outcome_label(outcome: object) -> str:
    """A hand's outcome in the page's language."""
    return str(OUTCOMES.get(str(outcome), str(outcome)))


def init_app(app: Flask) -> None:
    """Install Babel and the template helpers."""
    Babel(app, locale_selector=select_locale)
    app.add_template_global(outcome_label)

    @app.context_processor
    def _language() -> dict[str, Any]:
        return {
            "languages": LANGUAGES,
            "current_language": str(get_locale()),
            "text_direction": text_direction(),
        }
