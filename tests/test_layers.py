"""The package's layers import one way (README, "Development").

From the bottom: ``scoring/`` (the rules, stdlib only); the shared pieces (database,
models, hands, sheets, i18n, security, the hand forms and entry helpers, the JSON body
readers, the charts); ``variants/`` (what each kind of game knows) with a group's game
summaries (what each kind's replay counts up to, and the stamp of the scoring code);
the pages and the API; the app factory. A module may import its own layer or a lower
one, never a higher one, at the top of the file or inside a function. Read from the
source (AST), so a lazy import counts as much as one at the top.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

SCORING = 0
SHARED = 1
VARIANTS = 2
PAGES = 3
APP = 4

# The pieces of the package and their layer: a folder or a module at the top, or a
# module inside a folder (``groups.summaries``) that sits lower than the rest of it.
LAYERS = {
    "scoring": SCORING,
    "db": SHARED,
    "models": SHARED,
    "hands": SHARED,  # a hand's stored inputs, its form fields, form to inputs and back
    "i18n": SHARED,
    "security": SHARED,
    "jsonbody": SHARED,
    "names": SHARED,  # what a name may hold, when two look the same, how one is shown
    "limits": SHARED,  # how fast one client may create and import
    "money": SHARED,  # which codes are currencies, a payment's amount
    "charts": SHARED,
    "solar_hijri": SHARED,  # the Persian calendar's arithmetic
    "times": SHARED,  # dates and times in the reader's zone, language and calendar
    "formproblems": SHARED,  # a refused form's errors, each with its field's id
    "variants": VARIANTS,
    # A game's record for a group's standings and money, from each kind's replay, kept
    # as its summary: the game's page, PDF and API read a game's payments from it.
    "groups.summaries": VARIANTS,
    "groups.scoring_stamp": VARIANTS,
    "games": PAGES,
    "api": PAGES,
    "pdf": PAGES,
    "backup": PAGES,
    "checker": PAGES,
    "remi": PAGES,
    "groups": PAGES,
    "pwa": PAGES,
    "rulecards": PAGES,  # the rule cards of the presets and of a game
    "rulings": PAGES,  # settled disputes kept as they were decided
    "nights": PAGES,  # club nights: several tables, one evening, one board
    "cli": APP,
    "gunicorn_config": APP,  # gunicorn's hooks (import nothing of the app)
    "migrations": APP,
    "__init__": APP,
    "__main__": APP,
}


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def piece_of(path: Path) -> str:
    """The piece a file belongs to: ``games`` for ``games/views.py``,
    ``groups.summaries`` for ``groups/summaries.py``."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    inner = ".".join(parts[:2])
    return inner if len(parts) > 1 and inner in LAYERS else parts[0]


def module_name(path: Path) -> list[str]:
    parts = ["scorekeeper", *path.relative_to(PACKAGE).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported(path: Path, source: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute dotted name) of everything ``path`` (or ``source`` as if it were
    that file) imports."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, str(path))
    package = module_name(path)
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            # ``from .. import games`` imports the piece ``games``, not the app factory:
            # count the names (which may be modules) and, given, the module itself.
            if node.module:
                found.append((node.lineno, name))
            found += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
    return found


def target_piece(name: str) -> str | None:
    """The package piece an absolute import names, or ``None`` outside the package."""
    parts = name.split(".")
    if parts[0] != "scorekeeper":
        return None
    if ".".join(parts[1:3]) in LAYERS:
        return ".".join(parts[1:3])
    # ``scorekeeper`` itself, or a name defined in its ``__init__`` (``create_app``).
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else "__init__"


def test_every_piece_has_a_layer() -> None:
    pieces = {piece_of(path) for path in modules()}
    assert pieces - set(LAYERS) == set()


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_a_higher_layer(path: Path) -> None:
    own = piece_of(path)
    upward = []
    for line, name in imported(path):
        piece = target_piece(name)
        if piece is not None and piece != own and LAYERS[piece] > LAYERS[own]:
            upward.append(f"line {line}: {name}")
    assert upward == []


@pytest.mark.parametrize(
    "path",
    [p for p in modules() if piece_of(p) == "scoring"],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_scoring_imports_only_itself_and_the_standard_library(path: Path) -> None:
    outside = [
        f"line {line}: {name}"
        for line, name in imported(path)
        if not name.startswith("scorekeeper.scoring")
        and name.split(".")[0] not in sys.stdlib_module_names
        and name.split(".")[0] != "__future__"
    ]
    assert outside == []


def test_gunicorns_master_imports_nothing_of_the_app() -> None:
    """``gunicorn_config`` is imported by gunicorn's master process, which forks every
    worker: an app module imported there would stay in the workers as it was when the
    master started, across a reload."""
    of_the_package = {name for _line, name in imported(PACKAGE / "gunicorn_config.py")
                      if target_piece(name) is not None}
    assert of_the_package == set()


def test_the_pieces_import_each_other_without_a_circle() -> None:
    edges: dict[str, set[str]] = {piece: set() for piece in LAYERS}
    for path in modules():
        own = piece_of(path)
        for _line, name in imported(path):
            piece = target_piece(name)
            if piece is not None and piece != own:
                edges[own].add(piece)
    done: set[str] = set()

    def visit(piece: str, trail: tuple[str, ...]) -> None:
        assert piece not in trail, " -> ".join((*trail, piece))
        if piece in done:
            return
        for after in sorted(edges[piece]):
            visit(after, (*trail, piece))
        done.add(piece)

    for piece in sorted(edges):
        visit(piece, ())


def test_the_checks_see_an_upward_import() -> None:
    """The walk finds relative and lazy imports: the old circle, as it was written."""
    source = (
        "def f():\n    from ..api.errors import fail\n    from .. import games\n"
        "from .. import create_app\nimport scorekeeper.pdf.views\n"
    )
    names = [name for _line, name in imported(PACKAGE / "variants" / "gin.py", source)]
    assert names == [
        "scorekeeper.create_app",
        "scorekeeper.pdf.views",
        "scorekeeper.api.errors",
        "scorekeeper.api.errors.fail",
        "scorekeeper.games",
    ]
    assert [target_piece(name) for name in names] == ["__init__", "pdf", "api", "api", "games"]
    assert LAYERS["api"] > LAYERS["variants"]


def test_a_lower_module_in_a_folder_is_its_own_piece() -> None:
    """``groups/summaries.py`` sits below the group pages: the game's pages may read a
    game's payments from it although the group pages import the game's pages; an
    upward import from it would still be seen."""
    assert piece_of(PACKAGE / "groups" / "summaries.py") == "groups.summaries"
    assert piece_of(PACKAGE / "groups" / "views.py") == "groups"
    source = "from ..games import access\nfrom . import service\n"
    names = [name for _line, name in imported(PACKAGE / "groups" / "summaries.py", source)]
    assert names == [
        "scorekeeper.games",
        "scorekeeper.games.access",
        "scorekeeper.groups.service",
    ]
    assert [target_piece(name) for name in names] == ["games", "games", "groups"]
    assert LAYERS["games"] > LAYERS["groups.summaries"]
    assert LAYERS["groups"] > LAYERS["groups.summaries"]


@pytest.mark.parametrize("piece", [p for p in LAYERS if "." in p])
def test_a_lower_modules_folder_brings_in_nothing_higher(piece: str) -> None:
    """Importing ``groups.summaries`` runs ``groups/__init__.py`` first: what that file
    imports must sit no higher than the module itself."""
    folder = piece.split(".")[0]
    upward = [
        f"line {line}: {name}"
        for line, name in imported(PACKAGE / folder / "__init__.py")
        if (target := target_piece(name)) is not None and LAYERS[target] > LAYERS[piece]
    ]
    assert upward == []
