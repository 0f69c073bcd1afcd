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
from ..db import get_session, rollback_session, writing
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

# Says a hand that repeats the last one is meant (``X-Confirm: repeat``), or that a
# restored hand may move the hands in its old place down one (``X-Confirm: move``).
CONFIRM_HEADER = "X-Confirm"

# Who made a change, as the game's history records it.
EDITOR = "API"

# Why a change to a club night's table whose result is confirmed is refused.
SETTLED = ("the result of this table is confirmed, so its game takes no more changes; the "
           "night's organiser can reopen the table")

# How many times a save reads and replays the game again when another hand was saved
# between its replay and its write: each time, another save got through, so no more
# than the phones saving to one game at once.
SAVE_ATTEMPTS = 30


# How each refusal of a change to a game's hands is answered, whatever the change (a
# new hand, a correction, a deletion, a restore): its status, where and why. Looked up
# by the exception's class and then its bases (``Full`` is a kind of ``GameOver``).
REFUSALS: dict[type[Exception], tuple[int, str, str]] = {
    service.Settled: (409, "game", SETTLED),
    service.Full: (409, "game", f"a game holds at most {limits.MOST_HANDS} hands and "
                   f"{limits.MOST_CHANGES} changes in its history: this one is full"),
    service.GameOver: (409, "game", "the game is over: no more hands"),
    service.Conflict: (409, "version", "the game changed since the version named; read the "
                       "game again"),
    LookupError: (404, "hand", "the game has no hand of this number"),
    ValueError: (409, "change", "the hand no longer fits the game as it stands: nothing "
                 "was changed"),
}
# The refusals a change answers with ``REFUSALS``.
REFUSED = tuple(REFUSALS)


def refusal(exc: Exception) -> ApiError:
    """The answer to a refused change (``REFUSALS``); what it began is rolled back."""
    rollback_session()
    status, where, message = next(REFUSALS[kind] for kind in type(exc).__mro__
                                  if kind in REFUSALS)
    return ApiError([(where, message)], status)


def _settled(exc: service.Settled) -> tuple[Response, int]:
    """A change to a club night's table whose result is confirmed (409), wherever in
    the API it is refused."""
    error = refusal(exc)
    return jsonify(errors=[{"where": w, "message": m} for w, m in error.problems]), error.status


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
    service.record_event(game, "create", EDITOR, {"players": players, "rules": game.rules})
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
            db, locked, inputs, token=key, version=game.version, by=EDITOR,
            finished=lambda _g: over,
        )
        db.commit()
    except service.Conflict:
        db.rollback()
        return None
    except (service.Full, service.GameOver) as exc:
        raise refusal(exc) from None
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
    game: Game, number: int | None, status: int, sheet: Sheet | None = None, **extra: Any
) -> tuple[Response, int]:
    """The game's new totals and the number of the hand the request added, corrected,
    deleted or restored; ``sheet``: the game as saved, replayed already (else it is
    replayed here)."""
    answer = game_json(game, hands=False, sheet=sheet) | {"hand": number} | extra
    return jsonify(answer), status


@bp.patch("/games/<game_id>/hands/<int:number>")
def correct_hand(game_id: str, number: int) -> tuple[Response, int]:
    """Correct hand ``number``: the body is the hand as ``add_hand`` takes it, with the
    game's ``version`` as read; everything after it is recomputed."""
    game, variant = service.read_for_change(game_id, editing=False)
    _check_secret(game)
    body = json_object()
    version = _version(body.pop("version", None))
    _numbered(game, number)
    inputs = variant.api_inputs(body, game)
    locked = service.lock_again(game)
    try:
        with writing() as db:
            service.edit_hand(db, locked, number, inputs, version=version, by=EDITOR)
    except REFUSED as exc:
        raise refusal(exc) from None
    return _answer(locked, number, 200)


@bp.delete("/games/<game_id>/hands/<int:number>")
def delete_hand(game_id: str, number: int) -> tuple[Response, int]:
    """Delete hand ``number`` (the last one: undo it), the game's ``version`` in the
    query string; the hands after it move up one, and the answer's ``change`` (the
    deletion's entry in the game's history) restores it."""
    game, _variant = service.read_for_change(game_id, editing=False)
    _check_secret(game)
    version = _version(request.args.get("version"), query=True)
    _numbered(game, number)
    locked = service.lock_again(game)
    try:
        with writing() as db:
            service.delete_hand(db, locked, number, version=version, by=EDITOR)
            change = service.last_change(db, locked)
    except REFUSED as exc:
        raise refusal(exc) from None
    assert change is not None
    return _answer(locked, number, 200, change=change.id)


@bp.post("/games/<game_id>/changes/<int:change_id>/restore")
def restore_hand(game_id: str, change_id: int) -> tuple[Response, int]:
    """Put a deleted hand back, exactly as it was entered, from its entry in the game's
    history; where hands stand in its old place now, only with ``X-Confirm: move`` (they
    move down one), else 409 saying which would move."""
    game, variant = service.read_for_change(game_id, editing=False)
    _check_secret(game)
    body = bodies.read(bodies.GameVersion) if request.get_data(cache=True) else {}
    moving = request.headers.get(CONFIRM_HEADER, "").strip().lower() == "move"
    try:
        with writing():
            # Worked out on the game as read, as the sheet's restore does: the hand must
            # still fit; then the write, locked, if the game is still at that version.
            finished = bool(variant.sheet(game).finished)
            plan = service.restoring(game, change_id, finished=lambda _g: finished,
                                     moving=moving)
            variant.check(game, plan.inputs)
            variant.sheet_with(game, plan.inputs, plan.number)
            locked = service.lock_again(game)
            number, _inputs = service.restore_hand(
                get_session(), locked, change_id, version=body.get("version"), by=EDITOR,
                finished=lambda _g: finished, moving=moving,
            )
    except service.NotRestorable as exc:
        rollback_session()
        found = exc.reason != "not_found"
        message = {"restored": "was restored already",
                   "moved": "the hand's old place is past the end of the game now"}.get(
            exc.reason, "is no deleted hand of this game")
        raise ApiError([("change", message)], 409 if found else 404) from None
    except service.WouldMove as exc:
        rollback_session()
        moves = (f"hand {exc.number} moves" if exc.last == exc.number
                 else f"hands {exc.number} to {exc.last} move")
        raise ApiError([("change", f"the hand comes back as hand {exc.number}, where {moves} "
                         "down one: nothing was restored. To restore it all the same, send "
                         f"it again with the header {CONFIRM_HEADER}: move")], 409) from None
    except REFUSED as exc:
        raise refusal(exc) from None
    return _answer(locked, number, 200)


def _version(value: Any, *, query: bool = False) -> int | None:
    """The game's ``version`` a change names (``None``: not named, no check)."""
    if value is None:
        return None
    if query and isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    fail("version", "must be the game's version, as GET /api/v1/games/<id> says it")


def _numbered(game: Game, number: int) -> None:
    """Refuse (404) a hand number the game does not have."""
    if not 1 <= number <= service.hand_count(game):
        raise ApiError([("hand", "the game has no hand of this number")], 404)


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
