"""The WeasyPrint adapter: our own HTML in, PDF bytes out.

WeasyPrint (and Pango under it) is imported on the first print, not when the app
starts. Only templates of this package are rendered, and the fetcher serves nothing
but files under the app's static folder: a name typed at the table is text (Jinja
escapes it), and even a stray URL could never reach the network or the disk.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Response, current_app, render_template
from flask_babel import gettext as _
from markupsafe import Markup

PDF_MIMETYPE = "application/pdf"


def render_pdf(template: str, **context: Any) -> bytes:
    """Render one of our print templates and typeset it."""
    html = render_template(
        template, page_counter=page_counter_css(), figures=figures, **context
    )
    return html_to_pdf(html)


FIGURE_SPACE = "\u2007"  # as wide as a digit: numbers padded with it line up on the right


def figures(value: object, width: int) -> str:
    """``value`` right-aligned in ``width`` digit widths, for a tab-aligned column.

    >>> figures("+15", 4) == FIGURE_SPACE + "+15"
    True
    """
    text = str(value)
    return FIGURE_SPACE * max(0, width - len(text)) + text


def page_counter_css() -> Markup:
    """The CSS ``content`` of the "page x of y" footer, in the request's language.

    Safe to put in a ``<style>`` element as it is: ``css_string`` escapes ``<``.
    """
    text = _("page %(page)s of %(pages)s", page="\x00", pages="\x01")
    counters = {"\x00": "counter(page)", "\x01": "counter(pages)"}
    parts = re.split("([\x00\x01])", text)
    return Markup(" ".join(counters.get(part) or css_string(part) for part in parts if part))


def css_string(text: str) -> str:
    r"""``text`` as a quoted CSS string, safe inside a ``<style>`` element.

    >>> print(css_string('say "</style>"'))
    "say \"\3c /style>\""
    """
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return '"' + escaped.replace("\n", "\\a ") + '"'


def html_to_pdf(html: str) -> bytes:
    """Typeset trusted HTML (one of our templates) into PDF bytes."""
    import weasyprint  # lazily: Pango loads on the first print, not at app start

    static = Path(current_app.static_folder or current_app.root_path).resolve()
    fetcher = _static_fetcher(weasyprint, static)
    document = weasyprint.HTML(string=html, base_url=static.as_uri() + "/", url_fetcher=fetcher)
    pdf: bytes = document.write_pdf(stylesheets=[_print_css(weasyprint)])
    return pdf


def _print_css(weasyprint: Any) -> Any:
    """``pdf/print.css``, parsed once per process (it is the same for every document)."""
    env = current_app.jinja_env
    assert env.loader is not None
    source, _name, _uptodate = env.loader.get_source(env, "pdf/print.css")
    return _parsed_css(weasyprint, source)


@lru_cache(maxsize=4)
def _parsed_css(weasyprint: Any, source: str) -> Any:
    return weasyprint.CSS(string=source)


def pdf_response(body: bytes, filename: str) -> Response:
    """Send a PDF to open in the phone's viewer (``inline``), never to be cached."""
    response = Response(body, mimetype=PDF_MIMETYPE)
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _static_fetcher(weasyprint: Any, static: Path) -> Any:
    """A URL fetcher that serves only files under ``static``."""

    def allowed(url: str) -> None:
        path = Path(url.removeprefix("file://").split("?")[0]).resolve()
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
