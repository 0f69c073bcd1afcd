"""Settings and the command line: the order settings win in (README, "Configuration"),
where the instance folder is, secure cookies, the 500 handler, and the ``migrate``,
``export`` and ``import`` commands as an operator types them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask, g, session
from flask.cli import ScriptInfo
from sqlalchemy import create_engine, func, inspect, select

import scorekeeper
from scorekeeper import create_app
from scorekeeper.cli import main
from scorekeeper.db import get_session
from scorekeeper.models import Game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An instance folder of the test's own; no settings from the environment."""
    folder = tmp_path / "instance"
    folder.mkdir()
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(folder))
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    monkeypatch.delenv("SCOREKEEPER_SECURE_COOKIES", raising=False)
    return folder


@pytest.fixture
def built() -> Iterator[list[Flask]]:
    """Apps a test builds with ``create_app()``; their engines are closed afterwards."""
    apps: list[Flask] = []
    yield apps
    for app in apps:
        app.extensions["scorekeeper.engine"].dispose()


def build(apps: list[Flask], test_config: dict[str, Any] | None = None) -> Flask:
    app = create_app(test_config)
    apps.append(app)
    return app


def sqlite(path: Path) -> str:
    return f"sqlite:///{path}"


# --- the order: defaults, config.py, the environment, test_config -----------------------


def test_defaults_put_the_database_and_key_in_the_instance_folder(
    instance: Path, built: list[Flask]
) -> None:
    app = build(built)
    assert app.instance_path == str(instance)
    assert app.config["DATABASE_URL"] == sqlite(instance / "scorekeeper.sqlite")
    assert app.config["SESSION_COOKIE_SECURE"] is False
    assert app.config["SECRET_KEY"] == (instance / "secret_key").read_text()
    assert len(app.config["SECRET_KEY"]) == 64


def test_config_py_overrides_the_defaults(
    instance: Path, tmp_path: Path, built: list[Flask]
) -> None:
    (instance / "config.py").write_text(
        f"DATABASE_URL = {sqlite(tmp_path / 'config.sqlite')!r}\n"
        "SESSION_COOKIE_SECURE = True\nSECRET_KEY = 'from config.py'\n"
    )
    app = build(built)
    assert app.config["DATABASE_URL"] == sqlite(tmp_path / "config.sqlite")
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["SECRET_KEY"] == "from config.py"
    assert not (instance / "secret_key").exists()


def test_the_environment_overrides_config_py(
    instance: Path, tmp_path: Path, built: list[Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    (instance / "config.py").write_text(
        f"DATABASE_URL = {sqlite(tmp_path / 'config.sqlite')!r}\nSESSION_COOKIE_SECURE = True\n"
    )
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", sqlite(tmp_path / "env.sqlite"))
    monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", "0")
    app = build(built)
    assert app.config["DATABASE_URL"] == sqlite(tmp_path / "env.sqlite")
    assert app.config["SESSION_COOKIE_SECURE"] is False
    # The app really uses it: migrated at start-up, the other file never created.
    assert (tmp_path / "env.sqlite").is_file()
    assert not (tmp_path / "config.sqlite").exists()


def test_test_config_overrides_the_environment_and_skips_config_py(
    instance: Path, tmp_path: Path, built: list[Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    (instance / "config.py").write_text("SECRET_KEY = 'from config.py'\n")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", sqlite(tmp_path / "env.sqlite"))
    monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", "1")
    app = build(built, {"DATABASE_URL": sqlite(tmp_path / "test.sqlite")})
    assert app.config["DATABASE_URL"] == sqlite(tmp_path / "test.sqlite")
    assert app.config["SESSION_COOKIE_SECURE"] is True  # from the environment
    assert app.config["SECRET_KEY"] != "from config.py"


def test_an_installed_package_keeps_its_files_in_xdg_data_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SCOREKEEPER_INSTANCE_PATH", raising=False)
    assert scorekeeper.instance_path() == ROOT / "instance"  # a source checkout
    # As installed: the package's folder has no pyproject.toml beside it.
    installed = tmp_path / "site-packages" / "scorekeeper"
    installed.mkdir(parents=True)
    monkeypatch.setattr(scorekeeper, "__file__", str(installed / "__init__.py"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert scorekeeper.instance_path() == tmp_path / "data" / "scorekeeper"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert scorekeeper.instance_path() == tmp_path / "home" / ".local" / "share" / "scorekeeper"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "chosen"))
    assert scorekeeper.instance_path() == tmp_path / "chosen"


# --- secure cookies ----------------------------------------------------------------------


@pytest.mark.parametrize(("setting", "secure"), [("1", True), (None, False)])
def test_secure_cookies_mark_the_session_cookie_secure(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, setting: str | None, secure: bool
) -> None:
    if setting is None:
        monkeypatch.delenv("SCOREKEEPER_SECURE_COOKIES", raising=False)
    else:
        monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", setting)
    client = make_app().test_client()
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    response = client.get(f"/g/{created['id']}?key={created['edit_secret']}")
    assert response.status_code == 302
    [cookie] = response.headers.getlist("Set-Cookie")
    attributes = [part.strip().lower() for part in cookie.split(";")]
    assert attributes[0].startswith("session=")
    assert ("secure" in attributes) is secure
    assert "httponly" in attributes and "samesite=lax" in attributes


def test_a_new_secret_key_refuses_old_session_cookies_unless_kept_as_a_fallback(
    make_app: Any,
) -> None:
    """The session's signer is built once per set of keys (``security.SessionCookies``):
    a changed key must still refuse cookies signed with the old one, and a fallback
    key must still accept them."""
    app = remembering_app(make_app, SECRET_KEY="first")
    client = app.test_client()
    assert client.get("/test/remember").text == "kept"
    assert client.get("/test/recall").text == "yes"
    app.config["SECRET_KEY"] = "second"
    assert client.get("/test/recall").text == "None"
    app.config["SECRET_KEY_FALLBACKS"] = ["first"]
    assert client.get("/test/recall").text == "yes"
    app.config["SECRET_KEY_FALLBACKS"] = []
    assert client.get("/test/recall").text == "None"


def remembering_app(make_app: Any, **config: Any) -> Flask:
    """The app with routes that store "seen" in the session and show it, on a page
    and under the API's prefix."""
    app: Flask = make_app(**config)

    @app.get("/test/remember")
    def remember() -> str:
        session["seen"] = "yes"
        return "kept"

    def recall() -> str:
        return str(session.get("seen"))

    app.add_url_rule("/test/recall", "recall", recall)
    app.add_url_rule("/api/v1/test/recall", "api_recall", recall)
    return app


def test_the_api_keeps_no_cookie_session(make_app: Any) -> None:
    """A program sends the API its edit secret, never a cookie: the session a browser
    holds is neither read nor sent back there, while pages still see it."""
    app = remembering_app(make_app)
    client = app.test_client()
    assert client.get("/test/remember").headers.get("Set-Cookie", "").startswith("session=")
    assert client.get("/test/recall").text == "yes"
    answer = client.get("/api/v1/test/recall")
    assert answer.text == "None"
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
    for response in (answer, created):
        assert "Set-Cookie" not in response.headers
        assert "Cookie" not in response.headers.get("Vary", "")


def test_a_security_header_a_view_sets_itself_is_kept(make_app: Any) -> None:
    app: Flask = make_app()

    @app.get("/test/own-referrer")
    def own() -> tuple[str, int, dict[str, str]]:
        return "own", 200, {"referrer-policy": "same-origin"}

    response = app.test_client().get("/test/own-referrer")
    assert response.headers.getlist("Referrer-Policy") == ["same-origin"]
    assert response.headers.getlist("X-Frame-Options") == ["DENY"]
    assert response.headers.getlist("X-Content-Type-Options") == ["nosniff"]
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")

# --- the 500 handler -----------------------------------------------------------------------


@pytest.fixture
def failing_app(make_app: Any) -> Flask:
    """The app with two routes that write a game, then fail before committing."""
    app: Flask = make_app(PROPAGATE_EXCEPTIONS=False)

    def boom() -> str:
        game = Game(variant="gin", players=["Ann", "Bob"], rules={}, setup={"dealer": 0})
        db = get_session()
        db.add(game)
        db.flush()  # the row is written inside the request's transaction
        g.written = game
        raise RuntimeError("a bug")

    app.add_url_rule("/boom", "boom", boom, methods=["POST"])
    app.add_url_rule("/api/v1/boom", "api_boom", boom, methods=["POST"])

    @app.after_request
    def _seen(response: Any) -> Any:
        written = g.get("written")
        if written is not None:
            response.headers["X-Still-In-Session"] = str(written in get_session())
        return response

    return app


def games_stored(app: Flask) -> int:
    engine = create_engine(app.config["DATABASE_URL"])
    try:
        with engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(Game)).scalar_one())
    finally:
        engine.dispose()


def test_a_crash_in_the_api_rolls_back_and_answers_json(failing_app: Flask) -> None:
    response = failing_app.test_client().post("/api/v1/boom")
    assert response.status_code == 500
    assert response.get_json() == {
        "errors": [
            {
                "where": "server",
                "message": "Something went wrong on our side. Nothing you saved is lost.",
            }
        ]
    }
    assert response.headers["X-Still-In-Session"] == "False"  # rolled back by the handler
    assert games_stored(failing_app) == 0


def test_a_crash_on_a_page_rolls_back_and_shows_the_error_page(failing_app: Flask) -> None:
    response = failing_app.test_client().post("/boom", headers={"Accept-Language": "en"})
    assert response.status_code == 500
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "Something went wrong on our side. Nothing you saved is lost." in page
    assert response.headers["X-Still-In-Session"] == "False"
    assert games_stored(failing_app) == 0


# --- the commands ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "migrate"],
        [sys.executable, "-m", "scorekeeper", "migrate"],
    ],
    ids=["flask", "scorekeeper"],
)
def test_migrate_brings_an_empty_database_to_the_head(
    instance: Path, database_url: str, command: list[str]
) -> None:
    # config.py turns start-up migration off: only the command can create the tables.
    (instance / "config.py").write_text("AUTO_MIGRATE = False\n")
    env = {**os.environ, "SCOREKEEPER_DATABASE_URL": database_url}
    done = subprocess.run(
        command, cwd=instance, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "database is up to date\n"
    engine = create_engine(database_url)
    try:
        tables = set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert {"games", "hands", "changes", "submissions", "alembic_version"} <= tables


def test_the_scorekeeper_command_exports_and_imports(
    instance: Path, database_url: str, app: Flask, tmp_path: Path, built: list[Flask]
) -> None:
    client = app.test_client()
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    env = {"SCOREKEEPER_DATABASE_URL": database_url, "SCOREKEEPER_INSTANCE_PATH": None}
    runner = CliRunner()

    def invoke(*args: str) -> Any:
        # The command builds its app with create_app(), as installed; kept to be closed.
        info = ScriptInfo(create_app=lambda: build(built), set_debug_flag=False)
        return runner.invoke(main, ["--instance", str(instance), *args], env=env, obj=info)

    exported = invoke("export")
    assert exported.exit_code == 0, exported.output
    document = json.loads(exported.stdout)
    assert [game["id"] for game in document["games"]] == [created["id"]]
    path = tmp_path / "backup.json"
    path.write_text(exported.stdout)
    imported = invoke("import", str(path))
    assert imported.exit_code == 0, imported.output
    assert [a.instance_path for a in built] == [str(instance), str(instance)]
    assert imported.stdout.startswith("imported ")
    assert games_stored(app) == 2
