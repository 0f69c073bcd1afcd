"""Three-hand gin (/rules/three_hand#roles): the box against a captain, one player sitting out.

A hand is an ordinary gin hand (quick or cards, ``hands.inputs``' shapes) whose
``knocker`` is a **role** — 0 the box, 1 the captain — never a seat. The seats come
from replaying the game (``scoring.three_hand``), so correcting or deleting an earlier
hand moves every later hand's roles with it. The sitter is never a choice.

Setup ``{"box": seat, "captain": seat}``: the first box (the new-game form's dealer —
the box deals every hand) and the first captain (by default the seat after the box).
A rematch starts like a fresh draw: the winner of the game in the box, the player with
the next best total as captain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..charts.race import Race, race_of
from ..hands.bodies import CardHand, QuickHand, check_gin_hand
from ..hands.fields import QuickHandForm
from ..hands.inputs import ScoredHand, score_hand
from ..hands.stored import StoredHand, ThreeHandHand, gin_hand
from ..jsonbody import explanation_json, problems_at
from ..models import Game, GameData
from ..scoring import HandError, Rules
from ..scoring.errors import Problem
from ..scoring.explain import N_, Message
from ..scoring.outcome import Outcome
from ..scoring.three_hand import Role, Roles, ThreeHandGame, ThreeHandRow, play_three_hand
from . import answers
from .base import Sheet, sheet_as
from .gin import CardHandForm, GinVariant, hand_inputs, prepare, settlement_json
from .replay import game_rules
from .wording import Clause, gin_clauses

ROLE_NAMES = {"box": Role.BOX, "captain": Role.CAPTAIN}


@dataclass(frozen=True)
class ThreeHandSheet:
    """A three-hand game as its sheet shows it: the hands and the engine's rows."""

    rules: Rules
    players: tuple[str, ...]
    hands: tuple[ScoredHand, ...]
    game: ThreeHandGame

    @property
    def finished(self) -> bool:
        """Whether somebody reached the target."""
        return self.game.finished

    def ended_before(self, number: int) -> bool:
        """Whether hand ``number`` was entered after the game ended."""
        return number in self.game.ignored

    def roles_for(self, number: int) -> Roles:
        """The roles hand ``number`` (1-based) is (or will be) played with."""
        if 1 <= number <= len(self.game.rows):
            return self.game.rows[number - 1].roles
        return self.game.roles

    def role_labels(self, number: int) -> list[str]:
        """The two choices of "who went out" in hand ``number``: the box, the captain."""
        roles = self.roles_for(number)
        return [
            _("%(name)s (box)", name=self.players[roles.box]),
            _("%(name)s (captain)", name=self.players[roles.captain]),
        ]

    def role_of(self, roles: Roles, seat: int) -> str:
        """``box``, ``captain`` or ``out``: what ``seat`` does under ``roles``."""
        return ("box", "captain", "out")[(roles.box, roles.captain, roles.out).index(seat)]


def three_hand_sheet(
    game: GameData, rules: Rules, hands: Sequence[ScoredHand]
) -> ThreeHandSheet:
    """A three-hand game's scored hands played from the roles of the draw."""
    played = play_three_hand(
        rules,
        game.players,
        int(game.setup.get("box", 0)),
        int(game.setup.get("captain", 1)),
        [h.score for h in hands],
    )
    return ThreeHandSheet(rules, tuple(game.players), tuple(hands), played)


def hand_number(game: Game, number: int | None) -> int:
    """The hand a form is for: the one being corrected, else the next one."""
    return number if number is not None else len(game.hands) + 1


class ThreeHandVariant(GinVariant):
    """Three players; the box plays every hand against the captain."""

    name: ClassVar[str] = "three_hand"
    label: ClassVar[Any] = _l("Three-hand gin")
    short_label: ClassVar[Any] = _l("Three-hand gin")
    player_counts: ClassVar[tuple[int, ...]] = (3,)
    presets: ClassVar[tuple[str, ...]] = ("three_hand", "classic", "russian", "pagat", "modern")
    default_preset: ClassVar[str] = "three_hand"
    sheet_template = "games/three_hand/sheet.html"
    quick_template = "games/three_hand/quick_fields.html"
    card_template = "games/three_hand/card_fields.html"
    hand_template = "games/three_hand/hand.html"
    pdf_template: ClassVar[str] = "pdf/three_hand/sheet.html"
    pad_template: ClassVar[str] = "pdf/three_hand/pad.html"

    def setup(self, players: Sequence[str], dealer: int, second: int | None) -> dict[str, Any]:
        """The first box (who deals) and captain; the captain defaults to the next seat."""
        count = len(players)
        if not 0 <= dealer < count:
            raise ValueError(_("The box (first dealer) must be one of the three players."))
        captain = (dealer + 1) % count if second is None else second
        if not 0 <= captain < count:
            raise ValueError(_("The captain must be one of the three players."))
        if captain == dealer:
            raise ValueError(_("The captain cannot also be in the box."))
        return {"box": dealer, "captain": captain}

    def rematch_setup(self, game: Game, sheet: Sheet) -> dict[str, Any]:
        """As a draw would: the winner in the box, the next best total as captain."""
        replayed = sheet_as(sheet, ThreeHandSheet)
        played = replayed.game
        if played.winner is None:
            return dict(game.setup)
        box = played.winner
        others = [(box + 1) % 3, (box + 2) % 3]
        captain = max(others, key=lambda seat: played.totals[seat])  # ties: the next seat
        return {"box": box, "captain": captain}

    def sheet_from(
        self, game: GameData, rules: Rules, scored: Sequence[ScoredHand]
    ) -> ThreeHandSheet:
        """The hands played through ``scoring.three_hand``."""
        return three_hand_sheet(game, rules, scored)

    def scored_hands(self, sheet: Sheet) -> tuple[ScoredHand, ...]:
        """The game's hands, scored."""
        return sheet_as(sheet, ThreeHandSheet).hands

    def races(self, sheet: Sheet) -> tuple[Race, ...]:
        """The three totals after every counted hand; the hand's winner is marked."""
        replayed = sheet_as(sheet, ThreeHandSheet)
        rows = [(r.number, r.totals, (r.winner,)) for r in replayed.game.rows if not r.after_end]
        return (race_of(replayed.players, rows, target=replayed.rules.target),)

    def describe_inputs(self, game: Game, number: int, inputs: StoredHand) -> list[Clause]:
        """A hand in words, its players by role: who was box and captain depends on the
        hands before it, which may have been corrected since."""
        roles = (Message(N_("the box")), Message(N_("the captain")))
        return gin_clauses(gin_hand(inputs), roles)

    def check(self, game: GameData, inputs: StoredHand) -> None:
        """The engine scores the hand; the knocker must be the box or the captain."""
        scored = score_hand(game_rules(game), gin_hand(inputs))
        if scored.result.outcome is not Outcome.DEAD and inputs.get("knocker") not in (0, 1):
            raise HandError([Problem("knocker", _("Only the box or the captain can go out."))])

    def quick_form(self, game: Game, sheet: Sheet, number: int | None = None) -> QuickHandForm:
        """The gin quick form; "who went out" names this hand's box and captain."""
        replayed = sheet_as(sheet, ThreeHandSheet)
        labels = replayed.role_labels(hand_number(game, number))
        form: QuickHandForm = prepare(QuickHandForm(), game, labels)
        return form

    def card_form(self, game: Game, sheet: Sheet, number: int | None = None) -> CardHandForm:
        """The gin card form; "who knocked" names this hand's box and captain."""
        replayed = sheet_as(sheet, ThreeHandSheet)
        labels = replayed.role_labels(hand_number(game, number))
        form: CardHandForm = prepare(CardHandForm(), game, labels)
        return form

    def api_inputs(self, body: dict[str, Any], game: GameData) -> ThreeHandHand:
        """A gin hand body whose knocker is a role: 0 or "box", 1 or "captain"."""
        hand = check_gin_hand(body)
        if "defender" in hand:
            cards = cast(CardHand, hand).copy()
            seated = cards["knocker"].copy()
            seated["seat"] = _role(seated["seat"])
            cards["knocker"] = seated
            hand = cards
        elif "knocker" in hand:
            quick = cast(QuickHand, hand).copy()
            quick["knocker"] = _role(quick["knocker"])
            hand = quick
        inputs = hand_inputs(hand, 2)
        try:
            self.check(game, inputs)
        except HandError as exc:
            raise problems_at(exc.problems) from None
        return inputs

    def sheet_json(self, game: GameData, sheet: Sheet, *, hands: bool = True) -> answers.SheetJson:
        """Hands with their roles and results, totals, next roles, settlement."""
        replayed = sheet_as(sheet, ThreeHandSheet)
        played = replayed.game
        document: answers.ThreeHandGame = {
            "totals": list(played.totals),
            "boxes": list(played.boxes),
            "needs": list(played.needs),
            "next_roles": roles_json(played.roles),
            "next_dealer": played.next_dealer,
            "finished": played.finished,
            "winner": played.winner,
            "settlement": settlement_json(played.settlement),
        }
        if not hands:
            return document
        rows = zip(played.rows, replayed.hands, strict=True)
        return {"hands": [hand_json(row, scored) for row, scored in rows], **document}


def _role(value: int | str) -> int:
    """A role from the API, 0/1 or its name (``"box"``, ``"captain"``)."""
    return int(ROLE_NAMES[value]) if isinstance(value, str) else value


def roles_json(roles: Roles) -> answers.Roles:
    """Which seat has which role."""
    return {"box": roles.box, "captain": roles.captain, "out": roles.out}


def hand_json(row: ThreeHandRow, scored: ScoredHand) -> answers.ThreeHandHand:
    """One three-hand row: its inputs (knocker = role), roles, result and totals."""
    knocker = scored.knocker
    return {
        "number": row.number,
        "inputs": dict(scored.inputs),
        "roles": roles_json(row.roles),
        "dealer": row.roles.box,
        "knocker_seat": None if knocker is None else row.roles.seat(Role(knocker)),
        "outcome": row.hand.outcome.value,
        "winner_role": None if row.hand.winner is None else Role(row.hand.winner).name.lower(),
        "winner": row.winner,
        "points": list(row.points),
        "totals": list(row.totals),
        "next_roles": roles_json(row.next_roles),
        "after_end": row.after_end,
        "explanation": explanation_json(scored.result.explanation),
    }
