"""Putting a part of WeasyPrint's in its place with one of ours, and back.

Printing replaces three parts of WeasyPrint (70): how a line keeps its Pango layout
(``textlayout``), how a line's glyphs are written (``glyphs``) and how a preserved
line is found (``newlines``). Each is put in place only over the WeasyPrint code it was
written against, compared by its source: over any other WeasyPrint, printing is as
WeasyPrint does it, only slower. Ours keeps WeasyPrint's own as an attribute (its
``marker``), which is how it is known to be in place and how it is put back (the tests
print both ways).
"""

from __future__ import annotations

import hashlib
import inspect
import threading
from collections.abc import Callable
from typing import Any

_lock = threading.Lock()


def source(function: Any) -> str:
    """A function's source with its white space squeezed, or "" if it has none."""
    try:
        return " ".join(inspect.getsource(function).split())
    except (OSError, TypeError):
        return ""


def source_digest(function: Any) -> str:
    """The SHA-256 of ``source(function)``."""
    return hashlib.sha256(source(function).encode()).hexdigest()


def put_in_place(owner: Any, name: str, marker: str, fits: Callable[[Any], bool],
                 ours: Callable[[Any], Any]) -> bool:
    """Put ``ours(theirs)`` in place of ``owner.name`` if that is WeasyPrint's and
    ``fits``; whether ours is in place (already, or now)."""
    with _lock:
        current = getattr(owner, name)
        if hasattr(current, marker):  # ours already
            return True
        if not fits(current):
            return False
        setattr(owner, name, ours(current))
        return True


def put_back(owner: Any, name: str, marker: str) -> None:
    """WeasyPrint's own ``owner.name`` back in its place."""
    with _lock:
        current = getattr(owner, name)
        setattr(owner, name, getattr(current, marker, current))
