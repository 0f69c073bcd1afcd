"""Table mode: one tablet or phone in the middle of the table shows the game to everyone.

``/g/<id>/table`` shows each player's (or team's) total, what each still needs, who
deals next and the last hand's result in large type; ``?view=turned`` turns it for the
far side of the table and ``?view=split`` shows it twice, each half facing one side.
It follows the other phones' saves as the sheet does (``live_views``: the page's
``data-live-region`` is fetched again), and anyone who may see the game may open it;
the link to enter a hand is there for the phones that may change the game.

The board is read from the variant's replayed sheet: every number on it comes from the
engine's replay, nothing is computed here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from flask import render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import pgettext

from ..db import get_session
from ..i18n import outcome_label
from ..names import isolated
from ..scoring.game import GinGame
from ..scoring.three_hand import ThreeHandGame
from ..security import live_fetch
from ..services import access
from ..services.games import load, settled
from ..variants.base import Sheet, sheet_as
from ..variants.hollywood import HollywoodSheet
from ..variants.partnership import PartnershipSheet
from ..variants.remi import RemiSheet
from ..variants.replay import GinSheet
from ..variants.three_hand import ThreeHandSheet
from . import bp

VIEWS = ("upright", "turned", "split")


@dataclass(frozen=True)
class Side:
    """A player, or a partnership team, as the board shows them."""

    name: str
    totals: tuple[int, ...]  # one per game column (Hollywood's three games)
    needs: tuple[int | None, ...]  # what each column still needs; None: closed or no target
    last: int | None  # what the last hand gave this side; None: nothing
    role: str = ""  # deals, captain, sits out…
    won: bool = False


@dataclass(frozen=True)
class GameColumn:
    """One of Hollywood's game columns, as the board heads it."""

    number: int
    closed: bool


@dataclass(frozen=True)
class Board:
    """The game at a glance."""

    sides: tuple[Side, ...]
    columns: tuple[GameColumn, ...]  # Hollywood's game columns; () for one game
    last_number: int | None  # the last counted hand (or deal)
    last_outcome: str  # how it ended, in words
    notes: tuple[str, ...]  # who plays whom and deals where (partnership), deals left (Remi)
    finished: bool


@bp.get("/g/<game_id>/table")
def table(game_id: str) -> str:
    """The game shown to the whole table in large type."""
    game, variant = load(game_id)
    if not live_fetch():
        access.remember(game)
    view = request.args.get("view", "upright")
    if view not in VIEWS:
        view = "upright"
    played = variant.sheet(game)
    return render_template(
        "games/table.html",
        game=game,
        variant=variant,
        sheet=played,
        board=board_of(variant.name, played),
        view=view,
        editable=access.can_edit(game) and not settled(get_session(), game),
        page=url_for("games.table", game_id=game.id, view=None if view == "upright" else view),
    )


def board_of(kind: str, sheet: Sheet) -> Board:
    """The board of a replayed sheet of the kind of game ``kind``."""
    builders: dict[str, Callable[[Sheet], Board]] = {
        "hollywood": _hollywood,
        "three_hand": _three_hand,
        "partnership": _partnership,
        "remi": _remi,
    }
    return builders.get(kind, _gin)(sheet)


def _deals() -> str:
    return str(pgettext("table mode: this player deals the next hand", "deals"))


def _gin(sheet: Sheet) -> Board:
    g = sheet_as(sheet, GinSheet).game
    return _one_column(
        sheet.players, g,
        lambda seat: _deals() if not g.finished and g.next_dealer == seat else "",
    )


def _three_hand(sheet: Sheet) -> Board:
    g = sheet_as(sheet, ThreeHandSheet).game
    roles = {
        g.roles.box: str(pgettext("three-hand role", "box")),
        g.roles.captain: str(_("captain")),
        g.roles.out: str(_("sits out")),
    }
    return _one_column(sheet.players, g, lambda seat: "" if g.finished else roles[seat])


def _one_column(players: Sequence[str], g: GinGame | ThreeHandGame,
                role: Callable[[int], str]) -> Board:
    """The board of a game with one total a player (two-player gin, Oklahoma,
    three-hand): each player's total, what they still need, the last hand's points and
    ``role(seat)`` (who deals, the box and the captain)."""
    rows = [row for row in g.rows if not row.after_end]
    last = rows[-1] if rows else None
    sides = tuple(
        Side(
            name=name,
            totals=(g.totals[seat],),
            needs=(g.needs[seat],),
            last=last.points[seat] if last is not None and last.points[seat] else None,
            role=role(seat),
            won=g.winner == seat,
        )
        for seat, name in enumerate(players)
    )
    return Board(
        sides=sides,
        columns=(),
        last_number=last.number if last is not None else None,
        last_outcome=_hand_words(last.hand) if last is not None else "",
        notes=(),
        finished=g.finished,
    )


def _hand_words(hand: Any) -> str:
    words = outcome_label(hand.outcome.value)
    if getattr(hand, "doubled", False):
        words += " · ♠ ×2"
    return words


def _hollywood(sheet: Sheet) -> Board:
    g = sheet_as(sheet, HollywoodSheet).game
    rows = [row for row in g.rows if not row.after_end]
    last = rows[-1] if rows else None
    shown = [c for c in g.columns if c.opened_after is not None]
    winner = last.hand.winner if last is not None and last.hand.won else None
    sides = tuple(
        Side(
            name=name,
            totals=tuple(c.totals[seat] for c in shown),
            needs=tuple(None if c.closed else c.needs[seat] for c in shown),
            last=last.hand.points if winner == seat and last and last.hand.points else None,
            role=_deals() if not g.finished and g.next_dealer == seat else "",
        )
        for seat, name in enumerate(sheet.players)
    )
    return Board(
        sides=sides,
        columns=tuple(GameColumn(c.number, c.closed) for c in shown),
        last_number=last.number if last is not None else None,
        last_outcome=_hand_words(last.hand) if last is not None else "",
        notes=(),
        finished=g.finished,
    )


def _partnership(sheet: Sheet) -> Board:
    played = sheet_as(sheet, PartnershipSheet)
    g = played.game
    deals = [deal for deal in g.deals if not deal.after_end]
    last = deals[-1] if deals else None
    sides = tuple(
        Side(
            name=team,
            totals=(g.totals[number],),
            needs=(g.needs[number],),
            last=last.points[number] if last is not None and last.points[number] else None,
            won=g.winner == number,
        )
        for number, team in enumerate(g.team_names)
    )
    notes: tuple[str, ...] = ()
    if not g.finished:
        dealers = played.dealers(len(g.deals) + 1)
        notes = tuple(
            _(
                "%(pairing)s: %(name)s deals",
                pairing=_("%(first)s v %(second)s", first=isolated(sheet.players[pair[0]]),
                          second=isolated(sheet.players[pair[1]])),
                name=isolated(sheet.players[dealers[index]]),
            )
            for index, pair in enumerate(g.next_pairing)
        )
    return Board(
        sides=sides,
        columns=(),
        last_number=last.number if last is not None else None,
        last_outcome=" · ".join(_hand_words(hand) for hand in last.hands) if last else "",
        notes=notes,
        finished=g.finished,
    )


def _remi(sheet: Sheet) -> Board:
    played = sheet_as(sheet, RemiSheet)
    g = played.game
    last = g.rows[-1] if g.rows else None
    sides = tuple(
        Side(
            name=name,
            totals=(g.totals[seat],),
            needs=(None,),
            last=last.scores[seat] if last is not None else None,
            role=_deals() if not g.finished and g.next_dealer == seat else "",
            won=g.finished and seat in g.winners,
        )
        for seat, name in enumerate(sheet.players)
    )
    if g.finished:
        notes: tuple[str, ...] = ()
    elif played.deals_left is not None:
        notes = (_("Deals left: %(number)s", number=played.deals_left),)
    else:
        notes = (_("Target: %(number)s", number=sheet.rules.target),)
    went_out = ""
    if last is not None:
        went_out = (
            _("%(name)s went out", name=isolated(sheet.players[last.went_out]))
            if last.went_out is not None
            else _("the stock ran out")
        )
    return Board(
        sides=sides,
        columns=(),
        last_number=last.number if last is not None else None,
        last_outcome=went_out,
        notes=notes,
        finished=g.finished,
    )
