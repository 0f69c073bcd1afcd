"""A hash of the code that scores: what is derived from a game's hands and kept (a
group's game summaries, a game's tally) is kept with it, and taken as stale when the
rules engine, the variants or the way records are counted have changed since."""

from __future__ import annotations

from hashlib import sha256
from pathlib import Path


def engine_stamp() -> str:
    """A hash of every module whose change could change a score, a tally or a record."""
    root = Path(__file__).parent
    digest = sha256()
    for path in sorted(
        [
            *root.glob("scoring/*.py"),
            *root.glob("variants/*.py"),
            root / "hands.py",
            root / "sheets.py",
            root / "records.py",
        ]
    ):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


STAMP = engine_stamp()
