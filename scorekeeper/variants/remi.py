"""Indonesian Remi (/rules/remi): 2–4 players, a row per deal, running totals that may
go negative, the lowest total deals next.

A deal is stored in one of two shapes, one entry per player in seat order:

- quick: ``{"mode": "quick", "went_out": seat|None,
  "players": [{"plus": n, "minus": n, "discard_value": 5|10|15|None}, ...]}``
- cards: ``{"mode": "cards", "went_out": seat|None,
  "players": [{"table": [["7S", "8S", "9S"], ...], "hand": [...], "final_discard": "AD"|None}]}``

Only the player who went out has a discard. Replaying scores each deal through
``scoring/remi.py`` and feeds the scores to ``play_remi_game``; nothing here decides a
score. Deals stored after the game ended (a correction can end it earlier) are kept
and shown, but not counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm

from ..charts.race import REMI_DEALS, Race, race_of
from ..hands.bodies import (
    RemiCardDeal,
    RemiDealBody,
    RemiQuickDeal,
    check_remi_deal,
    remi_deal_shape,
)
from ..hands.stored import RemiDeal as StoredDeal
from ..hands.stored import StoredHand, remi_card_deal, remi_deal, remi_quick_deal
from ..jsonbody import (
    ApiError,
    card_from_json,
    cards_from_json,
    cards_json,
    explanation_json,
    fail,
    index_from_json,
)
from ..models import Game, GameData
from ..scoring import Rules
from ..scoring.explain import Step
from ..scoring.remi import (
    RemiDeal,
    RemiError,
    RemiGame,
    RemiPlayerInput,
    RemiQuickScore,
    RemiResult,
    next_remi_dealer,
    play_remi_game,
    score_remi_quick,
    settle_remi_deal,
)
from ..scoring.rules import PRESETS
from . import answers
from .base import Sheet, Variant, sheet_as
from .remi_forms import RemiCardForm, RemiQuickForm
from .replay import game_rules
from .wording import Clause, remi_clauses


@dataclass(frozen=True)
class ScoredDeal:
    """A stored deal with what the engine made of it: a card result or quick scores."""

    inputs: StoredDeal
    scores: tuple[int, ...]
    went_out: int | None
    result: RemiResult | None = None  # entered with cards
    quick: tuple[RemiQuickScore, ...] | None = None  # entered as totals

    @property
    def cards_mode(self) -> bool:
        """Whether the deal was entered card by card."""
        return self.result is not None


@dataclass(frozen=True)
class RemiSheet:
    """A Remi game as its sheet shows it: every deal scored, the counted ones replayed."""

    rules: Rules
    players: tuple[str, ...]
    deals: tuple[ScoredDeal, ...]
    game: RemiGame

    @property
    def finished(self) -> bool:
        """Whether the target or the number of deals is reached."""
        return self.game.finished

    def ended_before(self, number: int) -> bool:
        """Whether deal ``number`` was entered after the game ended (the deals that count
        come first)."""
        return number > self.counted

    @property
    def counted(self) -> int:
        """How many deals count (the rest were entered after the game ended)."""
        return len(self.game.rows)

    @property
    def deals_left(self) -> int | None:
        """Deals still to play in a game of a fixed number of deals."""
        if self.rules.deals is None:
            return None
        return max(self.rules.deals - self.counted, 0)


def _prefixed(problems: Sequence[tuple[str, str]], prefix: str) -> list[tuple[str, str]]:
    return [(f"{prefix}.{where}", message) for where, message in problems]


def _went_out(inputs: StoredDeal, seats: int) -> int | None:
    out = inputs.get("went_out")
    if out is None:
        return None
    if isinstance(out, bool) or not isinstance(out, int) or not 0 <= out < seats:
        raise RemiError([("went_out", "who went out must be one of the players")])
    return int(out)


def _entries(inputs: StoredDeal, seats: int) -> list[Mapping[str, Any]]:
    entries: object = inputs.get("players")
    if not isinstance(entries, list) or len(entries) != seats:
        raise RemiError([("players", f"{seats} players' entries are needed, one per player")])
    if not all(isinstance(entry, Mapping) for entry in entries):
        raise RemiError([("players", "every player's entry is an object")])
    return entries


def score_deal(rules: Rules, players: Sequence[str], inputs: StoredDeal) -> ScoredDeal:
    """Score stored (or about to be stored) inputs; ``RemiError`` lists every problem."""
    seats = len(players)
    out = _went_out(inputs, seats)
    entries = _entries(inputs, seats)
    if inputs.get("mode") == "cards":
        result = settle_remi_deal(
            rules,
            [
                RemiPlayerInput(
                    name=name,
                    table=[list(group) for group in entry.get("table") or []],
                    hand=list(entry.get("hand") or []),
                    went_out=seat == out,
                    final_discard=entry.get("final_discard") if seat == out else None,
                )
                for seat, (name, entry) in enumerate(zip(players, entries, strict=True))
            ],
        )
        return ScoredDeal(inputs, result.scores, out, result=result)
    problems: list[tuple[str, str]] = []
    quick: list[RemiQuickScore] = []
    for seat, entry in enumerate(entries):
        try:
            quick.append(
                score_remi_quick(
                    entry.get("plus"),  # type: ignore[arg-type]  # checked by the engine
                    entry.get("minus"),  # type: ignore[arg-type]
                    went_out=seat == out,
                    discard_value=entry.get("discard_value"),
                )
            )
        except RemiError as exc:
            problems += _prefixed(exc.problems, f"players.{seat}")
    if problems:
        raise RemiError(problems)
    scores = tuple(score.points for score in quick)
    return ScoredDeal(inputs, scores, out, quick=tuple(quick))


def _replay(
    rules: Rules, players: Sequence[str], dealer: int, deals: Sequence[ScoredDeal]
) -> RemiGame:
    """The game over the deals that count: those up to the deal that ended it."""
    rows = [RemiDeal(deal.scores, deal.went_out) for deal in deals]
    try:
        return play_remi_game(rules, players, dealer, rows)
    except RemiError:
        # A correction ended the game earlier; the deals after the end do not count.
        for count in range(1, len(rows) + 1):
            game = play_remi_game(rules, players, dealer, rows[:count])
            if game.finished:
                return game
        raise


def remi_sheet(game: GameData, rules: Rules, deals: Sequence[ScoredDeal]) -> RemiSheet:
    """A Remi game's scored deals played out."""
    players = tuple(game.players)
    played = _replay(rules, players, int(game.setup.get("dealer", 0)), deals)
    return RemiSheet(rules, players, tuple(deals), played)


class RemiVariant(Variant):
    """Indonesian Remi for 2 to 4 players."""

    name: ClassVar[str] = "remi"
    label: ClassVar[Any] = _l("Indonesian Remi (2–4 players)")
    short_label: ClassVar[Any] = _l("Indonesian Remi")
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    presets: ClassVar[tuple[str, ...]] = ("remi",)
    default_preset: ClassVar[str] = "remi"
    card_mode: ClassVar[bool] = True
    sheet_template = "games/remi/sheet.html"
    quick_template = "games/remi/quick_fields.html"
    card_template = "games/remi/card_fields.html"
    hand_template = "games/remi/hand.html"
    rules_template: ClassVar[str] = "_remi_rules.html"
    card_intro: ClassVar[Any] = _l(
        "Type each player's cards in any notation (7H, 10♦, q♠) or tap them: the "
        "combinations laid on the table one a line, then the cards still in hand."
    )
    pdf_template: ClassVar[str] = "pdf/remi/sheet.html"
    pad_template: ClassVar[str] = "pdf/remi/pad.html"
    hand_word = _l("Deal")
    hand_noun = _l("deal")

    def rules_for(self, rules: Rules) -> Rules:
        """A gin preset chosen by mistake becomes the Remi preset (its target is gin's)."""
        if rules.preset in PRESETS and rules.preset != "remi":
            return PRESETS["remi"]
        return rules

    def rematch_setup(self, game: Game, sheet: Sheet) -> dict[str, Any]:
        """The lowest final total deals first (a tie: nearest the last dealer's left)."""
        replayed = sheet_as(sheet, RemiSheet)
        played: RemiGame = replayed.game
        if not played.rows:
            return dict(game.setup)
        return {"dealer": next_remi_dealer(played.totals, played.rows[-1].dealer)}

    def score_one(
        self, game: GameData, rules: Rules, number: int, inputs: Mapping[str, Any]
    ) -> ScoredDeal:
        """A stored deal scored (``score_deal``)."""
        return score_deal(rules, tuple(game.players), remi_deal(inputs))

    def sheet_from(
        self, game: GameData, rules: Rules, scored: Sequence[ScoredDeal]
    ) -> RemiSheet:
        """The deals played out (``remi_sheet``)."""
        return remi_sheet(game, rules, scored)

    def scored_hands(self, sheet: Sheet) -> tuple[ScoredDeal, ...]:
        """The game's deals, scored."""
        return sheet_as(sheet, RemiSheet).deals

    def races(self, sheet: Sheet) -> tuple[Race, ...]:
        """Every player's total after each counted deal (below zero too); who went out is
        marked. A game of a fixed number of deals has no target line."""
        replayed = sheet_as(sheet, RemiSheet)
        rows = [(r.number, r.totals, (r.went_out,)) for r in replayed.game.rows]
        target = None if replayed.rules.deals is not None else replayed.rules.target
        return (race_of(replayed.players, rows, target=target, caption=REMI_DEALS),)

    def describe_inputs(self, game: Game, number: int, inputs: StoredHand) -> list[Clause]:
        """A deal in words: who went out, each player's plus and minus or their cards."""
        return remi_clauses(remi_deal(inputs), game.players)

    def rule_applied(self, game: GameData, inputs: StoredHand) -> str:
        """A deal is scored plus its combinations, minus the rest: the scoring of a deal."""
        return "remi-scoring"

    def check(self, game: GameData, inputs: StoredHand) -> None:
        """Score the deal once; ``RemiError`` (a ``ValueError``) lists every problem."""
        score_deal(game_rules(game), game.players, remi_deal(inputs))

    # --- the pages ------------------------------------------------------------------
    def quick_form(self, game: Game, sheet: Sheet, number: int | None = None) -> RemiQuickForm:
        """Each player's plus and minus, who went out and the value of their discard."""
        form = RemiQuickForm()
        _ready(form, game)
        return form

    def quick_inputs(self, form: FlaskForm, game: Game, sheet: Sheet) -> StoredDeal | None:
        """Stored inputs from the quick form, checked by the engine."""
        valid = form.validate_on_submit()
        inputs = form.read()  # marks what is missing even beside other errors
        if inputs is None or not valid:
            return None
        return self._checked(form, game, inputs, form.discard_value)

    def fill_quick(self, form: FlaskForm, inputs: StoredHand) -> None:
        """Prefill from a stored deal."""
        form.fill(remi_deal(inputs))

    def card_form(self, game: Game, sheet: Sheet, number: int | None = None) -> RemiCardForm:
        """Every player's table combinations and hand, who went out, the final discard."""
        form = RemiCardForm()
        _ready(form, game)
        return form

    def card_inputs(self, form: FlaskForm, game: Game, sheet: Sheet) -> StoredDeal | None:
        """Stored inputs from the card form, checked and explained by the engine."""
        inputs = form.read() if form.validate_on_submit() else None
        if inputs is None:
            return None
        return self._checked(form, game, inputs, form.final_discard)

    def fill_cards(self, form: FlaskForm, inputs: StoredHand) -> None:
        """Prefill from a stored deal (a quick deal starts with empty cards)."""
        form.fill(remi_deal(inputs))

    def _checked(
        self, form: FlaskForm, game: Game, inputs: StoredDeal, discard: Any
    ) -> StoredDeal | None:
        try:
            self.check(game, inputs)
        except RemiError as exc:
            form.show(exc.problems, discard)
            return None
        return inputs

    # --- JSON -----------------------------------------------------------------------
    def api_inputs(self, body: dict[str, Any], game: GameData) -> StoredDeal:
        """Quick totals or cards (see ``deal_inputs``): the body's shape read by its type
        (``hands.bodies``), then checked by the engine."""
        inputs = deal_inputs(check_remi_deal(body), len(game.players))
        try:
            self.check(game, inputs)
        except RemiError as exc:
            raise ApiError([_api_where(problem) for problem in exc.problems]) from None
        return inputs

    def stored_body(self, inputs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """The body ``deal_inputs`` reads into a stored deal: the discard of the player
        who went out (stored in their entry) is the body's own field."""
        mode, out, entries = inputs.get("mode"), inputs.get("went_out"), inputs.get("players")
        body = {"mode": mode, "went_out": out, "players": entries}
        if not isinstance(entries, list):
            return body, {}
        keys, discard = (("table", "hand"), "final_discard") if mode == "cards" else (
            ("plus", "minus"), "discard_value")
        body["players"] = [
            {key: entry[key] for key in keys if key in entry} if isinstance(entry, Mapping)
            else entry
            for entry in entries
        ]
        fields = {}
        if isinstance(out, int) and 0 <= out < len(entries) and isinstance(entries[out], Mapping):
            body[discard] = entries[out].get(discard)
            fields[discard] = f"players[{out}].{discard}"
        return body, fields

    def sheet_json(self, game: GameData, sheet: Sheet, *, hands: bool = True) -> answers.SheetJson:
        """Deals (as ``hands``) with every player's score, totals, dealers, the end and the
        winners; ``hands=False`` leaves the list of deals out."""
        replayed = sheet_as(sheet, RemiSheet)
        played: RemiGame = replayed.game
        document: answers.RemiGame = {
            "totals": list(played.totals),
            "next_dealer": played.next_dealer,
            "finished": played.finished,
            "winners": list(played.winners),
            "target": None if replayed.rules.deals is not None else replayed.rules.target,
            "deals_left": replayed.deals_left,
        }
        if not hands:
            return document
        rows = [deal_json(number, deal, replayed)
                for number, deal in enumerate(replayed.deals, start=1)]
        return {"hands": rows, **document}


def _ready(form: RemiQuickForm | RemiCardForm, game: Game) -> None:
    form.setup(game.players)
    if form.version.data in (None, ""):
        form.version.data = str(game.version)


# --- the JSON API ----------------------------------------------------------------------


def _api_where(problem: tuple[str, str]) -> tuple[str, str]:
    """The engine's ``players.1.table.0`` as the API body names it: ``players[1].table[0]``;
    a discard is the body's ``final_discard`` / ``discard_value``."""
    where, message = problem
    parts = where.split(".")
    if parts[-1] in ("final_discard", "discard_value"):
        return parts[-1], message
    out = parts[0]
    for part in parts[1:]:
        out += f"[{part}]" if part.isdigit() else f".{part}"
    return out, message


def deal_inputs(body: RemiDealBody, seats: int) -> StoredDeal:
    """The stored deal of a Remi deal's body, its shape read (``hands.bodies``); refused
    (``ApiError``) where the shape cannot tell: a seat or a number of players not of
    this game, a card that is none, a discard without anybody going out.

    Quick: ``{"went_out": seat|null, "discard_value": 5|10|15 (or "final_discard": card),
    "players": [{"plus": n, "minus": n}, ...]}`` (a plus or minus left out is 0).
    Cards: ``{"went_out": seat|null,
    "final_discard": card, "players": [{"table": [[cards], ...], "hand": [cards]}, ...]}``.
    ``"mode"`` may say which; without it, players with ``plus``/``minus`` are quick.
    """
    out_raw = body.get("went_out")
    out = None if out_raw is None else index_from_json(out_raw, "went_out", seats)
    if len(body["players"]) != seats:
        fail("players", f"this game has {seats} players: send one entry for each, in seat order")
    discard = body.get("final_discard")
    card = None if discard is None else card_from_json(discard, "final_discard")
    if out is None and (card is not None or body.get("discard_value") is not None):
        fail("went_out", "only the player who went out has a final discard: say who went out")
    if remi_deal_shape(dict(body)) is RemiCardDeal:
        entries = cast(RemiCardDeal, body)["players"]
        return remi_card_deal(out, [
            {
                "table": [
                    cards_json(cards_from_json(group, f"players[{i}].table[{j}]"))
                    for j, group in enumerate(entry.get("table", []))
                ],
                "hand": cards_json(cards_from_json(entry.get("hand", []), f"players[{i}].hand")),
                "final_discard": str(card) if i == out and card is not None else None,
            }
            for i, entry in enumerate(entries)
        ])
    quick = cast(RemiQuickDeal, body)
    value = quick.get("discard_value")
    if value is None and card is not None:
        value = card.remi_value
    return remi_quick_deal(out, [
        {
            "plus": entry.get("plus", 0),
            "minus": entry.get("minus", 0),
            "discard_value": value if i == out else None,
        }
        for i, entry in enumerate(quick["players"])
    ])


def _player_json(seat: int, deal: ScoredDeal) -> answers.RemiDealPlayer:
    if deal.result is not None:
        player = deal.result.players[seat]
        return {
            "points": player.points,
            "plus": player.plus,
            "minus": player.minus,
            "closing_bonus": player.closing_bonus,
            "combinations": [cards_json(c.cards) for c in player.combinations],
            "void_sets": [cards_json(c.cards) for c in player.void_sets],
            "unmatched": cards_json(player.unmatched),
        }
    assert deal.quick is not None
    score = deal.quick[seat]
    return {
        "points": score.points,
        "plus": score.plus,
        "minus": score.minus,
        "closing_bonus": score.closing_bonus,
    }


def deal_explanation(deal: ScoredDeal) -> list[Step]:
    """Every step of a deal's scoring (quick steps are per player, without a name)."""
    if deal.result is not None:
        return list(deal.result.explanation)
    assert deal.quick is not None
    return [step for score in deal.quick for step in score.explanation]


def deal_json(number: int, deal: ScoredDeal, sheet: RemiSheet) -> answers.RemiGameDeal:
    """One deal: its inputs, each player's score, the totals after it, its dealer."""
    counted = number <= sheet.counted
    row = sheet.game.rows[number - 1] if counted else None
    return {
        "number": number,
        "inputs": dict(deal.inputs),
        "mode": "cards" if deal.cards_mode else "quick",
        "went_out": deal.went_out,
        "dealer": row.dealer if row is not None else None,
        "scores": list(deal.scores),
        "totals": list(row.totals) if row is not None else None,
        "after_end": not counted,
        "players": [_player_json(seat, deal) for seat in range(len(sheet.players))],
        "explanation": explanation_json(
            [*deal_explanation(deal), *(row.explanation if row is not None else ())]),
    }
