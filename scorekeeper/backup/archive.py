"""A game as a JSON document, and documents back into new games.

The export is the API's whole-game JSON (``GET /api/v1/games/<id>``) plus the game's
history. An import reads only what players entered — players (and their short names: an
older export without them still imports), variant, rules, setup, each hand's inputs in
order, the history — reads every hand (and every hand the history holds) as the API
reads a new one (``Variant.read_stored``: the same reading of the body and the engine's
checks), and creates *new* games (new ids and secrets) holding what the API would have
stored. Any problem refuses the whole file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import limits
from ..hands.stored import StoredHand
from ..jsonbody import ApiError
from ..models import Change, Game, Hand, now_utc
from ..names import NAME_MAX, same_name, short_forms, text_problem
from ..scoring import HandError
from ..scoring.rules import Rules, RulesError
from ..scoring.stakes import parse_currency, parse_stake
from ..services.documents import game_json
from ..variants import VARIANTS, Variant

FORMAT = "scorekeeper-export"
FORMAT_VERSION = 1
MAX_GAMES = 10_000
SHORT_TEXT = 20  # Change.action and Change.by columns


class ArchiveError(ValueError):
    """A file that cannot be imported; ``problems`` lists (where, message) pairs."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{where}: {message}" for where, message in problems))


def export_game(game: Game) -> dict[str, Any]:
    """One game: the API's JSON for it, plus its history."""
    document = game_json(game)
    document["history"] = [_change_json(change) for change in game.changes]
    return {"format": FORMAT, "format_version": FORMAT_VERSION, **document}


def export_all(db: Session) -> dict[str, Any]:
    """Every game in the database, oldest first."""
    games = db.scalars(select(Game).order_by(Game.created_at, Game.id)).all()
    return {"format": FORMAT, "format_version": FORMAT_VERSION,
            "games": [export_game(game) for game in games]}


def _change_json(change: Change) -> dict[str, Any]:
    return {"at": change.at.isoformat(), "action": change.action,
            "hand_number": change.hand_number, "before": change.before,
            "after": change.after, "by": change.by}


@dataclass
class _Problems:
    found: list[tuple[str, str]] = field(default_factory=list)

    def add(self, where: str, message: str) -> None:
        self.found.append((where, message))


def read_archive(document: Any) -> list[Game]:
    """Unsaved new games from an export document; ``ArchiveError`` lists every problem."""
    problems = _Problems()
    if not isinstance(document, dict):
        raise ArchiveError([("file", "must hold a JSON object (a game, or {\"games\": [...]})")])
    _lone_surrogates(document, "" if "games" in document else "game", problems)
    if problems.found:  # no database can store them: nothing else is worth reading
        raise ArchiveError(problems.found)
    if "games" in document:
        items, prefix = document["games"], "games"
        if not isinstance(items, list):
            raise ArchiveError([("games", "must be a list of games")])
        if len(items) > MAX_GAMES:
            raise ArchiveError([("games", f"at most {MAX_GAMES} games per file")])
    else:
        items, prefix = [document], "game"
    games = []
    for i, item in enumerate(items):
        where = f"{prefix}[{i}]" if prefix == "games" else prefix
        game = _read_game(item, where, problems)
        if game is not None:
            games.append(game)
    if problems.found:
        raise ArchiveError(problems.found)
    # A group or a night may hold no game yet (a night before its first round).
    if not games and not (document.get("groups") or document.get("nights")):
        raise ArchiveError([("games", "the file holds no game")])
    return games


def _read_game(item: Any, where: str, problems: _Problems) -> Game | None:
    if not isinstance(item, dict):
        problems.add(where, "must be a JSON object")
        return None
    before = len(problems.found)
    name = item.get("variant")
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        problems.add(f"{where}.variant", f"must be one of {', '.join(VARIANTS)}")
        return None
    players = _players(item.get("players"), f"{where}.players", problems, variant.player_counts)
    shorts = _short_names(item.get("short_names"), f"{where}.short_names", problems, players)
    rules = _rules(item.get("rules"), f"{where}.rules", problems)
    setup = _setup(item.get("setup", {"dealer": 0}), f"{where}.setup", problems, len(players))
    version = item.get("version", 0)
    if not whole(version, 0, 10**9):
        problems.add(f"{where}.version", "must be a whole number, 0 or more")
    created = _time(item.get("created_at"), f"{where}.created_at", problems)
    stake = _stake(item, where, problems)
    inputs = _hands(item.get("hands", []), f"{where}.hands", problems)
    changes = _history(item.get("history", []), f"{where}.history", problems)
    if len(problems.found) > before or rules is None:
        return None
    game = Game(variant=variant.name, players=players, rules=rules.to_dict(), setup=setup,
                version=version, created_at=created or now_utc(), updated_at=now_utc(),
                changes=changes, stake=stake[0], currency=stake[1], short_names=shorts)
    stored = [_read_hand(variant, game, hand, f"{where}.hands[{i}].inputs", problems)
              for i, hand in enumerate(inputs)]
    for i, change in enumerate(changes):
        for side in _hand_sides(change):
            _read_hand(variant, game, getattr(change, side), f"{where}.history[{i}].{side}",
                       problems)
    if len(problems.found) > before:
        return None
    game.hands = [Hand(number=n, inputs=hand) for n, hand in enumerate(stored, 1)]
    if len(game.changes) < limits.MOST_CHANGES:  # a full history stays as the file has it
        game.changes.append(Change(action="import", by="import"))
    try:
        variant.sheet(game)  # the whole sheet replays; each hand alone was already checked
    except (HandError, RulesError, ValueError, TypeError, LookupError) as exc:
        problems.add(f"{where}.hands", f"the hands cannot be replayed: {exc}")
        return None
    return game


def _stake(item: dict[str, Any], where: str, problems: _Problems) -> tuple[str | None, str | None]:
    """A game's stake and currency as exact text (scoring/stakes.py), both ``None`` without."""
    from ..scoring.stakes import StakeError, parse_currency, parse_stake

    if item.get("stake") is None:
        return None, None
    try:
        return str(parse_stake(item["stake"])), parse_currency(item.get("currency") or "EUR")
    except StakeError as exc:
        problems.add(f"{where}.stake", str(exc))
        return None, None


def _players(
    value: Any, where: str, problems: _Problems, counts: tuple[int, ...]
) -> list[str]:
    if not isinstance(value, list) or len(value) not in counts:
        wanted = " or ".join(str(c) for c in counts)
        problems.add(where, f"must be a list of the {wanted} players' names")
        return []
    _names_at(value, where, problems, "name", "the name of players")
    return [str(name) for name in value]


def _names_at(value: list[Any], where: str, problems: _Problems, what: str,
              other: str) -> bool:
    """Whether every item of ``value`` is a name (``what``: "name", "short name") and no
    two look alike; the problems of those that are not, at their places."""
    before = len(problems.found)
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            problems.add(f"{where}[{i}]", f"every player needs a {what}")
        elif len(name) > NAME_MAX:
            problems.add(f"{where}[{i}]", f"a {what} has at most {NAME_MAX} characters")
        elif (bad := name_problem(name)) is not None:
            problems.add(f"{where}[{i}]", bad)
    if len(problems.found) == before and (pair := same_name(value)) is not None:
        problems.add(f"{where}[{pair[1]}]", f"looks the same as {other}[{pair[0]}]: "
                     f"every player needs a different {what}")
    return len(problems.found) == before


def _short_names(
    value: Any, where: str, problems: _Problems, players: list[str]
) -> list[str] | None:
    """The players' short forms as the game's editor wrote them; ``None`` when the file
    has none (an older export) or they are the ones the app makes."""
    if value is None or not players:
        return None
    if not isinstance(value, list) or len(value) != len(players):
        problems.add(where, f"must be a list of the {len(players)} players' short names")
        return None
    if not _names_at(value, where, problems, "short name", "short_names"):
        return None
    written = [short.strip() for short in value]
    return None if written == short_forms(players) else written


def _lone_surrogates(value: Any, where: str, problems: _Problems) -> None:
    """Every string of the document that is not valid Unicode (a lone surrogate,
    written ``\\ud800`` in the file), at its place (``games[0].players[1]``)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            point = next(ord(ch) for ch in value if 0xD800 <= ord(ch) <= 0xDFFF)
            problems.add(where or "file", f"is not valid Unicode text (a lone U+{point:04X})")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _lone_surrogates(item, f"{where}[{i}]", problems)
    elif isinstance(value, dict):
        for key, item in value.items():
            _lone_surrogates(key, where, problems)
            _lone_surrogates(item, f"{where}.{key}" if where else str(key), problems)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be stored (a control character, a noncharacter), or ``None``."""
    bad = text_problem(name)
    return None if bad is None else f"a name cannot hold {bad}"


def _rules(value: Any, where: str, problems: _Problems) -> Rules | None:
    if not isinstance(value, dict):
        problems.add(where, "must be an object of settings")
        return None
    try:
        return Rules.from_dict(value)
    except RulesError as exc:
        for key, message in exc.problems:
            problems.add(f"{where}.{key}", message)
    except (ValueError, TypeError) as exc:
        problems.add(where, str(exc))
    return None


SETUP_KEYS = ("dealer", "box", "captain")  # the first dealer; three-hand gin's first roles


def _setup(value: Any, where: str, problems: _Problems, seats: int) -> dict[str, Any]:
    if not isinstance(value, dict):
        problems.add(where, "must be an object")
        return {}
    unknown = sorted(set(value) - set(SETUP_KEYS))
    if unknown:
        problems.add(where, f"unknown setting {unknown[0]!r}")
    for key in SETUP_KEYS:
        if key in value and not whole(value[key], 0, max(seats - 1, 0)):
            problems.add(f"{where}.{key}", f"must be the seat of a player (0 to {seats - 1})")
    return {key: value[key] for key in SETUP_KEYS if key in value}


def _hands(value: Any, where: str, problems: _Problems) -> list[dict[str, Any]]:
    """Each hand's inputs, as objects; the variant checks what is in them."""
    if not isinstance(value, list):
        problems.add(where, "must be a list of hands")
        return []
    if len(value) > limits.MOST_HANDS:
        problems.add(where, f"at most {limits.MOST_HANDS} hands per game")
        return []
    hands = []
    for i, hand in enumerate(value):
        inputs = hand.get("inputs") if isinstance(hand, dict) else None
        if not isinstance(inputs, dict):
            problems.add(f"{where}[{i}].inputs", "every hand needs its inputs (an object)")
            continue
        if hand.get("number", i + 1) != i + 1 or isinstance(hand.get("number"), bool):
            problems.add(f"{where}[{i}].number", f"must be {i + 1}: the hands are numbered "
                         "1, 2, 3… in the order they were played")
            continue
        hands.append(inputs)
    return hands


def _read_hand(
    variant: Variant, game: Game, inputs: Mapping[str, Any], where: str, problems: _Problems
) -> StoredHand | None:
    """A hand's inputs as the API stores them, read by the API's own reading and checks
    (``Variant.read_stored``); ``None`` with every problem at its field when it refuses."""
    try:
        return variant.read_stored(inputs, game)
    except ApiError as exc:
        for at, message in exc.problems:
            problems.add(f"{where}.{at}" if at else where, message[:300])
    except (HandError, ValueError, TypeError, LookupError, AttributeError) as exc:
        # The API answers these with a 500 too: still refused, never stored.
        problems.add(where, f"cannot be scored ({type(exc).__name__}: {exc})"[:300])
    return None


# A history entry's inputs that could become a hand again (restoring a deleted or undone
# hand) or be shown as one (added, corrected, restored): ``wording.entry_inputs``.
HAND_SIDES = {"add": ("after",), "edit": ("before", "after"), "restore": ("after",),
              "delete": ("before",), "undo": ("before",)}


def _hand_sides(change: Change) -> tuple[str, ...]:
    """The sides of ``change`` that hold a hand's inputs."""
    return tuple(side for side in HAND_SIDES.get(change.action, ())
                 if getattr(change, side) is not None)


def _history(value: Any, where: str, problems: _Problems) -> list[Change]:
    if not isinstance(value, list):
        problems.add(where, "must be a list of changes")
        return []
    if len(value) > limits.MOST_CHANGES:
        problems.add(where, f"at most {limits.MOST_CHANGES} changes per game")
        return []
    changes = []
    for i, item in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(item, dict):
            problems.add(at, "must be an object")
            continue
        action, by, number = item.get("action"), item.get("by", ""), item.get("hand_number")
        bad = [name for name, ok in (
            ("action", _short_text(action) and action),
            ("by", _short_text(by)),
            ("hand_number", number is None or whole(number, 1, 10**6)),
            ("before", item.get("before") is None or isinstance(item.get("before"), dict)),
            ("after", item.get("after") is None or isinstance(item.get("after"), dict)),
        ) if not ok]
        when = _time(item.get("at"), f"{at}.at", problems)
        if bad:
            problems.add(f"{at}.{bad[0]}", "has the wrong type or is too long")
            continue
        changes.append(Change(at=when or now_utc(), action=action, hand_number=number,
                              before=item.get("before"), after=item.get("after"), by=by))
    return changes


def _short_text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= SHORT_TEXT


def whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _time(value: Any, where: str, problems: _Problems) -> datetime | None:
    try:
        return read_time(value)
    except ValueError:
        problems.add(where, TIME_PROBLEM)
        return None


TIME_PROBLEM = "must be a date and time (ISO 8601) from the year 1 to 9999 in UTC"


def read_time(value: Any) -> datetime | None:
    """A moment as a file writes it (ISO 8601; UTC when it names no zone), in UTC;
    ``None`` for null; ``ValueError`` for anything else, and for a moment whose UTC
    falls outside the years 1 to 9999, which no database column holds.

    >>> read_time("2026-03-01T10:00:00+03:30")
    datetime.datetime(2026, 3, 1, 6, 30, tzinfo=datetime.timezone.utc)
    >>> read_time("9999-12-31T23:59:59-14:00")
    Traceback (most recent call last):
    ValueError: 9999-12-31T23:59:59-14:00 is past 9999-12-31 in UTC
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(value)
    parsed = datetime.fromisoformat(value)
    if not parsed.tzinfo:
        return parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC)
    except OverflowError:
        side = "past 9999-12-31" if parsed.year > 1 else "before 0001-01-01"
        raise ValueError(f"{value} is {side} in UTC") from None


def read_stake(item: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """A game's, group's or night's stake and currency as a file gives them (``None``
    for no stake; the currency EUR when it names none); ``StakeError`` when wrong."""
    if item.get("stake") is None:
        return None, None
    return str(parse_stake(item["stake"])), parse_currency(item.get("currency") or "EUR")


def save_games(db: Session, games: Iterable[Game]) -> list[Game]:
    """Add the new games to the session (the caller commits)."""
    saved = list(games)
    db.add_all(saved)
    return saved
