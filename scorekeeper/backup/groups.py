"""Groups in an export file: their roster, stake, payments and which games are theirs.

An export document may carry ``"groups": [{"id", "name", "players", "stake", "currency",
"games": ["<id of a game in this file>", ...], "payments": [{"from", "to", "amount",
"currency", "date"}], "version": 5, "history": [{"action", "at", "by", "before",
"after"}]}]`` beside its ``"games"``. An import makes new groups (new ids and secrets)
holding the new games made from those ids; amounts stay exact text, so a round trip
loses no cent and the standings come out the same. The history of the payments
(corrected, deleted, restored, settled up) comes along with its deleted payments, to
be restored after the import as before it; a file without it (an older export) starts
the group's history empty. A group's ``id`` is what its nights name it by (``nights.py``);
an older export's groups have none, and no nights.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Game, Group, GroupChange, Night, Payment, new_token, now_utc
from ..names import NAME_MAX, same_name
from ..scoring.stakes import StakeError, parse_currency, parse_stake
from .archive import (
    FORMAT,
    FORMAT_VERSION,
    TIME_PROBLEM,
    ArchiveError,
    export_game,
    name_problem,
    read_stake,
    read_time,
)
from .nights import group_nights

MAX_GROUPS = 1_000
MAX_PAYMENTS = 10_000


def group_json(db: Session, group: Group) -> dict[str, Any]:
    """One group as the export carries it (its games by id)."""
    ids = db.scalars(
        select(Game.id).where(Game.group_id == group.id).order_by(Game.created_at, Game.id)
    ).all()
    return {
        "id": group.id,
        "name": group.name,
        "players": list(group.players),
        "stake": group.stake,
        "currency": group.currency,
        "created_at": group.created_at.isoformat(),
        "games": list(ids),
        "payments": [
            {
                "from": p.payer,
                "to": p.payee,
                "amount": p.amount,
                "currency": p.currency,
                "date": p.paid_on.isoformat(),
            }
            for p in group.payments
        ],
        "version": group.version,
        "history": [
            {
                "action": c.action,
                "at": c.at.isoformat(),
                "by": c.by,
                "before": c.before,
                "after": c.after,
            }
            for c in group.changes
        ],
    }


def export_group(
    db: Session, group: Group, history_of: Callable[[Night], bool] = lambda _night: True
) -> dict[str, Any]:
    """A group with all its games and nights: a file that imports as a new group. A
    night's history is in it where ``history_of`` the night says so (the organiser's
    pages show it, and only the organiser's browser gets it)."""
    games = list(db.scalars(
        select(Game).where(Game.group_id == group.id).order_by(Game.created_at, Game.id)
    ))
    nights = group_nights(db, group, history_of)
    # A night's game taken out of the group since is still one of its tables.
    listed = {game.id for game in games}
    wanted = [t["game"] for n in nights for r in n["played_rounds"] for t in r["tables"]
              if t["game"] is not None and t["game"] not in listed]
    if wanted:
        found = {g.id: g for g in db.scalars(select(Game).where(Game.id.in_(wanted)))}
        games += [found[i] for i in wanted if i in found]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "games": [export_game(game) for game in games],
        "groups": [group_json(db, group)],
        "nights": nights,
    }


def all_groups(db: Session) -> list[dict[str, Any]]:
    """Every group, for the export of everything."""
    return [group_json(db, g) for g in db.scalars(select(Group).order_by(Group.created_at))]


def read_groups(document: Any, games: list[Game]) -> list[Group]:
    """New groups from ``document["groups"]``, their games (already read from the same
    document, in its order) put into them; ``ArchiveError`` lists every problem."""
    if not isinstance(document, dict) or "groups" not in document:
        return []
    items = document["groups"]
    if not isinstance(items, list) or len(items) > MAX_GROUPS:
        raise ArchiveError([("groups", f"must be a list of at most {MAX_GROUPS} groups")])
    games_in_file = document.get("games")
    listed: list[Any] = games_in_file if isinstance(games_in_file, list) else [document]
    by_old_id = {
        item.get("id"): game
        for item, game in zip(listed, games, strict=False)
        if isinstance(item, dict) and isinstance(item.get("id"), str)
    }
    problems: list[tuple[str, str]] = []
    groups = [
        _read_group(item, f"groups[{i}]", by_old_id, problems) for i, item in enumerate(items)
    ]
    if problems:
        raise ArchiveError(problems)
    return [g for g in groups if g is not None]


def _read_group(
    item: Any, where: str, by_old_id: dict[Any, Game], problems: list[tuple[str, str]]
) -> Group | None:
    if not isinstance(item, dict):
        problems.append((where, "must be a JSON object"))
        return None
    before = len(problems)
    name, players = item.get("name"), item.get("players")
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        problems.append((f"{where}.name", "a group needs a name of at most 60 characters"))
    elif (bad := name_problem(name)) is not None:
        problems.append((f"{where}.name", bad))
    if (
        not isinstance(players, list)
        or not players
        or len(players) > 30
        or not all(isinstance(p, str) and p.strip() and len(p) <= NAME_MAX for p in players)
        or len(set(players)) != len(players)
    ):
        problems.append((f"{where}.players", "one to 30 different names"))
    else:
        for i, player in enumerate(players):
            if (bad := name_problem(player)) is not None:
                problems.append((f"{where}.players[{i}]", bad))
        if (pair := same_name(players)) is not None:
            problems.append((f"{where}.players[{pair[1]}]",
                             f"looks the same as the name of players[{pair[0]}]: "
                             "every player needs a different name"))
    try:
        stake, currency = read_stake(item)
    except StakeError as exc:
        problems.append((f"{where}.stake", str(exc)))
        stake, currency = None, None
    ids = item.get("games", [])
    if not isinstance(ids, list) or not all(i in by_old_id for i in ids):
        problems.append((f"{where}.games", "must list ids of games in this file"))
        ids = []
    payments = _payments(item.get("payments", []), f"{where}.payments", problems, players)
    history = _history(item.get("history", []), f"{where}.history", problems, players)
    version = item.get("version", len(history))
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= 10**9:
        problems.append((f"{where}.version", "must be a whole number, 0 or more"))
    if len(problems) > before or not isinstance(name, str) or not isinstance(players, list):
        return None
    group = Group(id=new_token(), name=name.strip(), players=list(players), stake=stake)
    group.currency = currency
    group.payments = payments
    group.changes = history
    group.version = version
    for old in ids:
        by_old_id[old].group_id = group.id
    return group


def _payments(
    value: Any, where: str, problems: list[tuple[str, str]], players: Any
) -> list[Payment]:
    if not isinstance(value, list) or len(value) > MAX_PAYMENTS:
        problems.append((where, f"must be a list of at most {MAX_PAYMENTS} payments"))
        return []
    names = set(players) if isinstance(players, list) else set()
    found = []
    for i, p in enumerate(value):
        at = f"{where}[{i}]"
        try:
            if not isinstance(p, dict) or p.get("from") not in names or p.get("to") not in names:
                raise ValueError("from and to must be players of the group")
            amount = parse_stake(p.get("amount"))
            paid_on = date.fromisoformat(str(p.get("date")))
            currency = parse_currency(p["currency"]) if p.get("currency") else None
        except (StakeError, ValueError) as exc:
            problems.append((at, str(exc)))
            continue
        found.append(
            Payment(
                payer=p["from"],
                payee=p["to"],
                amount=str(amount),
                currency=currency,
                paid_on=paid_on,
            )
        )
    return found


# Which of an entry's ``before`` and ``after`` hold a payment, by the entry's action
# (a settling up's ``after`` holds a list of them; a restore's ``before`` names the
# entry it took back by its position).
_HELD = {"record": ("after",), "edit": ("before", "after"), "delete": ("before",),
         "restore": ("after",), "settle": ()}


def _history(
    value: Any, where: str, problems: list[tuple[str, str]], players: Any
) -> list[GroupChange]:
    """A group's history of payments; every payment it holds is read as ``_payments``
    reads the group's own."""
    if not isinstance(value, list) or len(value) > MAX_PAYMENTS:
        problems.append((where, f"must be a list of at most {MAX_PAYMENTS} changes"))
        return []
    changes = []
    for i, item in enumerate(value):
        at, before = f"{where}[{i}]", len(problems)
        if not isinstance(item, dict) or item.get("action") not in _HELD:
            problems.append((at, f"must be an object whose action is one of {', '.join(_HELD)}"))
            continue
        action, by, when = item["action"], item.get("by", ""), item.get("at")
        held = [(key, item.get(key)) for key in _HELD[action]]
        if action == "settle":
            after = item.get("after")
            listed = after.get("payments") if isinstance(after, dict) else None
            if not isinstance(listed, list) or not 0 < len(listed) <= 30:
                problems.append((f"{at}.after", "a settling up holds its payments"))
            else:
                held += [(f"after.payments[{n}]", p) for n, p in enumerate(listed)]
        for key, payment in held:
            _payments([payment], f"{at}.{key}", problems, players)
        taken = item.get("before")
        restores = taken.get("restores") if isinstance(taken, dict) else None
        if action == "restore" and not (isinstance(restores, int) and 0 <= restores < i):
            problems.append((f"{at}.before", "a restore names an earlier entry of the history"))
        if not isinstance(by, str) or len(by) > 20:
            problems.append((f"{at}.by", "a text of at most 20 characters"))
        try:
            moment = read_time(when)
        except ValueError:
            problems.append((f"{at}.at", TIME_PROBLEM))
            moment = None
        if len(problems) == before:
            changes.append(GroupChange(
                action=action, before=item.get("before"), after=item.get("after"), by=by,
                at=now_utc() if moment is None else moment))
    return changes
