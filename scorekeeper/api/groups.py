"""Groups over JSON: create one, and read its games, standings, head-to-head and money.

Money is always a decimal string (``"1.53"``), never a JSON number.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, url_for

from .. import limits
from ..db import get_session
from ..groups import service
from ..groups.service import GroupView
from ..jsonbody import fail, json_object, list_at, refuse_nulls
from ..models import Group
from ..money import currency_code
from ..names import same_name, text_problem
from ..scoring.stakes import StakeError
from . import bp

GROUP_NAME_MAX = 60


@bp.post("/groups")
@limits.create
def create_group() -> tuple[Response, int]:
    """Start a group; the answer carries its edit secret and links."""
    body = json_object()
    name = body.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > GROUP_NAME_MAX:
        fail("name", f"a group needs a name of at most {GROUP_NAME_MAX} characters")
    if (bad := text_problem(name)) is not None:
        fail("name", f"a name cannot hold {bad}")
    players = list_at(body.get("players"), "players", limit=service.ROSTER_MAX)
    if not all(isinstance(p, str) and p.strip() for p in players):
        fail("players", "every player needs a name")
    names = [p.strip() for p in players]
    problem = service.check_roster(names)
    if problem is not None:
        fail("players", problem)
    for i, player in enumerate(names):
        if (bad := text_problem(player)) is not None:
            fail(f"players[{i}]", f"a name cannot hold {bad}")
    pair = same_name(names)
    if pair is not None:
        fail(f"players[{pair[1]}]", f"looks the same as the name of players[{pair[0]}]: "
             "every player needs a different name")
    refuse_nulls(body, "stake", "currency")
    try:
        stake, currency = service.stake_texts(body.get("stake"), "EUR")
    except StakeError as exc:
        fail("stake", str(exc))
    if stake is not None:
        try:
            currency = currency_code(body.get("currency"))
        except StakeError as exc:
            fail("currency", str(exc))
    group = Group(name=name.strip(), players=names, stake=stake, currency=currency)
    db = get_session()
    db.add(group)
    db.commit()
    return jsonify(
        id=group.id,
        edit_secret=group.edit_secret,
        view_url=url_for("groups.page", group_id=group.id, _external=True),
        edit_url=url_for("groups.page", group_id=group.id, key=group.edit_secret, _external=True),
    ), 201


@bp.get("/groups/<group_id>")
def read_group(group_id: str) -> Response:
    """The group: roster, stake, games, standings, head-to-head, payments."""
    db = get_session()
    group = service.load_group(db, group_id)
    shown = service.view(db, group)
    service.keep_summaries(shown)
    return jsonify(group_json(shown))


def group_json(shown: GroupView) -> dict[str, Any]:
    """A group as ``GET /api/v1/groups/<id>`` returns it."""
    group = shown.group
    st = shown.standings
    return {
        "id": group.id,
        "name": group.name,
        "players": list(group.players),
        "stake": group.stake,
        "currency": group.currency,
        "games": [
            {
                "id": game.id,
                "variant": game.variant,
                "created_at": game.created_at.isoformat(),
                "finished": record.finished,
                "winner": sorted(record.winners)[0] if len(record.winners) == 1 else None,
                "winners": sorted(record.winners),
                "finals": dict(record.finals),
                "stake": game.stake,
                "currency": game.currency,
                "payments": [_payment(p, game.currency) for p in shown.game_payments[game.id]],
            }
            for game, record in shown.games
        ],
        "standings": [
            {
                "name": s.name,
                "games": s.games,
                "wins": s.wins,
                "finals": s.finals,
                "margins": s.margins,
                "hands": s.hands,
                "hands_won": s.hands_won,
                "gins": s.gins,
                "big_gins": s.big_gins,
                "undercuts": s.undercuts_made,
                "undercuts_suffered": s.undercuts_suffered,
                "knocks": s.knocks,
                "dead_hands": s.dead_hands,
                "boxes": s.boxes,
                "shutouts_given": s.shutouts_given,
                "shutouts_suffered": s.shutouts_suffered,
                "longest_streak": s.longest_streak,
                "biggest_hand": s.biggest_hand,
                "balance": str(shown.balances.get(s.name, "0")),
            }
            for s in st.players
        ],
        "head_to_head": [
            {
                "players": [p.first, p.second],
                "games": p.games,
                "wins": [p.first_wins, p.second_wins],
                "net": p.net,
            }
            for p in st.pairs
        ],
        "balances": {name: str(amount) for name, amount in shown.balances.items()},
        "balance_currency": shown.currency,
        "settle_up": [_payment(p, shown.currency) for p in shown.settle_up],
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
    }


def _payment(p: Any, currency: str | None) -> dict[str, Any]:
    return {"from": p.payer, "to": p.payee, "amount": str(p.amount), "currency": currency}
