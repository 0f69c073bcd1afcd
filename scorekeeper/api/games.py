"""Games over JSON: create one, read the whole game, add a hand.

``GET /api/v1/games/<id>`` is also the export format. Adding a hand needs the game's
``X-Edit-Secret`` header; an ``Idempotency-Key`` makes a retried request harmless.
"""

from __future__ import annotations

from typing import Any

from flask import Response, abort, jsonify, request, url_for
from sqlalchemy.exc import IntegrityError

from ..db import get_session
from ..games import access, service
from ..hands import ScoredHand, score_hand
from ..models import Game
from ..scoring import HandError
from ..sheets import TWO_PLAYER_VARIANTS, GinSheet, game_rules, gin_sheet
from . import bp
from .errors import (
    ApiError,
    card_from_json,
    cards_from_json,
    cards_json,
    fail,
    index_from_json,
    json_object,
    list_at,
    object_at,
    problems_at,
    rules_from_json,
)

NAME_MAX = 40
QUICK = ("knock", "gin", "big_gin", "dead")


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Start a game; the answer carries its edit secret and links."""
    body = json_object()
    variant = body.get("variant", "gin")
    if variant not in TWO_PLAYER_VARIANTS:
        fail("variant", f"must be one of {', '.join(TWO_PLAYER_VARIANTS)}")
    spec = body.get("rules", "oklahoma" if variant == "oklahoma" else "classic")
    rules = rules_from_json(spec)
    if variant == "oklahoma" and not rules.oklahoma:
        rules = rules.replace(oklahoma=True)
    players = _players(body.get("players"), 2)
    dealer = body.get("dealer", 0)
    index_from_json(dealer, "dealer", len(players))
    db = get_session()
    game = Game(variant=variant, players=players, rules=rules.to_dict(), setup={"dealer": dealer})
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
    return jsonify(game_json(game, gin_sheet(game)))


@bp.post("/games/<game_id>/hands")
def add_hand(game_id: str) -> tuple[Response, int]:
    """Add a hand (quick totals or cards); the same Idempotency-Key twice adds one."""
    db = get_session()
    game = service.lock_game(db, game_id)
    if game is None:
        abort(404)
    if not access.secret_matches(game, request.headers.get("X-Edit-Secret")):
        raise ApiError([("X-Edit-Secret", "this secret does not let you change this game")], 403)
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > 100:
        fail("Idempotency-Key", "must be at most 100 characters")
    earlier = service.duplicate_of(db, game, key)
    if earlier is not None:
        db.rollback()
        return jsonify(game_json(game, gin_sheet(game)) | {"hand": earlier.hand_number}), 200
    inputs = hand_inputs(json_object(), len(game.players))
    try:
        score_hand(game_rules(game), inputs)
    except HandError as exc:
        raise problems_at(exc.problems, _ENGINE_WHERE) from None
    try:
        number = service.add_hand(
            db,
            game,
            inputs,
            token=key,
            version=None,
            by="API",
            finished=lambda g: gin_sheet(g).finished,
        )
        db.commit()
    except service.GameOver:
        db.rollback()
        raise ApiError([("game", "the game is over: no more hands")], 409) from None
    except IntegrityError:
        db.rollback()
        if service.duplicate_of(db, game, key) is None:
            raise ApiError(
                [("game", "another hand was saved at the same moment; retry")], 409
            ) from None
        game = db.get(Game, game_id) or abort(404)
        return jsonify(game_json(game, gin_sheet(game))), 200
    return jsonify(game_json(game, gin_sheet(game)) | {"hand": number}), 201


_ENGINE_WHERE = {
    "knocker.cards": "knocker.cards",
    "defender.cards": "defender.cards",
    "knocker.melds": "knocker.melds",
    "defender.melds": "defender.melds",
    "defender.layoffs": "defender.layoffs",
}


def _players(value: Any, count: int) -> list[str]:
    names = list_at(value, "players", limit=count)
    if len(names) != count:
        fail("players", f"this game needs {count} players")
    problems = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            problems.append((f"players[{i}]", "every player needs a name"))
        elif len(name.strip()) > NAME_MAX:
            problems.append((f"players[{i}]", f"a name has at most {NAME_MAX} characters"))
    if problems:
        raise ApiError(problems)
    return [name.strip() for name in names]


def _deadwood(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(where, "must be a whole number")
    return int(value)


def hand_inputs(body: dict[str, Any], seats: int) -> dict[str, Any]:
    """Stored inputs from an API hand body (quick totals or cards)."""
    upcard = body.get("upcard")
    upcard_text = str(card_from_json(upcard, "upcard")) if upcard is not None else None
    knocker = body.get("knocker")
    if isinstance(knocker, dict):
        return _card_inputs(body, knocker, seats, upcard_text)
    outcome = body.get("outcome")
    if outcome not in QUICK:
        fail("outcome", f"must be one of {', '.join(QUICK)}")
    if outcome == "dead":
        return {
            "mode": "quick",
            "outcome": "dead",
            "knocker": None,
            "knocker_deadwood": None,
            "defender_deadwood": None,
            "upcard": upcard_text,
        }
    return {
        "mode": "quick",
        "outcome": outcome,
        "knocker": index_from_json(knocker, "knocker", seats),
        "knocker_deadwood": _deadwood(body.get("knocker_deadwood", 0), "knocker_deadwood"),
        "defender_deadwood": _deadwood(body.get("defender_deadwood"), "defender_deadwood"),
        "upcard": upcard_text,
    }


def _card_inputs(
    body: dict[str, Any], knocker: dict[str, Any], seats: int, upcard: str | None
) -> dict[str, Any]:
    seat = knocker.get("seat", body.get("knocker_seat"))
    defender = object_at(body.get("defender"), "defender")

    def melds(value: Any, where: str) -> list[list[str]] | None:
        if value is None:
            return None
        return [
            cards_json(cards_from_json(m, f"{where}[{i}]"))
            for i, m in enumerate(list_at(value, where, limit=8))
        ]

    layoffs = None
    if defender.get("layoffs") is not None:
        layoffs = []
        for i, item in enumerate(list_at(defender["layoffs"], "defender.layoffs", limit=11)):
            item = object_at(item, f"defender.layoffs[{i}]")
            meld = item.get("meld")
            if isinstance(meld, bool) or not isinstance(meld, int):
                fail(f"defender.layoffs[{i}].meld", "must be a whole number")
            layoffs.append(
                {
                    "card": str(card_from_json(item.get("card"), f"defender.layoffs[{i}].card")),
                    "meld": meld,
                }
            )
    return {
        "mode": "cards",
        "knocker": index_from_json(seat, "knocker.seat", seats),
        "knocker_cards": cards_json(cards_from_json(knocker.get("cards"), "knocker.cards")),
        "knocker_melds": melds(knocker.get("melds"), "knocker.melds"),
        "defender_cards": cards_json(cards_from_json(defender.get("cards"), "defender.cards")),
        "defender_melds": melds(defender.get("melds"), "defender.melds"),
        "layoffs": layoffs,
        "upcard": upcard,
    }


def _hand_json(number: int, scored: ScoredHand, sheet: GinSheet) -> dict[str, Any]:
    row = sheet.game.rows[number - 1]
    return {
        "number": number,
        "inputs": dict(scored.inputs),
        "dealer": row.dealer,
        "outcome": row.hand.outcome.value,
        "winner": row.hand.winner,
        "points": row.hand.points,
        "doubled": row.hand.doubled,
        "box": row.box,
        "totals": list(row.totals),
        "after_end": row.after_end,
        "explanation": [str(step) for step in scored.result.explanation],
    }


def game_json(game: Game, sheet: GinSheet) -> dict[str, Any]:
    """The whole game as JSON (also the export format)."""
    played = sheet.game
    settlement = None
    if played.settlement is not None:
        s = played.settlement
        settlement = {
            "winner": s.winner,
            "shutout": s.shutout,
            "lines": [
                {"seat": line.seat, "amount": line.amount, "text": str(line.step)}
                for line in s.lines
            ],
            "finals": list(s.finals),
            "margin": s.margin,
            "explanation": [str(step) for step in s.explanation],
        }
    return {
        "id": game.id,
        "variant": game.variant,
        "players": list(game.players),
        "rules": dict(game.rules),
        "setup": dict(game.setup),
        "version": game.version,
        "created_at": game.created_at.isoformat(),
        "hands": [_hand_json(i + 1, h, sheet) for i, h in enumerate(sheet.hands)],
        "totals": list(played.totals),
        "boxes": list(played.boxes),
        "needs": list(played.needs),
        "next_dealer": played.next_dealer,
        "finished": played.finished,
        "winner": played.winner,
        "settlement": settlement,
    }
