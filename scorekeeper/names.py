"""Names that people type: what text a name may hold, when two names are the same,
and how a name is shown so that it cannot change the text around it.

A name may hold any character but a lone surrogate (not valid Unicode: neither UTF-8
nor PostgreSQL can store it) and NUL (PostgreSQL cannot). ``text_problem`` finds one:

>>> text_problem("Ann"), text_problem("X\\ud800"), text_problem("A\\x00nn")
(None, 'U+D800', 'U+0000')

Two names are the same when they look the same: compared by ``name_key`` (NFKC,
format characters such as zero-width spaces and direction marks left out, spaces
folded, letters that look like Latin ones taken as those):

>>> name_key("Ann\\u200b") == name_key("Ann") == name_key("\\u0410nn") == name_key("Ａｎｎ")
True
>>> same_name(["Ann", "Bob", "Ann\\u200b"])
(0, 2)

On pages a name goes inside ``<bdi>`` (the ``name`` filter), in a PDF between
U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE (``isolated``; WeasyPrint
has no ``unicode-bidi: isolate``), so that a name written right to left, or one
holding U+202E RIGHT-TO-LEFT OVERRIDE, stays inside itself: "Zed pays Ann 1.28 €"
keeps its order. A name stored before these checks, with a lone surrogate in it, is
read back with U+FFFD in its place (``repaired``), so no page fails on it.

Where room is short (a sheet's columns, a partnership deal's row, the printed team
headings) a player goes by a short form the app makes (``short_forms``): the first
word of the name, told apart from another player's by the next word's first letters,
or by the player's seat. A long first word is cut where its parts join (a ZWNJ, a
hyphen), never inside a part. The game's editor may write other ones (``Game.short_names``);
``shown_short_names`` gives the ones a game shows.

A name in a link (a player's page, ``/groups/<id>/players/<player:name>``) is one
piece of the path whatever it holds: ``PlayerName`` writes it so that neither a browser
nor the server reads a "/", "." or ".." in it as a step through folders.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from flask import Flask, request
from markupsafe import Markup, escape
from sqlalchemy import event, inspect
from sqlalchemy.orm.attributes import set_committed_value
from werkzeug.routing import BaseConverter

if TYPE_CHECKING:
    from .models import GameData

NAME_MAX = 40  # characters of a player's name
GROUP_NAME_MAX = 60  # characters of a group's name
REPLACEMENT = "\ufffd"
FSI, PDI = "\u2068", "\u2069"
_SURROGATE = re.compile("[\ud800-\udfff]")
_SPACES = re.compile(r"\s+")

# Letters of other scripts drawn like Latin ones (from Unicode's confusables, UTS #39),
# and the Arabic letters a Persian name is typed with on an Arabic keyboard.
_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W",
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s",
        "і": "i", "ј": "j", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
        # Greek
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v",
        # Arabic yeh and kaf, and alef maksura, as Persian writes them
        "\u064a": "\u06cc", "\u0649": "\u06cc", "\u0643": "\u06a9",
    }
)


def text_problem(text: str) -> str | None:
    """The first character (``U+XXXX``) no database can store, or ``None``: a lone
    surrogate (not valid Unicode: UTF-8 has no bytes for it) or NUL (PostgreSQL's text
    refuses it). Other control characters print (as a box or nothing): a name may hold
    them."""
    if text.isprintable():  # neither is printable: the usual case ends here
        return None
    for ch in text:
        if ch == "\x00" or "\ud800" <= ch <= "\udfff":
            return f"U+{ord(ch):04X}"
    return None


def name_key(name: str) -> str:
    """What a name is compared by: two names with the same key look the same, or are
    the same name in other letters' case ("Ann", "ann"; "Straße", "STRASSE").

    >>> name_key(" ANN ") == name_key("ann") == name_key("Ann\u200b")
    True
    >>> name_key("BOB") == name_key("ВОВ")  # the second in Cyrillic
    True
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    # Lookalikes first ("В" is "B"), then case ("b"), then lookalikes of the small letters.
    text = unicodedata.normalize("NFKC", text.translate(_LOOKALIKES).casefold())
    return _SPACES.sub(" ", text).strip().translate(_LOOKALIKES)


def same_name(names: Sequence[str]) -> tuple[int, int] | None:
    """The first two positions whose names look the same, ``None`` if none do."""
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        key = name_key(name)
        if key in seen:
            return seen[key], i
        seen[key] = i
    return None


SHORT_MAX = 10  # characters of a short form: a sheet's column on a 360 px phone
ELLIPSIS = "\u2026"


# Where a first word may be cut: after a part of it joined by a zero-width non-joiner
# (Persian "فاطمه‌السادات") or a hyphen ("Anne-Marie").
_JOINS = re.compile("[\u200c\u2010-]")


def _clipped(word: str, room: int = SHORT_MAX) -> str:
    """``word``, or its first parts (up to a ZWNJ or a hyphen) and "…" when it is longer
    than ``room``; never cut inside a part: a word without a part that fits stays whole.

    >>> _clipped("فاطمه\u200cالسادات"), _clipped("Marie-Antoinette"), _clipped("Christopher")
    ('فاطمه…', 'Marie…', 'Christopher')
    """
    if len(word) <= room:
        return word
    cuts = [m.start() for m in _JOINS.finditer(word, 1, room)]
    return word[: cuts[-1]] + ELLIPSIS if cuts else word


def _short_form(name: str, letters: int) -> str:
    """The first word of ``name`` (clipped), then ``letters`` letters of the rest of it
    with a full stop where it is cut short: ``_short_form("Ann Lee Smith", 1)`` is
    "Ann L."."""
    first, _space, rest = _SPACES.sub(" ", name.strip()).partition(" ")
    short = _clipped(first)
    if letters and rest:
        cut = rest[:letters].rstrip()
        short += " " + cut + ("." if len(cut) < len(rest) else "")
    return short


def _clashes(shorts: Sequence[str]) -> set[int]:
    """The positions whose short forms look the same as another's (``name_key``)."""
    seen: dict[str, list[int]] = {}
    for i, short in enumerate(shorts):
        seen.setdefault(name_key(short), []).append(i)
    return {i for same in seen.values() if len(same) > 1 for i in same}


def short_forms(names: Sequence[str]) -> list[str]:
    """A short form of each name, no two alike: the first word; where two first words
    look the same, the next word's first letter after it, then more of its letters until
    they differ; names that still look the same (or are alike as far as they are shown)
    get their seat's number.

    >>> short_forms(["Александра Константиновна", "Александра Петрова", "Святослав Игоревич"])
    ['Александра К.', 'Александра П.', 'Святослав']
    >>> short_forms(["Ann Smith", "Ann Sanders", "Bob"])
    ['Ann Sm.', 'Ann Sa.', 'Bob']
    >>> short_forms(["فاطمه\u200cالسادات حسینی", "Wolfeschlegelsteinhausen"])
    ['فاطمه…', 'Wolfeschlegelsteinhausen']
    >>> short_forms(["Anne-Marie Lee", "Anne-Mariette Lee"])
    ['Anne-Marie', 'Anne…']
    """
    letters = [0] * len(names)
    shorts = [_short_form(name, 0) for name in names]
    while clashing := _clashes(shorts):
        grown = False
        for i in clashing:
            # One more letter of the rest (more where a space would add nothing).
            while letters[i] < len(names[i]):
                letters[i] += 1
                longer = _short_form(names[i], letters[i])
                if longer != shorts[i]:
                    shorts[i], grown = longer, True
                    break
        if not grown:
            break
    for i in _clashes(shorts):
        shorts[i] = f"{shorts[i]} {i + 1}"
    return shorts


def shown_short_names(players: Sequence[str], stored: Sequence[str] | None) -> list[str]:
    """The short forms a game shows: the ones its editor wrote (``stored``), when there
    is one for every player, else the ones the app makes."""
    if stored is not None and len(stored) == len(players) and all(stored):
        return [repaired(str(short)) for short in stored]
    return short_forms(players)


def game_short_names(game: GameData) -> list[str]:
    """The short forms ``game`` shows, seat by seat (the ``short_names`` template global)."""
    return shown_short_names(game.players, game.short_names)


def repaired(text: str) -> str:
    """``text`` with each lone surrogate (which no page or file can carry) as U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(REPLACEMENT, text)
    return text


def repaired_json(value: Any) -> Any:
    """A JSON value with every string in it ``repaired``; the same object when nothing
    needed it."""
    if isinstance(value, str):
        return repaired(value)
    if isinstance(value, list):
        items = [repaired_json(item) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if isinstance(value, dict):
        pairs = {repaired(k): repaired_json(v) for k, v in value.items()}
        same = len(pairs) == len(value) and all(
            k in value and value[k] is v for k, v in pairs.items()
        )
        return value if same else pairs
    return value


def bdi(name: object) -> Markup:
    """A name on a page: escaped and isolated in ``<bdi>``."""
    return Markup("<bdi>%s</bdi>") % repaired(str(name))


def bdi_list(names: Iterable[object], separator: str = " · ") -> Markup:
    """Names on a page, each in its ``<bdi>``, with ``separator`` between them."""
    return escape(separator).join(bdi(name) for name in names)


def isolated(name: object) -> str:
    """A name in a PDF (or where no tag can go: a page's title, an attribute): between
    FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE."""
    return f"{FSI}{repaired(str(name))}{PDI}"


def isolated_list(names: Iterable[object], separator: str = " · ") -> str:
    """Names each ``isolated``, with ``separator`` between them."""
    return separator.join(isolated(name) for name in names)


# The attributes that hold names people typed (and the history and summaries that
# copy them), by model.
_TYPED = {
    "Game": ("players", "short_names"),
    "Group": ("name", "players"),
    "Payment": ("payer", "payee"),
    "Change": ("before", "after"),
    "GameSummary": ("data",),
}


def _repair_loaded(target: Any, *_args: Any) -> None:
    """An ORM ``load``/``refresh`` listener: a value read back with a lone surrogate
    in it (stored before names were checked) is kept repaired in memory; the row is
    not written for it."""
    state = inspect(target)
    for key in _TYPED[type(target).__name__]:
        if key in state.dict:
            value = state.dict[key]
            fixed = repaired_json(value)
            if fixed is not value:
                set_committed_value(target, key, fixed)


class PlayerName(BaseConverter):
    """A player's name as a piece of a URL (``<player:name>``).

    Most names are written percent-encoded, as any URL piece is (``Ann``, ``A%2FB``);
    the server decodes it once, so the route takes a "/" in it. A name that a browser
    would change, one with a piece "." or ".." (``..``, ``a/./b``) or an empty one
    (``a//b``, ``/``), and a name with "%" in it, are encoded twice, its dots too: the
    server's decoding leaves text with "%" in it, which ``to_python`` decodes again. A
    name of the first kind never holds "%", so the two never meet.

    >>> from werkzeug.routing import Map
    >>> convert = PlayerName(Map())
    >>> [convert.to_url(name) for name in ("Ann", "A/B", "..", "5%")]
    ['Ann', 'A%2FB', '%252E%252E', '5%2525']
    >>> [convert.to_python(text) for text in ("A/B", "%2E%2E", "5%25")]
    ['A/B', '..', '5%']
    """

    regex = "[^/].*?"  # the rest of the path: a decoded "/" is part of the name
    part_isolating = False

    def to_python(self, value: str) -> str:
        return unquote(value) if "%" in value else value

    def to_url(self, value: Any) -> str:
        name = str(value)
        once = quote(name, safe="")
        if "%" in name or {".", "..", ""} & set(name.split("/")):
            return quote(once.replace(".", "%2E"), safe="")
        return once


def page_address() -> str:
    """This page's path and query as its own links write them (where the language and
    colour forms send the reader back): the matched route built again from its
    values, so a player's name stays encoded as ``PlayerName`` writes it; Flask's
    ``request.full_path`` holds it decoded once, which a browser reads as ".."."""
    rule = request.url_rule
    built = rule.build(dict(request.view_args or {}), append_unknown=False) if rule else None
    if built is None:
        return request.full_path
    query = request.query_string.decode("latin-1")
    return request.script_root + built[1] + (f"?{query}" if query else "")


def init_app(app: Flask) -> None:
    """The template filters (``name``, ``names`` for pages; ``isolated``,
    ``isolated_names`` for PDFs), ``short_names(game)``, the ``player`` URL converter,
    ``page_address()``, and the repair of names as they are read."""
    from . import models

    app.url_map.converters["player"] = PlayerName
    app.add_template_global(page_address, "page_address")

    app.add_template_filter(bdi, "name")
    app.add_template_filter(bdi_list, "names")
    app.add_template_filter(isolated, "isolated")
    app.add_template_filter(isolated_list, "isolated_names")
    app.add_template_global(game_short_names, "short_names")
    for model_name in _TYPED:
        model = getattr(models, model_name)
        for name in ("load", "refresh"):
            if not event.contains(model, name, _repair_loaded):
                event.listen(model, name, _repair_loaded)
