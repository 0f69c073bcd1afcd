"""What every kind of game tells the pages, the API and the PDF.

A ``Variant`` knows how a game of its kind is set up, how a hand (or deal) is
entered in quick mode and with cards, how stored inputs are checked, how the hands
replay into a sheet (through ``scoring/`` — nothing here decides a score), and
which templates show it. The game views and the API are the same for every kind;
they ask the game's variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from flask_wtf import FlaskForm

from ..charts.race import Race
from ..hands.inputs import score_hand
from ..hands.stored import StoredHand, gin_hand
from ..jsonbody import ApiError
from ..models import Game, GameData
from ..scoring import Rules
from ..scoring.citations import outcome_rule
from .answers import SheetJson
from .replay import game_rules
from .sheet_cache import kept_sheet
from .wording import Clause, gin_clauses


class Sheet(Protocol):
    """A game replayed through the engine, as every kind's replay returns it (``GinSheet``,
    ``HollywoodSheet``, ``ThreeHandSheet``, ``PartnershipSheet``, ``RemiSheet``): what
    the views, the API and the summaries ask of any of them. Each kind reads the rest of
    its own (``Variant.own``)."""

    @property
    def rules(self) -> Rules:
        """The rules the game is played with."""
        ...

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names in seat order."""
        ...

    @property
    def finished(self) -> bool:
        """Whether the game is over (no new hands)."""
        ...

    def ended_before(self, number: int) -> bool:
        """Whether hand (or deal) ``number`` came after the game had ended: kept and
        listed, never counted."""
        ...


class Variant:
    """One kind of game. Subclasses fill in the class attributes and the hooks."""

    name: ClassVar[str]
    label: ClassVar[Any]  # a lazy string
    short_label: ClassVar[Any]  # the name alone, for a narrow choice (a group's filter)
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    presets: ClassVar[tuple[str, ...]] = ("classic", "russian", "pagat", "modern")
    default_preset: ClassVar[str] = "classic"
    card_mode: ClassVar[bool] = True
    # Templates: the sheet body (table, settlement), the quick-entry fields, the
    # card-entry fields, and one hand in full.
    sheet_template: ClassVar[str]
    quick_template: ClassVar[str]
    card_template: ClassVar[str | None] = None
    hand_template: ClassVar[str]
    # The one-line summary of the rules above the sheet, and the card-entry page's intro.
    rules_template: ClassVar[str] = "_rules_summary.html"
    card_intro: ClassVar[Any] = None
    # Print templates (WeasyPrint): the game's sheet, and a blank pad.
    pdf_template: ClassVar[str]
    pad_template: ClassVar[str]
    hand_word: ClassVar[Any] = None  # "Hand" or "Deal" (headings), lazily translated
    hand_noun: ClassVar[Any] = None  # "hand" or "deal" (inside a sentence)

    # --- setting up -------------------------------------------------------------------
    def rules_for(self, rules: Rules) -> Rules:
        """The rules a game of this kind plays with (e.g. Oklahoma forces ``oklahoma``)."""
        return rules

    def setup(self, players: Sequence[str], dealer: int, second: int | None) -> dict[str, Any]:
        """Starting state from the first dealer (and, where asked, a second seat choice,
        like three-hand gin's first captain). Raise ``ValueError`` for a bad choice."""
        if not 0 <= dealer < len(players):
            raise ValueError("the first dealer must be one of the players")
        return {"dealer": dealer}

    def rematch_setup(self, game: Game, sheet: Sheet) -> dict[str, Any]:
        """Starting state of a rematch (by default the same as this game's)."""
        return dict(game.setup)

    # --- replaying ------------------------------------------------------------------
    def sheet(self, game: GameData) -> Sheet:
        """The game's hands replayed through the engine, once per version of a stored
        game (``sheet_cache``)."""
        return kept_sheet(game, lambda: self.replay(game))

    def replay(self, game: GameData) -> Sheet:
        """Replay the game's hands (every call does it again: ask ``sheet``)."""
        rules = game_rules(game)
        scored = tuple(self.score_one(game, rules, number, hand.inputs)
                       for number, hand in enumerate(game.hands, start=1))
        return self.sheet_from(game, rules, scored)

    def sheet_with(
        self, game: GameData, inputs: StoredHand, number: int | None = None
    ) -> Sheet:
        """``game`` replayed with ``inputs`` as hand ``number`` (``None``: after the
        last), before anything is stored: what a save checks and answers with.

        The hands before ``number`` are taken as scored in the game's kept replay
        (``sheet``): only the new hand, and those a restored hand moves on, are scored.
        Scoring is the costly part of a replay; playing the scored hands into the sheet
        (``sheet_from``) is arithmetic. A replay not kept in this process (another
        worker made the last change) is made here first, and kept."""
        played = self.sheet(game)
        kept = self.scored_hands(played)
        at = len(kept) + 1 if number is None else number
        # Only a restore puts a hand before others: then the game's hands were read.
        moved = [hand.inputs for hand in game.hands[at - 1:]] if at <= len(kept) else []
        scored = (
            *kept[:at - 1],
            self.score_one(game, played.rules, at, inputs),
            *(self.score_one(game, played.rules, later, stored)
              for later, stored in enumerate(moved, start=at + 1)),
        )
        return self.sheet_from(game, played.rules, scored)

    # What a kind's replay keeps of each hand (a scored hand, a deal's two tables…):
    # ``Any`` here, each kind's own type in its methods.
    def score_one(
        self, game: GameData, rules: Rules, number: int, inputs: Mapping[str, Any]
    ) -> Any:
        """Hand ``number``'s stored inputs through the engine, as this kind's sheet keeps
        them (the engine raises when they cannot be scored)."""
        raise NotImplementedError

    def sheet_from(self, game: GameData, rules: Rules, scored: Sequence[Any]) -> Sheet:
        """The sheet of ``game`` whose hands, in order, are ``scored`` (``score_one``):
        the game played out from them through the engine."""
        raise NotImplementedError

    def scored_hands(self, sheet: Sheet) -> Sequence[Any]:
        """The hands of ``sheet`` as ``score_one`` scored them, in order."""
        raise NotImplementedError

    def check(self, game: GameData, inputs: StoredHand) -> None:
        """Raise ``HandError``/``ValueError`` with ``.problems`` if the inputs can't be scored."""
        raise NotImplementedError

    # --- entering -------------------------------------------------------------------
    def quick_form(self, game: Game, sheet: Sheet, number: int | None = None) -> FlaskForm:
        """The quick-entry form, bound to the request, with its choices filled in;
        ``number`` is the hand being corrected (``None``: the next hand)."""
        raise NotImplementedError

    def quick_inputs(self, form: FlaskForm, game: Game, sheet: Sheet) -> StoredHand | None:
        """Stored inputs from a submitted quick form, or ``None`` with the errors on it."""
        raise NotImplementedError

    def fill_quick(self, form: FlaskForm, inputs: StoredHand) -> None:
        """Prefill a quick form from stored inputs (correcting a hand)."""
        raise NotImplementedError

    def card_form(self, game: Game, sheet: Sheet, number: int | None = None) -> FlaskForm:
        """The card-entry form (only when ``card_mode``); ``number`` as for ``quick_form``."""
        raise NotImplementedError

    def card_inputs(self, form: FlaskForm, game: Game, sheet: Sheet) -> StoredHand | None:
        """Stored inputs from a submitted card form, or ``None`` with the errors on it."""
        raise NotImplementedError

    def fill_cards(self, form: FlaskForm, inputs: StoredHand) -> None:
        """Prefill a card form from stored inputs."""
        raise NotImplementedError

    # --- pictures -------------------------------------------------------------------
    def races(self, sheet: Sheet) -> tuple[Race, ...]:
        """The race(s) the game page and its PDF draw: each player's (or team's) running
        total after every counted hand, from the replay (``charts.race.race_of``)."""
        return ()

    def entry_mode(self, inputs: StoredHand) -> str:
        """``cards`` or ``quick``: the page a stored hand is corrected on by default."""
        return "cards" if inputs.get("mode") == "cards" else "quick"

    # --- the history ----------------------------------------------------------------
    def describe_inputs(self, game: Game, number: int, inputs: StoredHand) -> list[Clause]:
        """What a hand's stored inputs say, in words (``variants/wording.py``): by default a
        gin hand between the game's two players."""
        return gin_clauses(gin_hand(inputs), game.players)

    def rule_applied(self, game: GameData, inputs: StoredHand) -> str:
        """The rule card anchor (``/g/<id>/rules#<anchor>``) a hand's stored inputs turn
        on, for its history entries: by default how the gin hand ended, as the engine
        scores it (a knock with more deadwood is an undercut); ``""`` when the inputs
        cannot be scored."""
        try:
            result = score_hand(game_rules(game), gin_hand(inputs)).result
        except (KeyError, TypeError, ValueError, AttributeError):  # odd imported inputs
            return ""
        return outcome_rule(
            result.outcome, result.knocker.deadwood_points, result.defender.deadwood_points
        )

    # --- JSON -----------------------------------------------------------------------
    def api_inputs(self, body: dict[str, Any], game: GameData) -> StoredHand:
        """Stored inputs from an API body (JSON as the request holds it): its shape read by
        its type (``hands.bodies``), then what the shape cannot tell checked; raise
        ``ApiError`` with field paths."""
        raise NotImplementedError

    def stored_body(self, inputs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """The API body that stores ``inputs`` again (``api_inputs`` of it gives them
        back), and where each field of the body is in the stored inputs (``knocker.cards``:
        ``knocker_cards``) for the fields named otherwise."""
        raise NotImplementedError

    def read_stored(self, inputs: Mapping[str, Any], game: GameData) -> StoredHand:
        """A stored hand from elsewhere (a backup) read as the API reads a new one: the
        body ``stored_body`` makes of it through ``api_inputs``, the same checks to the
        letter. The inputs the API would store, or ``ApiError`` at the stored fields."""
        body, fields = self.stored_body(inputs)
        try:
            return self.api_inputs(body, game)
        except ApiError as exc:
            raise ApiError([(stored_field(where, fields), message)
                            for where, message in exc.problems]) from None

    def sheet_json(self, game: GameData, sheet: Sheet, *, hands: bool = True) -> SheetJson:
        """The derived part of ``GET /api/v1/games/<id>``: hands, totals, settlement.
        With ``hands=False`` (the answer to adding a hand) the per-hand list is left out."""
        raise NotImplementedError


S = TypeVar("S")


def sheet_as(sheet: Sheet, kind: type[S]) -> S:
    """``sheet`` as the replay of a kind of game returns it (``GinSheet``…): the views
    hand a variant only its own sheets, which this checks."""
    if not isinstance(sheet, kind):
        raise TypeError(f"{type(sheet).__name__} is not a {kind.__name__}")
    return sheet


def stored_field(where: str, fields: Mapping[str, str]) -> str:
    """An API body's field path (``knocker.cards[2]``) as the stored inputs name it
    (``knocker_cards[2]``), by the longest of ``fields`` it starts with."""
    for body in sorted(fields, key=len, reverse=True):
        if where == body or where.startswith((f"{body}[", f"{body}.")):
            return fields[body] + where[len(body):]
    return where
