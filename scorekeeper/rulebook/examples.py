"""The rule cards' worked examples, worked out by the engine with a card's own rules.

Each example states the situation of a worked example and lets ``scoring/`` decide it: the steps and
the verdict are the engine's, so a card's example says what the app would score with
those rules (a custom target, say, changes the game's outcome on its own card). Every
example is a legal hand under those rules: an example's knock over the card's knock limit
is played at the limit instead, and where no knock is allowed at all (a limit of 0:
only gin goes down) the examples of knocks are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _

from ..i18n import text_direction
from ..scoring.arrange import best_arrangement
from ..scoring.cards import Card, parse_cards
from ..scoring.errors import HandError
from ..scoring.explain import Step
from ..scoring.game import play_gin_game
from ..scoring.hollywood import play_hollywood
from ..scoring.outcome import HandScore, Outcome, Side
from ..scoring.partnership import play_partnership
from ..scoring.remi import RemiPlayerInput, settle_remi_deal
from ..scoring.rules import Rules, Shutout
from ..scoring.settle import HandResult, knock_limit, score_quick_hand, settle_gin_hand
from ..scoring.three_hand import Role, play_three_hand


@dataclass(frozen=True)
class Example:
    """A situation, the engine's steps, and what it comes to."""

    situation: str
    steps: tuple[Step, ...]
    verdict: str


def shown(cards: Sequence[Card]) -> str:
    """Cards by their symbols, kept left to right inside a Persian sentence."""
    text = " ".join(card.symbols for card in cards)
    return f"\u2066{text}\u2069" if text_direction() == "rtl" else text


def _upcard(rules: Rules) -> str | None:
    # An Oklahoma hand needs an upcard: a red ten keeps the knock limit at 10 and
    # doubles nothing, so the example reads as in the rule cards' worked examples.
    return "TH" if rules.oklahoma else None


def _knock(rules: Rules, knocker: int, defender: int) -> tuple[int, int] | None:
    """An example's knock with ``knocker`` against ``defender`` as the rules allow it: over
    the knock limit the knocker holds the limit, the defender as much more or less as in
    the example (never below 0); ``None`` when the rules allow no knock (only gin)."""
    upcard = _upcard(rules)
    limit, _steps = knock_limit(rules, None if upcard is None else Card.parse(upcard))
    if limit < 1:
        return None
    held = min(knocker, limit)
    return held, max(defender - knocker + held, 0)


def _quick(rules: Rules, outcome: str, knocker: int, defender: int) -> HandResult:
    return score_quick_hand(rules, outcome, knocker, defender, upcard=_upcard(rules))


def _verdict(result: HandResult) -> str:
    if result.winner is Side.KNOCKER:
        return str(_("The knocker scores %(points)s.", points=result.points))
    if result.winner is Side.DEFENDER:
        return str(_("The defender scores %(points)s.", points=result.points))
    return str(_("Nobody scores."))


def _hand(rules: Rules, situation: str, outcome: str, knocker: int, defender: int) -> Example:
    result = _quick(rules, outcome, knocker, defender)
    return Example(situation, result.explanation, _verdict(result))


def _knock_example(rules: Rules, knocker: int, defender: int) -> Example | None:
    knock = _knock(rules, knocker, defender)
    if knock is None:
        return None
    held, against = knock
    situation = _("A knock with %(knocker)s against %(defender)s.", knocker=held,
                  defender=against)
    return _hand(rules, situation, "knock", held, against)


def melds(rules: Rules) -> Example:
    """Worked example 7: the knocker's ten cards, arranged."""
    cards = parse_cards(KNOCKER_7)
    layout = best_arrangement(cards, rules)
    groups = ", ".join(shown(meld.cards) for meld in layout.melds)
    return Example(
        shown(cards),
        (),
        _("Melds %(melds)s; deadwood %(deadwood)s = %(points)s.", melds=groups,
          deadwood=shown(layout.deadwood), points=layout.deadwood_points),
    )


def knock(rules: Rules) -> Example | None:
    """Worked example 1."""
    return _knock_example(rules, 5, 9)


def gin(rules: Rules) -> Example:
    """Worked example 2."""
    return _hand(rules, _("Gin against 12."), "gin", 0, 12)


def undercut(rules: Rules) -> Example | None:
    """Worked example 3."""
    return _knock_example(rules, 8, 5)


def tie(rules: Rules) -> Example | None:
    """Worked example 4."""
    return _knock_example(rules, 6, 6)


def dead(rules: Rules) -> Example:
    """A dead hand as the engine scores it."""
    return _hand(rules, _("The stock is down to 2 cards and nobody knocked."), "dead", 0, 0)


KNOCKER_7 = "KS KH KD 5S 6S 7S 9C TC JC JD"
DEFENDER_7 = "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"


def layoffs(rules: Rules) -> Example | None:
    """Worked example 7, both hands in full: the layoffs found by the engine."""
    try:
        result = settle_gin_hand(rules, KNOCKER_7, DEFENDER_7, upcard=_upcard(rules))
    except HandError:  # a knock limit below 10 refuses this knock: no example then
        return None
    situation = _("Knocker: %(knocker)s. Defender: %(defender)s.",
                  knocker=shown(parse_cards(KNOCKER_7)), defender=shown(parse_cards(DEFENDER_7)))
    return Example(situation, result.explanation, _verdict(result))


def upcard(rules: Rules) -> Example | None:
    """Worked example 1 in Oklahoma with a 7♠ upcard."""
    try:
        result = score_quick_hand(rules, "knock", 5, 9, upcard="7S")
    except HandError:
        return None
    return Example(_("Upcard 7♠; a knock with 5 against 9."), result.explanation,
                   _verdict(result))


def _knocks(rules: Rules, wins: Sequence[tuple[int, int]]) -> list[HandScore]:
    # Hand points as the worked examples give them; an Oklahoma doubling plays no part
    # in a game's end.
    return [HandScore(Outcome.KNOCK, seat, points) for seat, points in wins]


def _game(rules: Rules, wins: Sequence[tuple[int, int]], situation: str) -> Example | None:
    game = play_gin_game(rules, ["A", "B"], 0, _knocks(rules, wins))
    if game.settlement is None:  # a higher target: these hands do not end the game
        return None
    finals = game.settlement.finals
    return Example(situation, game.settlement.explanation,
                   _("A %(a)s, B %(b)s.", a=finals[0], b=finals[1]))


def game_end(kind: str, rules: Rules) -> Example | None:
    """The worked examples' game end: A wins 15, 55, 33, B wins 47, 28."""
    if kind not in ("gin", "oklahoma"):
        return None  # the kind's own rule works its game out
    wins = [(0, 15), (1, 47), (0, 55), (1, 28), (0, 33)]
    return _game(rules, wins, _("A wins hands worth 15, 55 and 33; B wins 47 and 28."))


def shutout(kind: str, rules: Rules) -> Example | None:
    """The worked examples' shutout: A wins four hands, 103 points, B none."""
    if kind not in ("gin", "oklahoma") or rules.shutout is Shutout.NONE:
        return None
    wins = [(0, 20), (0, 30), (0, 25), (0, 28)]
    return _game(rules, wins, _("A wins four hands, 103 points; B wins none."))


HOLLYWOOD = [(0, 20), (1, 15), (0, 30), (0, 40), (1, 35), (0, 25), (0, 10), (0, 30)]


def hollywood(rules: Rules) -> Example:
    """The worked examples' Hollywood match."""
    match = play_hollywood(rules, ["A", "B"], 0, _knocks(rules, HOLLYWOOD))
    closed = [
        _("Column %(number)s: A %(a)s, B %(b)s.", number=column.number,
          a=column.settlement.finals[0], b=column.settlement.finals[1])
        for column in match.columns
        if column.settlement is not None
    ]
    return Example(
        _("Hand points: A +20, B +15, A +30, A +40, B +35, A +25, A +10, A +30."),
        (),
        " ".join(closed) if closed else _("No column has closed yet."),
    )


def three_hand(rules: Rules) -> Example | None:
    """The worked examples' three-hand game: X box, Y captain, Z sitting out."""
    first, second = _knock(rules, 4, 20), _knock(rules, 7, 5)
    if first is None or second is None:
        return None
    won, gin, undercut = (_quick(rules, "knock", *first), _quick(rules, "gin", 0, 30),
                          _quick(rules, "knock", *second))
    hands = [
        HandScore(won.outcome, Role.CAPTAIN, won.points),
        HandScore(gin.outcome, Role.BOX, gin.points),
        HandScore(undercut.outcome, Role.CAPTAIN, undercut.points),
        HandScore(Outcome.DEAD, None, 0),
    ]
    game = play_three_hand(rules, ["X", "Y", "Z"], 0, 1, hands)
    x, y, z = game.totals
    return Example(
        _("X box, Y captain, Z sitting out. Y knocks with %(y1)s against X's "
          "%(x1)s; then Y, in the box, goes gin against Z's 30; then Y knocks "
          "with %(y2)s and X has %(x2)s; then a dead hand.",
          y1=first[0], x1=first[1], y2=second[0], x2=second[1]),
        (),
        _("X %(x)s, Y %(y)s, Z %(z)s.", x=x, y=y, z=z),
    )


def partnership(rules: Rules) -> Example | None:
    """One deal of the worked examples' single hands: Ann knocks 5 against Bob's 9 at one
    table, Cid knocks 8 against Dan's 5 at the other."""
    ann, cid = _knock(rules, 5, 9), _knock(rules, 8, 5)
    if ann is None or cid is None:
        return None
    first, second = _quick(rules, "knock", *ann), _quick(rules, "knock", *cid)
    deal = (HandScore(first.outcome, 0, first.points), HandScore(second.outcome, 3, second.points))
    game = play_partnership(rules, ["Ann", "Bob", "Cid", "Dan"], [deal])
    return Example(
        _("Ann and Cid against Bob and Dan. Ann knocks with %(ann)s against Bob's %(bob)s; "
          "Cid knocks with %(cid)s against Dan's %(dan)s.",
          ann=ann[0], bob=ann[1], cid=cid[0], dan=cid[1]),
        (game.deals[0].explanation,),
        _("Ann & Cid %(team1)s, Bob & Dan %(team2)s.", team1=game.totals[0],
          team2=game.totals[1]),
    )


def remi(rules: Rules) -> Example | None:
    """The worked examples' Remi deal, players A and C."""
    players = [
        RemiPlayerInput("A", (), "2H 3H 4H 5H KC KD KS", True, "AD"),
        RemiPlayerInput("C", ("7S 8S 9S",), "9D 9C 9H AS"),
    ]
    result = settle_remi_deal(rules, players)
    return Example(
        _("A goes out holding 2♥ 3♥ 4♥ 5♥ K♣ K♦ K♠ and discarding A♦. C has 7♠ 8♠ 9♠ on "
          "the table and 9♦ 9♣ 9♥ A♠ in hand."),
        result.explanation,
        _("A %(a)s, C %(c)s.", a=result.scores[0], c=result.scores[1]),
    )
