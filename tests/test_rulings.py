"""Rulings: a settled hand kept from ``/check`` or ``POST /api/v1/rulings``, read-only,
printable, and never scored again (SQLite and PostgreSQL)."""

from __future__ import annotations

import re
from html import unescape
from io import BytesIO
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from layout import MM, extent, painted_paths, pdf_pages
from pypdf import PdfReader
from sqlalchemy import select

from scorekeeper.db import get_session
from scorekeeper.models import Ruling
from scorekeeper.services.scoring_stamp import SCORING_STAMP

API = "/api/v1/rulings"
# RULES.md §8 example 7: the defender lays off four cards and undercuts.
KNOCKER = "KS KH KD 5S 6S 7S 9C TC JC JD"
DEFENDER = "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"
HAND = {"rules": "russian", "knocker": {"cards": KNOCKER}, "defender": {"cards": DEFENDER}}


def text_of(html: str, pattern: str) -> str:
    match = re.search(pattern, html, re.S)
    assert match, pattern
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split())


def verdict(html: str) -> str:
    return text_of(html, r'<p class="settlement verdict">\s*(.*?)</strong>')


def rulings(app: Flask) -> list[Ruling]:
    with app.test_request_context():
        return list(get_session().scalars(select(Ruling)))


def kept(client: FlaskClient, body: dict[str, Any]) -> str:
    response = client.post(API, json=body)
    assert response.status_code == 201, response.get_json()
    answer = response.get_json()
    assert set(answer) == {"id", "url"}
    assert answer["url"] == f"http://localhost/rulings/{answer['id']}"
    return str(answer["id"])


def test_the_api_keeps_a_hand_as_it_was_decided(client: FlaskClient, app: Flask) -> None:
    ruling_id = kept(client, HAND)
    assert len(ruling_id) >= 20  # unguessable
    [ruling] = rulings(app)
    assert (ruling.id, ruling.kind, ruling.stamp) == (ruling_id, "gin", SCORING_STAMP)
    assert ruling.rules["undercut_bonus"] == 25 and ruling.rules["preset"] == "russian"
    assert ruling.hands["knocker"] == {"cards": KNOCKER.split(), "melds": None}
    assert ruling.hands["defender"]["cards"] == DEFENDER.split()
    assert (ruling.verdict["outcome"], ruling.verdict["winner"], ruling.verdict["points"]) == (
        "undercut", "defender", 26)
    assert ruling.verdict["defender"]["layoffs"] == [
        {"card": "8S", "meld": 0}, {"card": "9S", "meld": 0},
        {"card": "8C", "meld": 1}, {"card": "7C", "meld": 1}]
    page = client.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert verdict(page) == "Defender scores 26"
    assert re.search(r'id="rule-link" href="http://localhost/rules/russian#undercut">Undercut<',
                     page)
    assert text_of(page, r'<ol class="explanation">(.*?)</ol>').endswith(
        "Deadwood 9 ≤ 10: undercut, 1 + 25 = 26. rule")
    # Every step links the rule it applied on the card of the ruling's rules.
    assert re.findall(r'class="rule-ref" href="http://localhost/rules/russian#([\w-]+)"', page) == [
        "melds", "layoffs", "layoffs", "melds", "melds", "undercut"]


def test_a_ruling_says_what_it_said_then(client: FlaskClient, app: Flask) -> None:
    """The page reads the kept verdict; it never settles the hand again (a later engine
    that scored it otherwise would not change it)."""
    ruling_id = kept(client, HAND)
    with app.test_request_context(method="POST"):  # a GET's session only reads
        db = get_session()
        ruling = db.get(Ruling, ruling_id)
        assert ruling is not None
        ruling.verdict = {**ruling.verdict, "points": 24,
                          "explanation": [{"template": "Scored under the old rules.",
                                           "params": {}}]}
        db.commit()
    page = client.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert verdict(page) == "Defender scores 24"
    assert text_of(page, r'<ol class="explanation">(.*?)</ol>') == "Scored under the old rules."
    assert 'class="rule-ref"' not in page  # that step cites no rule


def test_a_tie_cites_the_tie_rule_and_other_languages_word_it(client: FlaskClient) -> None:
    ruling_id = kept(client, {"rules": "classic",
                              "knocker": {"cards": "AS 2S 3S 4H 5H 6H 7C 8C 9C 6D"},
                              "defender": {"cards": "AD 2D 3D 4C 5C 6C 7H 8H 9H 6S"}})
    page = client.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert verdict(page) == "Defender scores 10"
    assert 'href="http://localhost/rules/classic#tie"' in page
    ru = client.get(f"/rulings/{ruling_id}", headers={"Accept-Language": "ru"}).get_data(
        as_text=True)
    assert verdict(ru) == "Соперник получает 10"


def test_a_bad_body_is_refused_with_its_fields_and_nothing_kept(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post(API, json={"rules": "nope", "knocker": {"cards": "KS KH ZZ"},
                                      "defender": {}})
    assert response.status_code == 422
    wheres = [error["where"] for error in response.get_json()["errors"]]
    assert wheres == ["rules", "knocker.cards", "defender.cards"]
    both = client.post(API, json={"knocker": {"cards": KNOCKER}, "defender": {"cards": KNOCKER}})
    assert both.status_code == 422
    assert {e["where"] for e in both.get_json()["errors"]} >= {"defender.cards"}
    kind = client.post(API, json={**HAND, "kind": "poker"})
    assert (kind.status_code, kind.get_json()["errors"]) == (
        422, [{"where": "kind", "message": "must be gin or remi"}])
    assert rulings(app) == []


def test_a_remi_deal_is_kept(client: FlaskClient, app: Flask) -> None:
    ruling_id = kept(client, {"kind": "remi", "players": [
        {"name": "A", "hand": "2H 3H 4H 5H KC KD KS", "went_out": True, "final_discard": "AD"},
        {"name": "C", "table": ["7S 8S 9S"], "hand": "9D 9C 9H AS"},
    ]})
    [ruling] = rulings(app)
    assert ruling.kind == "remi"
    assert [p["points"] for p in ruling.verdict["players"]] == [200, 15]
    assert ruling.hands["players"][1]["table"] == [["7S", "8S", "9S"]]
    page = client.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert verdict(page) == "A +200 · C +15"
    assert 'href="http://localhost/rules/remi#remi-scoring"' in page
    bad = client.post(API, json={"kind": "remi", "players": [{"name": "A"}]})
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["where"] == "players"
    assert len(rulings(app)) == 1


def check_form(**extra: str) -> dict[str, str]:
    return {"preset": "modern", "knocker_cards": KNOCKER, "defender_cards": DEFENDER, **extra}


def test_keep_this_ruling_from_the_check_page(client: FlaskClient, app: Flask) -> None:
    page = client.post("/check", data=check_form()).get_data(as_text=True)
    form = re.search(r'<form method="post" action="/rulings".*?</form>', page, re.S)
    assert form, page
    assert "Keep this ruling" in form.group(0)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">',
                             form.group(0)))
    assert fields["knocker_cards"] == KNOCKER and fields["preset"] == "modern"
    response = client.post("/rulings", data=fields)
    assert response.status_code == 303
    ruling_id = response.headers["Location"].rsplit("/", 1)[-1]
    [ruling] = rulings(app)
    assert (ruling.id, ruling.verdict["points"], ruling.rules["preset"]) == (
        ruling_id, 26, "modern")
    shown = client.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert verdict(shown) == "Defender scores 26"
    assert f'src="/rulings/{ruling_id}/qr.svg"' in shown
    qr = client.get(f"/rulings/{ruling_id}/qr.svg")
    assert (qr.status_code, qr.mimetype) == (200, "image/svg+xml")


def test_a_ruling_that_cannot_be_kept_keeps_what_was_typed(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post("/rulings", data=check_form(defender_cards=KNOCKER))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "K♠ is in both hands" in html
    assert KNOCKER in html
    assert rulings(app) == []


def test_a_ruling_prints_on_one_page(client: FlaskClient) -> None:
    ruling_id = kept(client, HAND)
    for size in ("a4", "letter"):
        response = client.get(f"/rulings/{ruling_id}.pdf?size={size}",
                              headers={"Accept-Language": "fa"})
        assert response.status_code == 200
        assert response.mimetype == "application/pdf"
        assert len(PdfReader(BytesIO(response.data)).pages) == 1
    assert client.get(f"/rulings/{ruling_id}.pdf?size=a5").status_code == 400


def test_an_unknown_ruling_is_not_found(client: FlaskClient) -> None:
    for path in ("/rulings/nope", "/rulings/nope.pdf", "/rulings/nope/qr.svg"):
        assert client.get(path).status_code == 404


def keep_form(page: str) -> dict[str, str]:
    """What "Keep this ruling" posts: the typed form again, hidden."""
    form = re.search(r'<form method="post" action="/rulings".*?</form>', page, re.S)
    assert form, page
    assert "Keep this ruling" in form.group(0)
    return {unescape(name): unescape(value) for name, value in re.findall(
        r'<input type="hidden" name="([\w-]+)" value="([^"]*)">', form.group(0))}


# RULES.md §8's Remi deal (B holds seed 002's hand), as /remi/check's form sends it.
REMI_DEAL = {
    "rules": "strict",
    "players-0-player_name": "A", "players-0-hand": "2♥ 3♥ 4♥ 5♥ K♣ K♦ K♠",
    "players-1-player_name": "B", "players-1-hand": "QC JD JC 6C 5C 4C 3C",
    "players-2-player_name": "C", "players-2-table": "7S 8S 9S",
    "players-2-hand": "9d 9c 9h as",
    "went_out": "0", "final_discard": "AD",
}


def test_keep_this_ruling_from_the_remi_check_page(client: FlaskClient, app: Flask) -> None:
    page = client.post("/remi/check", data=REMI_DEAL).get_data(as_text=True)
    fields = keep_form(page)
    assert fields["kind"] == "remi"
    assert fields["players-2-hand"] == "9d 9c 9h as" and fields["went_out"] == "0"
    response = client.post("/rulings", data=fields)
    assert response.status_code == 303
    ruling_id = response.headers["Location"].rsplit("/", 1)[-1]
    [ruling] = rulings(app)
    assert (ruling.id, ruling.kind, ruling.rules["sets_need_sequence"]) == (
        ruling_id, "remi", True)
    assert [p["points"] for p in ruling.verdict["players"]] == [200, -10, 15]
    assert ruling.hands["players"][2] == {"name": "C", "table": [["7S", "8S", "9S"]],
                                          "hand": ["9D", "9C", "9H", "AS"],
                                          "went_out": False, "final_discard": None}
    assert ruling.hands["players"][0]["final_discard"] == "AD"

    shown = client.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert verdict(shown) == "A +200 · B −10 · C +15"
    assert text_of(shown, r'<span class="outcome">(.*?)</span>') == "· A went out"
    assert text_of(shown, r'(<a id="rule-link".*?</a>)') == "Scoring a deal"
    assert 'id="rule-link" href="http://localhost/rules/remi#remi-scoring"' in shown
    # The hands as entered: C's combination on the table and what he held.
    assert text_of(shown, r"<h3><bdi>C</bdi></h3>(.*?)</div>") == (
        "On the table: 7♠ 8♠ 9♠ In hand: 9♦ 9♣ 9♥ A♠ Combinations: 7♠ 8♠ 9♠ 9♥ 9♦ 9♣ "
        "Unmatched: A♠ +30 − 15 = +15")
    # Every step with the rule it applied, on the Remi card.
    steps = re.findall(r'<li>(.*?)</li>', shown.split('<ol class="explanation">')[1]
                       .split("</ol>")[0], re.S)
    links = [re.findall(r'<a class="rule-ref" href="([^"]+)">rule</a>', step) for step in steps]
    assert links[:5] == [["http://localhost/rules/remi#going-out"],
                         ["http://localhost/rules/remi#sequences"],
                         ["http://localhost/rules/remi#sets"],
                         ["http://localhost/rules/remi#going-out"],
                         ["http://localhost/rules/remi#remi-scoring"]]
    assert all(len(found) == 1 for found in links)
    assert '<a href="/remi/check">Check a Remi deal</a>' in shown


def test_a_remi_ruling_that_cannot_be_kept_keeps_what_was_typed(
    client: FlaskClient, app: Flask
) -> None:
    typed = {**REMI_DEAL, "kind": "remi", "players-1-hand": "QC JD JC 6C 5C 4C 9C"}
    response = client.post("/rulings", data=typed)
    assert response.status_code == 422
    page = unescape(response.get_data(as_text=True))
    assert "Check a Remi deal" in page
    assert "QC JD JC 6C 5C 4C 9C</textarea>" in page
    assert "9♣ is " in text_of(page, r'<section class="remi-problems"(.*?)</section>')
    assert "Keep this ruling" not in page
    assert rulings(app) == []


def test_the_remi_keep_form_carries_its_token_and_every_line_typed(make_app: Any) -> None:
    app: Flask = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/remi/check").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    typed = {**REMI_DEAL, "players-2-table": "7S 8S 9S\nTH TD TC", "players-2-hand": "9d as",
             "csrf_token": token.group(1)}
    page = client.post("/remi/check", data=typed).get_data(as_text=True)
    fields = keep_form(page)
    assert fields["players-2-table"] == "7S 8S 9S\nTH TD TC"
    kept_token = re.search(r'action="/rulings".*?name="csrf_token" type="hidden" value="([^"]+)"',
                           page, re.S)
    assert kept_token
    assert client.post("/rulings", data=fields).status_code == 400  # no token, nothing kept
    response = client.post("/rulings", data={**fields, "csrf_token": kept_token.group(1)})
    assert response.status_code == 303
    [ruling] = rulings(app)
    assert ruling.hands["players"][2]["table"] == [["7S", "8S", "9S"], ["TH", "TD", "TC"]]


@pytest.mark.once
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("language", ["en", "fa", "ru"])
def test_the_printed_qr_code_stands_inside_the_header_box(
    client: FlaskClient, language: str, paper: str
) -> None:
    """The header's border (print.css: .head, 0.8pt #222) goes round its title, link and
    QR code; the ruling starts under it."""
    ruling_id = kept(client, HAND)
    data = client.get(f"/rulings/{ruling_id}.pdf?size={paper}",
                      headers={"Accept-Language": language}).data
    [page] = pdf_pages(data)
    paths = painted_paths(data)
    [border] = [extent(m, s, page.height) for m, s in paths if s.fill == (0.133,) * 3]
    # The QR code: its white square of 41 modules, then its dark modules.
    [qr] = [extent(m, s, page.height) for m, s in paths
            if s.fill == (1.0,) * 3 and s.path[2] == ("l", (41.0, 41.0))]
    left, top, right, bottom = border
    assert left < qr[0] < qr[2] < right and top < qr[1] < qr[3] < bottom, (border, qr)
    assert round(qr[2] - qr[0]) == round(32 * MM)  # 32 mm wide, as ruling.html sets it
    title = {"en": "Ruling", "fa": "رأی", "ru": "Решение"}[language]
    # poppler gives Persian words in the order their letters are drawn: right to left.
    heading = [w for w in page.words if w.text in (title, title[::-1])][:1]  # the first
    link = [w for w in page.words if w.text == f"http://localhost/rulings/{ruling_id}"]
    for word in heading + link:
        assert left < word.x0 < word.x1 < right and top < word.y0 < word.y1 < bottom, word
    assert len(heading + link) == 2
    # Every other word is wholly inside the box or wholly under it, and the ruling
    # (the verdict, the hands, the steps) is under it.
    for word in page.words:
        assert word.y1 < bottom or word.y0 > bottom, (word, bottom)
    assert len([w for w in page.words if w.y0 > bottom]) > 50
