"""Languages: English, Persian (right-to-left) and Russian.

The language follows the browser's Accept-Language until the player picks one on
any page; the choice is remembered in a cookie.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

from flask import Flask, request
from flask_babel import Babel, get_locale, gettext
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

from .scoring.cards import Card
from .scoring.explain import Step, describe, step_of

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


# Arithmetic in an explanation's template: terms (a value's ``{name}`` or a figure, a
# sign before it or not) joined by operators, words between them allowed ("{points} +
# {game_bonus} game bonus = {final}"); punctuation, a name's isolate or a term with no
# operator before it ends a run.
_TERM = re.compile(r"([+−]?)(\{(\w+)\}|\d+)")
_OPERATOR = re.compile(r"[×=+−<>≤≥]")
_STOP = re.compile(r"[.:;,،؛!?\u2066-\u2069{}]")


def arithmetic_runs(template: str, negative: Collection[str] = ()) -> list[tuple[int, int]]:
    """Where each arithmetic run of ``template`` starts and ends: two terms or more joined
    by operators, or one signed term (a sign written before it, or a value in
    ``negative``, shown with its minus sign).

    >>> t = "{name}: {points} + {bonus} game bonus = {final}; {first} −{minus}, {other}."
    >>> [t[a:b] for a, b in arithmetic_runs(t)]
    ['{points} + {bonus} game bonus = {final}', '{first} −{minus}']
    >>> t = "Deadwood {knocker} < {defender}: scores {defender} − {knocker} = {points}."
    >>> [t[a:b] for a, b in arithmetic_runs(t)]
    ['{knocker} < {defender}', '{defender} − {knocker} = {points}']
    >>> t = "{name}: ({points} + {bonus}) × 2 = {final}, {total} in all."
    >>> [t[a:b] for a, b in arithmetic_runs(t, negative={"total"})]
    ['({points} + {bonus}) × 2 = {final}', '{total}']
    """
    runs: list[tuple[int, int]] = []
    start = end = -1
    joined = signed = False
    for term in _TERM.finditer(template):
        gap = template[end:term.start()]
        if start >= 0 and not _STOP.search(gap) and (
            _OPERATOR.search(gap) or (term.group(1) and not gap.strip())
        ):
            end, joined = term.end(), True
            continue
        if start >= 0 and (joined or signed):
            runs.append(_bracketed(template, start, end))
        start, end, joined = term.start(), term.end(), False
        signed = bool(term.group(1)) or term.group(3) in negative
    if start >= 0 and (joined or signed):
        runs.append(_bracketed(template, start, end))
    return runs


def _bracketed(template: str, start: int, end: int) -> tuple[int, int]:
    """The run with the bracket that opens or closes one inside it."""
    inside = template[start:end]
    if inside.count(")") > inside.count("(") and template[start - 1 : start] == "(":
        start -= 1
    if inside.count("(") > inside.count(")") and template[end : end + 1] == ")":
        end += 1
    return start, end


def written(step: Step, show: Callable[[Any], Markup],
            translate_: Callable[[str], str] | None = None) -> Markup:
    """A step as HTML in the page's language, each value shown by ``show``. On a
    right-to-left page each arithmetic run (``arithmetic_runs``) is one left-to-right
    span, so that "22 − 1 = 21" and "103 + 100 game bonus = 203" read as computed and a
    minus stays before its digits. Not Unicode's isolates: WeasyPrint has no
    ``unicode-bidi: isolate``, and Pango lays a left-to-right isolate that follows a
    name's isolate out right to left."""
    template = (translate_ or translate)(step.template)
    if text_direction() != "rtl":
        return Markup(step.render(lambda _t: escape(template), show))
    negative = {k for k, v in step.params.items() if isinstance(v, int) and v < 0}
    marked, done = Markup(""), 0
    for start, end in arithmetic_runs(template, negative):
        marked += escape(template[done:start])
        marked += Markup('<span class="sum" dir="ltr">{}</span>').format(
            _words_apart(template[start:end]))
        done = end
    marked += escape(template[done:])
    return Markup(step.render(lambda _t: marked, show))


# The words inside a run of arithmetic ("game bonus"), each group with the spaces around
# it; a value's {name} is no word.
_WORDS = re.compile(r"\{\w+\}|(\s*[^\s×=+−<>≤≥(){}\d]+(?:\s+[^\s×=+−<>≤≥(){}\d]+)*\s*)")


def _words_apart(run: str) -> Markup:
    """A run of arithmetic with its words in right-to-left spans: Persian words would
    otherwise draw the figure beside them into their own direction ("2 × 25 خانه" read
    as "25 × 2")."""
    marked, done = Markup(""), 0
    for words in _WORDS.finditer(run):
        if words.group(1):
            marked += escape(run[done : words.start()])
            marked += Markup('<span dir="rtl">{}</span>').format(words.group(1))
            done = words.end()
    return marked + escape(run[done:])


def translate(template: str) -> str:
    """Look an engine template up in the catalog (``gettext`` without %-formatting)."""
    translated: str = gettext(template.replace("%", "%%"))
    return translated


def render_message(message: object) -> str:
    """An engine message (a ``Message``) in the page's language, cards by their symbols.

    Anything else (text the web layer already translated) is shown as it is.
    """
    step = step_of(message) if isinstance(message, str) else None
    if step is None:
        return str(message)
    return step.render(translate, _show_plain)


def _show_plain(value: Any) -> str:
    if isinstance(value, str):
        return render_message(value)  # a nested message ("Ann and Bob") is worded too
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
