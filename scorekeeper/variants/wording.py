"""A hand's stored inputs as words a player reads: the history page's sentences.

Each kind of game turns its inputs into ``Clause``s (``Variant.describe_inputs``):
a key (what the clause is about, so a correction can say what changed), an engine
``Message`` (an English template with its values, worded in the page's language by
``i18n.render_message``, cards by their symbols) and an optional group (a partnership table).
``change_sentence`` puts a history entry together: "Hand 3 corrected: Bob knocked
with 4 (was 6); Ann's deadwood 22."

Stored inputs are never trusted to have the expected shape (an imported game may
hold anything): what cannot be worded is left out, nothing raises.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from ..hands.stored import GinHand, RemiDeal
from ..i18n import render_message
from ..names import isolated
from ..scoring import best_arrangement
from ..scoring.cards import Card, CardError
from ..scoring.explain import N_, Message


@dataclass(frozen=True)
class Clause:
    """One thing a hand's inputs say, e.g. ``("knocker", "Bob knocked with 4")``."""

    key: str
    message: Message
    group: Message | None = None


@dataclass(frozen=True)
class CardGroups:
    """Melds or combinations shown one after another: ``7♠ 8♠ 9♠ · K♥ K♦ K♣``."""

    groups: tuple[tuple[Card, ...], ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card (``i18n`` keeps card runs left-to-right in Persian)."""
        return tuple(card for group in self.groups for card in group)

    @property
    def symbols(self) -> str:
        """The groups by their symbols."""
        return " · ".join(" ".join(card.symbols for card in group) for group in self.groups)


def card(value: object) -> Card | str:
    """A stored card (``"TS"``) as a ``Card``; anything else as it was stored."""
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except CardError:
            return value
    return str(value)


def cards(values: object) -> tuple[Card, ...]:
    """Stored cards (a list, or one string) as ``Card``s; what is not a card is left out."""
    if isinstance(values, str):
        values = values.split()
    if not isinstance(values, list | tuple):
        return ()
    found = (card(value) for value in values)
    return tuple(c for c in found if isinstance(c, Card))


def groups(values: object) -> CardGroups:
    """Stored groups of cards (``[["7S", "8S", "9S"], ...]``)."""
    if not isinstance(values, list | tuple):
        return CardGroups(())
    return CardGroups(tuple(g for g in (cards(v) for v in values) if g))


def _number(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _name(names: Sequence[Any], seat: Any) -> Any:
    """The name at ``seat``, isolated (``names.isolated``): the sentence around it keeps
    its direction whatever the name's."""
    index = _number(seat)
    if index is None or not 0 <= index < len(names):
        return None
    return isolated(names[index])


# --- a gin hand (two-player, Oklahoma, Hollywood, a three-hand hand, a partnership table) --


_OUT = {
    "knock": N_("{player} knocked with {points}"),
    "gin": N_("{player} went gin"),
    "big_gin": N_("{player} went big gin"),
}


def _went_out(held: tuple[Card, ...]) -> str:
    """How the player who went out with ``held`` did it: a gin is written as one."""
    try:
        arranged = best_arrangement(list(held))
    except ValueError:  # not 10 or 11 cards: the form said what is wrong
        return N_("{player} knocked: {cards}")
    if arranged.big_gin:
        return N_("{player} went big gin: {cards}")
    if arranged.gin:
        return N_("{player} went gin: {cards}")
    return N_("{player} knocked: {cards}")


def gin_clauses(inputs: GinHand, names: Sequence[Any]) -> list[Clause]:
    """A gin hand's inputs; ``names`` are the two players (or roles) that ``knocker``
    0 and 1 stand for."""
    seat = _number(inputs.get("knocker"))
    knocker = _name(names, seat)
    other = _name(names, 1 - seat) if knocker is not None and seat is not None else None
    found: list[Clause] = []
    if inputs.get("mode") == "cards":
        if knocker is not None:
            held = cards(inputs.get("knocker_cards"))
            found.append(Clause("knocker", Message(_went_out(held), player=knocker, cards=held)))
        if other is not None:
            held = cards(inputs.get("defender_cards"))
            found.append(
                Clause("defender", Message(N_("{player} held {cards}"), player=other, cards=held))
            )
        for key, who in (("knocker_melds", knocker), ("defender_melds", other)):
            melds = groups(inputs.get(key))
            if who is not None and melds.groups:
                message = Message(N_("{player}'s melds {melds}"), player=who, melds=melds)
                found.append(Clause(key, message))
        layoffs = inputs.get("layoffs")
        if isinstance(layoffs, list) and layoffs:
            laid = cards([item.get("card") for item in layoffs if isinstance(item, Mapping)])
            found.append(Clause("layoffs", Message(N_("laid off {cards}"), cards=laid)))
    else:
        outcome = inputs.get("outcome")
        if outcome == "dead" or knocker is None:
            found.append(Clause("knocker", Message(N_("dead hand"))))
        else:
            template = _OUT.get(str(outcome), _OUT["knock"])
            points = inputs.get("knocker_deadwood")
            found.append(Clause("knocker", Message(template, player=knocker, points=points)))
            deadwood = _number(inputs.get("defender_deadwood"))
            if other is not None and deadwood is not None:
                message = Message(N_("{player}'s deadwood {points}"), player=other, points=deadwood)
                found.append(Clause("defender", message))
    if inputs.get("upcard"):
        found.append(Clause("upcard", Message(N_("upcard {card}"), card=card(inputs["upcard"]))))
    return found


# --- a Remi deal ---------------------------------------------------------------------------


def remi_clauses(inputs: RemiDeal, names: Sequence[str]) -> list[Clause]:
    """A Remi deal's inputs: who went out (and on what), each player's plus and minus or
    their cards."""
    entries = inputs.get("players")
    entries = entries if isinstance(entries, list) else []
    out = _name(names, inputs.get("went_out"))
    found: list[Clause] = []
    cards_mode = inputs.get("mode") == "cards"
    if out is None:
        found.append(Clause("out", Message(N_("the stock ran out"))))
    for seat, entry in enumerate(entries[: len(names)]):
        if not isinstance(entry, Mapping):
            continue
        name = _name(names, seat)
        if cards_mode:
            table, hand = groups(entry.get("table")), cards(entry.get("hand"))
            if table.groups:
                message = Message(
                    N_("{player}: {table} on the table, {cards} in hand"),
                    player=name,
                    table=table,
                    cards=hand,
                )
            else:
                message = Message(N_("{player}: {cards} in hand"), player=name, cards=hand)
        else:
            message = Message(
                N_("{player} +{plus} −{minus}"),
                player=name,
                plus=entry.get("plus"),
                minus=entry.get("minus"),
            )
        found.append(Clause(f"players.{seat}", message))
        if seat == _number(inputs.get("went_out")):
            if cards_mode:
                discard = card(entry.get("final_discard"))
                message = Message(
                    N_("{player} went out discarding {card}"), player=name, card=discard
                )
            else:
                message = Message(
                    N_("{player} went out, the final discard worth {value}"),
                    player=name,
                    value=entry.get("discard_value"),
                )
            found.insert(0, Clause("out", message))
    return found


# --- a history entry -----------------------------------------------------------------------


_ACTIONS = {
    "add": N_("{what} {number} added"),
    "edit": N_("{what} {number} corrected"),
    "delete": N_("{what} {number} deleted"),
    "undo": N_("{what} {number} undone"),
    "restore": N_("{what} {number} restored"),
}


def _rendered(clause: Clause) -> str:
    return render_message(clause.message)


def _with_old(new: Clause, old: Clause | None) -> Clause:
    """``new``, saying what it was before a correction when that differs."""
    if old is None or str(old.message) == str(new.message):
        return new
    step, before = new.message.step, old.message.step
    changed = [k for k in step.params if str(step.params[k]) != str(before.params.get(k))]
    # "(was 6)" is clear only when the clause has one value besides the player's name.
    values = [k for k in step.params if k != "player"]
    if step.template == before.template and changed == values and len(values) == 1:
        message = Message(
            N_("{clause} (was {old})"), clause=new.message, old=_plain(before.params[changed[0]])
        )
    else:
        message = Message(N_("{clause} (was: {old})"), clause=new.message, old=old.message)
    return Clause(new.key, message, new.group)


def _plain(value: Any) -> Any:
    """A value for ``(was …)``: cards stay cards, numbers become text."""
    return value if isinstance(value, str | Card | CardGroups | tuple) else str(value)


def _joined(clauses: Sequence[Clause]) -> str:
    """Clauses joined with "; ", those of one group after its name, with ", "."""
    parts: list[str] = []
    index = 0
    while index < len(clauses):
        group = clauses[index].group
        if group is None:
            parts.append(_rendered(clauses[index]))
            index += 1
            continue
        members = []
        while index < len(clauses) and str(clauses[index].group) == str(group):
            members.append(_rendered(clauses[index]))
            index += 1
        # TRANSLATORS: between the things one table's hand says (Persian: "، ").
        joined = str(_(", ")).join(members)
        parts.append(_("%(group)s: %(clauses)s", group=render_message(group), clauses=joined))
    # TRANSLATORS: between the things a hand says (Persian: "؛ ").
    return str(_("; ")).join(parts)


def entry_inputs(
    action: str, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
) -> Mapping[str, Any] | None:
    """The inputs a hand's history entry is about: what was added, corrected into or
    restored; what was deleted or undone."""
    return after if action in ("add", "edit", "restore") else before


def details(
    action: str,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    describe: Callable[[Mapping[str, Any]], list[Clause]],
) -> str:
    """What a hand's history entry says about its inputs."""
    if action == "edit" and before is not None and after is not None:
        old = {clause.key: clause for clause in describe(before)}
        new = describe(after)
        kept = {clause.key for clause in new}
        shown = [_with_old(clause, old.get(clause.key)) for clause in new]
        shown += [
            Clause(key, Message(N_("no longer: {clause}"), clause=clause.message), clause.group)
            for key, clause in old.items()
            if key not in kept
        ]
        return _joined(shown)
    inputs = entry_inputs(action, before, after)
    return _joined(describe(inputs)) if inputs is not None else ""


def change_sentence(
    action: str,
    number: int | None,
    what: Any,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    describe: Callable[[Mapping[str, Any]], list[Clause]],
) -> str:
    """One history entry as a sentence in the page's language."""
    if action == "create":
        return str(_("Game started."))
    if action == "pin":
        return str(_("PIN set."))
    if action == "import":
        return str(_("Game imported from a backup."))
    if action == "names" and after is not None and isinstance(after.get("short_names"), list):
        shorts = ", ".join(isolated(str(short)) for short in after["short_names"])
        return str(_("Short names on the sheet: %(names)s.", names=shorts))
    template = _ACTIONS.get(action)
    if template is None or number is None:
        return action
    head = render_message(Message(template, what=str(what), number=number))
    try:
        text = details(action, before, after, describe)
    except (KeyError, TypeError, ValueError, AttributeError):  # odd imported inputs
        text = ""
    return _("%(head)s: %(details)s.", head=head, details=text) if text else head + "."
