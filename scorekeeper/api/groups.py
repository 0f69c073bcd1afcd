"""Groups over JSON: create one, read its games, standings, head-to-head and money,
record, correct, delete and restore its payments, and record its settling up.

Money is always a decimal string (``"1.53"``), never a JSON number. A change needs
the group's ``X-Edit-Secret``; a body's ``"version"`` (the group's, as read) makes a
change that another one overtook a 409 instead of a second one.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from flask import Response, abort, jsonify, request, url_for

from .. import limits
from ..db import get_session
from ..jsonbody import ApiError, fail
from ..models import Group
from ..models import Payment as PaymentRow
from ..money import AmountError, currency_code, parse_amount
from ..names import same_name
from ..scoring.stakes import StakeError
from ..services import access, payments, players
from ..services import groups as service
from ..services.documents import Payment
from ..services.groups import GroupView
from ..services.summaries import MELD
from ..variants import VARIANTS
from . import answers, bodies, bp


@bp.post("/groups")
@limits.create
def create_group() -> tuple[Response, int]:
    """Start a group; the answer carries its edit secret and links."""
    body = bodies.read(bodies.NewGroup)
    name: str = body["name"]
    names = [p.strip() for p in body["players"]]
    problem = service.check_roster(names)
    if problem is not None:
        fail("players", problem)
    pair = same_name(names)
    if pair is not None:
        fail(f"players[{pair[1]}]", f"looks the same as the name of players[{pair[0]}]: "
             "every player needs a different name")
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


def group_json(shown: GroupView) -> answers.Group:
    """A group as ``GET /api/v1/groups/<id>`` returns it."""
    group = shown.group
    st = shown.standings
    changes = list(group.changes)
    restorable = payments.restorable(changes)
    return {
        "id": group.id,
        "name": group.name,
        "players": list(group.players),
        "stake": group.stake,
        "currency": group.currency,
        "rating_kinds": group.rating_kinds or sorted(VARIANTS),
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
                **rating_json(shown, s.name),
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
        "payments": [_recorded(p) for p in group.payments],
        "version": group.version,
        "history": [
            {
                "id": change.id,
                "action": change.action,
                "at": change.at.isoformat(),
                "by": change.by,
                "before": change.before,
                "after": change.after,
                "restorable": change.id in restorable,
            }
            for change in changes
        ],
    }


@bp.get("/groups/<group_id>/players/<player:name>", merge_slashes=False)
def read_player(group_id: str, name: str) -> Response:
    """One player across the group: rating and its history, every counted figure,
    results against each opponent, money won and lost, their games."""
    db = get_session()
    group = service.load_group(db, group_id)
    shown = service.view(db, group)
    service.keep_summaries(shown)
    figures = players.player_view(shown, name)
    if figures is None:
        abort(404)
    s, rating = figures.standing, figures.rating
    player: answers.Player = {
        "name": name,
        **rating_json(shown, name),
        "best_rating": round(rating.best, 2),
        "rating_history": [{"game": game, "rating": round(value, 2)}
                           for game, value in rating.history],
        "games": s.games,
        "wins": s.wins,
        "win_rate": s.win_rate,
        "win_rate_history": [{"game": game, "win_rate": rate}
                             for game, _when, rate in figures.win_rates],
        "longest_streak": s.longest_streak,
        "figures": {key: n for key, n in sorted(s.counts.items())
                    if not key.startswith(MELD)},
        "average_won_hand": s.average("won_points", "hands_won"),
        "average_knock_deadwood": s.average("knock_deadwood", "card_knocks"),
        "average_caught_deadwood": s.average("caught", "card_knocker_hands"),
        "layoffs_per_hand": s.average("laid_off", "card_defences"),
        "melds": [{"cards": cards, "times": n} for cards, n in figures.melds],
        "against": [
            {
                "opponent": p.second if p.first == name else p.first,
                "games": p.games,
                "wins": p.first_wins if p.first == name else p.second_wins,
                "losses": p.second_wins if p.first == name else p.first_wins,
                "net": p.net if p.first == name else -p.net,
            }
            for p in figures.pairs
        ],
        "money_won": str(figures.won_money),
        "money_lost": str(figures.lost_money),
        "balance": str(shown.balances.get(name, "0")),
        "balance_currency": shown.currency,
        "game_ids": [r.game_id for r in figures.records],
    }
    return jsonify(player)


def rating_json(shown: GroupView, name: str) -> answers.Rating:
    """A player's rating as the group's standings and their own page give it: the
    conservative number (μ − 3σ) to two places, μ and σ, and how settled it is."""
    rating = shown.ratings.get(name)
    if rating is None:
        return {"rating": None}
    return {
        "rating": round(rating.value, 2),
        "rating_mu": round(rating.mu, 2),
        "rating_sigma": round(rating.sigma, 2),
        "rated_games": rating.games,
        "rating_provisional": rating.provisional,
    }


def _recorded(p: PaymentRow) -> answers.RecordedPayment:
    made = payments.payment_json(p)
    return {"id": p.id, "from": made["from"], "to": made["to"], "amount": made["amount"],
            "currency": made["currency"], "date": made["date"]}


def _payment(p: Any, currency: str | None) -> Payment:
    return {"from": p.payer, "to": p.payee, "amount": str(p.amount), "currency": currency}


# --- payments ---------------------------------------------------------------------


def _locked(group_id: str) -> Group:
    """The group locked for a change, after its edit secret was checked."""
    group = service.lock_group(get_session(), group_id)
    if not access.secret_matches(group, request.headers.get("X-Edit-Secret")):
        raise ApiError([("X-Edit-Secret", "this secret does not let you change this group")],
                       403)
    return group


def _changed(group: Group) -> ApiError:
    get_session().rollback()
    return ApiError([("version", "the group's payments changed since you read them; "
                                 "read the group again")], 409)


def _payment_fields(
    body: dict[str, Any], group: Group, currency: str | None, now: PaymentRow | None = None
) -> tuple[str, str, Decimal, date]:
    """Payer, payee, amount and date from a body; a correction keeps what it leaves out."""
    names = [*group.players, *((now.payer, now.payee) if now else ())]
    payer = body.get("from", now.payer if now else None)
    payee = body.get("to", now.payee if now else None)
    for key, name in (("from", payer), ("to", payee)):
        if name not in names:
            fail(key, "must be a player of the group")
    if payer == payee:
        fail("to", "somebody pays somebody else")
    try:
        amount = parse_amount(body["amount"], currency) if "amount" in body else Decimal(
            now.amount if now else "")
    except (AmountError, ArithmeticError) as exc:
        fail("amount", str(exc) if isinstance(exc, AmountError) else "an amount is needed")
    paid_on = now.paid_on if now else date.today()
    if "date" in body:
        try:
            paid_on = date.fromisoformat(str(body["date"]))
        except ValueError:
            fail("date", "must be a date, like 2026-12-01")
    if paid_on > date.today() + timedelta(days=1):
        fail("date", "a payment is dated today or before")
    return str(payer), str(payee), amount, paid_on


def _group_answer(group: Group, status: int, **extra: Any) -> tuple[Response, int]:
    shown = service.view(get_session(), group)
    return jsonify(group_json(shown) | extra), status


@bp.post("/groups/<group_id>/payments")
def record_payment(group_id: str) -> tuple[Response, int]:
    """Record money that changed hands; the answer is the group, with ``payment``."""
    group = _locked(group_id)
    body = bodies.read(bodies.NewPayment)
    currency = service.balance_currency(group, service.group_games(get_session(), group))
    payer, payee, amount, paid_on = _payment_fields(body, group, currency)
    try:
        made = payments.record(group, payer, payee, amount, currency, paid_on, by="API",
                               version=body.get("version"))
    except payments.Conflict:
        raise _changed(group) from None
    get_session().commit()
    return _group_answer(group, 201, payment=_recorded(made))


def _stored(group: Group, payment_id: int) -> PaymentRow:
    try:
        return payments.find(group, payment_id)
    except LookupError:
        abort(404)


@bp.patch("/groups/<group_id>/payments/<int:payment_id>")
def correct_payment(group_id: str, payment_id: int) -> tuple[Response, int]:
    """Correct a payment: any of ``from``, ``to``, ``amount``, ``date``."""
    group = _locked(group_id)
    payment = _stored(group, payment_id)
    body = bodies.read(bodies.PaymentCorrection)
    payer, payee, amount, paid_on = _payment_fields(body, group, payment.currency, payment)
    try:
        payments.edit(group, payment, payer, payee, amount, paid_on, by="API",
                      version=body.get("version"))
    except payments.Conflict:
        raise _changed(group) from None
    get_session().commit()
    return _group_answer(group, 200, payment=_recorded(payment))


@bp.delete("/groups/<group_id>/payments/<int:payment_id>")
def delete_payment(group_id: str, payment_id: int) -> tuple[Response, int]:
    """Delete a payment; its entry in ``history`` can restore it."""
    group = _locked(group_id)
    payment = _stored(group, payment_id)
    version = request.args.get("version")
    try:
        payments.delete(group, payment, by="API",
                        version=int(version) if version and version.isdigit() else None)
    except payments.Conflict:
        raise _changed(group) from None
    get_session().commit()
    return _group_answer(group, 200)


@bp.post("/groups/<group_id>/changes/<int:change_id>/restore")
def restore_payment(group_id: str, change_id: int) -> tuple[Response, int]:
    """Put a deleted payment back from the group's history."""
    group = _locked(group_id)
    body = bodies.read(bodies.Version) if request.get_data(cache=True) else {}
    try:
        made = payments.restore(group, change_id, by="API", version=body.get("version"))
    except payments.Conflict:
        raise _changed(group) from None
    except payments.NotRestorable as exc:
        get_session().rollback()
        message = ("was restored already" if exc.reason == "restored"
                   else "is no deleted payment of this group")
        raise ApiError([("change", message)], 409 if exc.reason == "restored" else 404) from None
    get_session().commit()
    return _group_answer(group, 200, payment=_recorded(made))


@bp.post("/groups/<group_id>/settle-up")
def settle_up(group_id: str) -> tuple[Response, int]:
    """Record the payments ``settle_up`` suggests, dated today, all at once. The body
    names the group's ``version``: sent twice, the second finds another version (409)."""
    group = _locked(group_id)
    version = bodies.read(bodies.SettleUp)["version"]
    shown = service.view(get_session(), group)
    if not shown.settle_up:
        raise ApiError([("settle_up", "everybody is square: nothing to record")], 409)
    try:
        made = payments.settle(group, shown.settle_up, shown.currency, date.today(), by="API",
                               version=version)
    except payments.Conflict:
        raise _changed(group) from None
    get_session().commit()
    return _group_answer(group, 201, recorded=[_recorded(p) for p in made])
