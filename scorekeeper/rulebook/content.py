"""What a rule card says: every rule of one kind of game, with the settings it reads.

A card is built from a ``Rules`` value (a preset's, or a game's frozen copy) and the
kind of game; every number on it is read from that value or worked out by the engine
(``examples``), so a card can never disagree with the scoring. The words are put in
the request's language as the card is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from ..i18n import preset_label
from ..scoring.cards import Card
from ..scoring.remi import CLOSING_MULTIPLIER
from ..scoring.rules import PRESETS, NextDealer, OklahomaAce, Rules, Shutout
from ..variants import VARIANTS
from . import examples
from .examples import Example

# The cards ``/rules`` lists: (kind of game, preset). Hollywood is played with its
# variant's usual preset.
CARDS: dict[str, tuple[str, str]] = {
    "classic": ("gin", "classic"),
    "russian": ("gin", "russian"),
    "pagat": ("gin", "pagat"),
    "modern": ("gin", "modern"),
    "oklahoma": ("oklahoma", "oklahoma"),
    "hollywood": ("hollywood", VARIANTS["hollywood"].default_preset),
    "three_hand": ("three_hand", "three_hand"),
    "partnership": ("partnership", "partnership"),
    "remi": ("remi", "remi"),
}
GIN_KINDS = ("gin", "oklahoma", "hollywood", "three_hand", "partnership")


@dataclass(frozen=True)
class Setting:
    """One setting a rule reads: its ``Rules`` field, its value, and (on a game's card)
    the value of the preset it is compared with."""

    key: str
    label: str
    value: Any
    shown: str
    preset_value: Any = None
    preset_shown: str | None = None

    @property
    def differs(self) -> bool:
        """Whether the game changed this setting from the preset."""
        return self.preset_shown is not None and self.value != self.preset_value


@dataclass(frozen=True)
class Rule:
    """One rule: a stable anchor (``#undercut``), a title, what it says, its settings and
    a worked example."""

    anchor: str
    title: str
    text: tuple[str, ...]
    settings: tuple[Setting, ...] = ()
    example: Example | None = None

    @property
    def differs(self) -> bool:
        """Whether any of its settings differs from the preset."""
        return any(setting.differs for setting in self.settings)


@dataclass(frozen=True)
class RuleCard:
    """Every rule of one kind of game played with ``rules``."""

    name: str  # the card's name in ``/rules/<name>``, or the compared preset's
    kind: str
    title: str
    rules: Rules
    items: tuple[Rule, ...]
    compared_with: str | None = None  # a game's card: the preset it is compared with

    @property
    def changed(self) -> tuple[Setting, ...]:
        """The settings that differ from the preset."""
        return tuple(s for rule in self.items for s in rule.settings if s.differs)


def title_of(name: str) -> str:
    """A card's title in the page's language."""
    kind, preset = CARDS[name]
    if kind == "gin":
        return str(_("Gin rummy, %(preset)s rules", preset=preset_label(preset)))
    return str(VARIANTS[kind].label)


def preset_card(name: str) -> RuleCard:
    """The card ``/rules/<name>`` shows (``name`` one of ``CARDS``)."""
    kind, preset = CARDS[name]
    rules = VARIANTS[kind].rules_for(PRESETS[preset])
    return RuleCard(name, kind, title_of(name), rules, _rules_of(kind, rules, None))


def game_card(kind: str, rules: Rules) -> RuleCard:
    """A game's own card: its frozen ``rules``, each setting compared with the closest
    preset its kind is played with (a custom game keeps no record of where it started)."""
    variant = VARIANTS[kind]
    name = closest_preset(kind, rules)
    base = variant.rules_for(PRESETS[name])
    return RuleCard(card_name_for(kind, rules), kind, str(variant.label), rules,
                    _rules_of(kind, rules, base), compared_with=name)


def card_name_for(kind: str, rules: Rules) -> str:
    """The name of the card (``/rules/<name>``) closest to ``rules`` played as ``kind``."""
    name = closest_preset(kind, rules)
    found = next((n for n, (k, p) in CARDS.items() if k == kind and p == name), None)
    return found or next(n for n, (k, _p) in CARDS.items() if k == kind)


def closest_preset(kind: str, rules: Rules) -> str:
    """The preset of ``kind`` that differs from ``rules`` in the fewest settings (the
    game's own preset when it kept one)."""
    variant = VARIANTS[kind]
    if rules.preset in variant.presets:
        return rules.preset
    mine = rules.to_dict()

    def distance(name: str) -> int:
        theirs = variant.rules_for(PRESETS[name]).to_dict()
        return sum(1 for key, value in mine.items() if key != "preset" and theirs[key] != value)

    return min(variant.presets, key=distance)


# --- the settings in words ---------------------------------------------------------------


def _label(key: str) -> str:
    labels = {
        "knock_limit": _("Knock limit"),
        "gin_bonus": _("Gin bonus"),
        "big_gin_bonus": _("Big gin bonus"),
        "undercut_bonus": _("Undercut bonus"),
        "tie_is_undercut": _("A tie is an undercut"),
        "target": _("Target"),
        "game_bonus": _("Game bonus"),
        "box_bonus": _("Box bonus"),
        "shutout": _("Shutout"),
        "shutout_bonus": _("Flat shutout bonus"),
        "next_dealer": _("Next dealer"),
        "oklahoma_ace": _("Ace upcard"),
        "spade_doubles": _("A spade upcard doubles"),
        "sets_need_sequence": _("Sets count only with a sequence"),
        "deals": _("Number of deals"),
        "hollywood_fourth": _("A fourth column"),
    }
    return str(labels[key])


def _shown(key: str, value: Any) -> str:
    return str(_shown_value(key, value))


def _shown_value(key: str, value: Any) -> Any:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("off") if key == "big_gin_bonus" else _("none")
    if key == "shutout":
        return {
            Shutout.NONE: _("nothing extra"),
            Shutout.DOUBLE: _("doubled"),
            Shutout.DOUBLE_ALL: _("doubled, boxes too"),
            Shutout.FLAT: _("a flat bonus"),
        }[value]
    if key == "next_dealer":
        return {
            NextDealer.WINNER: _("the winner of the hand"),
            NextDealer.LOSER: _("the loser of the hand"),
            NextDealer.ALTERNATE: _("the players take turns"),
        }[value]
    if key == "oklahoma_ace":
        return {
            OklahomaAce.GIN_ONLY: _("gin only"),
            OklahomaAce.ONE: _("knock with 1 or less"),
        }[value]
    return str(value)


def _settings(rules: Rules, base: Rules | None, *keys: str) -> tuple[Setting, ...]:
    out = []
    for key in keys:
        value = getattr(rules, key)
        setting = Setting(key, _label(key), value, _shown(key, value))
        if base is not None:
            theirs = getattr(base, key)
            setting = Setting(key, setting.label, value, setting.shown, theirs,
                              _shown(key, theirs))
        out.append(setting)
    return tuple(out)


# --- the rules of each kind ----------------------------------------------------------------


def _rules_of(kind: str, rules: Rules, base: Rules | None) -> tuple[Rule, ...]:
    if kind == "remi":
        return _remi_rules(rules, base)
    items = [*_hand_rules(rules, base)]
    if kind == "oklahoma" or rules.oklahoma:
        items.insert(2, _upcard_rule(rules, base))
    items += _game_rules(kind, rules, base)
    extra = {"hollywood": _hollywood_rules, "three_hand": _three_hand_rules,
             "partnership": _partnership_rules}.get(kind)
    if extra is not None:
        items += extra(rules, base)
    return tuple(items)


def _hand_rules(rules: Rules, base: Rules | None) -> list[Rule]:
    ace, king = Card.parse("AS"), Card.parse("KS")
    s = _settings
    knock_text = (
        _("Oklahoma: the first upcard sets the knock limit of the hand (see the upcard rule).")
        if rules.oklahoma
        else _("After drawing, a player may knock when their deadwood after the discard is "
               "%(limit)s or less. Knocking is never compulsory.", limit=rules.knock_limit)
    )
    big_gin = (
        (_("All eleven cards melded, with no discard: the knocker scores the defender's "
           "deadwood plus %(bonus)s.", bonus=rules.big_gin_bonus),)
        if rules.big_gin_bonus is not None
        else (_("Big gin is not played with these rules."),)
    )
    tie = (
        _("The same deadwood on both sides is an undercut: the defender scores the "
          "undercut bonus.")
        if rules.tie_is_undercut
        else _("The same deadwood on both sides scores nothing, and nobody wins the hand.")
    )
    return [
        Rule("melds", _("Melds and deadwood"), (
            _("A set is 3 or 4 cards of one rank. A run is 3 or more cards in a row of one "
              "suit; the ace is low only: A-2-3 is a run, Q-K-A is not."),
            _("A card belongs to one meld at most. Deadwood is the value of the cards in no "
              "meld: ace %(ace)s, 2 to 10 as marked, pictures %(picture)s.",
              ace=ace.gin_value, picture=king.gin_value),
            _("A hand is ten cards each; the 21st card turned up is the upcard."),
        ), example=examples.melds(rules)),
        Rule("knock", _("Knocking"), (
            knock_text,
            _("The knocker scores the difference when the defender has more deadwood."),
        ), () if rules.oklahoma else s(rules, base, "knock_limit"),
            examples.knock(rules)),
        Rule("layoffs", _("Layoffs"), (
            _("The knocker lays out their melds; the way they lay them decides what the defender "
              "can lay off."),
            _("Only the defender lays off, only onto the knocker's melds: a 4th card on a "
              "set, or cards extending a run at either end, one after another. Never onto "
              "deadwood, never against gin."),
            _("The defender may break up a meld of their own to lay its cards off."),
        ), example=examples.layoffs(rules)),
        Rule("gin", _("Gin"), (
            _("Knocking with no deadwood is gin: the knocker scores the defender's deadwood "
              "plus %(bonus)s, and the defender lays nothing off.", bonus=rules.gin_bonus),
            _("Gin is never undercut, even when the defender has no deadwood either."),
        ), s(rules, base, "gin_bonus"), examples.gin(rules)),
        Rule("big-gin", _("Big gin"), big_gin, s(rules, base, "big_gin_bonus")),
        Rule("undercut", _("Undercut"), (
            _("When the defender has less deadwood than the knocker, the defender scores "
              "the difference plus %(bonus)s.", bonus=rules.undercut_bonus),
        ), s(rules, base, "undercut_bonus"), examples.undercut(rules)),
        Rule("tie", _("A tie"), (tie,), s(rules, base, "tie_is_undercut"), examples.tie(rules)),
        Rule("dead-hand", _("Dead hand"), (
            _("When the stock is down to 2 cards and the last player discards without "
              "knocking, the hand scores nothing and the same dealer deals again."),
        ), example=examples.dead(rules)),
    ]


def _upcard_rule(rules: Rules, base: Rules | None) -> Rule:
    text = [
        _("The first upcard sets the hand's knock limit: its value, and 10 for a ten or a "
          "picture."),
        _("An ace upcard: only gin may go down.")
        if rules.oklahoma_ace is OklahomaAce.GIN_ONLY
        else _("An ace upcard: knock with 1 or less."),
    ]
    if rules.spade_doubles:
        text.append(_("A spade upcard doubles everything the hand scores, gin and undercut "
                      "bonuses included; boxes are not doubled."))
    return Rule("upcard", _("Oklahoma: the upcard"), tuple(text),
                _settings(rules, base, "oklahoma_ace", "spade_doubles"),
                examples.upcard(rules))


def _game_rules(kind: str, rules: Rules, base: Rules | None) -> list[Rule]:
    s = _settings
    dealer = {
        "three_hand": (_("The box deals every hand (see the roles rule)."),),
        "partnership": (_("See the dealers rule of the partnership game."),),
    }.get(kind, (
        _("The first dealer is chosen when the game starts. After each hand the next "
          "dealer is %(who)s.", who=_shown("next_dealer", rules.next_dealer)),
        _("A dead hand keeps the same dealer."),
    ))
    shutout = {
        Shutout.NONE: _("A shutout (the loser won no hand) adds nothing."),
        Shutout.DOUBLE: _("A shutout (the loser won no hand) doubles the winner's points, "
                          "game bonus included."),
        Shutout.DOUBLE_ALL: _("A shutout (the loser won no hand) doubles the winner's "
                              "points, game bonus and box bonuses included."),
        Shutout.FLAT: _("A shutout (the loser won no hand) adds a further %(bonus)s.",
                        bonus=rules.shutout_bonus),
    }[rules.shutout]
    shutout_settings = ("shutout", "shutout_bonus") if rules.shutout is Shutout.FLAT else (
        "shutout",)
    return [
        Rule("dealer", _("Dealer"), dealer,
             () if kind in ("three_hand", "partnership") else s(rules, base, "next_dealer")),
        Rule("target", _("Target"), (
            _("Hands go on until a running total reaches %(target)s. Box bonuses do not "
              "count toward it. Whoever crosses the target wins, knocker or not.",
              target=rules.target),
        ), s(rules, base, "target")),
        Rule("boxes", _("Boxes"), (
            _("Every hand won is a box (a line). A dead hand or a tie that nobody wins "
              "gives no box."),
            _("At the end each player adds %(bonus)s for each of their boxes.",
              bonus=rules.box_bonus),
        ), s(rules, base, "box_bonus")),
        Rule("game-bonus", _("Game bonus"), (
            _("The player who reached the target adds %(bonus)s.", bonus=rules.game_bonus),
            _("At the end, in this order: the game bonus, then the shutout, then the box "
              "bonuses."),
        ), s(rules, base, "game_bonus"), examples.game_end(kind, rules)),
        Rule("shutout", _("Shutout"), (shutout,), s(rules, base, *shutout_settings),
             examples.shutout(kind, rules)),
        Rule("deals", _("A fixed number of deals"), _deals_text(kind, rules),
             s(rules, base, "deals")),
    ]


def _deals_text(kind: str, rules: Rules) -> tuple[str, ...]:
    """Tournament play against the clock (``rules.deals``): the game ends at the target
    or after that many deals, whichever comes first; the side ahead wins. Hollywood
    counts the hands of the match, partnership gin its deals of two hands."""
    count = rules.deals
    if count is not None:
        first = {
            "hollywood": _("This match ends after hand %(deals)s if its columns are not all "
                           "closed by then: tournament play against the clock. A dead hand "
                           "counts too.", deals=count),
            "partnership": _("This game ends after deal %(deals)s if no team reaches the "
                             "target first: tournament play against the clock. A level deal "
                             "counts too.", deals=count),
        }.get(kind) or _("This game ends after deal %(deals)s if nobody reaches the target "
                         "first: tournament play against the clock. A dead hand counts as a "
                         "deal.", deals=count)
    else:
        first = {
            "hollywood": _("A match may be given a number of hands when it starts (tournament "
                           "play against the clock): it then ends after that many hands if "
                           "its columns are not all closed by then. A dead hand counts too."),
            "partnership": _("A game may be given a number of deals when it starts "
                             "(tournament play against the clock): it then ends after that "
                             "many deals if no team reaches the target first. A level deal "
                             "counts too."),
        }.get(kind) or _("A game may be given a number of deals when it starts (tournament "
                         "play against the clock): it then ends after that many deals if "
                         "nobody reaches the target first. A dead hand counts as a deal.")
    if kind == "hollywood":
        return (first, _("Each column still open then closes: the player ahead in it wins "
                         "that game, with its game bonus, shutout and box bonuses as at the "
                         "target. Level, it is a drawn game without bonuses. A column not "
                         "opened yet is not played."))
    ahead = (
        _("After the last deal the team ahead on points wins the game: the game bonus, the "
          "shutout and the box bonuses are added as at the target.")
        if kind == "partnership"
        else _("After the last deal the player ahead on points wins the game: the game "
               "bonus, the shutout and the box bonuses are added as at the target.")
    )
    level = _("Level at the top after the last deal: a drawn game. Nobody adds a game, "
              "shutout or box bonus, and the finals are the running totals.")
    return (first, ahead, level)


def _hollywood_rules(rules: Rules, base: Rules | None) -> list[Rule]:
    text = [
        _("Three games are scored at once, in three columns; the hands are ordinary."),
        _("A won hand's points go into every open column where the winner already has a score, and "
          "into the first open column where they have none yet: the 1st win goes to game 1, "
          "the 2nd "
          "to games 1 and 2, the 3rd on to all three."),
        _("Each column closes when a player reaches the target there and settles its own "
          "game, box and shutout bonuses. The match ends when all are closed."),
    ]
    if rules.hollywood_fourth:
        text.append(_("A fourth column opens when column 1 closes."))
    return [Rule("columns", _("Hollywood: three columns"), tuple(text),
                 _settings(rules, base, "hollywood_fourth"), examples.hollywood(rules))]


def _three_hand_rules(rules: Rules, base: Rules | None) -> list[Rule]:
    return [Rule("roles", _("Three hands: box, captain, sitting out"), (
        _("Each hand the box plays alone and deals, the captain plays against them, and the third "
          "player sits out, advises and never scores. At the start the highest card drawn is the "
          "box, the middle one the captain."),
        _("Box wins: the box stays, the captain and the one sitting out swap. Box loses: "
          "the box sits out, the captain moves into the box, the one sitting out becomes "
          "captain. Dead hand: the same roles."),
        _("Points go to the player who won the hand; the first to the target wins."),
    ), example=examples.three_hand(rules))]


def _partnership_rules(rules: Rules, base: Rules | None) -> list[Rule]:
    return [
        Rule("teams", _("Partnership: two tables"), (
            _("Two teams of two. Each deal is two separate hands, each player against one "
              "opponent; partners stay, opponents change every deal."),
            _("A deal's team result is the net of its two hands: both won, the sum; one "
              "each, the larger minus the smaller. The team with the better net gets the "
              "box. Gin and undercut bonuses belong to their own hand."),
        ), example=examples.partnership(rules)),
        Rule("dealers", _("Partnership: dealers"), (
            _("In the first deal a player of the first dealer's team deals at both tables; "
              "then the deal passes to the other team at both tables, every deal. A deal "
              "whose two hands are both dead is dealt again by the same team."),
        )),
    ]


def _remi_rules(rules: Rules, base: Rules | None) -> tuple[Rule, ...]:
    two, king, ace = Card.parse("2S"), Card.parse("KS"), Card.parse("AS")
    sets = (
        _("Sets count only for a player who has at least one sequence, on the table or in their "
          "hand.")
        if rules.sets_need_sequence
        else _("Sets count even without a sequence.")
    )
    end = (
        _("The game ends after %(deals)s deals.", deals=rules.deals)
        if rules.deals is not None
        else _("The game ends when a player reaches %(target)s.", target=rules.target)
    )
    return (
        Rule("deal", _("Cards and values"), (
            _("2 to 4 players, one pack without jokers, 7 cards each."),
            _("Values: 2 to 10 count %(pips)s, pictures %(pictures)s, the ace %(ace)s.",
              pips=two.remi_value, pictures=king.remi_value, ace=ace.remi_value),
        )),
        Rule("sequences", _("Sequences"), (
            _("3 or more numeral cards in a row of one suit (2 to 10), or exactly J-Q-K of "
              "one suit. Numerals and pictures never mix; an ace is never in a sequence."),
        )),
        Rule("sets", _("Sets, sequence first"), (
            _("3 or 4 cards of one rank, aces and pictures included."), sets,
        ), _settings(rules, base, "sets_need_sequence")),
        Rule("discard-pile", _("Taking from the discard pile"), (
            _("Instead of drawing, a player may take the top discard, or the second or third "
              "card from the top together with the cards above it, when the deepest card "
              "taken goes at once into a combination. So a hand may end with more than 7 "
              "cards; every card counts."),
            _("A combination on the table is never extended."),
        )),
        Rule("going-out", _("Going out and the closing bonus"), (
            _("A player who can arrange all their cards but one shows them and discards the last "
              "card: play ends. They add %(times)s times the value of that discard.",
              times=CLOSING_MULTIPLIER),
            _("When the stock runs out, play ends and nobody gets the closing bonus."),
        )),
        Rule("remi-scoring", _("Scoring a deal"), (
            _("Every player, every deal: plus the cards in combinations (on the table or "
              "still in hand), minus every other card. Totals may go below zero."),
        ), example=examples.remi(rules)),
        Rule("remi-end", _("Dealer and the end"), (
            _("The next dealer is the player with the lowest running total."), end,
        ), _settings(rules, base, "target", "deals")),
    )


__all__ = ["CARDS", "GIN_KINDS", "Rule", "RuleCard", "Setting", "game_card", "preset_card"]
