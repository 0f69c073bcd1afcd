"""The settings of a game's rule set, and the named presets (the rule cards at /rules).

A game stores a frozen copy of its ``Rules`` when it is created; presets are data
and changing one never rescores an existing game.

>>> PRESETS["russian"].gin_bonus
25
>>> rules_from_spec({"preset": "classic", "target": 150}).target
150
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import ProblemsError
from .explain import N_, Message


class RulesError(ProblemsError):
    """A rules specification that cannot be used; ``problems`` lists (where, message)."""


class Shutout(StrEnum):
    """What a shutout (the loser won no hand) adds at game end (/rules/classic#game-bonus)."""

    NONE = "none"
    DOUBLE = "double"  # the winner's points including the game bonus are doubled
    DOUBLE_ALL = "double_all"  # ... and the box bonuses too
    FLAT = "flat"  # a further flat bonus is added


class NextDealer(StrEnum):
    """Who deals the next hand (/rules/classic#dealer). A dead hand always keeps the dealer."""

    WINNER = "winner"
    LOSER = "loser"
    ALTERNATE = "alternate"


class OklahomaAce(StrEnum):
    """What an ace upcard means in Oklahoma gin (/rules/oklahoma#upcard)."""

    GIN_ONLY = "gin_only"
    ONE = "one"


# The whole numbers a setting may take, low to high (``None`` as well where the setting
# allows it: ``big_gin_bonus``, ``deals``); the API's ``RuleSettings`` reads them too.
RANGES: dict[str, tuple[int, int]] = {
    "knock_limit": (0, 10),
    "target": (1, 10000),
    "gin_bonus": (0, 10000),
    "undercut_bonus": (0, 10000),
    "game_bonus": (0, 10000),
    "box_bonus": (0, 10000),
    "shutout_bonus": (0, 10000),
    "big_gin_bonus": (0, 10000),
    "deals": (1, 1000),
}


@dataclass(frozen=True)
class Rules:
    """Every setting that varies between tables. Defaults are the ``classic`` preset."""

    knock_limit: int = 10
    gin_bonus: int = 20
    big_gin_bonus: int | None = None  # None: big gin is not played
    undercut_bonus: int = 10
    tie_is_undercut: bool = True
    target: int = 100
    game_bonus: int = 0
    box_bonus: int = 0
    shutout: Shutout = Shutout.NONE
    shutout_bonus: int = 100  # the flat bonus of ``Shutout.FLAT``
    next_dealer: NextDealer = NextDealer.WINNER
    oklahoma: bool = False
    oklahoma_ace: OklahomaAce = OklahomaAce.GIN_ONLY
    spade_doubles: bool = True  # only with ``oklahoma``
    sets_need_sequence: bool = True  # Remi only (/rules/remi)
    deals: int | None = None  # Remi: end after this many deals instead of at the target
    hollywood_fourth: bool = False  # Hollywood: a 4th column opens when column 1 closes
    preset: str = "custom"  # the preset these values started from, for display

    def replace(self, **changes: Any) -> Rules:
        """A copy with some settings changed (validated like ``from_dict``)."""
        return Rules.from_dict({**self.to_dict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values, keyed by the snake_case setting names."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Build and validate settings; unknown keys and bad values raise ``RulesError``."""
        problems: list[tuple[str, str]] = []
        values: dict[str, Any] = {}
        known = {f.name: f for f in dataclasses.fields(cls)}
        for key, raw in data.items():
            if key not in known:
                problems.append((key, Message(N_("unknown setting {setting}"), setting=repr(key))))
                continue
            try:
                values[key] = _coerce(key, raw)
            except ValueError as exc:
                message = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
                problems.append((key, message))
        if problems:
            raise RulesError(problems)
        rules = cls(**values)
        problems = rules.problems()
        if problems:
            raise RulesError(problems)
        return rules

    def problems(self) -> list[tuple[str, str]]:
        """Every inconsistency in these settings, as (setting, message)."""
        words = {
            "knock_limit": Message(N_("the knock limit must be between 0 and 10")),
            "target": Message(N_("the target must be between 1 and 10000")),
            "big_gin_bonus": Message(N_("must be between 0 and 10000, or off")),
            "deals": Message(N_("the number of deals must be between 1 and 1000")),
        }
        found: list[tuple[str, str]] = []
        for name, (low, high) in RANGES.items():
            value = getattr(self, name)
            if value is not None and not low <= value <= high:
                found.append((name, words.get(name, Message(N_("must be between 0 and 10000")))))
        return found


_ENUMS: dict[str, type[StrEnum]] = {
    "shutout": Shutout,
    "next_dealer": NextDealer,
    "oklahoma_ace": OklahomaAce,
}
_BOOLS = {"tie_is_undercut", "oklahoma", "spade_doubles", "sets_need_sequence", "hollywood_fourth"}
_OPTIONAL_INTS = {"big_gin_bonus", "deals"}


def _coerce(key: str, raw: Any) -> Any:
    if key in _ENUMS:
        enum = _ENUMS[key]
        try:
            return enum(raw)
        except ValueError:
            choices = ", ".join(m.value for m in enum)
            raise ValueError(Message(N_("must be one of {choices}"), choices=choices)) from None
    if key in _BOOLS:
        if not isinstance(raw, bool):
            raise ValueError(Message(N_("must be true or false")))
        return raw
    if key == "preset":
        if not isinstance(raw, str) or len(raw) > 40:
            raise ValueError(Message(N_("must be a short name")))
        return raw
    if raw is None and key in _OPTIONAL_INTS:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValueError(Message(N_("must be a whole number")))
    return raw


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value


_MODERN = Rules(
    gin_bonus=25,
    big_gin_bonus=31,
    undercut_bonus=25,
    game_bonus=100,
    box_bonus=25,
    shutout=Shutout.DOUBLE_ALL,
    preset="modern",
)

PRESETS: dict[str, Rules] = {
    "classic": Rules(preset="classic"),
    "russian": Rules(
        gin_bonus=25,
        undercut_bonus=25,
        game_bonus=100,
        box_bonus=25,
        shutout=Shutout.DOUBLE,
        preset="russian",
    ),
    "pagat": Rules(game_bonus=100, box_bonus=20, shutout=Shutout.FLAT, preset="pagat"),
    "modern": _MODERN,
    "oklahoma": dataclasses.replace(_MODERN, oklahoma=True, target=150, preset="oklahoma"),
    # Three-hand gin (/rules/three_hand): gin 25 ("some say 20"), undercut 10, no bonuses.
    "three_hand": Rules(gin_bonus=25, preset="three_hand"),
    # Partnership gin (/rules/partnership): the Russian values, target 125.
    "partnership": Rules(
        gin_bonus=25,
        undercut_bonus=25,
        target=125,
        game_bonus=100,
        box_bonus=25,
        shutout=Shutout.DOUBLE,
        preset="partnership",
    ),
    # Remi scores its own way (/rules/remi); the gin settings are unused there.
    "remi": Rules(target=500, preset="remi"),
}


def rules_from_spec(spec: str | Mapping[str, Any] | None) -> Rules:
    """Rules from a preset name or ``{"preset": name, "<setting>": value, ...}``.

    ``None`` means ``classic``. Unknown presets and settings raise ``RulesError``.
    """
    if spec is None:
        return PRESETS["classic"]
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise RulesError([("preset", _unknown(spec))])
        return PRESETS[spec]
    if not isinstance(spec, Mapping):
        raise RulesError([("rules", Message(N_("rules must be a preset name or an object")))])
    name = spec.get("preset", "classic")
    if not isinstance(name, str) or name not in PRESETS:
        raise RulesError([("preset", _unknown(name))])
    changes = {k: v for k, v in spec.items() if k != "preset"}
    base = PRESETS[name]
    if not changes:
        return base
    return Rules.from_dict({**base.to_dict(), **changes, "preset": "custom"})


def _unknown(name: object) -> Message:
    return Message(
        N_("unknown preset {preset}; choose one of {presets}"),
        preset=repr(name),
        presets=", ".join(PRESETS),
    )
