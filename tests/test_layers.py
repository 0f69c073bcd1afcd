"""The package's layers import one way (README, "Development").

From the bottom: ``scoring/`` (the rules, stdlib only); the shared pieces (database,
models, hands and their forms, sheets, i18n, the colours, security, names, the JSON body
readers, the charts and QR codes, the network addresses); ``variants/`` (what each kind of game
knows); the services over the game's own model (``services/``: saves, access, a game's
record and document, groups, payments, rulings; ``printing/``; ``rulebook/``); the
features side by side, each owning a Blueprint; the app factory. A module may import its
own piece or a lower layer, never a higher one, and a feature never imports another
feature, at the top of the file or inside a function. Read from the source (AST), so a
lazy import counts as much as one at the top.

The templates keep the same sides: a feature's templates (``templates/<feature>/``)
include, extend and import only their own and the shared ones at the top of the folder
(``base.html``, ``error.html``, ``_*.html``), which include only each other; what a page
shows of another feature comes from its view (services/page_parts.py). A template global,
filter or test registered by a feature is used by that feature's templates alone, and
none asks the database: a page's data comes from its view.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from flask import Flask
from jinja2 import Environment, meta, nodes

from scorekeeper.variants import VARIANTS as KINDS

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

SCORING = 0
SHARED = 1
VARIANTS = 2
SERVICES = 3
FEATURES = 4
APP = 5

# The pieces of the package, a folder or a module at the top, and their layer.
LAYERS = {
    "scoring": SCORING,
    "db": SHARED,
    "models": SHARED,
    "hands": SHARED,  # a hand as stored and as a JSON body, its form fields, the checkers' forms
    "forms": SHARED,  # a name's text check, a button-only POST, the PIN
    "i18n": SHARED,
    "security": SHARED,
    "jsonbody": SHARED,
    "names": SHARED,  # what a name may hold, when two look the same, how one is shown
    "limits": SHARED,  # how much a game holds, how fast one client may create and import
    "money": SHARED,  # which codes are currencies, a payment's amount
    "charts": SHARED,  # pictures drawn on the server: charts and QR codes
    "lan": SHARED,  # where other phones reach this server, links as they can open them
    "solar_hijri": SHARED,  # the Persian calendar's arithmetic
    "times": SHARED,  # dates and times in the reader's zone, language and calendar
    "formproblems": SHARED,  # a refused form's errors, each with its field's id
    "themes": SHARED,  # the colours: the device's settings or the choice kept for it
    "variants": VARIANTS,
    "services": SERVICES,  # the game's own model: saves, access, records, groups, rulings
    "printing": SERVICES,  # a page typeset as PDF, a hand's printed lines, print options
    "rulebook": SERVICES,  # the rule cards' text and worked examples
    "games": FEATURES,
    "api": FEATURES,
    "pdf": FEATURES,
    "backup": FEATURES,
    "checker": FEATURES,
    "remi": FEATURES,
    "groups": FEATURES,
    "pwa": FEATURES,
    "rulecards": FEATURES,
    "rulings": FEATURES,
    "nights": FEATURES,  # club nights: several tables, one evening, one board
    "cli": APP,
    "gunicorn_config": APP,  # gunicorn's hooks (import nothing of the app)
    "migrations": APP,
    "__init__": APP,
    "__main__": APP,
}


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def piece_of(path: Path) -> str:
    """The piece a file belongs to: ``games`` for ``games/views.py``."""
    return path.relative_to(PACKAGE).with_suffix("").parts[0]


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
    [p for p in modules() if LAYERS[piece_of(p)] == FEATURES],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_no_feature_imports_another(path: Path) -> None:
    """The features stand side by side: what two of them need lives below them."""
    own = piece_of(path)
    beside = [
        f"line {line}: {name}"
        for line, name in imported(path)
        if (piece := target_piece(name)) is not None and piece != own
        and LAYERS[piece] == FEATURES
    ]
    assert beside == []


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


def test_the_checks_see_a_feature_import_another() -> None:
    """A rulings page reaching for the checker's form is seen as one feature standing
    on another, though both sit on the same layer."""
    source = "from ..checker.views import check\nfrom ..services import rulings\n"
    names = [name for _line, name in imported(PACKAGE / "rulings" / "views.py", source)]
    pieces = [target_piece(name) for name in names]
    assert pieces == ["checker", "checker", "services", "services"]
    assert LAYERS["checker"] == LAYERS["rulings"] == FEATURES
    assert LAYERS["services"] < FEATURES


# --- the templates -----------------------------------------------------------------

FEATURE_PIECES = {piece for piece, layer in LAYERS.items() if layer == FEATURES}


def template_piece(name: str) -> str | None:
    """The feature a template belongs to, by its folder (``games`` for
    ``games/remi/sheet.html``); ``None`` for a shared one at the top (``base.html``)."""
    return name.split("/", 1)[0] if "/" in name else None


def jinja_templates(env: Environment) -> list[str]:
    """Every template the app's loader finds, but the print stylesheet (read as text by
    the printing code, never rendered)."""
    return [name for name in env.list_templates() if not name.endswith(".css")]


def parsed(env: Environment, name: str, source: str | None = None) -> nodes.Template:
    if source is None:
        assert env.loader is not None
        source, _file, _uptodate = env.loader.get_source(env, name)
    return env.parse(source, name)


def referenced_templates(tree: nodes.Template) -> list[str]:
    """What a template includes, extends and imports by a written name (a name held in
    a variable, ``variant.sheet_template``, is checked in the variants below)."""
    return [name for name in meta.find_referenced_templates(tree) if name is not None]


def names_used(env: Environment, tree: nodes.Template) -> set[str]:
    """The globals, filters and tests a template uses: every name it does not set
    itself."""
    found = set(meta.find_undeclared_variables(tree))
    found |= {node.name for node in tree.find_all((nodes.Filter, nodes.Test))}
    return found


def reaching_out(owner: str | None, referenced: list[str]) -> list[str]:
    """The referenced templates ``owner``'s template may not use: another feature's, or
    any feature's from a shared one."""
    return [name for name in referenced
            if (piece := template_piece(name)) is not None and piece != owner]


def test_every_template_folder_is_a_feature(app: Flask) -> None:
    folders = {template_piece(name) for name in jinja_templates(app.jinja_env)} - {None}
    assert folders - FEATURE_PIECES == set()


def test_no_template_includes_another_features(app: Flask) -> None:
    """``{% include %}``, ``{% extends %}``, ``{% import %}`` and ``{% from %}`` stay on
    the template's side."""
    env = app.jinja_env
    beside = [f"{name}: {target}" for name in jinja_templates(env)
              for target in reaching_out(template_piece(name),
                                         referenced_templates(parsed(env, name)))]
    assert beside == []


def test_a_variants_templates_belong_to_the_pages_that_draw_them() -> None:
    """The templates a variant names are included by a variable: its sheet, hand form
    and fields on the game's pages; its sheet and pad printed; its rules line on the
    sheet, the print and a ruling alike, so shared."""
    wrong = []
    for name, variant in KINDS.items():
        expected = {"sheet_template": "games", "quick_template": "games",
                    "card_template": "games", "hand_template": "games",
                    "pdf_template": "pdf", "pad_template": "pdf", "rules_template": None}
        for attribute, piece in expected.items():
            template = getattr(variant, attribute, None)
            if template is not None and template_piece(template) != piece:
                wrong.append(f"{name}.{attribute}: {template}")
    assert wrong == []


# What registers a template global, filter or test: a Blueprint's app-wide ones, and the
# app's own (the shared modules' ``init_app``).
REGISTERING = {"app_template_global", "app_template_filter", "app_template_test",
               "add_app_template_global", "add_app_template_filter", "add_app_template_test",
               "add_template_global", "add_template_filter", "add_template_test",
               "template_global", "template_filter", "template_test"}


def template_names(path: Path, source: str | None = None) -> list[tuple[str, str]]:
    """(name in the templates, function) of each template global, filter or test that
    ``path`` (or ``source`` as if it were that file) registers."""
    text = path.read_text(encoding="utf-8") if source is None else source
    found: list[tuple[str, str]] = []

    def given_name(call: ast.Call, position: int) -> str | None:
        if len(call.args) > position and isinstance(call.args[position], ast.Constant):
            return str(call.args[position].value)  # type: ignore[attr-defined]
        return next((str(k.value.value) for k in call.keywords  # type: ignore[attr-defined]
                     if k.arg == "name" and isinstance(k.value, ast.Constant)), None)

    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                call = decorator if isinstance(decorator, ast.Call) else None
                target = call.func if call is not None else decorator
                if isinstance(target, ast.Attribute) and target.attr in REGISTERING:
                    named = given_name(call, 0) if call is not None else None
                    found.append((named or node.name, node.name))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr.startswith("add_") and node.func.attr in REGISTERING
              and node.args):
            function = node.args[0]
            called = (function.attr if isinstance(function, ast.Attribute)
                      else function.id if isinstance(function, ast.Name) else "?")
            found.append((given_name(node, 1) or called, called))
    return found


def feature_template_names() -> dict[str, str]:
    """Each template name a feature registers: the feature."""
    return {name: piece_of(path) for path in modules() if LAYERS[piece_of(path)] == FEATURES
            for name, _function in template_names(path)}


def test_no_template_uses_a_name_another_feature_registers(app: Flask) -> None:
    """A global, filter or test a feature's Blueprint registers is its own templates'
    alone; what several features' or the shared templates use, a shared module
    registers."""
    env = app.jinja_env
    registered = feature_template_names()
    borrowed = [f"{name}: {used} ({registered[used]})" for name in jinja_templates(env)
                for used in sorted(names_used(env, parsed(env, name)))
                if used in registered and registered[used] != template_piece(name)]
    assert borrowed == []


def asks_the_database(path: Path, function: str, source: str | None = None) -> bool:
    """Whether ``function``, defined in ``path`` (or ``source``), opens the database
    session."""
    text = path.read_text(encoding="utf-8") if source is None else source
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return any(isinstance(inner, ast.Name | ast.Attribute)
                       and "get_session" in {getattr(inner, "id", None),
                                             getattr(inner, "attr", None)}
                       for inner in ast.walk(node))
    return False


def test_no_template_global_asks_the_database() -> None:
    """A page's data comes from its view: a global that queried would run its queries on
    every render of every template that uses it, unseen by the view."""
    querying = [f"{path.relative_to(PACKAGE)}: {function}" for path in modules()
                for _name, function in template_names(path)
                if asks_the_database(path, function)]
    assert querying == []


OLD_SHEET = """{% extends "base.html" %}
{% from "_macros.html" import draft %}
{% from "pwa/_share.html" import kept_here with context %}
{% block content %}{% include variant.sheet_template %}
{% include "games/_stakes.html" %}{% include "nights/_game_confirm.html" ignore missing %}
{{ game.stake | money }}{% endblock %}
"""

OLD_NIGHTS = """from flask import Blueprint
bp = Blueprint("nights", __name__)

@bp.app_template_global()
def night_table_of(game):
    from ..db import get_session
    return get_session().get(NightTable, game.id)

@bp.app_template_filter("signed")
def signed_number(value):
    return str(value)

bp.add_app_template_global(lan.phone_url, "phone_url")
"""


def test_the_checks_see_a_template_reach_beside(app: Flask) -> None:
    """The games sheet as it was: a night's box included by name, a share partial of the
    PWA's imported, a filter of the groups used; the night's global queried."""
    tree = parsed(app.jinja_env, "games/sheet.html", OLD_SHEET)
    assert reaching_out("games", referenced_templates(tree)) == [
        "pwa/_share.html", "nights/_game_confirm.html"]
    assert reaching_out(None, ["_macros.html", "games/_stakes.html"]) == ["games/_stakes.html"]
    assert {"money", "variant", "game"} <= names_used(app.jinja_env, tree)
    assert "draft" not in names_used(app.jinja_env, tree)
    nights = PACKAGE / "nights" / "__init__.py"
    assert template_names(nights, OLD_NIGHTS) == [
        ("night_table_of", "night_table_of"), ("signed", "signed_number"),
        ("phone_url", "phone_url")]
    assert asks_the_database(nights, "night_table_of", OLD_NIGHTS)
    assert not asks_the_database(nights, "signed_number", OLD_NIGHTS)


TESTS = Path(__file__).resolve().parent


def imported_test_modules(source: str) -> list[str]:
    """The test modules (``tests.…test_…``) that ``source`` imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        found += [n for n in names if n.startswith("tests.") and
                  n.rsplit(".", 1)[-1].startswith("test_")]
    return found


@pytest.mark.parametrize("path", sorted(TESTS.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(TESTS)))
def test_no_test_module_imports_another(path: Path) -> None:
    """What tests share lives in tests/helpers.py, tests/browser/helpers.py and the
    conftest.py fixtures, never in another test module."""
    assert imported_test_modules(path.read_text(encoding="utf-8")) == []


def test_the_check_sees_a_test_module_imported() -> None:
    assert imported_test_modules("from tests.browser.test_layout import PROBLEMS_JS\n"
                        "import tests.test_i18n\nfrom tests.helpers import api\n") == [
        "tests.browser.test_layout", "tests.test_i18n"]


SESSION_SWITCHES = {"begin_reading", "begin_writing", "rollback_to_reading"}


def switches_session(source: str) -> list[int]:
    """Lines of ``source`` that name a function switching the request's session between
    reading and writing by hand."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if (isinstance(node, ast.Name) and node.id in SESSION_SWITCHES)
        or (isinstance(node, ast.alias) and node.name in SESSION_SWITCHES)
        or (isinstance(node, ast.Attribute) and node.attr in SESSION_SWITCHES)
    ]


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_db_and_the_games_service_switch_the_session(path: Path) -> None:
    """A view's change is written in ``db.writing()``, which rolls back a refused one
    and reads on: no view switches the session to reading (or writing) by hand. The
    games service's ``read_for_change``/``lock_again`` are the one other home."""
    if path.relative_to(PACKAGE).as_posix() in {"db.py", "services/games.py"}:
        return
    assert switches_session(path.read_text(encoding="utf-8")) == []


def test_the_check_sees_a_view_read_on_by_hand() -> None:
    source = "from ..db import begin_reading\n\ndef view():\n    begin_reading()\n"
    assert switches_session(source) == [1, 4]
