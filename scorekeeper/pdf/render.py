"""The WeasyPrint adapter: our own HTML in, PDF bytes out.

WeasyPrint (and Pango under it) is imported on the first print, not when the app
starts. Only templates of this package are rendered, and the fetcher serves nothing
but files under the app's static folder: a name typed at the table is text (Jinja
escapes it), and even a stray URL could never reach the network or the disk.
"""

from __future__ import annotations

import re
import sys
import threading
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from flask import Response, current_app, render_template
from flask_babel import gettext as _
from markupsafe import Markup

from . import glyphs, newlines, textlayout
from .lines import figures, gin_hand_lines, line
from .pictures import Pictures

PDF_MIMETYPE = "application/pdf"


def render_pdf(template: str, **context: Any) -> bytes:
    """Render one of our print templates and typeset it; the pictures the template
    places (``pictures.place``: the races) are drawn into the PDF's pages directly."""
    pictures = Pictures()
    html = render_template(template, page_counter=page_counter_css(), figures=figures,
                           print_line=line, gin_hand_lines=gin_hand_lines, pictures=pictures,
                           **context)
    return html_to_pdf(html, pictures)


def page_counter_css() -> Markup:
    """The CSS ``content`` of the "page x of y" footer, in the request's language.

    Safe to put in a ``<style>`` element as it is: ``css_string`` escapes ``<``.
    """
    text = _("page %(page)s of %(pages)s", page="\x00", pages="\x01")
    counters = {"\x00": "counter(page)", "\x01": "counter(pages)"}
    parts = re.split("([\x00\x01])", text)
    return Markup(" ".join(counters.get(part) or css_string(part) for part in parts if part))


def css_string(text: str) -> str:
    r"""``text`` as a quoted CSS string, safe inside a ``<style>`` element, read the same
    by an HTML and an XML parser (``<`` and ``&`` escaped the CSS way).

    >>> print(css_string('say "</style>" & go'))
    "say \"\3c /style>\" \26  go"
    """
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
               .replace("&", "\\26 "))
    return '"' + escaped.replace("\n", "\\a ") + '"'


def html_to_pdf(html: str, pictures: Pictures | None = None) -> bytes:
    """Typeset trusted HTML (one of our templates) into PDF bytes, and draw
    ``pictures`` into the boxes the HTML placed them in."""
    import weasyprint  # lazily: Pango loads on the first print, not at app start

    _share_the_interpreter()
    textlayout.install()  # once a process; a WeasyPrint it does not fit prints as it is
    glyphs.install()
    newlines.install()
    static = Path(current_app.static_folder or current_app.root_path).resolve()
    fetcher = _static_fetcher(weasyprint, static)
    font_config, css = _typesetter(weasyprint)
    base_url = static.as_uri() + "/"
    root = parse_xhtml(html) if _tree_documents_fit(weasyprint) else None
    html_class = _print_html_class(weasyprint)
    if root is None:  # not well-formed XML: the HTML parser, slower, takes anything
        document = html_class(string=html, base_url=base_url, url_fetcher=fetcher)
    else:
        document = _parsed_document(html_class, root, base_url, fetcher)
    finish = pictures.finish if pictures else None
    pdf: bytes = document.write_pdf(stylesheets=[css], font_config=font_config, finisher=finish)
    return pdf


def parse_xhtml(html: str) -> ElementTree.Element | None:
    """Our print templates' output read as XML, or None if it is not well-formed.

    The print templates are written as XHTML (void elements closed, no named entities
    but XML's, ``<!DOCTYPE html>``), so expat reads them into the same tree as an HTML5
    parser does, in a thirtieth of the time: WeasyPrint's own parser (tinyhtml5) is
    pure Python, character by character, 3 ms of a 40-hand sheet's 60.
    ``tests/test_pdf_parse.py`` checks that every printed document is read this way
    and into the tree the HTML parser builds.

    >>> parse_xhtml("<p>a<br/>b</p>").find("br") is not None
    True
    >>> parse_xhtml("<p>a<br>b</p>") is None
    True
    """
    try:
        root = ElementTree.fromstring(html)
    except ElementTree.ParseError:
        return None
    # Where an HTML parser puts the white space around <head> and after </body>.
    if root.text is not None and not root.text.strip():
        root.text = None
    body = root.find("body")
    if body is not None and body.tail:
        last = body[-1] if len(body) else None
        if last is None:
            body.text = (body.text or "") + body.tail
        else:
            last.tail = (last.tail or "") + body.tail
        body.tail = None
    return root


# What ``weasyprint.HTML.__init__`` sets, which ``_parsed_document`` sets too.
HTML_ATTRIBUTES = frozenset({"base_url", "url_fetcher", "media_type", "wrapper_element",
                             "etree_element"})


@cache
def _tree_documents_fit(weasyprint: Any) -> bool:
    """Whether this WeasyPrint's ``HTML`` sets exactly what ``_parsed_document`` sets:
    a WeasyPrint that sets more (or other) gets its documents parsed its own way, so an
    upgrade can make printing slower, never break it."""
    return set(vars(weasyprint.HTML(string="<p></p>"))) == HTML_ATTRIBUTES


def _parsed_document(html_class: Any, root: ElementTree.Element, base_url: str,
                     fetcher: Any) -> Any:
    """A ``weasyprint.HTML`` for a tree already parsed (its constructor parses a string).

    Sets what ``HTML.__init__`` sets after parsing (``_tree_documents_fit`` checks the
    list once a process); ``tests/test_pdf_parse.py`` checks that both give the same
    document.
    """
    import cssselect2

    document = html_class.__new__(html_class)
    document.base_url = base_url  # our templates have no <base>
    document.url_fetcher = fetcher
    document.media_type = "print"
    document.wrapper_element = cssselect2.ElementWrapper.from_html_root(
        root, content_language=None)
    document.etree_element = document.wrapper_element.etree_element
    return document


# The user-agent rules for pseudo-elements no printed document of ours has: footnotes
# and notes (``float: footnote`` is never used). Written for every element, each costs
# a computed style per element per document.
UNUSED_UA_RULES = re.compile(r"^::(?:footnote|note)-[a-z-]+ \{[^}]*\}\n", re.M)


def _print_html_class(weasyprint: Any) -> Any:
    """``weasyprint.HTML`` with its user-agent stylesheet trimmed for our documents.

    WeasyPrint's stylesheet gives every element a ``::marker`` and five footnote and
    note pseudo-elements, each computed for every element of every document only to
    find that nothing uses it. Ours has the footnote and note rules left out and the
    marker rule kept for list items alone (the only elements of ours with markers),
    which prints the same pages (``tests/test_pdf_parse.py`` compares their pixels)
    with a fifth of the computed styles (a 40-hand sheet: 423 -> 93). A WeasyPrint
    whose ``HTML`` has no ``_ua_stylesheets``, or whose stylesheet no longer has these
    rules, is used as it is.
    """
    source = getattr(getattr(weasyprint, "html", None), "UA", None)
    return _trimmed(weasyprint.HTML, weasyprint.CSS, source if isinstance(source, str) else "")


@cache
def _trimmed(html_class: Any, css_class: Any, source: str) -> Any:
    """``html_class`` with the user-agent stylesheet ``source`` trimmed, or itself."""
    default: Any = getattr(html_class, "_ua_stylesheets", None)
    trimmed = UNUSED_UA_RULES.sub("", source).replace("\n::marker {", "\nli::marker {")
    if default is None or "::footnote" in trimmed or "\nli::marker {" not in trimmed:
        return html_class
    from weasyprint.css.counters import CounterStyle

    # Its @counter-style rules are WeasyPrint's own, which WeasyPrint keeps already.
    stylesheet = css_class(string=trimmed, counter_style=CounterStyle())

    class PrintHTML(html_class):
        def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
            return [stylesheet, *default(self, forms)[1:]]

    return PrintHTML


_local = threading.local()
SWITCH_INTERVAL = 0.001  # seconds; Python's default is 0.005


def _share_the_interpreter() -> None:
    """Let other threads of this process in more often while one typesets.

    Typesetting is seconds of pure Python holding the interpreter; a thread saving a
    hand gives it up at every database call and must then wait for the typesetting
    thread's turn to end (5 ms by default) before it may go on, a dozen times a hand.
    Shorter turns keep a save quick while a phone prints, at a small cost in switches.
    """
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)


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

    Kept per thread like the typesetter (a ``URLFetcher`` keeps the request it is
    opening between two of its calls): building one sets up every urllib handler,
    HTTPS's and the proxies' from the environment included, 0.23 ms of every print."""
    fetchers: dict[Path, Any] | None = getattr(_local, "fetchers", None)
    if fetchers is None:
        fetchers = _local.fetchers = {}
    fetcher = fetchers.get(static)
    if fetcher is None:
        fetcher = fetchers[static] = _new_static_fetcher(weasyprint, static)
    return fetcher


def _new_static_fetcher(weasyprint: Any, static: Path) -> Any:
    """A new URL fetcher that serves only files under ``static``."""

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
