"""Scorekeeper: gin rummy score sheets for a real card table.

``create_app()`` is the application factory: ``flask --app scorekeeper run``.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, with letters written as themselves (UTF-8), not ``\\u`` escapes:
    names, suits and Persian or Russian explanations read as typed."""

    ensure_ascii = False


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Settings: defaults, then ``config.py`` in the instance folder,
    then the environment (``SCOREKEEPER_*``), then ``test_config`` (tests skip the
    instance's ``config.py``)."""
    from .limits import MOST_BODY

    app = Flask(__name__, instance_path=str(instance_path()), instance_relative_config=True)
    app.json = JSONProvider(app)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=f"sqlite:///{instance / 'scorekeeper.sqlite'}",
        # Anything larger is refused with 413; an import file has its own limit
        # (``limits.LARGE_BODIES``).
        MAX_CONTENT_LENGTH=MOST_BODY,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=False,
        # Rights to change a game outlive the browser session (security.SessionCookies).
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        # A hand that repeats the last one saved less than this ago is asked about before
        # it counts (services.games.check_repeat); 0 asks about none.
        REPEAT_WINDOW=timedelta(minutes=1),
        WTF_CSRF_TIME_LIMIT=None,  # a hand can take longer to play than an hour
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        AUTO_MIGRATE=True,
        # Where gunicorn listens (``make run`` passes HOST and PORT): on an address other
        # than loopback the home page shows the URLs other phones can open.
        LISTEN_HOST=os.environ.get("SCOREKEEPER_LISTEN_HOST"),
        LISTEN_PORT=os.environ.get("SCOREKEEPER_LISTEN_PORT"),
        # How many reverse proxies stand in front of the app (0: none).
        PROXIES=0,
        # The names the app answers to (security.host_is_served); none: its own addresses.
        HOSTS=[],
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    app.config.from_mapping(_environment())
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(instance)
    if app.config["PROXIES"]:
        # Behind a reverse proxy (Flask's "Tell Flask it is behind a proxy"): the
        # client's address (rate limits), scheme and host (links, QR codes) are taken
        # from the X-Forwarded-* headers the last PROXIES proxies set.
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = int(app.config["PROXIES"])
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)

    from . import charts, db, i18n, lan, limits, money, names, security, themes, times
    from .hands import fields

    db.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    names.init_app(app)
    limits.init_app(app)
    charts.init_app(app)
    times.init_app(app)
    lan.init_app(app)
    money.init_app(app)
    fields.init_app(app)
    from .services import access

    access.init_app(app)  # an editor's pages are sent no-store
    themes.init_app(app)
    from .formproblems import form_problems
    from .variants import game_races

    app.add_template_global(game_races)
    app.add_template_global(form_problems)
    _register_blueprints(app)
    return app


def _register_blueprints(app: Flask) -> None:
    from .api import bp as api_bp
    from .api import games, gin, groups, nights, remi, rulings  # noqa: F401 - routes on api_bp
    from .backup import bp as backup_bp
    from .checker import bp as checker_bp
    from .games import admin_views, live_views, sheet_views, table_views, views  # noqa: F401 - routes on games_bp
    from .games import bp as games_bp
    from .groups import bp as groups_bp
    from .groups import payment_views  # noqa: F401 - routes on groups_bp
    from .groups import views as group_views  # noqa: F401 - routes on groups_bp
    from .nights import board_views, prints  # noqa: F401 - routes on nights_bp
    from .nights import bp as nights_bp
    from .nights import views as night_views  # noqa: F401 - routes on nights_bp
    from .pdf import bp as pdf_bp
    from .pwa import bp as pwa_bp
    from .pwa import views as pwa_views  # noqa: F401 - routes on pwa_bp
    from .remi import bp as remi_bp
    from .rulecards import bp as rulecards_bp
    from .rulings import bp as rulings_bp

    # In this order the parts one feature shows on another's page come
    # (services/page_parts.py): under a game's sheet, a night's box before the rulings.
    for blueprint in (games_bp, groups_bp, checker_bp, remi_bp, pdf_bp, backup_bp, api_bp, pwa_bp,
                      rulecards_bp, nights_bp, rulings_bp):
        app.register_blueprint(blueprint)


def instance_path() -> Path:
    """Where the install's own files live (SQLite database, secret key, ``config.py``).

    ``SCOREKEEPER_INSTANCE_PATH`` when set; in a source checkout ``instance/`` next to
    the package; for an installed package ``$XDG_DATA_HOME/scorekeeper`` (by default
    ``~/.local/share/scorekeeper``).
    """
    configured = os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    if configured:
        return Path(configured).expanduser().resolve()
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file():
        return checkout / "instance"
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data).expanduser().resolve() / "scorekeeper"


def _environment() -> dict[str, Any]:
    """The settings the environment gives; they win over ``config.py``."""
    found: dict[str, Any] = {}
    url = os.environ.get("SCOREKEEPER_DATABASE_URL")
    if url:
        found["DATABASE_URL"] = url
    secure = os.environ.get("SCOREKEEPER_SECURE_COOKIES")
    if secure is not None:
        found["SESSION_COOKIE_SECURE"] = secure == "1"
    hosts = os.environ.get("SCOREKEEPER_HOSTS")
    if hosts:
        found["HOSTS"] = [name.strip() for name in hosts.split(",") if name.strip()]
    proxies = os.environ.get("SCOREKEEPER_PROXIES")
    if proxies:
        found["PROXIES"] = int(proxies)
    # How many games, groups, rulings and imports one client may start (limits.py).
    for name in ("CREATE", "IMPORT", "RULINGS"):
        limit = os.environ.get(f"SCOREKEEPER_RATELIMIT_{name}")
        if limit:
            found[f"RATELIMIT_{name}"] = limit
    limiting = os.environ.get("SCOREKEEPER_RATELIMIT_ENABLED")
    if limiting is not None:
        found["RATELIMIT_ENABLED"] = limiting != "0"
    return found


def _instance_secret_key(instance: Path) -> str:
    """The install's own secret key, generated on first run and kept in ``instance/``."""
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    # O_EXCL: two workers starting together agree on the first key written.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as fh:
        fh.write(key)
    return key
