"""The stamp of the scoring code: a hash of every source file whose change could change
a game's summary (``summaries``). A stored summary is taken as current only with the
stamp it was counted by, so a new rules engine, a changed variant or a new way of
counting is never read back in an old summary.

The files are found through the modules themselves: a module renamed or turned into a
package is followed by the import below, never missed by a path written out.
"""

from __future__ import annotations

from hashlib import sha256
from pathlib import Path
from types import ModuleType

from .. import scoring, variants
from ..hands import inputs

ROOT = Path(scoring.__file__).resolve().parent.parent  # the ``scorekeeper`` package

# What turns a game's stored inputs into its summary: the rules engine, each kind of
# game with the replay of its hands into a sheet, scoring one hand's inputs, and the
# counting.
SCORING_CODE = (scoring, variants, inputs)


def _files(module: ModuleType) -> list[Path]:
    """A module's source file, or every source file of a package."""
    path = Path(str(module.__file__)).resolve()
    return sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]


def sources() -> list[Path]:
    """Every file the stamp hashes, in a fixed order."""
    counting = Path(__file__).resolve().with_name("summaries.py")
    return sorted({*(f for module in SCORING_CODE for f in _files(module)), counting})


def stamp_of(files: list[Path], root: Path = ROOT) -> str:
    """A hash of the files' names (from ``root``) and contents."""
    digest = sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


SCORING_STAMP = stamp_of(sources())
