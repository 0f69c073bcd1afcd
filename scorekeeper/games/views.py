"""The start of it all: home, language and colours, new game, rematch."""

from __future__ import annotations

import secrets
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select
from werkzeug.wrappers import Response

from .. import limits
from ..db import Unchanged, get_session, writing
from ..forms import EmptyForm
from ..i18n import COOKIE, LANGUAGES
from ..models import Game, Group
from ..money import local_currency, read_stake
from ..names import name_key
from ..security import is_token
from ..services import access
from ..services import games as service
from ..services.gameform import rules_from_form
from ..services.games import load
from ..themes import COOKIE as THEME_COOKIE
from ..themes import THEMES
from ..variants import VARIANTS, variant_for
from . import bp
from .forms import NewGameForm


@bp.get("/")
def home() -> str:
    """The start page: new game, settle a dispute, and this browser's recent games."""
    ids = access.remembered()
    games = get_session().scalars(select(Game).where(Game.id.in_(ids))).all() if ids else []
    by_id = {g.id: g for g in games}
    recent = []
    for game_id in ids:
        game = by_id.get(game_id)
        if game is not None and game.variant in VARIANTS:
            recent.append((game, bool(variant_for(game).sheet(game).finished)))
    group_ids = access.remembered(groups=True)
    found = (
        get_session().scalars(select(Group).where(Group.id.in_(group_ids))).all()
        if group_ids
        else []
    )
    groups = sorted(found, key=lambda g: group_ids.index(g.id))
    return render_template("games/home.html", recent=recent, variants=VARIANTS, groups=groups)


@bp.post("/lang")
def set_language() -> Response:
    """Switch the language; remembered in a cookie."""
    if not EmptyForm().validate_on_submit():
        abort(400)
    response = redirect(_same_site(request.form.get("next", "")))
    lang = request.form.get("lang", "")
    if lang in LANGUAGES:
        _keep(response, COOKIE, lang)
    return response


@bp.post("/theme")
def set_theme() -> Response:
    """Switch the colours (auto, light, dark, high contrast); kept for this device."""
    if not EmptyForm().validate_on_submit():
        abort(400)
    response = redirect(_same_site(request.form.get("next", "")))
    theme = request.form.get("theme", "")
    if theme in THEMES:
        _keep(response, THEME_COOKIE, theme)
    return response


def _keep(response: Response, cookie: str, value: str) -> None:
    """Remember a choice of this device for a year."""
    response.set_cookie(cookie, value, max_age=3600 * 24 * 365, samesite="Lax", httponly=True,
                        secure=current_app.config["SESSION_COOKIE_SECURE"])


def _same_site(target: str) -> str:
    """``target`` if it is a path on this site, else the home page. No open redirect:
    browsers drop tabs and newlines and read a backslash as a slash."""
    cleaned = "".join(ch for ch in target if ch.isprintable() and not ch.isspace())
    if cleaned.startswith("/") and not cleaned.startswith(("//", "/\\")) and "\\" not in cleaned:
        return cleaned
    return url_for("games.home")


@bp.route("/games/new", methods=["GET", "POST"])
@limits.create
def new_game() -> tuple[str, int] | Response:
    """Start a game: kind, players, rules, first dealer."""
    form = NewGameForm()
    if request.method == "GET" and request.args.get("variant") in VARIANTS:
        form.variant.data = request.args["variant"]
        form.preset.data = VARIANTS[form.variant.data].default_preset
    group = _group_of(form.group.data if request.method == "POST" else request.args.get("group"))
    if request.method == "GET" and group is not None:
        _prefill_from_group(form, group)
    if request.method == "GET" and not form.currency.data:
        # Offered, not chosen: without a stake the currency is not kept.
        form.currency.data = local_currency(str(get_locale())) or ""
    if form.is_submitted():
        try:
            with writing():
                game = _new_game_from(form, group) if form.validate() else None
                if game is None:
                    raise Unchanged  # refused: drawn again without holding the write lock
        except Unchanged:
            pass
        else:
            return redirect(url_for("games.sheet", game_id=game.id))
    # Which games each preset is played with (the page's script offers only those).
    fits = {
        choice.value: " ".join(name for name, v in VARIANTS.items() if choice.value in v.presets)
        for choice in form.preset.choices
    }
    return render_template(
        "games/new.html", form=form, variants=VARIANTS, fits=fits, group=group
    ), 422 if form.is_submitted() else 200


def _group_of(group_id: object) -> Group | None:
    """The group a new game is started for, if this browser may edit it."""
    if not isinstance(group_id, str) or not group_id:
        return None
    group = get_session().get(Group, group_id) if is_token(group_id) else None
    if group is None or not access.can_edit(group):
        abort(403)
    return group


def _prefill_from_group(form: NewGameForm, group: Group) -> None:
    """The chosen players of the roster (or its first ones), the group's stake."""
    chosen = [n for n in request.args.getlist("p") if n in group.players] or group.players
    fields = (form.player1, form.player2, form.player3, form.player4)
    variant = VARIANTS.get(form.variant.data or "gin", VARIANTS["gin"])
    for box, name in zip(fields[: max(variant.player_counts)], chosen, strict=False):
        box.data = name
    form.group.data = group.id
    form.stake.data = group.stake or ""
    form.currency.data = group.currency or ""


def _new_game_from(form: NewGameForm, group: Group | None = None) -> Game | None:
    """The game a valid new-game form describes, or ``None`` with the errors on the form."""
    variant = VARIANTS[form.variant.data]
    stake = read_stake(form.stake, form.currency)
    if stake is None:
        return None
    names = form.players()
    if len(names) not in variant.player_counts:
        counts = " / ".join(str(n) for n in variant.player_counts)
        form.player1.errors = [
            _("%(game)s needs %(counts)s players.", game=variant.label, counts=counts)
        ]
        return None
    if len(set(names)) != len(names):
        form.player1.errors = [_("Every player needs a different name.")]
        return None
    rules = rules_from_form(form, variant)
    if rules is None:
        return None
    choice = form.dealer.data
    dealer = secrets.randbelow(len(names)) if choice == "draw" else int(choice)
    second = int(form.captain.data) if form.captain.data not in (None, "", "auto") else None
    try:
        setup = variant.setup(names, dealer, second)
    except ValueError as exc:
        form.dealer.errors = [str(exc)]
        return None
    if group is not None:
        # "ann" typed for the group's "Ann" is Ann: the standings count one person.
        roster = {name_key(name): name for name in group.players}
        names = [roster.get(name_key(name), name) for name in names]
        group.players = [*group.players, *(n for n in names if n not in group.players)]
    return create(
        variant.name, names, rules.to_dict(), setup, form.pin.data, group=group, stake=stake
    )


def create(
    variant: str,
    players: list[str],
    rules: dict[str, Any],
    setup: dict[str, Any],
    pin: str | None,
    *,
    group: Group | None = None,
    stake: tuple[str | None, str | None] = (None, None),
) -> Game:
    """Store a new game (in ``group``, with ``stake``) and let this browser edit it."""
    db = get_session()
    game = Game(variant=variant, players=players, rules=rules, setup=setup)
    game.group_id = group.id if group is not None else None
    game.stake, game.currency = stake
    if pin:
        access.set_pin(game, pin)
    service.record_event(game, "create", "edit link", {"players": players, "rules": rules})
    db.add(game)
    db.commit()
    access.grant_edit(game)
    access.note_created("game", game.id)
    return game


@bp.post("/g/<game_id>/rematch")
@limits.create
def rematch(game_id: str) -> Response:
    """A new game with the same players and rules."""
    game, variant = load(game_id)
    access.require_edit(game)
    if not EmptyForm().validate_on_submit():
        abort(400)
    setup = variant.rematch_setup(game, variant.sheet(game))
    group = get_session().get(Group, game.group_id) if game.group_id else None
    new = create(
        game.variant,
        list(game.players),
        dict(game.rules),
        setup,
        None,
        group=group,
        stake=(game.stake, game.currency),
    )
    flash(_("Rematch started."))
    return redirect(url_for("games.sheet", game_id=new.id))
