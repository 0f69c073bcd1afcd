"""The WeasyPrint adapter: our own HTML in, PDF bytes out.

WeasyPrint (and Pango under it) is imported on the first print, not when the app
starts. Only templates of this package are rendered, and the fetcher serves nothing
but files under the app's static folder: a name typed at the table is text (Jinja
escapes it), and even a stray URL could never reach the network or the disk.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from flask import Response, current_app, has_request_context, render_template, request
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.exceptions import ClientDisconnected

from .lines import figures, gin_hand_lines, line

PDF_MIMETYPE = "application/pdf"


# Set by the server (``gunicorn_config.ThreadedWSGI``, which may import nothing of the
# app: the name is written there too) once the request's client has closed its connection.
CLIENT_GONE = "scorekeeper.client_gone"


def render_pdf(template: str, **context: Any) -> bytes:
    """Render one of our print templates and typeset it, enlarged ``zoom`` times (large
    print: ``printing.options.LARGE``) if the context says so. A request whose client
    has left while it waited for a thread is not typeset (``ClientDisconnected``):
    nobody would receive the document."""
    gone = request.environ.get(CLIENT_GONE) if has_request_context() else None
    if isinstance(gone, threading.Event) and gone.is_set():
        raise ClientDisconnected()
    zoom: float = context.pop("zoom", 1.0)
    html = render_template(template, page_counter=page_counter_css(), figures=figures,
                           print_line=line, gin_hand_lines=gin_hand_lines,
                           large=zoom != 1.0, **context)
    return html_to_pdf(html, zoom)


def page_counter_css() -> Markup:
    """The CSS ``content`` of the "page x of y" footer, in the request's language.

    Safe to put in a ``<style>`` element as it is: ``css_string`` escapes ``<``.
    """
    text = _("page %(page)s of %(pages)s", page="\x00", pages="\x01")
    counters = {"\x00": "counter(page)", "\x01": "counter(pages)"}
    parts = re.split("([\x00\x01])", text)
    return Markup(" ".join(counters.get(part) or css_string(part) for part in parts if part))


def css_string(text: str) -> str:
    r"""``text`` as a quoted CSS string, safe inside a ``<style>`` element (``<`` and
    ``&`` escaped the CSS way).

    >>> print(css_string('say "</style>" & go'))
    "say \"\3c /style>\" \26  go"
    """
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
               .replace("&", "\\26 "))
    return '"' + escaped.replace("\n", "\\a ") + '"'


def html_to_pdf(html: str, zoom: float = 1.0) -> bytes:
    """Typeset trusted HTML (one of our templates) into PDF bytes, enlarged ``zoom``
    times (every length, the page's size too)."""
    import weasyprint  # lazily: Pango loads on the first print, not at app start

    static = Path(current_app.static_folder or current_app.root_path).resolve()
    font_config, css = _typesetter(weasyprint)
    document = weasyprint.HTML(string=html, base_url=static.as_uri() + "/",
                               url_fetcher=_static_fetcher(weasyprint, static))
    pdf: bytes = document.write_pdf(stylesheets=[css], font_config=font_config, zoom=zoom)
    return pdf


_local = threading.local()


def _typesetter(weasyprint: Any) -> tuple[Any, Any]:
    """This thread's font configuration and ``pdf/print.css`` parsed with it.

    Most of a small document's cost is finding fonts: a new ``FontConfiguration``
    loads fontconfig's list of every installed font, and its empty Pango font map
    then searches that list again for each family, size and weight. One kept per
    thread (Pango's font map is not to be shared between threads) finds each font
    once per thread; an ``@font-face`` in the stylesheet would be loaded once with it
    too. The CSS is parsed again only if the file changed.
    """
    env = current_app.jinja_env
    assert env.loader is not None
    source, _name, _uptodate = env.loader.get_source(env, "pdf/print.css")
    cached = getattr(_local, "typesetter", None)
    if cached is None or cached[0] != source:
        from weasyprint.text.fonts import FontConfiguration

        font_config = FontConfiguration()
        cached = (source, font_config, weasyprint.CSS(string=source, font_config=font_config))
        _local.typesetter = cached
    return cached[1], cached[2]


def pdf_response(body: bytes, filename: str) -> Response:
    """Send a PDF to open in the phone's viewer (``inline``), never to be cached."""
    response = Response(body, mimetype=PDF_MIMETYPE)
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _static_fetcher(weasyprint: Any, static: Path) -> Any:
    """This thread's URL fetcher that serves only files under ``static``.

    Kept per thread like the typesetter: a ``URLFetcher`` keeps the request it is
    opening between two of its calls, so one is not to be shared between threads."""
    fetchers: dict[Path, Any] | None = getattr(_local, "fetchers", None)
    if fetchers is None:
        fetchers = _local.fetchers = {}
    fetcher = fetchers.get(static)
    if fetcher is None:
        fetcher = fetchers[static] = _new_static_fetcher(weasyprint, static)
    return fetcher


def _new_static_fetcher(weasyprint: Any, static: Path) -> Any:
    """A new URL fetcher that serves only files under ``static``: a ``URLFetcher``
    subclass (WeasyPrint 68 and later), or a function over ``default_url_fetcher``."""

    def allowed(url: str) -> None:
        # The path as the file is opened: "%2e%2e" decoded is "..".
        path = Path(url2pathname(urlsplit(url).path)).resolve()
        if not url.startswith("file://") or not path.is_relative_to(static):
            raise ValueError(f"not fetched: {url}")

    if not hasattr(weasyprint, "URLFetcher"):  # WeasyPrint before the fetcher class

        def fetch_function(url: str) -> Any:
            allowed(url)
            return weasyprint.default_url_fetcher(url)

        return fetch_function

    class StaticOnly(weasyprint.URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            allowed(url)
            return super().fetch(url, headers)

    return StaticOnly(allowed_protocols=("file",))
