"""Replayed sheets kept per game version, so that views of an unchanged game replay it
once.

Every change to a game's hands (or names) bumps ``Game.version`` in the same commit,
so a game's id and version name one replay. The sheets are kept in this process only
(each worker keeps its own; nothing is shared between processes but the database), in
the app's ``extensions``, the ``SIZE`` most recently used. A sheet is frozen data
(tuples and frozen dataclasses): the requests that share it only read it.

Only a game read as stored is kept: a ``Game`` row the request has not changed. A game
being changed inside a transaction (a hand appended, its version bumped, not committed
yet) may still be rolled back, and its version then means another game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from flask import current_app, has_app_context
from sqlalchemy import inspect

from ..models import Game, GameData

T = TypeVar("T")

# A sheet of the largest game (``limits.MOST_HANDS`` hands with cards) takes a few
# megabytes; a club night with a few dozen tables open fits.
SIZE = 64
EXTENSION = "scorekeeper.sheets"


class Kept(Generic[T]):
    """At most ``size`` values by key, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value kept under ``key``, else ``make()``'s, kept. ``make`` runs without
        the lock held: two threads missing at once both make it, nobody waits."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = make()
        self.put(key, value)
        return value

    def put(self, key: Hashable, value: T) -> None:
        """Keep ``value`` under ``key``."""
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def __len__(self) -> int:
        return len(self._values)


def as_stored(game: GameData) -> bool:
    """Whether ``game`` is a row as the database holds it: loaded, and not changed by
    this request (a pending change may be rolled back)."""
    if not isinstance(game, Game):
        return False
    state = inspect(game)
    return state.persistent and not state.modified


def _kept() -> Kept[object]:
    kept: Kept[object] = current_app.extensions.setdefault(EXTENSION, Kept(SIZE))
    return kept


def kept_sheet(game: GameData, make: Callable[[], T]) -> T:
    """``make()`` (the game's replay), kept per (game, version) for a stored game."""
    if not has_app_context() or not as_stored(game):
        return make()
    return _kept().get((game.id, game.variant, game.version), make)  # type: ignore[return-value]


def keep_sheet(game: GameData, sheet: object) -> None:
    """Keep ``sheet`` as the replay of ``game`` as stored now: a save that played its new
    hand on the game before writing it (``Variant.sheet_with``) and has committed it."""
    if has_app_context() and as_stored(game):
        _kept().put((game.id, game.variant, game.version), sheet)
