"""Who runs a night: whoever holds its organiser's secret (its link). The browser's
signed session remembers the nights it may run, as it does games it may edit."""

from __future__ import annotations

import hmac

from flask import abort, session

from ..models import Night

KEY = "night_edit"
REMEMBERED = 10


def secret_matches(night: Night, secret: str | None) -> bool:
    """Constant-time check of the organiser's secret."""
    return bool(secret) and hmac.compare_digest(
        str(secret).encode(), night.organiser_secret.encode()
    )


def can_organise(night: Night) -> bool:
    """Whether this browser runs ``night``."""
    held = session.get(KEY, [])
    return isinstance(held, list) and night.id in held


def require_organiser(night: Night) -> None:
    """Refuse (403) a change from a browser that does not run the night."""
    if not can_organise(night):
        abort(403)


def grant(night: Night) -> None:
    """Remember that this browser runs ``night``."""
    held = session.get(KEY, [])
    kept = [str(i) for i in held if i != night.id] if isinstance(held, list) else []
    session[KEY] = [night.id, *kept][:REMEMBERED]
