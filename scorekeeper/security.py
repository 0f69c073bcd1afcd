"""Security headers and error pages that never lose what the player typed."""

from __future__ import annotations

import ipaddress
import re
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Request, Response, abort, render_template, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException
from werkzeug.sansio.utils import host_is_trusted

csrf = CSRFProtect()

# Secrets travel in URLs (the edit link), so no page may leak its address.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    # Only the app's own pages hear where a request came from (its service worker keeps
    # a hand only when one of them sent it); no other site ever does.
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}

HEADER_ITEMS = [(name, value, name.lower()) for name, value in HEADERS.items()]
HSTS = ("Strict-Transport-Security", "max-age=31536000", "strict-transport-security")


def host_is_served(host: str, hosts: list[str], proxies: int) -> bool:
    """Whether the app answers a request for ``host`` (``name[:port]``), from which it
    makes the links and QR codes it hands out.

    The names in ``hosts`` (``SCOREKEEPER_HOSTS``; ``.example.org`` takes its
    subdomains too) when there are any. Else, behind a reverse proxy, whatever host it
    passes on; and with no proxy, what names this computer on its own network: an IP
    address, a name without a dot (``localhost``, ``kitchen-pc``) or one under
    ``.local``. A page at ``evil.example`` that a rebinding DNS points at the
    server is refused, so no link the app makes names another site.

    >>> [host_is_served(h, [], 0) for h in ("192.168.1.5:5000", "[::1]", "evil.example")]
    [True, True, False]
    >>> host_is_served("cards.example.org", [".example.org"], 1)
    True
    """
    if hosts:
        return host_is_trusted(host, hosts)
    if not host_is_trusted(host):  # not a host name at all
        return False
    if proxies:
        return True
    name = host if host.endswith("]") else host.rsplit(":", 1)[0]
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return "." not in name or name.lower().endswith(".local")
    return True

# A page that shows an edit link or an organiser's link (the secret itself) says so in
# this header: the service worker, which keeps an editor's sheet for offline use, keeps
# no copy of it (pwa/sw.js).
SHOWS_EDIT_LINK = "X-Shows-Edit-Link"

API_PREFIX = "/api/"  # the JSON API's paths (``api`` blueprint, /api/v1)

# Ids of games, groups and rulings are ``secrets.token_urlsafe`` strings; anything else
# (a NUL byte, say, which PostgreSQL refuses outright) names nothing.
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_token(value: object) -> bool:
    """Whether ``value`` has the shape of an id the app hands out (and so may be looked
    up in the database)."""
    return isinstance(value, str) and TOKEN.fullmatch(value) is not None


class SessionCookies(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, kept across browser restarts; none for the API.

    The session holds what this browser may change (``services.access``) and what it
    has seen. A cookie that ends with the browser session would lose those whenever a
    phone closes its browser, as phones do on their own: the cookie is sent with an
    expiry ``PERMANENT_SESSION_LIFETIME`` ahead (400 days, the most Chrome keeps a
    cookie), renewed whenever the session changes.

    The API is sent by programs, not browsers, and never looks at a cookie: a change
    needs the game's ``X-Edit-Secret``. Its requests get Flask's null session (empty,
    never saved, refusing to be written), so no cookie is read or set there.
    """

    def get_expiration_time(self, app: Flask, session: SessionMixin) -> datetime:
        """Every session outlives the browser's: ``PERMANENT_SESSION_LIFETIME`` ahead."""
        return datetime.now(UTC) + app.permanent_session_lifetime

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The browser's session, or the null session on the API."""
        if request.path.startswith(API_PREFIX):
            return self.make_null_session(app)
        return super().open_session(app, request)


# The header live.js sends when it fetches a page again in the background.
LIVE_HEADER = "X-Scorekeeper-Live"


def live_fetch() -> bool:
    """Whether this request is live.js fetching the page again: such a fetch must not
    touch the session (a flash message or a PIN granted meanwhile would be lost)."""
    return request.headers.get(LIVE_HEADER) == "1"


def init_app(app: Flask) -> None:
    """CSRF on every form, the headers on every response, friendly error pages, the
    template global ``live_fetch()``."""
    csrf.init_app(app)
    app.add_template_global(live_fetch, "live_fetch")
    app.session_interface = SessionCookies()

    @app.url_value_preprocessor
    def _ids(_endpoint: str | None, values: dict[str, Any] | None) -> None:
        for key, value in (values or {}).items():  # game_id, group_id, ruling_id…
            if key.endswith("_id") and isinstance(value, str) and not is_token(value):
                abort(404)

    # Served over HTTPS only (SCOREKEEPER_SECURE_COOKIES=1): browsers are told to come
    # back over HTTPS for a year, so no later visit starts in plain text.
    items = HEADER_ITEMS + ([HSTS] if app.config["SESSION_COOKIE_SECURE"] else [])

    @app.after_request
    def _headers(response: Response) -> Response:
        # The ones a view did not set itself.
        present = {name.lower() for name, _value in response.headers.items()}
        response.headers.extend([(name, value) for name, value, lowered in items
                                 if lowered not in present])
        return response

    @app.before_request
    def _host() -> None:
        if not host_is_served(request.host, app.config["HOSTS"], app.config["PROXIES"]):
            abort(400, _("This server does not answer to that name."))

    @app.errorhandler(CSRFError)
    def _csrf_error(exc: CSRFError) -> tuple[str | dict[str, object], int]:
        message = _(
            "This form was too old to accept (or cookies are off). Nothing was saved: "
            "go back, reload the page and save again."
        )
        # The API's views are exempt (programs send X-Edit-Secret, no cookie); one that
        # is not gets the API's answer, as the page would need a session for its token.
        return error_answer(400, message)

    @app.errorhandler(HTTPException)
    def _http_error(
        exc: HTTPException,
    ) -> tuple[str | dict[str, object], int, dict[str, str]]:
        code = exc.code or 500
        messages = {
            403: _("This link does not let you change this game."),
            404: _("There is no such page or game."),
            405: _("That action is not possible here."),
            413: _("That was too much data to accept."),
        }
        # A 405 names the methods the address takes (RFC 9110's ``Allow``).
        allow = getattr(exc, "valid_methods", None)
        headers = {"Allow": ", ".join(allow)} if allow else {}
        return (*error_answer(code, messages.get(code, exc.description or "")), headers)

    @app.errorhandler(500)
    def _server_error(exc: Exception) -> tuple[str | dict[str, object], int]:
        from .db import rollback_session

        rollback_session()
        message = _("Something went wrong on our side. Nothing you saved is lost.")
        return error_answer(500, message, where="server")


def error_answer(
    code: int, message: str, where: str = "request"
) -> tuple[str | dict[str, object], int]:
    """An error as the API answers it (``{"errors": [...]}``) under ``/api/``, else as
    the error page."""
    if request.path.startswith(API_PREFIX):
        return {"errors": [{"where": where, "message": message}]}, code
    return render_template("error.html", code=code, message=message), code
