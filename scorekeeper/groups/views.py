"""Group pages: create a group, its page (standings, money, games), a player's page,
settings, PIN, payments, and games added or removed."""

from __future__ import annotations

from decimal import Decimal

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import SelectChoice

from .. import limits
from ..charts.margins import head_to_head_chart, margin_chart
from ..charts.player import rating_chart, win_rate_chart
from ..db import Unchanged, get_session, writing
from ..forms import EmptyForm, PinForm, SetPinForm
from ..models import Game, Group
from ..money import (
    AmountError,
    amount_problem,
    local_currency,
    parse_amount,
    read_stake,
)
from ..services import access, exports, payments, player_terms, players
from ..services import groups as service
from ..services.ratings import START
from ..services.standings import running_margins
from ..variants import VARIANTS
from . import bp, typed_amount
from .forms import (
    AddGameForm,
    FilterForm,
    GroupForm,
    PaymentForm,
    RatingKindsForm,
    SettleForm,
)


def _to_page(group: Group, anchor: str = "") -> Response:
    return redirect(url_for("groups.page", group_id=group.id) + anchor)


def _read_group_form(form: GroupForm) -> tuple[list[str], str | None, str | None] | None:
    """Roster, stake and currency from a valid form; ``None`` with the errors on it."""
    names = form.roster()
    problem = service.check_roster(names)
    if problem is not None:
        form.players.errors = [
            _("One to 30 players, every one with a different name of at most 40 characters.")
        ]
        return None
    money = read_stake(form.stake, form.currency)
    if money is None:
        return None
    return names, *money


@bp.route("/groups/new", methods=["GET", "POST"])
@limits.create
def new_group() -> str | Response | tuple[str, int]:
    """Start a group: name, roster, default stake, optional PIN."""
    form = GroupForm()
    if request.method == "GET":  # offered: without a stake the currency is not kept
        form.currency.data = local_currency(str(get_locale())) or ""
    if form.validate_on_submit():
        read = _read_group_form(form)
        if read is not None:
            names, stake, currency = read
            group = Group(name=form.name.data.strip(), players=names, stake=stake)
            group.currency = currency
            if form.pin.data:
                access.set_pin(group, form.pin.data)
            db = get_session()
            db.add(group)
            db.commit()
            access.grant_edit(group)
            access.note_created("group", group.id)
            return _to_page(group)
    status = 422 if form.is_submitted() else 200
    return render_template("groups/new.html", form=form), status


def _filters() -> tuple[FilterForm, str, int | None]:
    form = FilterForm(request.args)
    form.kind.choices = [
        SelectChoice("", _("Every kind")),
        *(SelectChoice(v.name, v.short_label) for v in VARIANTS.values()),
    ]
    kind = request.args.get("kind", "")
    period = request.args.get("period", "")
    if kind not in VARIANTS:
        kind = ""
    days = int(period) if period in ("30", "90", "365") else None
    return form, kind, days


@bp.get("/groups/<group_id>")
def page(group_id: str) -> Response:
    """The group: standings, head-to-head, balances and settling up, its games."""
    db = get_session()
    group = service.load_group(db, group_id)
    key = request.args.get("key")
    if key is not None:
        if access.secret_matches(group, key):
            access.grant_edit(group)
            return _to_page(group)
        flash(
            _("That edit link is not right; you can watch this group but not change it."), "warning"
        )
    access.remember(group)
    created = access.holds_link(group) and access.just_created("group", group.id)
    filters, kind, days = _filters()
    shown = service.view(db, group, kind=kind, days=days)
    service.keep_summaries(shown)
    form = _payment_form(group)
    if shown.settle_up:  # the form starts as the first payment "settle up" suggests
        first = shown.settle_up[0]
        form.payer.data, form.payee.data = first.payer, first.payee
        form.amount.data = typed_amount(first.amount, shown.currency)
    return _render_page(group, shown, filters, form, created=created)


def _render_page(
    group: Group,
    shown: service.GroupView,
    filters: FilterForm,
    form: PaymentForm,
    status: int = 200,
    settings: GroupForm | None = None,
    kinds_form: RatingKindsForm | None = None,
    *,
    created: bool = False,
) -> Response:
    """The group's page; ``created``: drawn right after this browser made the group,
    saying that this phone keeps it, with the edit link to keep elsewhere."""
    editable = access.can_edit(group)
    body = render_template(
        "groups/page.html",
        group=group,
        view=shown,
        filters=filters,
        editable=editable,
        owner=access.holds_link(group),
        kept_url=(url_for("groups.page", group_id=group.id, key=group.edit_secret,
                          _external=True) if created else None),
        editable_games=access.editable(),
        night=players.last_night(shown),
        kinds_form=kinds_form or _kinds_form(group),
        chart=margin_chart(running_margins(shown.standings)),
        h2h_chart=head_to_head_chart((p.first, p.second, p.net) for p in shown.standings.pairs),
        payment_form=form,
        settle_form=_settle_form(group, shown) if editable else None,
        add_form=_add_form(group) if editable else None,
        settings=settings or _settings_form(group),
        empty=EmptyForm(),
        variants=VARIANTS,
        view_url=url_for("groups.page", group_id=group.id, _external=True),
    )
    return make_response(body, status)


def _settle_form(group: Group, shown: service.GroupView) -> SettleForm:
    form = SettleForm(prefix="settle")
    form.version.data = str(group.version)
    form.plan.data = payments.plan_key(shown.settle_up, shown.currency)
    return form


@bp.get("/groups/<group_id>/players/<player:name>", merge_slashes=False)
def player(group_id: str, name: str) -> str:
    """One player across the group: their rating, every figure with what it counts,
    head-to-head, their games."""
    db = get_session()
    group = service.load_group(db, group_id)
    filters, kind, days = _filters()
    shown = service.view(db, group, kind=kind, days=days)
    service.keep_summaries(shown)
    figures = players.player_view(shown, name)
    if figures is None:
        abort(404)
    rating = figures.rating
    return render_template(
        "groups/player.html",
        group=group,
        view=shown,
        p=figures,
        s=figures.standing,
        pairs=figures.pairs,
        filters=filters,
        variants=VARIANTS,
        term=player_terms.term,
        rule_cards=player_terms.rule_cards(g for g, _r in shown.games if name in g.players),
        rating_chart=rating_chart(name, START, [v for _g, v in rating.history]),
        win_rate_chart=win_rate_chart(name, [rate for _g, _d, rate in figures.win_rates]),
    )


@bp.get("/groups/<group_id>/games.csv")
def games_csv(group_id: str) -> Response:
    """The group's games as CSV: who played, who won, the finals (the header in the
    reader's language, ``?lang=en`` for English)."""
    db = get_session()
    group = service.load_group(db, group_id)
    shown = service.view(db, group)
    service.keep_summaries(shown)
    return exports.download(f"scorekeeper-group-{group.id}-games.csv", request.args.get("lang"),
                            lambda: exports.games_csv(shown.games))


@bp.get("/groups/<group_id>/hands.csv")
def hands_csv(group_id: str) -> Response:
    """Every hand of the group's games as CSV, one row a hand (header as ``games_csv``)."""
    db = get_session()
    group = service.load_group(db, group_id)
    games = exports.games_with_hands(db, group)
    return exports.download(f"scorekeeper-group-{group.id}-hands.csv", request.args.get("lang"),
                            lambda: exports.hands_csv(games))


@bp.get("/groups/<group_id>/payments.csv")
def payments_csv(group_id: str) -> Response:
    """The payments recorded in the group as CSV (header as ``games_csv``)."""
    group = service.load_group(get_session(), group_id)
    return exports.download(f"scorekeeper-group-{group.id}-payments.csv",
                            request.args.get("lang"), lambda: exports.payments_csv(group))


@bp.get("/groups/<group_id>/ratings.csv")
def ratings_csv(group_id: str) -> Response:
    """The group's ratings as CSV (header as ``games_csv``)."""
    db = get_session()
    group = service.load_group(db, group_id)
    shown = service.view(db, group)
    service.keep_summaries(shown)
    return exports.download(f"scorekeeper-group-{group.id}-ratings.csv",
                            request.args.get("lang"), lambda: exports.ratings_csv(shown.ratings))


def _kinds_form(group: Group) -> RatingKindsForm:
    form = RatingKindsForm(prefix="rating")
    form.kinds.choices = [SelectChoice(v.name, v.short_label) for v in VARIANTS.values()]
    if not form.is_submitted():
        form.kinds.data = list(group.rating_kinds or VARIANTS)
    return form


@bp.post("/groups/<group_id>/rating-kinds")
def rating_kinds(group_id: str) -> Response:
    """Which kinds of game count for the group's ratings."""
    try:
        with writing() as db:
            group = service.lock_group(db, group_id)
            access.require_edit(group)
            form = _kinds_form(group)
            if not form.validate_on_submit():
                raise Unchanged
            chosen = [name for name in VARIANTS if name in form.kinds.data]
            group.rating_kinds = None if len(chosen) == len(VARIANTS) else chosen
    except Unchanged:
        filters, _kind, _days = _filters()
        shown = service.view(db, group)
        return _render_page(group, shown, filters, _payment_form(group), 422, kinds_form=form)
    flash(_("The ratings now count these kinds of game."))
    return _to_page(group, "#ratings")


def _settings_form(group: Group) -> GroupForm:
    form = GroupForm(prefix="settings")
    if not form.is_submitted():
        form.name.data = group.name
        form.players.data = "\n".join(group.players)
        form.stake.data = group.stake or ""
        form.currency.data = group.currency or ""
    return form


@bp.post("/groups/<group_id>/settings")
def settings(group_id: str) -> Response:
    """Change the group's name, roster (names in its games stay) or default stake."""
    try:
        with writing() as db:
            group = service.lock_group(db, group_id)
            access.require_edit(group)
            form = _settings_form(group)
            read = _read_group_form(form) if form.validate_on_submit() else None
            if read is None:
                raise Unchanged
            names, stake, currency = read
            played = {n for g in service.group_games(db, group) for n in g.players}
            group.name = form.name.data.strip()
            # Nobody who played in the group's games drops off its roster.
            group.players = [*names,
                             *(n for n in group.players if n in played and n not in names)]
            group.stake, group.currency = stake, currency
    except Unchanged:  # the page again, the form open with what was typed and why not
        filters, _kind, _days = _filters()
        shown = service.view(db, group)
        return _render_page(group, shown, filters, _payment_form(group), 422, settings=form)
    flash(_("Group saved."))
    return _to_page(group)


def _payment_form(group: Group) -> PaymentForm:
    form = PaymentForm(prefix="payment")
    offer_names(form, group)
    return form


def offer_names(form: PaymentForm, group: Group, also: tuple[str, ...] = ()) -> None:
    """Who may pay whom: the roster (and ``also``, the names of a payment being
    corrected, should one have left the roster)."""
    names = [*group.players, *(n for n in also if n not in group.players)]
    choices = [SelectChoice(name, name) for name in names]
    form.payer.choices = choices
    form.payee.choices = choices


def read_payment(
    form: PaymentForm, currency: str | None
) -> tuple[str, str, Decimal] | None:
    """Payer, payee and amount from a payment form (recorded or corrected); ``None``
    with the errors on its fields."""
    if not form.validate_on_submit():
        return None
    if form.payer.data == form.payee.data:
        form.payee.errors = [_("Somebody pays somebody else.")]
        return None
    try:
        amount = parse_amount(form.amount.data, currency)
    except AmountError as error:
        form.amount.errors = [amount_problem(error)]
        return None
    return form.payer.data, form.payee.data, amount


@bp.get("/groups/<group_id>/settings")
@bp.get("/groups/<group_id>/payments")
def form_page(group_id: str) -> Response:
    """The page that holds the form (a refused form's page, opened again)."""
    group = service.load_group(get_session(), group_id)
    return _to_page(group, "#settings" if request.path.endswith("/settings") else "#money")


@bp.post("/groups/<group_id>/payments")
def record_payment(group_id: str) -> Response:
    """Record money that changed hands; it moves the balances."""
    try:
        with writing() as db:
            group = service.lock_group(db, group_id)
            access.require_edit(group)
            form = _payment_form(group)
            currency = service.balance_currency(group, service.group_games(db, group))
            read = read_payment(form, currency)
            if read is None:
                raise Unchanged
            payer, payee, amount = read
            payments.record(group, payer, payee, amount, currency, form.paid_on.data,
                            by=editor(group))
    except Unchanged:
        filters, _kind, _days = _filters()
        return _render_page(group, service.view(db, group), filters, form, 422)
    flash(_("Payment recorded."))
    return _to_page(group, "#money")


def editor(group: Group) -> str:
    """How this browser changes the group, as its history records it."""
    return access.editor_label(group.id, group=True)


def _add_form(group: Group) -> AddGameForm:
    """Games this phone may edit that are in no group yet."""
    form = AddGameForm(prefix="add")
    editable = access.editable()
    ids = [i for i in access.remembered() if i in editable]
    games = get_session().scalars(select(Game).where(Game.id.in_(ids))).all() if ids else []
    form.game.choices = [
        SelectChoice(g.id, f"{' · '.join(g.players)} ({g.created_at:%Y-%m-%d})")
        for g in games
        if g.group_id is None
    ]
    return form


@bp.post("/groups/<group_id>/games")
def add_game(group_id: str) -> Response:
    """Put an existing game into the group (this phone edits both)."""
    try:
        with writing() as db:
            group = service.lock_group(db, group_id)
            access.require_edit(group)
            form = _add_form(group)
            if not form.validate_on_submit():
                raise Unchanged
            game = db.get(Game, form.game.data)
            if game is None or not access.can_edit(game):
                abort(403)
            game.group_id = group.id
            group.players = [*group.players,
                             *(n for n in game.players if n not in group.players)]
            if game.stake is None and group.stake is not None:
                game.stake, game.currency = group.stake, group.currency
    except Unchanged:
        flash(_("Choose one of your games that is in no group yet."), "warning")
        return _to_page(group, "#games")
    flash(_("Game added to the group."))
    return _to_page(group, "#games")


@bp.post("/groups/<group_id>/games/<game_id>/remove")
def remove_game(group_id: str, game_id: str) -> Response:
    """Take a game out of the group (this phone edits both); the game itself stays."""
    db = get_session()
    group = service.lock_group(db, group_id)
    access.require_edit(group)
    if not EmptyForm().validate_on_submit():
        abort(400)
    game = db.get(Game, game_id)
    if game is None or game.group_id != group.id:
        abort(404)
    if not access.can_edit(game):
        abort(403)
    game.group_id = None
    db.commit()
    flash(_("Game taken out of the group."))
    return _to_page(group, "#games")


@bp.route("/groups/<group_id>/unlock", methods=["GET", "POST"])
def unlock(group_id: str) -> str | Response | tuple[str, int]:
    """Another phone takes over the group with its PIN."""
    form = PinForm()
    db = get_session()
    if not form.is_submitted():
        group = service.load_group(db, group_id)
        return render_template("groups/unlock.html", group=group, form=form)
    try:
        with writing():
            if not form.validate():
                raise Unchanged
            check = access.check_pin(Group, group_id, form.pin.data.strip())  # before the lock
            group = service.lock_group(db, group_id)
            ok = access.record_pin(group, check)
    except Unchanged:  # drawn again without the write lock
        group = service.load_group(db, group_id)
        return render_template("groups/unlock.html", group=group, form=form), 422
    if ok:
        access.grant_edit(group, via_pin=True)
        flash(_("This phone can now change the group."))
        return _to_page(group)
    form.pin.errors = [_("That PIN is not right.")]
    return render_template("groups/unlock.html", group=group, form=form), 422


@bp.post("/groups/<group_id>/pin")
def set_pin(group_id: str) -> Response:
    """Set or change the group's PIN (the edit link's holder only): the phones the old
    one let in change the group no longer."""
    form = SetPinForm()
    try:
        with writing() as db:
            group = service.lock_group(db, group_id)
            access.require_link(group)
            if not form.validate_on_submit():
                raise Unchanged
            access.set_pin(group, form.pin.data)
    except Unchanged:
        flash(" ".join(str(e) for e in form.pin.errors) or _("A PIN is 4 to 6 digits."),
              "warning")
        return _to_page(group)
    flash(_("PIN set. Another phone can open the group and change it."))
    return _to_page(group)
