"""Explanation steps: structured, so the web layer can word them in any language.

A ``Step`` carries an English ``str.format`` template (marked with ``N_`` so Babel
extracts it into the message catalogs) and the values to fill in. ``str(step)`` is the
English sentence; the web layer looks the template up in its catalog first.

>>> str(Step(N_("Knocker's deadwood is {points}."), {"points": 7}))
"Knocker's deadwood is 7."
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(template: str) -> str:  # noqa: N802 - the gettext convention for "mark only"
    """Mark a template for translation without translating it here."""
    return template


def describe(value: Any) -> str:
    """English text for a step parameter: cards and melds by their suit symbols."""
    if isinstance(value, str):
        return value
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
