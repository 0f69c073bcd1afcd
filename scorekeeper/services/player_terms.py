"""What each figure on a player's page counts, in words, and the rule that names it.

Every figure the page shows is one of ``TERMS`` (by the key its value is marked with,
``<dd class="num gins">``); the page writes the definition under the figure and links
the rule card's rule where a rule defines the word (gin, undercut, shutout…). A figure
without a definition cannot be shown: ``term`` refuses a key it does not know, and
tests/test_player_page.py checks that everything the page marks as a figure has one.

The words say what the counting in ``summaries`` and ``standings`` does (which hands,
which games, whose deadwood), not what the rules say; the linked rule says that.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

from ..models import Game
from ..rulebook.content import GIN_KINDS, card_name_for
from ..scoring.rules import Rules
from .ratings import PROVISIONAL_GAMES

# The cards a definition links to: the gin rules they play (``rule_cards``), three-hand
# gin's roles, Remi's deals.
GIN = "gin"
THREE_HAND = "three_hand"
REMI = "remi"


@dataclass(frozen=True)
class RuleLink:
    """A rule of a rule card (``/rules/<card>#<anchor>``) and its title there."""

    card: str  # GIN, THREE_HAND or REMI
    anchor: str
    title: LazyString


# The titles are the rule cards' own (rulebook/content.py), so they read the same.
GIN_RULE = RuleLink(GIN, "gin", _l("Gin"))
BIG_GIN_RULE = RuleLink(GIN, "big-gin", _l("Big gin"))
UNDERCUT_RULE = RuleLink(GIN, "undercut", _l("Undercut"))
KNOCK_RULE = RuleLink(GIN, "knock", _l("Knocking"))
LAYOFF_RULE = RuleLink(GIN, "layoffs", _l("Layoffs"))
MELD_RULE = RuleLink(GIN, "melds", _l("Melds and deadwood"))
DEAD_RULE = RuleLink(GIN, "dead-hand", _l("Dead hand"))
BOX_RULE = RuleLink(GIN, "boxes", _l("Boxes"))
SHUTOUT_RULE = RuleLink(GIN, "shutout", _l("Shutout"))
ROLES_RULE = RuleLink(THREE_HAND, "roles", _l("Three hands: box, captain, sitting out"))
GOING_OUT_RULE = RuleLink(REMI, "going-out", _l("Going out and the closing bonus"))
DEAL_RULE = RuleLink(REMI, "remi-scoring", _l("Scoring a deal"))


@dataclass(frozen=True)
class Term:
    """A figure's name on the page and what it counts."""

    label: LazyString
    meaning: LazyString
    rule: RuleLink | None = None


TERMS: dict[str, Term] = {
    # --- the rating ---
    "rating": Term(_l("Rating now"), _l(
        "A cautious estimate of the player's skill: the app's best guess (μ) less three times its "
        "uncertainty (σ), so their real skill is very likely higher. Everybody starts at 0; a win "
        "raises it, more so against a strong player, and it climbs as the app gets surer of "
        "them.")),
    "best-rating": Term(_l("Best rating"), _l(
        "The highest their rating has been after any of their rated games.")),
    "rated-games": Term(_l("Rated games"), _l(
        "Finished games of the kinds the group rates (its settings), whatever is chosen above. "
        "Until they have %(games)s, the rating is provisional: the app knows them too little yet, "
        "and one game moves it a lot.", games=PROVISIONAL_GAMES)),
    "rating-chart": Term(_l("Rating after each rated game"), _l(
        "Their rating before their first rated game (0) and after each one since.")),
    # --- games ---
    "games": Term(_l("Games played"), _l(
        "Finished games they played, of the kind and period chosen above. A game still being "
        "played "
        "counts once it ends.")),
    "wins": Term(_l("Games won"), _l(
        "Games they won by the rules of the game; with a partner, the games their team won. "
        "Players "
        "who share first place in Remi each count a win.")),
    "rate": Term(_l("Win rate"), _l(
        "Games won out of games played, in per cent.")),
    "win-rate-chart": Term(_l("Win rate after each game (%)"), _l(
        "Their win rate as it stood after each of their games, from the first to the latest.")),
    "finals": Term(_l("Sum of finals"), _l(
        "Their final scores added up, the end-of-game bonuses included; with a partner, their "
        "team's.")),
    "margins": Term(_l("Sum of margins"), _l(
        "In each game, their final less the best final of the others (their partner aside), added "
        "up. Above zero: they won by more than they lost by.")),
    "streak": Term(_l("Longest winning streak"), _l(
        "The most games they won one after another, in the order the games were played.")),
    "shutouts-given": Term(_l("Shutouts given"), _l(
        "Games they won while the loser did not win a single hand (in Hollywood, each column "
        "counts)."), SHUTOUT_RULE),
    "shutouts-suffered": Term(_l("Shutouts suffered"), _l(
        "Games they lost without winning a single hand (in Hollywood, each column counts)."),
        SHUTOUT_RULE),
    "money-won": Term(_l("Money won in games"), _l(
        "What the stakes of these games paid them, in the group's currency. Payments between "
        "players are not in it, nor games played in another currency.")),
    "money-lost": Term(_l("Money lost in games"), _l(
        "What they paid for the stakes of these games, counted the same way.")),
    "balance": Term(_l("Balance"), _l(
        "What the group owes them now (with a minus, what they owe): the stakes of every game, "
        "whatever is chosen above, with the payments recorded between players.")),
    # --- hands ---
    "hands": Term(_l("Hands played"), _l(
        "Hands they played in these games, dead hands included; a Remi deal counts as a hand, and "
        "in three-hand gin the hands they sat out do not count.")),
    "hands-won": Term(_l("Hands won"), _l(
        "Hands that scored for them: their knocks and gins that won, and the undercuts they made; "
        "in Remi, a deal where their score was the highest and above 0.")),
    "gins": Term(_l("Gins"), _l(
        "Hands they knocked with no deadwood at all."), GIN_RULE),
    "big-gins": Term(_l("Big gins"), _l(
        "Hands they went down with all eleven cards melded, without discarding."),
        BIG_GIN_RULE),
    "undercuts-made": Term(_l("Undercuts made"), _l(
        "Knocks against them that they beat with less deadwood than the knocker (or as much, where "
        "the rules make a tie an undercut)."),
        UNDERCUT_RULE),
    "undercuts-suffered": Term(_l("Undercuts suffered"), _l(
        "Their knocks that the defender beat with less deadwood (or as much, where a tie is an "
        "undercut)."), UNDERCUT_RULE),
    "knocks": Term(_l("Knocks"), _l(
        "Hands they knocked with some deadwood left, won or undercut; gins are counted "
        "apart."), KNOCK_RULE),
    "dead": Term(_l("Dead hands"), _l(
        "Hands of theirs that nobody won: the stock ran out without a knock."), DEAD_RULE),
    "boxes": Term(_l("Boxes"), _l(
        "The boxes (lines) they won on the sheet, one for each hand won, each worth a bonus at the "
        "end; with a partner, their team's."), BOX_RULE),
    "biggest": Term(_l("Biggest single hand"), _l(
        "The most points they scored in one hand (in Remi, one deal), the hand's bonuses "
        "included.")),
    "average-won": Term(_l("Average points of a won hand"), _l(
        "The points of the hands they won, added up and divided by the number of those hands.")),
    # --- hands entered with cards ---
    "knock-deadwood": Term(_l("Average deadwood when knocking"), _l(
        "Their deadwood when they knocked, on average; gins are left out."), KNOCK_RULE),
    "caught": Term(_l("Average deadwood caught"), _l(
        "When they knocked, the defender's deadwood after laying off, on average: the points their "
        "knocks caught."), LAYOFF_RULE),
    "laid-off": Term(_l("Cards laid off per hand"), _l(
        "When they defended, the cards they laid off on the knocker's melds, on average per "
        "hand."), LAYOFF_RULE),
    "gin-missed": Term(_l("Knocks that could have been gin"), _l(
        "Knocks where all ten of their cards could have been melded: laid another way, the "
        "hand was "
        "a gin, with its bonus."), GIN_RULE),
    "melds": Term(_l("Melds laid most"), _l(
        "The sets and runs they laid down most often, knocking or defending, and how many times "
        "(the first five)."), MELD_RULE),
    # --- three-hand gin ---
    "won-in-box": Term(_l("Hands won in the box"), _l(
        "Hands they won as the box, playing alone against the captain."), ROLES_RULE),
    "won-as-captain": Term(_l("Hands won as captain"), _l(
        "Hands they won as the captain, playing against the box."), ROLES_RULE),
    # --- Remi ---
    "deals": Term(_l("Deals"), _l("Remi deals they played."), DEAL_RULE),
    "went-out": Term(_l("Deals won by going out"), _l(
        "Deals they ended by going out: every card shown but one, and that one discarded."),
        GOING_OUT_RULE),
    "deal-average": Term(_l("Average deal score"), _l(
        "Their score per deal, pluses and minuses, on average."), DEAL_RULE),
    "closing-bonuses": Term(_l("Closing bonuses"), _l(
        "Deals that gave them the closing bonus for going out."), GOING_OUT_RULE),
    # --- head-to-head, a column each ---
    "against-games": Term(_l("Games"), _l(
        "Finished games the two played against each other (partners in the same team "
        "are not opponents).")),
    "against-record": Term(_l("Won – lost"), _l(
        "The games where their final was higher, and those where it was lower; a draw counts for "
        "neither.")),
    "against-net": Term(_l("Net margin"), _l(
        "Their finals less the opponent's, added up over these games.")),
}


def term(key: str) -> Term:
    """The figure ``key``'s name and definition; ``KeyError`` for a figure nobody has
    defined, so that the page cannot show it without one."""
    return TERMS[key]


def rule_cards(games: Iterable[Game]) -> dict[str, str]:
    """The rule card each kind of definition links to: for gin, the card closest to the
    rules of the latest game of gin (any kind but Remi) of ``games`` (newest first),
    the classic rules when there is none; three-hand gin's and Remi's own cards."""
    latest = next((g for g in games if g.variant in GIN_KINDS), None)
    gin = "classic" if latest is None else card_name_for(latest.variant,
                                                         Rules.from_dict(latest.rules))
    return {GIN: gin, THREE_HAND: "three_hand", REMI: "remi"}
