"""Routes of the installable app: manifest, service worker, favicon, QR codes."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

import click
from flask import (
    abort,
    current_app,
    make_response,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_babel import force_locale, get_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from .. import lan
from ..charts import qr
from ..db import get_session
from ..i18n import LANGUAGES, select_locale, text_direction
from ..models import Game, Group, Night
from ..services import access, night_access
from ..services.games import load
from ..services.groups import load_group
from . import bp

THEME = "#0b6e4f"  # the header's green (style.css --accent)
BACKGROUND = "#fbfaf6"
ICONS = "icons"


def static_dir() -> Path:
    return Path(current_app.static_folder or "")


@lru_cache(maxsize=4)
def _static_files(folder: str) -> tuple[tuple[str, ...], str]:
    """The app's own static files (relative paths) and a hash of their contents: the
    service worker keeps them, and a new hash makes phones fetch them afresh."""
    root = Path(folder)
    digest = hashlib.sha256()
    names = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name = path.relative_to(root).as_posix()
        if name.endswith(".ico"):
            continue
        names.append(name)
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return tuple(names), digest.hexdigest()[:16]




def _svg(body: bytes, *, private: bool) -> Response:
    response = make_response(body)
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "private, no-store" if private else "public, max-age=3600"
    return response


def _watch_svg(url: str) -> Response:
    """A watch link (read-only) as a QR code, pointing other phones at this server."""
    return _svg(qr.svg(lan.phone_url(url), _("Watch link (read-only):")), private=False)


@bp.get("/g/<game_id>/qr/watch.svg")
def watch_qr(game_id: str) -> Response:
    """The game's watch link (read-only) as a QR code."""
    game, _variant = load(game_id)
    return _watch_svg(url_for("games.sheet", game_id=game.id, _external=True))


@bp.get("/groups/<group_id>/qr/watch.svg")
def group_watch_qr(group_id: str) -> Response:
    """The group's watch link (read-only) as a QR code."""
    group = load_group(get_session(), group_id)
    return _watch_svg(url_for("groups.page", group_id=group.id, _external=True))


def _edit_link(item: Game | Group) -> str:
    """The game's (or the group's) edit link, as other phones can open it."""
    if isinstance(item, Group):
        link = url_for("groups.page", group_id=item.id, key=item.edit_secret, _external=True)
    else:
        link = url_for("games.sheet", game_id=item.id, key=item.edit_secret, _external=True)
    return lan.phone_url(link)


def _share_page(**context: Any) -> Response:
    """The page that shows an edit link and its QR code: its own, so that it is shown
    only on purpose, and kept nowhere (the link is the secret that lets anyone change
    the game). The pages the phone keeps for offline use only link to it."""
    response = make_response(render_template("pwa/edit_qr.html", **context))
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/g/<game_id>/qr/edit.svg")
def edit_qr(game_id: str) -> Response:
    """The edit link as a QR code: only for a browser that may edit the game."""
    game, _variant = load(game_id)
    access.require_link(game)
    return _svg(qr.svg(_edit_link(game)), private=True)


@bp.get("/groups/<group_id>/qr/edit.svg")
def group_edit_qr(group_id: str) -> Response:
    """The group's edit link as a QR code: only for a browser that may change the group."""
    group = load_group(get_session(), group_id)
    access.require_link(group)
    return _svg(qr.svg(_edit_link(group)), private=True)


@bp.get("/n/<night_id>/qr/organiser.svg")
def organiser_qr(night_id: str) -> Response:
    """The night's organiser's link as a QR code: only for a browser that runs it."""
    night = get_session().get(Night, night_id)
    if night is None:
        abort(404)
    night_access.require_organiser(night)
    link = url_for("nights.organiser", night_id=night.id, key=night.organiser_secret,
                   _external=True)
    return _svg(qr.svg(lan.phone_url(link)), private=True)


@bp.get("/g/<game_id>/share/edit")
def edit_share(game_id: str) -> Response:
    """The game's edit link and its QR code, for the browser that opened it (a PIN lets
    a phone enter hands, never hand the game on)."""
    game, variant = load(game_id)
    access.require_link(game)
    return _share_page(game=game, variant=variant, players=list(game.players),
                       edit_url=_edit_link(game),
                       qr_src=url_for("pwa.edit_qr", game_id=game.id),
                       back=url_for("games.sheet", game_id=game.id))


@bp.get("/groups/<group_id>/share/edit")
def group_edit_share(group_id: str) -> Response:
    """The group's edit link and its QR code, for the browser that opened it."""
    group = load_group(get_session(), group_id)
    access.require_link(group)
    return _share_page(group=group, edit_url=_edit_link(group),
                       qr_src=url_for("pwa.group_edit_qr", group_id=group.id),
                       back=url_for("groups.page", group_id=group.id))


@bp.get("/qr/server/<int:index>.svg")
def server_qr(index: int) -> Response:
    """One of the addresses other phones can open this server at, as a QR code."""
    urls = lan.lan_urls()
    if not 0 <= index < len(urls):
        abort(404)
    return _svg(qr.svg(urls[index]), private=False)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: a home-screen app that opens full-screen, named in the
    language of the page that links it (``?lang=``: browsers fetch a manifest without
    cookies, so the language chosen on the page would not reach it)."""
    chosen = request.args.get("lang", "")
    with force_locale(chosen if chosen in LANGUAGES else select_locale()):
        data = _manifest()
    response = current_app.response_class(
        current_app.json.dumps(data), mimetype="application/manifest+json"
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


def _manifest() -> dict[str, Any]:
    def icon(name: str) -> str:
        return url_for("static", filename=f"{ICONS}/{name}")

    return {
        "name": _("Scorekeeper"),
        "short_name": _("Scorekeeper"),
        "description": _("Keep score at the card table"),
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": icon("icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": icon("icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": icon("icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": icon("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
        "lang": str(get_locale()),
        "dir": text_direction(),
    }


@bp.get("/help/https")
def https_help() -> str:
    """What a page over plain HTTP cannot do, and how to serve the app over HTTPS (the
    README's "HTTPS behind a reverse proxy", on a page a phone at the table can open)."""
    return render_template("pwa/https.html")


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The browser tab's icon: the app's icon."""
    return send_from_directory(
        static_dir() / ICONS, "favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=86400
    )


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so that its scope is the whole app. Never cached
    by the browser's HTTP cache: a new version must reach phones on their next visit."""
    names, version = _static_files(str(static_dir()))
    assets = [url_for("static", filename=n) for n in names]
    body = render_template("pwa/sw.js", version=version, assets=assets)
    response = make_response(body)
    response.mimetype = "text/javascript"
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.cli.command("urls")
def print_urls() -> None:
    """Print the addresses other phones can open (and their QR codes)."""
    click.echo(lan.urls_message())
