"""Explanation steps: structured, so the web layer can word them in any language.

A ``Step`` carries an English ``str.format`` template (marked with ``N_`` so Babel
extracts it into the message catalogs) and the values to fill in. ``str(step)`` is the
English sentence; the web layer looks the template up in its catalog first.

>>> str(Step(N_("Knocker's deadwood is {points}."), {"points": 7}))
"Knocker's deadwood is 7."

Error messages are structured the same way: a ``Message`` *is* the English sentence
(a ``str``, so every caller that keeps or compares strings goes on working) and carries
its ``Step`` for a page that words it in the player's language.

>>> message = Message(N_("{card} is in both hands"), card="7♥")
>>> message == "7♥ is in both hands", message.step.template
(True, '{card} is in both hands')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def N_(template: str) -> str:  # noqa: N802 - the gettext convention for "mark only"
    """Mark a template for translation without translating it here."""
    return template


def describe(value: Any) -> str:
    """English text for a step parameter: cards and melds by their suit symbols, a
    negative number with the minus sign the templates use (``−10``, not ``-10``).

    >>> describe(-10)
    '−10'
    """
    if isinstance(value, str):
        return value
    if isinstance(value, int) and value < 0:
        return f"−{-value}"
    symbols = getattr(value, "symbols", None)
    if isinstance(symbols, str):
        return symbols
    if isinstance(value, Iterable):
        return " ".join(describe(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class Step:
    """One line of an explanation a player can follow."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(
        self,
        translate: Callable[[str], str] = lambda s: s,
        show: Callable[[Any], str] = describe,
    ) -> str:
        """The sentence, with the template translated and each value shown by ``show``."""
        return translate(self.template).format(**{k: show(v) for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.render()

    @property
    def rule(self) -> str:
        """The anchor of the rule this step applies (``citations``): ``undercut`` for
        ``/rules/russian#undercut``; ``""`` for a step that applies none."""
        from .citations import rule_of

        return rule_of(self.template)


class Message(str):
    """An English error message that keeps its template and values (``.step``)."""

    step: Step

    def __new__(cls, template: str, /, **params: Any) -> Message:
        step = Step(template, params)
        message = super().__new__(cls, step.render())
        message.step = step
        return message

    def __reduce__(self) -> tuple[Any, ...]:
        return _message, (self.step.template, dict(self.step.params))


def _message(template: str, params: dict[str, Any]) -> Message:
    return Message(template, **params)


def step_of(message: str) -> Step | None:
    """The structured form of an engine message; ``None`` for a plain string."""
    step = getattr(message, "step", None)
    return step if isinstance(step, Step) else None


def joined(names: Sequence[str]) -> str:
    """``Ann and Bob and Cy``, each ``and`` a translatable ``Message``."""
    if len(names) < 2:
        return names[0] if names else ""
    return Message(N_("{first} and {second}"), first=joined(names[:-1]), second=names[-1])
