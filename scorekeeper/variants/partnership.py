"""Partnership gin (/rules/partnership#teams): two teams of two, each deal two separate gin hands.

Players 1 & 3 (seats 0 & 2) play players 2 & 4 (seats 1 & 3). A deal is stored as
``{"mode": "deal", "tables": [hand_a, hand_b]}``: seat 0's table first, then seat 2's.
Each table's hand is an ordinary gin hand (quick or cards, ``hands.inputs``' shapes)
whose ``knocker`` is the position **within that table's pair** (0 = the first player
of ``scoring.partnership.pairing(deal)``, 1 = the second), so deleting a deal lets
the later deals take their own pairings again. The engine nets the two hands per
deal (``scoring.partnership``); nothing here decides a score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectChoice

from ..charts.race import TEAM_DEALS, Race, race_of
from ..hands.bodies import check_deal
from ..hands.entry import (
    QUICK_FIELDS,
    fill_cards,
    fill_quick,
    quick_inputs,
    seat_choices,
    show_problems,
)
from ..hands.entry import card_inputs as table_card_inputs
from ..hands.inputs import ScoredHand, score_hand
from ..hands.stored import (
    GinHand,
    PartnershipDeal,
    StoredHand,
    dead_hand,
    gin_hand,
    partnership_deal,
    stored_hand,
)
from ..jsonbody import ApiError, explanation_json, fail
from ..models import Game, GameData, new_token
from ..names import isolated
from ..scoring import HandError, Rules
from ..scoring.errors import Problem
from ..scoring.explain import N_, Message
from ..scoring.outcome import Outcome
from ..scoring.partnership import (
    TEAMS,
    Deal,
    Pairing,
    PartnershipGame,
    pairing,
    play_partnership,
    team_of,
)
from . import answers
from .base import Sheet, Variant, sheet_as
from .gin import hand_body, hand_inputs, settlement_json
from .partnership_forms import DEAD, DealCardsForm, DealQuickForm
from .replay import game_rules
from .three_hand import hand_number
from .wording import Clause, gin_clauses

Table = tuple[int, int]


@dataclass(frozen=True)
class PartnershipSheet:
    """A partnership game as its sheet shows it: per deal the two scored tables."""

    rules: Rules
    players: tuple[str, ...]
    deals: tuple[tuple[ScoredHand, ScoredHand], ...]  # knockers as seats
    game: PartnershipGame
    first_dealer: int = 0  # the seat that dealt first: the teams take turns from it

    @property
    def finished(self) -> bool:
        """Whether a team reached the target."""
        return self.game.finished

    def ended_before(self, number: int) -> bool:
        """Whether deal ``number`` was entered after the game ended."""
        return number in self.game.ignored

    @property
    def team_names(self) -> tuple[str, str]:
        """``Ann & Cid``, ``Bob & Dan``."""
        return self.game.team_names

    def pairing(self, number: int) -> Pairing:
        """Who plays whom in deal ``number`` (1-based)."""
        return pairing(number)

    def dealers(self, number: int) -> Table:
        """Who deals at each table in deal ``number`` (1-based): in each deal one team
        deals at both tables, the first dealer's team first."""
        team = (self.first_dealer + number - 1) % 2
        first, second = (seat for pair in pairing(number) for seat in pair if team_of(seat) == team)
        return first, second

    def versus(self, pair: Table) -> str:
        """``Ann v Bob``."""
        return str(
            _("%(first)s v %(second)s", first=self.players[pair[0]], second=self.players[pair[1]])
        )


def table_hand(rules: Rules, inputs: GinHand, pair: Table) -> ScoredHand:
    """Score one table's stored hand, its knocker (0/1 within ``pair``) turned into a seat."""
    knocker = inputs.get("knocker")
    if isinstance(knocker, int) and not isinstance(knocker, bool) and knocker in (0, 1):
        inputs = gin_hand({**inputs, "knocker": pair[knocker]})
    return score_hand(rules, inputs, seats=pair)


def _tables(inputs: StoredHand) -> list[GinHand]:
    """A stored deal's two tables (``HandError`` if it is no deal)."""
    tables = inputs.get("tables")
    if inputs.get("mode") != "deal" or not isinstance(tables, list) or len(tables) != 2:
        raise HandError([Problem("tables", _("A deal is two hands, one at each table."))])
    return tables


ScoredDeal = tuple[ScoredHand, ScoredHand]


def scored_deal(rules: Rules, number: int, inputs: Mapping[str, Any]) -> ScoredDeal:
    """Deal ``number``'s two tables scored, each by that deal's pairing."""
    tables = _tables(stored_hand(inputs))
    pairs = pairing(number)
    return table_hand(rules, tables[0], pairs[0]), table_hand(rules, tables[1], pairs[1])


def partnership_sheet(
    game: GameData, rules: Rules, deals: Sequence[ScoredDeal]
) -> PartnershipSheet:
    """A partnership game's scored deals (``scored_deal``) played out."""
    played = play_partnership(rules, game.players, [(a.score, b.score) for a, b in deals])
    dealer = game.setup.get("dealer", 0)
    return PartnershipSheet(
        rules, tuple(game.players), tuple(deals), played, dealer if dealer in range(4) else 0
    )


def _prepare(
    form: FlaskForm, game: Game, sheet: PartnershipSheet, number: int | None, *, dead: bool = False
) -> Any:
    """Name each table's players for this deal's pairing; version and token."""
    pairs = sheet.pairing(hand_number(game, number))
    for table, pair in zip(form.tables(), pairs, strict=True):
        choices = seat_choices(sheet.players[seat] for seat in pair)
        if dead:
            choices.append(SelectChoice(DEAD, _("Dead hand")))
        table.knocker.choices = choices
        outcome = getattr(table, "outcome", None)
        if outcome is not None and sheet.rules.big_gin_bonus is None:
            outcome.choices = [c for c in outcome.choices if c.value != "big_gin"]
    if form.version.data in (None, ""):
        form.version.data = str(game.version)
    if not form.token.data:
        form.token.data = new_token()
    return form


class PartnershipVariant(Variant):
    """Four players in two teams; a row per deal with both tables' hands."""

    name: ClassVar[str] = "partnership"
    label: ClassVar[Any] = _l("Partnership gin (four players)")
    short_label: ClassVar[Any] = _l("Partnership gin")
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    presets: ClassVar[tuple[str, ...]] = ("partnership", "russian", "classic", "pagat", "modern")
    default_preset: ClassVar[str] = "partnership"
    sheet_template = "games/partnership/sheet.html"
    quick_template = "games/partnership/quick_fields.html"
    card_template = "games/partnership/card_fields.html"
    hand_template = "games/partnership/hand.html"
    pdf_template: ClassVar[str] = "pdf/partnership/sheet.html"
    pad_template: ClassVar[str] = "pdf/partnership/pad.html"
    hand_word = _l("Deal")
    hand_noun = _l("deal")

    def score_one(
        self, game: GameData, rules: Rules, number: int, inputs: Mapping[str, Any]
    ) -> ScoredDeal:
        """A deal's two tables scored (``scored_deal``)."""
        return scored_deal(rules, number, inputs)

    def sheet_from(
        self, game: GameData, rules: Rules, scored: Sequence[ScoredDeal]
    ) -> PartnershipSheet:
        """The deals played through ``scoring.partnership``."""
        return partnership_sheet(game, rules, scored)

    def scored_hands(self, sheet: Sheet) -> tuple[ScoredDeal, ...]:
        """The game's deals, scored."""
        return sheet_as(sheet, PartnershipSheet).deals

    def races(self, sheet: Sheet) -> tuple[Race, ...]:
        """The two teams' totals after every counted deal; the team with the net is marked."""
        replayed = sheet_as(sheet, PartnershipSheet)
        rows = [(d.number, d.totals, (d.box,)) for d in replayed.game.deals if not d.after_end]
        target = replayed.rules.target
        return (race_of(replayed.team_names, rows, target=target, caption=TEAM_DEALS),)

    def describe_inputs(self, game: Game, number: int, inputs: StoredHand) -> list[Clause]:
        """A deal in words, table by table, each table's players by this deal's pairing."""
        tables = inputs.get("tables")
        if not isinstance(tables, list):
            return []
        found: list[Clause] = []
        for index, (table, pair) in enumerate(zip(tables, pairing(number), strict=False)):
            if not isinstance(table, Mapping):
                continue
            names = [game.players[seat] for seat in pair]
            group = Message(
                N_("table {table} ({first} v {second})"),
                table=index + 1,
                first=isolated(names[0]),
                second=isolated(names[1]),
            )
            found += [
                Clause(f"tables.{index}.{clause.key}", clause.message, group)
                for clause in gin_clauses(gin_hand(table), names)
            ]
        return found

    def rule_applied(self, game: GameData, inputs: StoredHand) -> str:
        """A deal nets its two tables' hands: the partnership rule."""
        return "teams"

    def check(self, game: GameData, inputs: StoredHand) -> None:
        """Score both tables; a knocker is 0 or 1 (within the table's pair)."""
        rules = game_rules(game)
        problems: list[Problem] = []
        for index, table in enumerate(_tables(inputs)):
            try:
                scored = score_hand(rules, table)
            except HandError as exc:
                problems += [Problem(f"tables[{index}].{p.where}", p.message) for p in exc.problems]
                continue
            if scored.result.outcome is not Outcome.DEAD and table.get("knocker") not in (0, 1):
                problems.append(
                    Problem(f"tables[{index}].knocker", _("Choose who went out at this table."))
                )
        if problems:
            raise HandError(problems)

    # --- quick ----------------------------------------------------------------------
    def quick_form(self, game: Game, sheet: Sheet, number: int | None = None) -> DealQuickForm:
        """Both tables' outcome, who went out and deadwood, on one page."""
        replayed = sheet_as(sheet, PartnershipSheet)
        form: DealQuickForm = _prepare(DealQuickForm(), game, replayed, number)
        return form

    def quick_inputs(self, form: FlaskForm, game: Game, sheet: Sheet) -> PartnershipDeal | None:
        """The deal's inputs, each table checked by the engine at its own fields."""
        if not form.validate_on_submit():
            return None
        rules = game_rules(game)
        tables: list[GinHand | None] = []
        for table in form.tables():
            inputs: GinHand | None = quick_inputs(table)
            if inputs is not None:
                try:
                    score_hand(rules, inputs)
                except HandError as exc:
                    show_problems(table, exc.problems, QUICK_FIELDS)
                    inputs = None
            tables.append(inputs)
        both = [inputs for inputs in tables if inputs is not None]
        if len(both) != len(tables):
            return None
        return partnership_deal(both)

    def fill_quick(self, form: FlaskForm, inputs: StoredHand) -> None:
        """Prefill both tables from a stored deal."""
        for table, stored in zip(form.tables(), _tables(inputs), strict=True):
            fill_quick(table, stored)

    # --- cards ----------------------------------------------------------------------
    def card_form(self, game: Game, sheet: Sheet, number: int | None = None) -> DealCardsForm:
        """Both tables' cards on one page; a table may be a dead hand."""
        replayed = sheet_as(sheet, PartnershipSheet)
        form: DealCardsForm = _prepare(DealCardsForm(), game, replayed, number, dead=True)
        return form

    def card_inputs(self, form: FlaskForm, game: Game, sheet: Sheet) -> PartnershipDeal | None:
        """The deal's inputs, each table with its cards, or (cards left empty) from its
        quick fields, or dead; every table checked by the engine at its own fields."""
        if not form.is_submitted():
            return None
        form.validate()
        for table in form.tables():
            _forget_unused(table)
        if _has_errors(form):
            return None
        rules = game_rules(game)
        tables: list[GinHand] = []
        ok = True
        for table in form.tables():
            inputs = _table_inputs(table)
            if inputs is None:
                ok = False
                continue
            try:
                score_hand(rules, inputs)
            except HandError as exc:
                if table.quick:
                    show_problems(table, exc.problems, QUICK_FIELDS)
                else:
                    table.show_problems(exc)
                ok = False
                continue
            tables.append(inputs)
        return partnership_deal(tables) if ok else None

    def fill_cards(self, form: FlaskForm, inputs: StoredHand) -> None:
        """Prefill both tables, each in the mode it was entered (a dead one says so)."""
        for table, stored in zip(form.tables(), _tables(inputs), strict=True):
            fill_cards(table, stored)
            if stored.get("outcome") == "dead":
                table.knocker.data = DEAD
            elif stored.get("mode") != "cards":
                table.outcome.data = stored.get("outcome") or "knock"
                table.knocker_deadwood.data = stored.get("knocker_deadwood")
                table.defender_deadwood.data = stored.get("defender_deadwood")

    def entry_mode(self, inputs: StoredHand) -> str:
        """A deal with a table entered card by card is corrected on the card page (where
        each table shows in its own mode)."""
        tables = inputs.get("tables")
        if isinstance(tables, list) and any(
            isinstance(t, Mapping) and t.get("mode") == "cards" for t in tables
        ):
            return "cards"
        return "quick"

    # --- JSON -----------------------------------------------------------------------
    def api_inputs(self, body: dict[str, Any], game: GameData) -> PartnershipDeal:
        """``{"tables": [hand, hand]}``: gin hand bodies, knocker 0/1 within each pair."""
        deal = check_deal(body)
        tables = [hand_inputs(table, 2, f"tables[{i}].") for i, table in enumerate(deal["tables"])]
        inputs = partnership_deal(tables)
        try:
            self.check(game, inputs)
        except HandError as exc:
            raise ApiError([(p.where, p.message) for p in exc.problems]) from None
        return inputs

    def stored_body(self, inputs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """``{"tables": [...]}`` with each table's gin hand body (``gin.hand_body``)."""
        if inputs.get("mode") != "deal":
            fail("mode", 'a deal is stored as "deal"')
        tables = inputs.get("tables")
        if not isinstance(tables, list):
            return {"tables": tables}, {}
        body: list[Any] = []
        fields: dict[str, str] = {}
        for i, table in enumerate(tables):
            if not isinstance(table, Mapping):
                body.append(table)  # for ``api_inputs`` to refuse at its place
                continue
            hand, moved = hand_body(table, f"tables[{i}].")
            body.append(hand)
            fields.update(moved)
        return {"tables": body}, fields

    def sheet_json(self, game: GameData, sheet: Sheet, *, hands: bool = True) -> answers.SheetJson:
        """Deals with both tables, team nets, totals, boxes, settlement."""
        replayed = sheet_as(sheet, PartnershipSheet)
        played: PartnershipGame = replayed.game
        document: answers.PartnershipGame = {
            "teams": [list(team) for team in TEAMS],
            "team_names": list(played.team_names),
            "totals": list(played.totals),
            "boxes": list(played.boxes),
            "needs": list(played.needs),
            "next_pairing": [list(pair) for pair in played.next_pairing],
            "finished": played.finished,
            "winner": played.winner,
            "settlement": settlement_json(played.settlement),
        }
        if not hands:
            return document
        deals = zip(game.hands, played.deals, replayed.deals, strict=True)
        rows = [deal_json(stored_hand(stored.inputs), deal, tables)
                for stored, deal, tables in deals]
        # The deals after the teams, as the document always listed them.
        return {"teams": document["teams"], "team_names": document["team_names"],
                "hands": rows, **document}


def _has_errors(form: FlaskForm) -> bool:
    if form.form_errors:
        return True
    for field in form:
        if field.type == "FormField":
            if any(f.errors for f in field.form) or field.form.form_errors:
                return True
        elif field.errors:
            return True
    return False


def _forget_unused(table: Any) -> None:
    """Drop the complaints of the fields a table's way of entry does not use."""
    unused = table.CARD_FIELDS if table.dead or table.quick else table.QUICK_ONLY
    for name in unused:
        table[name].errors = []
    if not table.dead and not table.quick and table.knocker.data in (None, "", "None"):
        table.knocker.errors = [_("Choose who knocked.")]


def _table_inputs(table: Any) -> GinHand | None:
    """One table's stored inputs: dead, quick (no cards typed) or with its cards."""
    if table.dead:
        return dead_hand()
    if table.quick:
        return quick_inputs(table)
    return table_card_inputs(int(table.knocker.data), table.engine_kwargs())


def deal_json(
    inputs: StoredHand, deal: Deal, tables: Sequence[ScoredHand]
) -> answers.PartnershipGameDeal:
    """One deal: both tables (inputs as stored, knocker within the pair) and the net."""
    return {
        "number": deal.number,
        "inputs": dict(inputs),
        "pairing": [list(pair) for pair in deal.pairing],
        "tables": [
            {
                "players": list(pair),
                "outcome": hand.outcome.value,
                "winner": hand.winner,
                "points": hand.points,
                "team_points": list(points),
                "explanation": explanation_json(scored.result.explanation),
            }
            for pair, hand, points, scored in zip(
                deal.pairing, deal.hands, deal.hand_points, tables, strict=True
            )
        ],
        "points": list(deal.points),
        "box": deal.box,
        "totals": list(deal.totals),
        "after_end": deal.after_end,
        "explanation": str(deal.explanation),
    }
