"""Languages: English, Persian (right-to-left) and Russian.

The language follows the browser's Accept-Language until the player picks one on
any page; the choice is remembered in a cookie.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, request
from flask_babel import Babel, get_locale, gettext
from flask_babel import lazy_gettext as _l

from .scoring.cards import Card
from .scoring.explain import describe, step_of

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


# A sum as the engine writes it: "+100", "3 × 25 = +75", "(113 − 51)". A run with a sign
# or an operator in it, read left to right.
_NUMBER = r"[+−-]?\d+(?:[.,]\d+)?"
_SUM = re.compile(rf"{_NUMBER}(?:\s*[×=+−-]\s*{_NUMBER})*")
_TAG = re.compile(r"(<[^>]*>)")


def ltr_sums(html: str) -> str:
    """``html`` with each signed number or sum in its text (not in its tags) in a
    ``<span class="sum" dir="ltr">``, so that a right-to-left sentence keeps "+100" and
    "3 × 25 = +75" as they are written: a sign on its own takes the sentence's
    direction ("100+"). Not Unicode's isolates: WeasyPrint has no ``unicode-bidi:
    isolate``, and Pango lays a left-to-right isolate that follows a name's isolate
    out right to left.

    >>> print(ltr_sums('a: +100, <b id="x-1">3 × 25 = +75</b>'))  # doctest: +NORMALIZE_WHITESPACE
    a: <span class="sum" dir="ltr">+100</span>,
    <b id="x-1"><span class="sum" dir="ltr">3 × 25 = +75</span></b>
    """
    parts = _TAG.split(html)
    for i in range(0, len(parts), 2):
        parts[i] = _SUM.sub(_ltr_sum, parts[i])
    return "".join(parts)


def sums_as_written(html: str) -> str:
    """``html`` with its sums kept left to right (``ltr_sums``) on a right-to-left page;
    as it is on a left-to-right one."""
    return ltr_sums(html) if text_direction() == "rtl" else html


def _ltr_sum(found: re.Match[str]) -> str:
    run = found.group(0)
    return f'<span class="sum" dir="ltr">{run}</span>' if re.search(r"[×=+−-]", run) else run


def translate(template: str) -> str:
    """Look an engine template up in the catalog (``gettext`` without %-formatting)."""
    translated: str = gettext(template.replace("%", "%%"))
    return translated


def say(message: object) -> str:
    """An engine message (a ``Message``) in the page's language, cards by their symbols.

    Anything else (text the web layer already translated) is shown as it is.
    """
    step = step_of(message) if isinstance(message, str) else None
    if step is None:
        return str(message)
    return step.render(translate, _show_plain)


def _show_plain(value: Any) -> str:
    if isinstance(value, str):
        return say(value)  # a nested message ("Ann and Bob") is worded too
    text = describe(value)
    if _is_cards(value) and text_direction() == "rtl":
        return f"\u2066{text}\u2069"  # left-to-right isolate: "7♥" stays "7♥"
    return text


def _is_cards(value: Any) -> bool:
    if isinstance(value, Card) or hasattr(value, "cards"):
        return True
    return isinstance(value, tuple | list) and all(isinstance(v, Card) for v in value)


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
    return _label(OUTCOMES, outcome)


def _label(names: dict[str, Any], key: object) -> str:
    """``key``'s name from ``names`` in the page's language; an unknown key as it is."""
    return str(names.get(str(key), str(key)))


# The presets' short names: a printed sheet says "rules: Russian", a pad "Russian".
PRESET_NAMES = {
    "classic": _l("Classic"),
    "russian": _l("Russian"),
    "pagat": _l("Pagat"),
    "modern": _l("Modern"),
    "oklahoma": _l("Oklahoma"),
    "three_hand": _l("Three-hand"),
    "partnership": _l("Partnership"),
    "remi": _l("Remi"),
    "custom": _l("Custom"),
}


def preset_label(preset: object) -> str:
    """A preset's short name in the page's language (an unknown key as it is)."""
    return _label(PRESET_NAMES, preset)


def init_app(app: Flask) -> None:
    """Install Babel and the template helpers."""
    Babel(app, locale_selector=select_locale)
    app.add_template_global(outcome_label)
    app.add_template_global(preset_label)

    @app.context_processor
    def _language() -> dict[str, Any]:
        return {
            "languages": LANGUAGES,
            "current_language": str(get_locale()),
            "text_direction": text_direction(),
        }
