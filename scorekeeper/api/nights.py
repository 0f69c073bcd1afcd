"""Club nights over JSON: start one, read its rounds and standings, make the next round,
confirm a table's result.

Running a night needs its organiser's secret in ``X-Edit-Secret``; confirming a table
takes the game's own edit secret (the other player's phone) or the organiser's.
"""

from __future__ import annotations

from typing import Any

from flask import Response, abort, jsonify, request, url_for
from sqlalchemy.exc import IntegrityError

from .. import limits
from ..db import get_session, rollback_session
from ..jsonbody import ApiError, fail, rules_from_json
from ..models import Game, Night
from ..names import same_name, text_problem
from ..security import is_token
from ..services import access
from ..services.night_access import secret_matches as organiser_matches
from ..services.night_view import night_view
from ..services.nights import (
    CONFIRMED,
    TEAM_VARIANTS,
    TIE_BREAKS,
    NightFull,
    NoRoundLeft,
    NotFinished,
    NotPaired,
    NotReady,
    lock_night,
    make_round,
    table_by_game,
    team_name,
)
from ..services.nights import confirm as confirm_table
from ..services.nights import create_night as store_night
from ..variants import VARIANTS
from . import bodies, bp
from .games import _group_for, _roster_spelling, _stake


def _night_full(_exc: NightFull) -> tuple[Response, int]:
    """A night whose history is full takes no more changes (409)."""
    rollback_session()
    errors = [{"where": "night", "message":
               f"the night's history holds {limits.MOST_CHANGES} changes, the most it may: "
               "it takes no more"}]
    return jsonify(errors=errors), 409


bp.register_error_handler(NightFull, _night_full)


@bp.post("/nights")
@limits.create
def create_night() -> tuple[Response, int]:
    """Start a night; the answer carries the organiser's secret and links."""
    body = bodies.read(bodies.NewNight)
    variant_name = body.get("variant", "gin")
    variant = VARIANTS[variant_name]
    rules = variant.rules_for(rules_from_json(body.get("rules", variant.default_preset)))
    form = body.get("format", "round_robin")
    rounds, deals = body.get("rounds"), body.get("deals")
    if form != "round_robin" and rounds is None:
        fail("rounds", "Swiss and king of the hill need a number of rounds")
    order = body.get("order", list(TIE_BREAKS))
    if len(set(order)) != len(order):
        fail("order", "each tie-break once")
    teams = None
    raw = body["players"]
    if variant_name in TEAM_VARIANTS:
        if not all(isinstance(team, list) for team in raw):
            fail("players", "a partnership night's entrants are teams: lists of two players")
        teams = [[name.strip() for name in team] for team in raw]
        everyone = [n for team in teams for n in team]
        entrants = [team_name(team) for team in teams]
    else:
        if not all(isinstance(name, str) for name in raw):
            fail("players", "teams are for partnership nights: give each player's name")
        entrants = [name.strip() for name in raw]
        everyone = entrants
    problems = [(f"players[{i}]", f"a name cannot hold {bad}") for i, name in enumerate(everyone)
                if (bad := text_problem(name)) is not None]
    if problems:
        raise ApiError(problems)
    pair = same_name(everyone)
    if pair is not None:
        fail("players", f"{everyone[pair[1]]} is there twice: every player needs a different name")
    group = _group_for(body)
    stake = _stake(body, group)
    if group is not None:
        _roster_spelling(everyone, group)
        if teams is not None:
            spelled = iter(everyone)
            teams = [[next(spelled), next(spelled)] for _team in teams]
            entrants = [team_name(team) for team in teams]
        else:
            entrants = everyone
        group.players = [*group.players, *(n for n in everyone if n not in group.players)]
    db = get_session()
    night = store_night(
        db, variant=variant_name, rules=rules.to_dict(), format=form, players=entrants,
        teams=teams, rounds=rounds, deals=deals, order=order,
        group_id=group.id if group is not None else None, stake=stake, by="API",
    )
    db.commit()
    return jsonify(
        id=night.id,
        organiser_secret=night.organiser_secret,
        organiser_url=url_for("nights.organiser", night_id=night.id,
                              key=night.organiser_secret, _external=True),
        board_url=url_for("nights.board", night_id=night.id, _external=True),
    ), 201


def _night(night_id: str) -> Night:
    night = get_session().get(Night, night_id) if is_token(night_id) else None
    if night is None:
        abort(404)
    return night


@bp.get("/nights/<night_id>")
def read_night(night_id: str) -> Response:
    """Every round's tables with their state, and the standings; with the organiser's
    secret each table carries its game's edit link."""
    night = _night(night_id)
    organiser = organiser_matches(night, request.headers.get("X-Edit-Secret"))
    return jsonify(night_json(night, organiser=organiser))


def night_json(night: Night, *, organiser: bool = False) -> dict[str, Any]:
    """The night as ``GET /api/v1/nights/<id>`` answers it."""
    db = get_session()
    shown = night_view(db, night)
    secrets: dict[str, str] = {}
    if organiser:
        ids = [t.game_id for t in night.tables if t.game_id]
        secrets = dict(db.query(Game.id, Game.edit_secret).filter(Game.id.in_(ids)).all())
    rounds = []
    for r in shown.rounds:
        tables = []
        for t in r.tables:
            table: dict[str, Any] = {
                "table": t.number,
                "players": [t.table.a, t.table.b],
                "seats": t.players,
                "game": t.table.game_id,
                "state": t.state,
                "hands": t.hands,
                "scores": list(t.scores) if t.scores else None,
                "result": t.result if t.state == CONFIRMED else None,
                "rulings": [url_for("rulings.page", ruling_id=r.id, _external=True)
                            for r in t.rulings],
            }
            if organiser and t.table.game_id in secrets:
                table["edit_url"] = url_for("games.sheet", game_id=t.table.game_id,
                                            key=secrets[t.table.game_id], _external=True)
            tables.append(table)
        rounds.append({"number": r.number, "tables": tables, "byes": r.byes})
    return {
        "id": night.id,
        "name": night.name,
        "variant": night.variant,
        "format": night.format,
        "planned_rounds": shown.planned,
        "deals": night.deals,
        "order": night.order,
        "players": night.players,
        "rounds": rounds,
        "standings": [
            {"player": s.entrant, "rank": s.rank, "points": s.match_points, "played": s.played,
             "wins": s.wins, "draws": s.draws, "losses": s.losses, "byes": s.byes,
             "games_won": s.games_won, "shutouts": s.shutouts,
             "point_difference": s.point_difference}
            for s in shown.standings
        ],
        "board_url": url_for("nights.board", night_id=night.id, _external=True),
    }


@bp.post("/nights/<night_id>/rounds")
def next_round(night_id: str) -> tuple[Response, int]:
    """Pair the next round and start its games (organiser's secret)."""
    db = get_session()
    night = lock_night(db, night_id) if is_token(night_id) else None
    if night is None:
        abort(404)
    if not organiser_matches(night, request.headers.get("X-Edit-Secret")):
        raise ApiError([("X-Edit-Secret", "this secret does not run this night")], 403)
    body = bodies.read(bodies.NextRound) if request.get_data(cache=True) else {}
    carry = bool(body.get("carry", False))
    try:
        made = make_round(db, night, carry=carry, by="API")
        db.commit()
    except NotReady:
        db.rollback()
        raise ApiError([("round", "a table of the current round is not confirmed yet")],
                       409) from None
    except NoRoundLeft:
        db.rollback()
        raise ApiError([("round", "the night has no round left")], 409) from None
    except NotPaired as exc:
        db.rollback()
        raise ApiError([("round", str(exc))], 409) from None
    except IntegrityError:
        db.rollback()
        raise ApiError([("round", "another request made this round at the same moment")],
                       409) from None
    answer = night_json(night, organiser=True)
    return jsonify(answer["rounds"][made.number - 1]), 201


@bp.post("/games/<game_id>/confirm")
def confirm(game_id: str) -> tuple[Response, int]:
    """Confirm a finished table's result: the game's edit secret or the organiser's."""
    db = get_session()
    table = table_by_game(db, game_id) if is_token(game_id) else None
    if table is None:
        abort(404)
    night = db.get(Night, table.night_id)
    game = db.get(Game, game_id)
    if night is None or game is None:
        abort(404)
    secret = request.headers.get("X-Edit-Secret")
    if organiser_matches(night, secret):
        by = "organiser"
    elif access.secret_matches(game, secret):
        by = "table"
    else:
        raise ApiError([("X-Edit-Secret", "this secret does not let you confirm this table")],
                       403)
    try:
        counted = confirm_table(db, night, table, game, by=f"API {by}")
        db.commit()
    except NotFinished:
        db.rollback()
        raise ApiError([("game", "the game is not over: there is no result to confirm")],
                       409) from None
    return jsonify(confirmed=True, counted=counted, result=table.result), 200
