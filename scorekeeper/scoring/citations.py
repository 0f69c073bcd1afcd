"""The rule each explanation step applies: an anchor of the rule cards (``/rules/<card>#<rule>``).

Steps are worded from their templates, so a template names the rule it applies once,
here. Every template the engine builds a step from is in this table (a test reads the
engine's source to be sure).

>>> RULE_OF["Gin: {defender} + gin bonus {bonus} = {points}."]
'gin'
>>> outcome_rule("undercut", 7, 7)
'tie'
"""

from __future__ import annotations

from .outcome import Outcome

_BY_RULE: dict[str, tuple[str, ...]] = {
    "melds": (
        "The knocker held 11 cards; discarding {card} leaves the least deadwood.",
        "The knocker held 11 cards and discards {card}.",
        "Knocker has no melds; deadwood {cards} = {points}.",
        "Knocker melds {melds}; deadwood {cards} = {points}.",
        "Defender melds {melds}.",
        "Defender's deadwood {cards} = {points}.",
        "Defender has no deadwood.",
    ),
    "knock": (
        "Knocker's deadwood {knocker}, defender's {defender}.",
        "Deadwood {knocker} < {defender}: the knocker scores {defender} − {knocker} = {points}.",
    ),
    "upcard": (
        "Oklahoma: the upcard {card} sets the knock limit to {limit}.",
        "Oklahoma: the upcard {card} is an ace, so only gin may go down.",
        "Spade upcard: everything in this hand is doubled, {points} × 2 = {total}.",
    ),
    "layoffs": (
        "The knocker's cards can be laid out {count} ways with this deadwood; this one leaves "
        "the defender the most.",
        "No layoffs against gin.",
        "Defender lays off {cards} on {meld}.",
    ),
    "gin": (
        "Gin: {defender} + gin bonus {bonus} = {points}.",
        "A knock with no deadwood is gin.",
        "Knocker melds {melds}; no deadwood: gin.",
    ),
    "big-gin": (
        "Big gin: {defender} + big gin bonus {bonus} = {points}.",
        "Big gin: all 11 of the knocker's cards meld: {melds}.",
    ),
    "undercut": ("Deadwood {defender} ≤ {knocker}: undercut, {diff} + {bonus} = {points}.",),
    "tie": ("Deadwood {defender} = {knocker}: a tie, nobody scores.",),
    "dead-hand": ("Dead hand: nobody scores and the same dealer deals again.",),
    "target": ("{name} reached {points} of {target} first.",),
    "deals": (
        "Deal {deals} was the last: {name} is ahead, {points} to {other}, and wins the game.",
        "Deal {deals} was the last: {name} are ahead, {points} to {other}, and win the game.",
        "Deal {deals} was the last and the scores are level at {points}: a drawn game, "
        "without bonuses.",
    ),
    "game-bonus": (
        "Game bonus to {name}: +{bonus}",
        "{name} wins by {margin} ({final} − {other}).",
        "{name} win by {margin} ({final} − {other}).",
        "{name}: {points} + {game_bonus} game bonus + {boxes} × {box_bonus} boxes = {final}",
        "{name}: {points} + {game_bonus} game bonus = {final}",
    ),
    "boxes": (
        "{name}'s boxes: {boxes} × {bonus} = +{amount}",
        "Team {name}'s boxes: {boxes} × {bonus} = +{amount}",
        "{name}: {points} + {boxes} × {box_bonus} boxes = {final}",
        "{name}: {final}",
    ),
    "shutout": (
        "{name} won no hand: shutout.",
        "Shutout bonus to {name}: +{bonus}",
        "Shutout: {name}'s {points} points are doubled: +{points}",
        "Shutout: team {name}'s {points} points are doubled: +{points}",
        "{name}'s boxes, doubled for the shutout: {boxes} × {bonus} × 2 = +{amount}",
        "Team {name}'s boxes, doubled for the shutout: {boxes} × {bonus} × 2 = +{amount}",
        "{name}: ({points} + {game_bonus} game bonus) × 2 + {boxes} × {box_bonus} boxes = "
        "{final}",
        "{name}: ({points} + {game_bonus} game bonus + {boxes} × {box_bonus} boxes) × 2 = "
        "{final}",
        "{name}: {points} + {game_bonus} game bonus + {shutout_bonus} shutout bonus + {boxes} × "
        "{box_bonus} boxes = {final}",
    ),
    "teams": (
        "{team} won by {net}: {larger} − {smaller}",
        "Level deal: no points, no box.",
        "{team} won both hands: {first} + {second} = {net}",
        "{team} won one hand, the other scored nothing: {net}",
        "Entered after the game ended.",
    ),
    "sequences": (
        "{player}: {cards} on the table is a sequence, +{value}.",
        "{player}: {cards} in hand is a sequence, +{value}.",
    ),
    "sets": (
        "{player}: {cards} on the table is a set, +{value}.",
        "{player}: {cards} in hand is a set, +{value}.",
        "{player} has no sequence, so the set {cards} does not count.",
    ),
    "going-out": (
        "The stock ran out: nobody went out, so nobody gets the closing bonus.",
        "{player} went out discarding {card}: {multiplier} × {value} = +{bonus}.",
        "{player} went out.",
        "Went out: {multiplier} × {value} = +{bonus}, {points} in all.",
    ),
    "remi-scoring": (
        "{player} scores {plus} − {minus} + {bonus} = {points}.",
        "{player} scores {plus} − {minus} = {points}.",
        "{plus} − {minus} = {points}.",
        "{player}: {cards} in no combination, −{value}.",
    ),
    "remi-end": (
        "{players} tie for the lowest total, {total}; {player} sits nearest the left of "
        "{dealer} and deals next.",
        "{player} has the lowest total, {total}, and deals next.",
        "All {deals} deals are played.",
        "{players} reached the target of {target}.",
        "{player} wins with {total}.",
        "{players} share the win with {total}.",
    ),
}

RULE_OF: dict[str, str] = {
    template: rule for rule, templates in _BY_RULE.items() for template in templates
}


def rule_of(template: str) -> str:
    """The anchor of the rule a step's template applies (``""`` if it names none)."""
    return RULE_OF.get(template, "")


# The rule each way a hand ends applies (the history's and a ruling's "by the rule").
_OUTCOME_RULES: dict[str, str] = {
    Outcome.KNOCK: "knock",
    Outcome.UNDERCUT: "undercut",
    Outcome.GIN: "gin",
    Outcome.BIG_GIN: "big-gin",
    Outcome.TIE: "tie",
    Outcome.DEAD: "dead-hand",
}


def outcome_rule(outcome: str, knocker_deadwood: int, defender_deadwood: int) -> str:
    """The anchor of the rule a gin hand's outcome applies: an undercut on equal
    deadwood is the tie rule's doing; an unknown outcome is a knock's."""
    if outcome == Outcome.UNDERCUT and knocker_deadwood == defender_deadwood:
        return "tie"
    return _OUTCOME_RULES.get(outcome, "knock")  # a StrEnum member is its string
