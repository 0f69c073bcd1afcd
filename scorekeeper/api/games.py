"""Games over JSON: create one, read the whole game, add a hand.

``GET /api/v1/games/<id>`` is also the export format. Adding a hand needs the game's
``X-Edit-Secret`` header; an ``Idempotency-Key`` makes a retried request harmless. A
hand that repeats the last one, saved less than a minute before, is refused (409) unless
the request says ``X-Confirm: repeat``.
"""

from __future__ import annotations

from typing import Any

from flask import Response, abort, jsonify, request, url_for
from sqlalchemy.exc import IntegrityError

from .. import limits
from ..db import get_session, rollback_session
from ..jsonbody import ApiError, fail, json_object, rules_from_json
from ..models import Game, Group
from ..money import currency_code
from ..names import name_key, same_name
from ..scoring.stakes import StakeError, parse_stake
from ..security import is_token
from ..services import access
from ..services import games as service
from ..services.documents import game_json
from ..services.night_access import organises_table
from ..variants import VARIANTS, Sheet
from ..variants.sheet_cache import keep_sheet
from . import bodies, bp

# Says a hand that repeats the last one is meant (``X-Confirm: repeat``).
CONFIRM_HEADER = "X-Confirm"

# Why a change to a club night's table whose result is confirmed is refused.
SETTLED = ("the result of this table is confirmed, so its game takes no more changes; the "
           "night's organiser can reopen the table")

# How many times a save reads and replays the game again when another hand was saved
# between its replay and its write: each time, another save got through, so no more
# than the phones saving to one game at once.
SAVE_ATTEMPTS = 30


def _settled(_exc: service.Settled) -> tuple[Response, int]:
    """A change to a club night's table whose result is confirmed (409)."""
    rollback_session()
    errors = [{"where": "game", "message": SETTLED}]
    return jsonify(errors=errors), 409


bp.register_error_handler(service.Settled, _settled)


@bp.post("/games")
@limits.create
def create_game() -> tuple[Response, int]:
    """Start a game; the answer carries its edit secret and links."""
    body = bodies.read(bodies.NewGame)
    name = body.get("variant", "gin")
    variant = VARIANTS[name]
    rules = variant.rules_for(rules_from_json(body.get("rules", variant.default_preset)))
    players = _players(body["players"], variant.player_counts)
    # A captain may be left out (null); the first dealer is a seat, 0 when omitted.
    dealer, second = body.get("dealer", 0), body.get("captain")
    try:
        setup = variant.setup(players, dealer, second)
    except ValueError as exc:
        fail("dealer", str(exc))
    db = get_session()
    group = _group_for(body)
    stake, currency = _stake(body, group)
    game = Game(variant=name, players=players, rules=rules.to_dict(), setup=setup)
    game.stake, game.currency = stake, currency
    if group is not None:
        _roster_spelling(players, group)
        game.group_id = group.id
        group.players = [*group.players, *(n for n in players if n not in group.players)]
    service.record_event(game, "create", "API", {"players": players, "rules": game.rules})
    db.add(game)
    db.commit()
    return jsonify(
        id=game.id,
        edit_secret=game.edit_secret,
        view_url=url_for("games.sheet", game_id=game.id, _external=True),
        edit_url=url_for("games.sheet", game_id=game.id, key=game.edit_secret, _external=True),
    ), 201


@bp.get("/games/<game_id>")
def read_game(game_id: str) -> Response:
    """The whole game: rules, players, hands with their inputs, totals, settlement."""
    game = get_session().get(Game, game_id)
    if game is None:
        abort(404)
    return jsonify(game_json(game))


@bp.post("/games/<game_id>/hands")
def add_hand(game_id: str) -> tuple[Response, int]:
    """Add a hand (quick totals or cards); the same Idempotency-Key twice adds one.

    The game is read without a lock, the secret and the body checked, and the hand
    played on the game's kept replay (``Variant.sheet_with``); then the game is locked
    for the write alone and the hand added and committed if the game is still at the
    version played on (another hand saved meanwhile: read and played again). A key
    used before answers with the hand it added."""
    for _attempt in range(SAVE_ATTEMPTS):
        answer = _save_hand(game_id)
        if answer is not None:
            return answer
    raise ApiError([("game", "other hands were being saved at the same moment; retry")], 409)


def _save_hand(game_id: str) -> tuple[Response, int] | None:
    """One try of ``add_hand``: its answer, or ``None`` when another hand was saved
    between the replay and the lock."""
    game, variant = service.read_for_change(game_id, editing=False)
    _check_secret(game)
    key = _idempotency_key()
    try:
        inputs = variant.api_inputs(json_object(), game)
    except ApiError:
        earlier = service.duplicate_of(get_session(), game, key)
        if earlier is None:
            raise
        # A retry of a request that was saved: its answer, whatever this body says.
        return _answer(game, earlier.hand_number, 200)
    # The game with this hand, played on from the kept replay of the version read (only
    # the hand is scored): it tells whether the game was over before the hand, the last
    # of it, and is the sheet the answer shows (``_answer``).
    saved = variant.sheet_with(game, inputs)
    over = saved.ended_before(len(variant.scored_hands(saved)))
    locked = service.lock_again(game, hands=False)
    db = get_session()
    if request.headers.get(CONFIRM_HEADER, "").strip().lower() != "repeat":
        try:
            service.check_repeat(db, locked, inputs, key)
        except service.Repeated as exc:
            db.rollback()
            raise ApiError([("hand", f"the same as hand {exc.number}, saved less than a "
                             "minute ago: nothing was saved. To save it all the same, send "
                             f"it again with the header {CONFIRM_HEADER}: repeat")],
                           409) from None
    try:
        number, new = service.add_hand(
            db, locked, inputs, token=key, version=game.version, by="API",
            finished=lambda _g: over,
        )
        db.commit()
    except service.Conflict:
        db.rollback()
        return None
    except service.Full:
        db.rollback()
        raise ApiError([("game", f"a game holds at most {limits.MOST_HANDS} hands and "
                         f"{limits.MOST_CHANGES} changes in its history: this one is full")],
                       409) from None
    except service.GameOver:
        db.rollback()
        raise ApiError([("game", "the game is over: no more hands")], 409) from None
    except IntegrityError:
        # Another request with the same key was saved first.
        db.rollback()
        earlier = service.duplicate_of(db, locked, key)
        if earlier is None:
            raise ApiError(
                [("game", "another hand was saved at the same moment; retry")], 409
            ) from None
        return _answer(db.get(Game, game_id) or abort(404), earlier.hand_number, 200)
    if new:  # the replay the next view of the game would make
        keep_sheet(locked, saved)
    return _answer(locked, number, 201 if new else 200, saved if new else None)


def _answer(
    game: Game, number: int | None, status: int, sheet: Sheet | None = None
) -> tuple[Response, int]:
    """The game's new totals and the number of the hand the request added; ``sheet``:
    the game as saved, replayed already (else it is replayed here)."""
    return jsonify(game_json(game, hands=False, sheet=sheet) | {"hand": number}), status


def _check_secret(game: Game) -> None:
    """The game's edit secret, or (a club night's table) the night organiser's."""
    secret = request.headers.get("X-Edit-Secret")
    if not access.secret_matches(game, secret) and not organises_table(game, secret):
        raise ApiError([("X-Edit-Secret", "this secret does not let you change this game")], 403)


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > 100:
        fail("Idempotency-Key", "must be at most 100 characters")
    return key


def _group_for(body: dict[str, Any]) -> Group | None:
    """The group a new game counts for: its edit secret must come in X-Edit-Secret."""
    if "group" not in body:
        return None
    group_id = body["group"]
    group = get_session().get(Group, group_id) if is_token(group_id) else None
    if group is None:
        fail("group", "there is no such group")
    if not access.secret_matches(group, request.headers.get("X-Edit-Secret")):
        raise ApiError([("X-Edit-Secret", "this secret does not let you change this group")], 403)
    return group


def _stake(body: dict[str, Any], group: Group | None) -> tuple[str | None, str | None]:
    """The game's own stake and currency, else its group's (scoring/stakes.py)."""
    if "stake" not in body:
        if "currency" in body:
            fail("currency", "a currency goes with a stake")
        return (group.stake, group.currency) if group is not None else (None, None)
    stake = str(parse_stake(body["stake"]))
    currency = body.get("currency") or (group.currency if group is not None else None)
    try:
        return stake, currency_code(currency)
    except StakeError as exc:
        fail("currency", str(exc))


def _players(names: list[str], counts: tuple[int, ...]) -> list[str]:
    """The players' names (their type read each: ``bodies.PlayerName``), spaces around
    them dropped: as many as the game's kind plays with, none looking like another."""
    if len(names) not in counts:
        fail("players", f"this game needs {' or '.join(str(c) for c in counts)} players")
    stripped = [name.strip() for name in names]
    pair = same_name(stripped)
    if pair is not None:
        first, second = pair
        fail(f"players[{second}]", f"looks the same as the name of players[{first}]: "
             "every player needs a different name")
    return stripped


def _roster_spelling(players: list[str], group: Group) -> None:
    """Refuse a player whose name looks like one of the group's but is written
    otherwise (``"Ann\u200b"`` for ``"Ann"``): the standings would count two people."""
    roster = {name_key(name): name for name in group.players}
    for i, name in enumerate(players):
        known = roster.get(name_key(name))
        if known is not None and known != name:
            fail(f"players[{i}]", "looks the same as a player of the group written another "
                 "way: write the name as the group does")
