"""Every printed document is read by the fast XML parser into the tree an HTML parser
builds (pdf/render.py ``parse_xhtml``): a template that stops being well-formed XHTML,
or that an HTML parser would read otherwise (a ``<p>`` around a ``<div>``, say), fails
here instead of printing slower or differently."""

from __future__ import annotations

import subprocess
from typing import Any
from xml.etree import ElementTree

import pytest
import tinyhtml5
from flask import Flask
from flask.testing import FlaskClient
from layout import KINDS, NAMES, PLAYERS, sample_game

import scorekeeper.pdf.render as render
from tests.helpers import keep_printed_html

pytestmark = pytest.mark.once  # the same on every database: the SQLite pass only

LANGUAGES = ("en", "ru", "fa")
XMLNS = "{http://www.w3.org/2000/xmlns/}xmlns"
PAD_KINDS = ("gin", "hollywood", "three_hand", "partnership", "remi")


def shape(element: ElementTree.Element) -> tuple[Any, ...]:
    """An element as nested tuples: tag, attributes, text and each child with its tail.

    An HTML parser keeps an ``<svg>``'s ``xmlns`` as an attribute; in XML it declares the
    namespace, which both trees' tags carry.
    """
    children = tuple(
        (*shape(child), child.tail or "") for child in element if isinstance(child.tag, str)
    )
    attributes = {key: value for key, value in element.attrib.items() if key != XMLNS}
    return element.tag, attributes, element.text or "", children


def html_shape(html: str) -> tuple[Any, ...]:
    """The tree WeasyPrint's own HTML parser builds."""
    return shape(tinyhtml5.parse(html, namespace_html_elements=False))


def fetched(client: FlaskClient, url: str, language: str) -> None:
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]


def staked_game_with_cards(client: FlaskClient, language: str) -> str:
    """A finished, staked gin game whose hands were entered with cards (the appendix, the
    payments and the settlement all print)."""
    names = NAMES[language][:2]
    created = client.post("/api/v1/games", json={
        "variant": "gin", "rules": {"preset": "classic", "target": 10}, "players": list(names),
        "dealer": 0, "stake": "0.05", "currency": "EUR",
    })
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    hand = {  # RULES.md §8 example 7: the defender lays off four cards and undercuts
        "knocker": {"seat": 0, "cards": "KS KH KD 5S 6S 7S 9C TC JC JD"},
        "defender": {"cards": "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"},
    }
    saved = client.post(f"/api/v1/games/{body['id']}/hands", json=hand,
                        headers={"X-Edit-Secret": body["edit_secret"], "Idempotency-Key": "c1"})
    assert saved.status_code == 201, saved.get_json()
    game_id: str = body["id"]
    return game_id


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The HTML of every document the views would print during the test, in order,
    not typeset: the test reads the HTML alone. Typesetting them is checked elsewhere:
    every sheet with its appendix and every named pad, two ways and byte for byte, in
    test_pdf_textlayout.py; sheets on Letter paper and pads without names in
    test_pdf_layout.py and test_pdf.py. Typesetting here too took 11–13 s a language."""
    return keep_printed_html(monkeypatch, typeset=False)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_printed_document_is_read_as_xhtml_into_the_html_tree(
    client: FlaskClient, written: list[str], language: str
) -> None:
    for kind in KINDS:
        game_id = sample_game(client, kind, language)
        fetched(client, f"/g/{game_id}/sheet.pdf?appendix=1", language)
    staked = staked_game_with_cards(client, language)
    fetched(client, f"/g/{staked}/sheet.pdf?appendix=1&size=letter", language)
    for kind in PAD_KINDS:
        names = "".join(f"&player{i + 1}={n}"
                        for i, n in enumerate(NAMES[language][: PLAYERS.get(kind, 2)]))
        fetched(client, f"/pads/pad.pdf?game={kind}&rows=12{names}", language)
        fetched(client, f"/pads/pad.pdf?game={kind}&rows=12", language)  # blank names
    assert len(written) == len(KINDS) + 1 + 2 * len(PAD_KINDS)
    assert "Hands entered with cards" in written[len(KINDS)] or language != "en"
    for html in written:
        root = render.parse_xhtml(html)
        assert root is not None, html[:300]
        assert shape(root) == html_shape(html)


@pytest.mark.parametrize(("names", "as_xml"), [
    (["A\rB", "C\tD\u2028E"], True),  # a carriage return, a tab, a line separator
    (["A\x01B", "C\x0bD"], False),  # control characters XML 1.0 does not allow
])
def test_names_with_odd_characters_print(
    client: FlaskClient, typeset: list[str], names: list[str], as_xml: bool
) -> None:
    """What a player may type is read the same by both parsers, or, where XML refuses
    it, the document goes to the HTML parser and still prints."""
    created = client.post("/api/v1/games", json={"players": names})
    assert created.status_code == 201, created.get_json()
    fetched(client, f"/g/{created.get_json()['id']}/sheet.pdf", "en")
    root = render.parse_xhtml(typeset[-1])
    assert (root is not None) is as_xml
    if root is not None:
        assert shape(root) == html_shape(typeset[-1])


def test_a_document_that_is_not_xhtml_is_still_printed(app: Flask) -> None:
    """The HTML parser takes over where the XML parser refuses (``<br>``, ``&nbsp;``)."""
    html = "<!DOCTYPE html><html><body><p>Ann&nbsp;wins<br>by 40</p></body></html>"
    assert render.parse_xhtml(html) is None
    with app.test_request_context():
        data = render.html_to_pdf(html)
    assert data.startswith(b"%PDF")


def test_the_fast_path_is_taken_only_where_it_fits(monkeypatch: pytest.MonkeyPatch,
                                                  app: Flask) -> None:
    """This WeasyPrint sets what our documents set; one that sets something more has
    its documents parsed its own way (and they still print)."""
    import weasyprint

    assert render._tree_documents_fit(weasyprint)

    class Newer(weasyprint.HTML):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.something_new = True

    newer = type("weasyprint", (), {"HTML": Newer})
    assert not render._tree_documents_fit(newer)
    render._tree_documents_fit.cache_clear()
    monkeypatch.setattr(weasyprint, "HTML", Newer)
    taken: list[object] = []
    monkeypatch.setattr(render, "_parsed_document", lambda *args: taken.append(args))
    try:
        with app.test_request_context():
            data = render.html_to_pdf("<!DOCTYPE html><html><body><p>Ann</p></body></html>")
    finally:
        render._tree_documents_fit.cache_clear()
    assert data.startswith(b"%PDF") and taken == []


def test_both_parsers_give_the_same_pages(app: Flask, client: FlaskClient,
                                          typeset: list[str]) -> None:
    """The document built from the XML tree lays out into the same pages, box for box and
    place for place, and prints the same pixels (its race included) as the one WeasyPrint
    parses itself."""
    import weasyprint

    game_id = sample_game(client, "gin", "fa")
    fetched(client, f"/g/{game_id}/sheet.pdf", "fa")
    html = typeset[-1]
    root = render.parse_xhtml(html)
    assert root is not None and 'class="picture"' in html
    with app.test_request_context():
        fetcher = render._static_fetcher(weasyprint, render.Path(app.static_folder or ""))
        font_config, css = render._typesetter(weasyprint)
        fast = render._parsed_document(weasyprint.HTML, root, "file:///", fetcher)
        slow = weasyprint.HTML(string=html, base_url="file:///", url_fetcher=fetcher)
        documents = [doc.render(stylesheets=[css], font_config=font_config)
                     for doc in (fast, slow)]
    fast_boxes, slow_boxes = ([boxes(page._page_box) for page in doc.pages] for doc in documents)
    assert len(fast_boxes) == 1 and len(fast_boxes[0]) > 50
    assert fast_boxes == slow_boxes
    fast_png, slow_png = (raster(doc.write_pdf()) for doc in documents)
    assert fast_png == slow_png


def raster(pdf: bytes) -> bytes:
    """The first page as a PNG at 50 dpi (pdftoppm writes to standard output when it
    is given no output name; given "-" it writes a file named "-.png")."""
    png = subprocess.run(["pdftoppm", "-r", "50", "-singlefile", "-png", "-"],
                         input=pdf, capture_output=True, check=True).stdout
    assert png.startswith(b"\x89PNG"), png[:20]
    return png


def boxes(box: Any) -> list[tuple[str, float, float, str]]:
    """Every box of a laid-out page: its kind, its place and its text."""
    found = [(type(box).__name__, round(box.position_x, 2), round(box.position_y, 2),
              getattr(box, "text", ""))]
    for child in getattr(box, "children", ()):
        found.extend(boxes(child))
    return found


@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_trimmed_user_agent_stylesheet_prints_the_same_pages(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """WeasyPrint's own stylesheet without its footnote and note rules, and with markers
    for list items only (render ``_print_html_class``), prints every page of a sheet with
    its appendix of card-by-card hands (lists with markers), payments and race, and of a
    pad, in the same pixels as WeasyPrint's whole stylesheet."""
    import weasyprint

    trimmed = render._print_html_class(weasyprint)
    assert trimmed is not weasyprint.HTML
    mine, whole = (html(string="<p></p>")._ua_stylesheets(forms=True)
                   for html in (trimmed, weasyprint.HTML))
    assert len(mine) == len(whole) == 2 and mine[0] is not whole[0] and mine[1] is whole[1]
    game_id = staked_game_with_cards(client, language)
    urls = [f"/g/{game_id}/sheet.pdf?appendix=1", "/pads/pad.pdf?game=remi&rows=20"]
    headers = {"Accept-Language": language}
    ours = [client.get(url, headers=headers).data for url in urls]
    monkeypatch.setattr(render, "_print_html_class", lambda weasyprint: weasyprint.HTML)
    theirs = [client.get(url, headers=headers).data for url in urls]
    assert len(all_pages(ours[0])) == 2  # the appendix starts a page of its own
    for printed, whole in zip(ours, theirs, strict=True):
        assert all_pages(printed) == all_pages(whole)


def all_pages(pdf: bytes) -> list[bytes]:
    """Every page as a PNG at 50 dpi."""
    pages = []
    page = 1
    while True:
        run = subprocess.run(["pdftoppm", "-r", "50", "-f", str(page), "-l", str(page),
                              "-singlefile", "-png", "-"], input=pdf, capture_output=True)
        if run.returncode or not run.stdout.startswith(b"\x89PNG"):
            break
        pages.append(run.stdout)
        page += 1
    assert pages
    return pages
