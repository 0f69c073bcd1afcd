"""Club nights in an export file: their entrants, format, rounds, tables, results,
confirmations, who sits out, and history; their games are the file's games.

An export document may carry ``"nights": [{"id", "name", "variant", "rules", "format",
"rounds", "deals", "players", "teams", "order", "away", "group", "stake", "currency",
"version", "created_at", "played_rounds": [{"number", "byes", "created_at", "tables":
[{"table", "a", "b", "game", "result", "confirmed_at", "confirmed_by", "carried"}]}],
"history": [{"at", "action", "round", "table", "before", "after", "reason", "by"}]}]``
beside its ``"games"`` (``game``: the id of a game in this file; ``group``: the id of a
group in this file, or ``null``). ``rounds`` is the number of rounds the organiser set
(``null``: the format's), ``played_rounds`` the rounds made so far. An import makes new
nights (new ids and organiser's secrets) whose tables play the new games made from those
ids; every game's hands are read as the API reads them (``archive.read_archive``), and a
result is kept as it was confirmed or corrected, so the standings come out the same. A
file without nights (an older export) imports its games and groups as before.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import limits
from ..models import Game, Group, Night, NightChange, NightRound, NightTable, new_token, now_utc
from ..names import NAME_MAX, same_name
from ..scoring.rules import Rules, RulesError
from ..scoring.stakes import StakeError
from ..services.nights import (
    FORMATS,
    MOST_ENTRANTS,
    NIGHT_VARIANTS,
    TIE_BREAKS,
    game_players,
    team_name,
)
from .archive import (
    FORMAT,
    FORMAT_VERSION,
    TIME_PROBLEM,
    ArchiveError,
    export_game,
    name_problem,
    read_stake,
    read_time,
    whole,
)

MAX_NIGHTS = 1_000
MOST_ROUNDS = 1_000
ENTRANT_MAX = 100  # NightTable.a and .b
SIDES = ("a", "b")
Problems = list[tuple[str, str]]


# --- export ---------------------------------------------------------------------------------


def night_json(night: Night, *, group: bool = True, history: bool = True) -> dict[str, Any]:
    """One night as the export carries it (its games by id; ``group=False``: a night on
    its own, its group not in the file; ``history=False``: without its history, which
    only its organiser opens)."""
    by_round: dict[int, list[NightTable]] = {}
    for table in night.tables:
        by_round.setdefault(table.round, []).append(table)
    return {
        "id": night.id,
        "name": night.name,
        "variant": night.variant,
        "rules": dict(night.rules),
        "format": night.format,
        "rounds": night.rounds,
        "deals": night.deals,
        "players": list(night.players),
        "teams": [list(team) for team in night.teams] if night.teams is not None else None,
        "order": list(night.order),
        "away": list(night.away),
        "group": night.group_id if group else None,
        "stake": night.stake,
        "currency": night.currency,
        "version": night.version,
        "created_at": night.created_at.isoformat(),
        "played_rounds": [
            {
                "number": row.number,
                "byes": list(row.byes),
                "created_at": row.created_at.isoformat(),
                "tables": [
                    {
                        "table": t.number,
                        "a": t.a,
                        "b": t.b,
                        "game": t.game_id,
                        "result": dict(t.result) if t.result is not None else None,
                        "confirmed_at": t.confirmed_at.isoformat() if t.confirmed_at else None,
                        "confirmed_by": t.confirmed_by,
                        "carried": t.carried,
                    }
                    for t in sorted(by_round.get(row.number, []), key=lambda t: t.number)
                ],
            }
            for row in night.round_rows
        ],
        "history": [
            {
                "at": c.at.isoformat(),
                "action": c.action,
                "round": c.round,
                "table": c.table,
                "before": c.before,
                "after": c.after,
                "reason": c.reason,
                "by": c.by,
            }
            for c in (night.changes if history else [])
        ],
    }


def night_games(db: Session, night: Night) -> list[Game]:
    """The night's games, round by round, table by table."""
    ids = [t.game_id for t in sorted(night.tables, key=lambda t: (t.round, t.number))
           if t.game_id is not None]
    found = {g.id: g for g in db.scalars(select(Game).where(Game.id.in_(ids)))} if ids else {}
    return [found[i] for i in ids if i in found]


def export_night(db: Session, night: Night) -> dict[str, Any]:
    """A night with all its games: a file that imports as a new night (without its
    group, which the file does not hold)."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "games": [export_game(game) for game in night_games(db, night)],
        "nights": [night_json(night, group=False)],
    }


def group_nights(
    db: Session, group: Group, history_of: Callable[[Night], bool] = lambda _night: True
) -> list[dict[str, Any]]:
    """A group's nights, for the group's export (their games are the group's), each with
    its history where ``history_of`` the night says so."""
    nights = db.scalars(
        select(Night).where(Night.group_id == group.id).order_by(Night.created_at, Night.id)
    )
    return [night_json(night, history=history_of(night)) for night in nights]


def all_nights(db: Session) -> list[dict[str, Any]]:
    """Every night, for the export of everything."""
    nights = db.scalars(select(Night).order_by(Night.created_at, Night.id))
    return [night_json(night) for night in nights]


# --- import ---------------------------------------------------------------------------------


def read_nights(document: Any, games: list[Game], groups: list[Group]) -> list[Night]:
    """New nights from ``document["nights"]``; their tables play the new games already
    read from the same document (in its order), their group is the new group read from
    it. ``ArchiveError`` lists every problem."""
    if not isinstance(document, dict) or "nights" not in document:
        return []
    items = document["nights"]
    if not isinstance(items, list) or len(items) > MAX_NIGHTS:
        raise ArchiveError([("nights", f"must be a list of at most {MAX_NIGHTS} nights")])
    listed = document.get("games")
    listed = listed if isinstance(listed, list) else [document]
    by_game = {item.get("id"): game for item, game in zip(listed, games, strict=False)
               if isinstance(item, dict) and isinstance(item.get("id"), str)}
    listed_groups = document.get("groups")
    listed_groups = listed_groups if isinstance(listed_groups, list) else []
    by_group = {item.get("id"): group for item, group in zip(listed_groups, groups, strict=False)
                if isinstance(item, dict) and isinstance(item.get("id"), str)}
    problems: Problems = []
    used: set[str] = set()
    nights = [_read_night(item, f"nights[{i}]", by_game, by_group, used, problems)
              for i, item in enumerate(items)]
    if problems:
        raise ArchiveError(problems)
    return [night for night in nights if night is not None]


def _read_night(
    item: Any,
    where: str,
    by_game: dict[Any, Game],
    by_group: dict[Any, Group],
    used: set[str],
    problems: Problems,
) -> Night | None:
    if not isinstance(item, dict):
        problems.append((where, "must be a JSON object"))
        return None
    before = len(problems)
    variant = item.get("variant")
    if variant not in NIGHT_VARIANTS:
        problems.append((f"{where}.variant", f"must be one of {', '.join(NIGHT_VARIANTS)}"))
    fmt = item.get("format")
    if fmt not in FORMATS:
        problems.append((f"{where}.format", f"must be one of {', '.join(FORMATS)}"))
    rules = _rules(item.get("rules"), f"{where}.rules", problems)
    name = item.get("name", "")
    if not isinstance(name, str) or len(name) > 60:
        problems.append((f"{where}.name", "a text of at most 60 characters"))
    elif name and (bad := name_problem(name)) is not None:
        problems.append((f"{where}.name", bad))
    for key in ("rounds", "deals"):
        if item.get(key) is not None and not whole(item.get(key), 1, MOST_ROUNDS):
            problems.append((f"{where}.{key}", f"must be a whole number from 1 to {MOST_ROUNDS}, "
                             "or null"))
    players = _entrants(item.get("players"), f"{where}.players", problems)
    teams = _teams(item.get("teams"), variant, players, f"{where}.teams", problems)
    order = item.get("order", list(TIE_BREAKS))
    if (not isinstance(order, list) or not order or len(set(map(str, order))) != len(order)
            or not all(k in TIE_BREAKS for k in order)):
        problems.append((f"{where}.order", "each of " + ", ".join(TIE_BREAKS) + " at most once"))
    away = item.get("away", [])
    if not isinstance(away, list) or not all(p in players for p in away):
        problems.append((f"{where}.away", "must list entrants of the night"))
    group_id = item.get("group")
    group = by_group.get(group_id) if group_id is not None else None
    if group_id is not None and group is None:
        problems.append((f"{where}.group", "must be the id of a group in this file, or null"))
    try:
        stake, currency = read_stake(item)
    except StakeError as exc:
        problems.append((f"{where}.stake", str(exc)))
        stake, currency = None, None
    version = item.get("version", 0)
    if not whole(version, 0, 10**9):
        problems.append((f"{where}.version", "must be a whole number, 0 or more"))
    created = _time(item.get("created_at"), f"{where}.created_at", problems)
    if len(problems) > before or rules is None:
        return None
    night = Night(
        id=new_token(), name=str(name).strip(), variant=variant, rules=rules.to_dict(),
        format=fmt, rounds=item.get("rounds"), deals=item.get("deals"), players=players,
        teams=teams, order=list(order), away=list(away),
        group_id=group.id if group is not None else None, stake=stake, currency=currency,
        version=version, created_at=created or now_utc(),
    )
    night.round_rows, night.tables = _rounds(item.get("played_rounds", []),
                                             f"{where}.played_rounds", night, by_game, used,
                                             problems)
    night.changes = _history(item.get("history", []), f"{where}.history", players, problems)
    if len(problems) > before:
        return None
    if len(night.changes) < limits.MOST_CHANGES:
        night.changes.append(NightChange(action="import", by="import"))
    return night


def _rules(value: Any, where: str, problems: Problems) -> Rules | None:
    if not isinstance(value, dict):
        problems.append((where, "must be an object of settings"))
        return None
    try:
        return Rules.from_dict(value)
    except RulesError as exc:
        problems.extend((f"{where}.{key}", message) for key, message in exc.problems)
    except (ValueError, TypeError) as exc:
        problems.append((where, str(exc)))
    return None


def _entrants(value: Any, where: str, problems: Problems) -> list[str]:
    if (not isinstance(value, list) or not 2 <= len(value) <= MOST_ENTRANTS
            or not all(isinstance(p, str) and p.strip() and len(p) <= ENTRANT_MAX
                       for p in value)):
        problems.append((where, f"2 to {MOST_ENTRANTS} names of at most {ENTRANT_MAX} "
                         "characters"))
        return []
    before = len(problems)
    for i, name in enumerate(value):
        if (bad := name_problem(name)) is not None:
            problems.append((f"{where}[{i}]", bad))
    if len(problems) == before and (pair := same_name(value)) is not None:
        problems.append((f"{where}[{pair[1]}]", f"looks the same as players[{pair[0]}]: "
                         "every entrant needs a different name"))
    return [str(p) for p in value] if len(problems) == before else []


def _teams(
    value: Any, variant: Any, players: list[str], where: str, problems: Problems
) -> list[list[str]] | None:
    """A partnership night's teams, one per entrant (named by its two players); no other
    night has any."""
    if variant != "partnership":
        if value is not None:
            problems.append((where, "only a partnership night has teams"))
        return None
    if (not isinstance(value, list) or len(value) != len(players)
            or not all(isinstance(team, list) and len(team) == 2
                       and all(isinstance(n, str) and n.strip() and len(n) <= NAME_MAX
                               for n in team) for team in value)):
        problems.append((where, "a team of two players' names for every entrant"))
        return None
    for i, (team, entrant) in enumerate(zip(value, players, strict=True)):
        if team_name(team) != entrant:
            problems.append((f"{where}[{i}]", f"must be the players of {entrant!r}"))
    everyone = [n for team in value for n in team]
    if (pair := same_name(everyone)) is not None:
        problems.append((where, f"{everyone[pair[1]]} plays in two teams"))
    return [list(team) for team in value]


def _rounds(
    value: Any,
    where: str,
    night: Night,
    by_game: dict[Any, Game],
    used: set[str],
    problems: Problems,
) -> tuple[list[NightRound], list[NightTable]]:
    """The rounds made, and every round's tables."""
    if not isinstance(value, list) or len(value) > MOST_ROUNDS:
        problems.append((where, f"must be a list of at most {MOST_ROUNDS} rounds"))
        return [], []
    rows: list[NightRound] = []
    tables: list[NightTable] = []
    for i, item in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(item, dict):
            problems.append((at, "must be an object"))
            continue
        if item.get("number") != i + 1 or isinstance(item.get("number"), bool):
            problems.append((f"{at}.number", f"must be {i + 1}: the rounds are numbered "
                             "1, 2, 3… in the order they were made"))
            continue
        byes = item.get("byes", [])
        if not isinstance(byes, list) or not all(b in night.players for b in byes):
            problems.append((f"{at}.byes", "must list entrants of the night"))
            byes = []
        created = _time(item.get("created_at"), f"{at}.created_at", problems)
        rows.append(NightRound(number=i + 1, byes=list(byes), created_at=created or now_utc()))
        tables += _tables(item.get("tables"), f"{at}.tables", night, i + 1, by_game, used,
                          problems)
    return rows, tables


def _tables(
    value: Any,
    where: str,
    night: Night,
    number: int,
    by_game: dict[Any, Game],
    used: set[str],
    problems: Problems,
) -> list[NightTable]:
    if not isinstance(value, list) or len(value) > MOST_ENTRANTS:
        problems.append((where, f"must be a list of at most {MOST_ENTRANTS} tables"))
        return []
    found: list[NightTable] = []
    seen: set[int] = set()
    for i, item in enumerate(value):
        at, before = f"{where}[{i}]", len(problems)
        if not isinstance(item, dict):
            problems.append((at, "must be an object"))
            continue
        table = item.get("table")
        number_at = table if isinstance(table, int) else 0
        if not whole(table, 1, MOST_ENTRANTS) or number_at in seen:
            problems.append((f"{at}.table", "a table's number: a whole number, once a round"))
        a, b = item.get("a"), item.get("b")
        if a not in night.players or b not in night.players or a == b:
            problems.append((at, "a and b must be two entrants of the night"))
        game = _table_game(item.get("game"), f"{at}.game", night, a, b, by_game, used, problems)
        result = item.get("result")
        if result is not None and not _result(result):
            problems.append((f"{at}.result", _RESULT_SHAPE))
        confirmed = _time(item.get("confirmed_at"), f"{at}.confirmed_at", problems)
        if confirmed is not None and result is None:
            problems.append((f"{at}.result", "a confirmed table keeps its result"))
        by = item.get("confirmed_by", "")
        if not isinstance(by, str) or len(by) > 20:
            problems.append((f"{at}.confirmed_by", "a text of at most 20 characters"))
        carried = item.get("carried", False)
        if not isinstance(carried, bool):
            problems.append((f"{at}.carried", "must be true or false"))
        if len(problems) > before:
            continue
        seen.add(number_at)
        if game is not None and game.id is None:
            game.id = new_token()  # the new game's id, for the table to name it
        found.append(NightTable(
            round=number, number=number_at, a=a, b=b,
            game_id=game.id if game is not None else None,
            result=_result(result) if result is not None else None,
            confirmed_at=confirmed, confirmed_by=by, carried=carried,
        ))
    return found


def _table_game(
    value: Any,
    where: str,
    night: Night,
    a: Any,
    b: Any,
    by_game: dict[Any, Game],
    used: set[str],
    problems: Problems,
) -> Game | None:
    """The new game a table plays (``value``: its id in the file), once in the file;
    its kind and players are the table's."""
    if value is None:
        return None
    game = by_game.get(value) if isinstance(value, str) else None
    if game is None or value in used:
        problems.append((where, "must be the id of a game in this file, at one table only"))
        return None
    used.add(value)
    if a in night.players and b in night.players and a != b and (
        game.variant != night.variant or game.players != game_players(night, a, b)
    ):
        problems.append((where, "the game's kind and players must be the table's"))
        return None
    return game


_RESULT_SHAPE = ('must be {"points_a", "points_b", "winner", "shutout", "forfeit"}: whole '
                 'numbers, "a", "b" or null, true or false, "a", "b" or null')


def _result(value: Any) -> dict[str, Any] | None:
    """A table's result as it counts, or ``None`` when it is not one."""
    if not isinstance(value, dict):
        return None
    points = value.get("points_a"), value.get("points_b")
    if not all(whole(p, -(10**9), 10**9) for p in points):
        return None
    winner, forfeit, shutout = value.get("winner"), value.get("forfeit"), value.get("shutout")
    if winner not in (*SIDES, None) or forfeit not in (*SIDES, None):
        return None
    if not isinstance(shutout, bool):
        return None
    return {"points_a": points[0], "points_b": points[1], "winner": winner,
            "shutout": shutout, "forfeit": forfeit}


# The results a history entry holds, by its action; the player an entry names.
_RESULTS = {"confirm": ("after",), "correct": ("before", "after"),
            "forfeit": ("before", "after"), "reopen": ("before",)}
_PLAYER = ("arrive", "away", "back")


def _history(value: Any, where: str, players: list[str], problems: Problems) -> list[NightChange]:
    if not isinstance(value, list) or len(value) > limits.MOST_CHANGES:
        problems.append((where, f"must be a list of at most {limits.MOST_CHANGES} changes"))
        return []
    changes = []
    for i, item in enumerate(value):
        at, before = f"{where}[{i}]", len(problems)
        if not isinstance(item, dict):
            problems.append((at, "must be an object"))
            continue
        action, by, reason = item.get("action"), item.get("by", ""), item.get("reason", "")
        if not isinstance(action, str) or not action or len(action) > 20:
            problems.append((f"{at}.action", "a text of at most 20 characters"))
        if not isinstance(by, str) or len(by) > 20:
            problems.append((f"{at}.by", "a text of at most 20 characters"))
        if not isinstance(reason, str) or len(reason) > 200:
            problems.append((f"{at}.reason", "a text of at most 200 characters"))
        for key in ("round", "table"):
            if item.get(key) is not None and not whole(item.get(key), 1, 10**6):
                problems.append((f"{at}.{key}", "must be a whole number, or null"))
        sides = {key: item.get(key) for key in ("before", "after")}
        for key, side in sides.items():
            if side is not None and not isinstance(side, dict):
                problems.append((f"{at}.{key}", "must be an object, or null"))
            elif key in _RESULTS.get(str(action), ()) and (
                    side is not None or key == "after") and _result(side) is None:
                problems.append((f"{at}.{key}", _RESULT_SHAPE))
        after = sides["after"]
        if action in _PLAYER and not (isinstance(after, dict)
                                      and isinstance(after.get("player"), str)):
            problems.append((f"{at}.after", "must name the player: {\"player\": name}"))
        when = _time(item.get("at"), f"{at}.at", problems)
        if len(problems) > before:
            continue
        changes.append(NightChange(
            at=when or now_utc(), action=action, round=item.get("round"),
            table=item.get("table"), before=sides["before"], after=after, reason=reason, by=by))
    return changes


def _time(value: Any, where: str, problems: Problems) -> datetime | None:
    try:
        return read_time(value)
    except ValueError:
        problems.append((where, TIME_PROBLEM))
        return None
