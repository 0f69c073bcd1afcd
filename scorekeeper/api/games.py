"""Games over JSON: create one, read the whole game, add a hand.

``GET /api/v1/games/<id>`` is also the export format. Adding a hand needs the game's
``X-Edit-Secret`` header; an ``Idempotency-Key`` makes a retried request harmless.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Response, abort, jsonify, request, url_for
from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from ..db import (
    Alone,
    alone,
    autocommits,
    get_session,
    snapshot_engine,
    writer_engine,
)
from ..games import access, service
from ..jsonbody import ApiError, fail, json_object, list_at, rules_from_json
from ..models import Game, GameData, GameRow, Group, HandRow
from ..records import payments_of
from ..scoring.stakes import StakeError, parse_currency, parse_stake
from ..variants import VARIANTS, Variant, variant_for
from . import bp

NAME_MAX = 40


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Start a game; the answer carries its edit secret and links."""
    body = json_object()
    name = body.get("variant", "gin")
    if not isinstance(name, str) or name not in VARIANTS:
        fail("variant", f"must be one of {', '.join(VARIANTS)}")
    variant = VARIANTS[name]
    rules = variant.rules_for(rules_from_json(body.get("rules", variant.default_preset)))
    players = _players(body.get("players"), variant.player_counts)
    dealer, second = body.get("dealer", 0), body.get("captain")
    for key, value in (("dealer", dealer), ("captain", second)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            fail(key, "must be a seat number")
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

    A game that can go on from its kept tally is saved in one short transaction
    (``_add_from_tally``). Any other is read as plain rows: on an SQLite file through
    a reader, without the write lock (``db.snapshot_engine``), so the lock is held only
    for the writes, which go through only if the game's version is still the one
    read; after a lost race, or when the game it read was over, the hand is saved (or
    refused) the locked way. Elsewhere the game is read locked (``service.lock_row``).
    Either way the game is replayed, and keeps the tally of the replay.
    """
    added = _add_from_tally(game_id)
    if added is not None:
        return added
    db = get_session()
    snapshot = snapshot_engine()
    if snapshot is not None:
        with snapshot.connect() as connection, connection.begin():  # one snapshot
            game = service.read_row(connection, game_id)
    else:
        game = service.lock_row(db, game_id)
    if game is None:
        abort(404)
    _check_secret(game)
    key = _idempotency_key()
    variant = variant_for(game)
    try:
        inputs = variant.api_inputs(json_object(), game)
    except ApiError:
        earlier = service.duplicate_of(db, game, key)
        if earlier is None:
            raise
        # A retry of a request that was saved: its answer, whatever this body says.
        return jsonify(game_json(game, hands=False) | {"hand": earlier.hand_number}), 200
    if snapshot is not None:
        try:
            return _save(db, game, variant, inputs, key, unlocked=True)
        except service.Conflict:
            db.rollback()
            game = service.lock_row(db, game_id) or abort(404)
    return _save(db, game, variant, inputs, key, unlocked=False)


def _check_secret(game: GameData) -> None:
    if not access.secret_matches(game, request.headers.get("X-Edit-Secret")):
        raise ApiError([("X-Edit-Secret", "this secret does not let you change this game")], 403)


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > 100:
        fail("Idempotency-Key", "must be at most 100 characters")
    return key


def _add_from_tally(game_id: str) -> tuple[Response, int] | None:
    """Save the hand going on from the game's kept tally: the game's row alone is
    read, one hand is scored and added to the tally, and the hand, its key, its
    history entry, the new version and the new tally are written. Neither the game's
    hands nor an ORM session are touched.

    On PostgreSQL in statements that are each their own transaction
    (``_save_alone``): the write goes through only if the game's version and
    ``updated_at`` are still those of the row it went on from
    (``service.write_new_hand`` with ``unlocked``), else nothing is written; that
    row is the one the last such hand kept (``service.kept_row``), or else one read
    without a lock. Elsewhere in one short transaction of the writer's own, the row
    read locked (SQLite's write lock is taken at BEGIN).

    ``None``, with nothing written, when the game cannot go on that way (not found, of
    a kind that keeps no tally, changed since its tally was kept or since it was read,
    over, or ended by this very hand, whose settlement and payments read every hand)
    or when the answer is the other path's to give (a body it refuses, which may be
    the retry of a saved hand; a key used before): ``add_hand`` then saves the hand
    the whole way.
    """
    try:
        body = json_object()
    except ApiError:
        return None
    try:
        if not autocommits():
            with writer_engine().connect() as connection, connection.begin() as transaction:
                game = service.read_row(connection, game_id, hands=False)
                saved = _save_from_tally(connection, game, body, unlocked=False)
                if saved is None:
                    transaction.rollback()
        else:
            saved = _save_alone(game_id, body)
    except (IntegrityError, service.Conflict):  # a used key, or a game changed meanwhile
        return None
    if saved is None:
        return None
    game, played, number = saved
    _keep_for_the_next_hand(game)
    return jsonify(game_json(game, played, hands=False) | {"hand": number}), 201


def _keep_for_the_next_hand(game: GameRow) -> None:
    """Keep the row of a game just saved with its tally, where the next hand can go on
    from it without reading it (``_save_alone``: PostgreSQL's one-statement saves)."""
    if autocommits() and game.tally is not None:
        service.keep_row(game)


def _save_alone(game_id: str, body: dict[str, Any]) -> tuple[GameRow, Any, int] | None:
    """``_save_from_tally`` in statements that each run alone (``db.Alone``): at once
    the checked write, from the game's row as the last hand saved this way left it
    (``service.kept_row``, shared by the server's processes); when there is none, or
    the write finds the game changed since, the row read without a lock and the
    checked write again.

    A pooled connection that the database ended since it was last used (a restart,
    within ``db.PING_IDLE_SECONDS``) is seen before anything is sent on it and another
    is taken; the read is also tried once more on a new connection when it finds its
    connection dead: nothing is written yet."""
    kept = service.kept_row(game_id)
    for last_try in (False, True):
        with alone() as connection:
            if not last_try and connection.ended_by_server():
                continue
            if kept is not None:
                try:
                    return _save_from_tally(connection, kept, body, unlocked=True)
                except service.Conflict:
                    kept = None  # changed since it was kept: read as it is now
            try:
                game = service.read_row(connection, game_id, lock=False, hands=False)
            except DBAPIError as exc:
                if last_try or not exc.connection_invalidated:
                    raise
                continue  # the pool hands out a new connection
            return _save_from_tally(connection, game, body, unlocked=True)
    raise AssertionError("unreachable")  # the last try returns or raises


def _save_from_tally(
    connection: Connection | Alone, game: GameRow | None, body: dict[str, Any], *, unlocked: bool
) -> tuple[GameRow, Any, int] | None:
    if game is None:
        return None
    variant = variant_for(game)
    standing = variant.standing(game)
    if standing is None:
        return None
    _check_secret(game)
    key = _idempotency_key()
    try:
        inputs = variant.api_inputs(body, game)
    except ApiError:
        return None
    played, number = variant.resume(game, standing, inputs)
    if played.finished:
        return None
    tally = variant.kept_tally(played, game.version + 1)
    service.write_new_hand(connection, game, number, inputs, token=key, by="API",
                           unlocked=unlocked, tally=tally)
    return game, played, number


def _save(
    db: Session, game: GameRow, variant: Variant, inputs: dict[str, Any], key: str | None,
    *, unlocked: bool,
) -> tuple[Response, int]:
    """Store the hand and answer with the game's new totals (``add_hand``)."""
    # The game replayed with the new hand last: the answer's totals, and (usually) all
    # the end-of-game check needs. A game never stops being over when a hand is added,
    # so a game still going with the new hand was going without it too; only a game
    # that is over with it is replayed again without it, to see whether it was over
    # already. One replay a hand instead of two, except the hand that ends a game.
    played = variant.sheet(replace(game, hands=[*game.hands, HandRow(len(game.hands) + 1, inputs)]))

    def over_before(g: GameData) -> bool:
        return bool(played.finished) and bool(variant.sheet(g).finished)

    try:
        number, new = service.add_hand(
            db, game, inputs, token=key, version=None, by="API", finished=over_before,
            unlocked=unlocked, tally=variant.kept_tally(played, game.version + 1),
        )
        db.commit()
    except service.GameOver:
        db.rollback()
        if unlocked:  # a correction may have reopened the game since it was read
            raise service.Conflict from None
        raise ApiError([("game", "the game is over: no more hands")], 409) from None
    except IntegrityError:
        db.rollback()
        earlier = service.duplicate_of(db, game, key)
        if earlier is None:
            raise ApiError(
                [("game", "another hand was saved at the same moment; retry")], 409
            ) from None
        stored = db.get(Game, game.id) or abort(404)
        return jsonify(game_json(stored, hands=False) | {"hand": earlier.hand_number}), 200
    if new:
        _keep_for_the_next_hand(game)
    answer = game_json(game, played if new else None, hands=False)
    return jsonify(answer | {"hand": number}), 201 if new else 200


def _group_for(body: dict[str, Any]) -> Group | None:
    """The group a new game counts for: its edit secret must come in X-Edit-Secret."""
    group_id = body.get("group")
    if group_id is None:
        return None
    if not isinstance(group_id, str):
        fail("group", "must be a group's id")
    group = get_session().get(Group, group_id)
    if group is None:
        fail("group", "there is no such group")
    if not access.secret_matches(group, request.headers.get("X-Edit-Secret")):
        raise ApiError([("X-Edit-Secret", "this secret does not let you change this group")], 403)
    return group


def _stake(body: dict[str, Any], group: Group | None) -> tuple[str | None, str | None]:
    """The game's own stake and currency, else its group's (RULES.md §9)."""
    if body.get("stake") is None:
        if body.get("currency") is not None:
            fail("currency", "a currency goes with a stake")
        return (group.stake, group.currency) if group is not None else (None, None)
    try:
        stake = str(parse_stake(body["stake"]))
    except StakeError as exc:
        fail("stake", str(exc))
    currency = body.get("currency") or (group.currency if group is not None else None) or "EUR"
    try:
        return stake, parse_currency(currency)
    except StakeError as exc:
        fail("currency", str(exc))


def _players(value: Any, counts: tuple[int, ...]) -> list[str]:
    names = list_at(value, "players", limit=max(counts))
    if len(names) not in counts:
        fail("players", f"this game needs {' or '.join(str(c) for c in counts)} players")
    problems = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            problems.append((f"players[{i}]", "every player needs a name"))
        elif len(name.strip()) > NAME_MAX:
            problems.append((f"players[{i}]", f"a name has at most {NAME_MAX} characters"))
    if problems:
        raise ApiError(problems)
    stripped = [name.strip() for name in names]
    if len(set(stripped)) != len(stripped):
        fail("players", "every player needs a different name")
    return stripped


def game_json(game: GameData, sheet: Any = None, *, hands: bool = True) -> dict[str, Any]:
    """The whole game as JSON (also the export format); ``hands=False`` leaves out the
    per-hand list (the answer to adding a hand carries the new totals, not the history)."""
    variant = variant_for(game)
    played = sheet if sheet is not None else variant.sheet(game)
    money: dict[str, Any] = {}
    if game.stake is not None:
        money = {"stake": game.stake, "currency": game.currency}
        if played.finished:
            money["payments"] = [
                {"from": p.payer, "to": p.payee, "amount": str(p.amount), "currency": game.currency}
                for p in payments_of(game)
            ]
    return {
        "id": game.id,
        "variant": game.variant,
        "players": list(game.players),
        "rules": dict(game.rules),
        "setup": dict(game.setup),
        "version": game.version,
        "created_at": game.created_at.isoformat(),
        **variant.sheet_json(game, played, hands=hands),
        **money,
    }
