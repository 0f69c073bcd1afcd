"""Names people type: text that is not valid Unicode is refused at every door (API,
forms, import) at its field; a name stored before that check never breaks a page; two
names that look the same are refused; and a name is isolated wherever it is shown, so
that one written right to left (or holding U+202E) cannot turn the text around it."""

from __future__ import annotations

import io
import json
import re
import subprocess
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.datastructures import MultiDict

from scorekeeper.games.forms import NewGameForm
from scorekeeper.groups.forms import GroupForm
from scorekeeper.models import Game, Group
from scorekeeper.names import name_key, same_name, text_problem
from scorekeeper.scoring import PRESETS
from tests.conftest import PG_URL

LONE = "X\ud800"
RLO_ANN = "\u202eAnn"


def games_and_groups(app: Flask) -> tuple[int, int]:
    with app.extensions["scorekeeper.db"]() as db:
        return (db.scalar(select(func.count()).select_from(Game)) or 0,
                db.scalar(select(func.count()).select_from(Group)) or 0)


def post_raw(client: FlaskClient, path: str, body: bytes) -> Any:
    return client.post(path, data=body, content_type="application/json")


def errors(response: Any) -> list[tuple[str, str]]:
    return [(e["where"], e["message"]) for e in response.get_json()["errors"]]


# -- the rules themselves ---------------------------------------------------------------

@pytest.mark.parametrize(("text", "found"), [
    ("Ann", None), ("Али", None), ("علی\u200cرضا", None), ("Ann Lee", None),
    ("X\ud800", "U+D800"), ("\udfffY", "U+DFFF"), ("A\x00nn", "U+0000"),
    ("A\rB", None), ("C\x0bD", None), ("\ufffd", None),  # they print (tests/test_pdf.py)
])
def test_what_text_a_name_may_hold(text: str, found: str | None) -> None:
    assert text_problem(text) == found


@pytest.mark.parametrize(("first", "second", "same"), [
    ("Ann", "Ann\u200b", True),            # zero-width space
    ("Ann", "\u2066Ann\u2069", True),      # direction isolates
    ("Ann", "\u0410nn", True),             # Cyrillic capital A
    ("Tom", "\u0422\u043em", True),        # Cyrillic Т and о
    ("Ann", "Ａｎｎ", True),                  # fullwidth (NFKC)
    ("Ann Lee", "Ann  Lee", True),
    ("علی", "علي", True),                  # Persian yeh and Arabic yeh
    ("Ann", "Anne", False),
    ("Ann", "ann", True),                  # one person in other case (casefold)
    ("Ann", "Ana", False),
])
def test_names_are_compared_as_they_look(first: str, second: str, same: bool) -> None:
    assert (name_key(first) == name_key(second)) is same
    assert same_name([first, "Bob", second]) == ((0, 2) if same else None)


# -- the API ----------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    # the escape as JSON writes it, and the surrogate's own bytes
    b'{"players": ["X\\ud800", "Zed"]}',
    b'{"players": ["X\xed\xa0\x80", "Zed"]}',
])
def test_the_api_refuses_a_lone_surrogate_at_its_field(
    app: Flask, client: FlaskClient, body: bytes
) -> None:
    response = post_raw(client, "/api/v1/games", body)
    assert response.status_code == 422
    assert errors(response) == [("players[0]", "is not valid Unicode text (a lone U+D800)")]
    assert games_and_groups(app) == (0, 0)


def test_the_api_refuses_a_lone_surrogate_anywhere_in_a_body(
    app: Flask, client: FlaskClient
) -> None:
    created = client.post("/api/v1/games", json={"players": ["Ann", "Zed"]}).get_json()
    hand = b'{"knocker": {"cards": ["7H", "8H\\udc00"]}, "defender": {"cards": "2C"}}'
    response = client.post(f"/api/v1/games/{created['id']}/hands", data=hand,
                           content_type="application/json",
                           headers={"X-Edit-Secret": created["edit_secret"]})
    assert response.status_code == 422
    assert errors(response) == [("knocker.cards[1]", "is not valid Unicode text (a lone U+DC00)")]
    assert client.get(f"/api/v1/games/{created['id']}").get_json()["hands"] == []


def test_the_api_refuses_nul_in_a_name(app: Flask, client: FlaskClient) -> None:
    """PostgreSQL's text cannot hold it."""
    response = client.post("/api/v1/games", json={"players": ["Ann", "Z\x00ed"]})
    assert (response.status_code, errors(response)) == (
        422, [("players[1]", "a name cannot hold U+0000")])
    response = client.post("/api/v1/groups", json={"name": "Fri\x00day", "players": ["Ann"]})
    assert (response.status_code, errors(response)) == (
        422, [("name", "a name cannot hold U+0000")])


def test_groups_over_the_api_refuse_what_is_not_text(app: Flask, client: FlaskClient) -> None:
    response = post_raw(client, "/api/v1/groups", b'{"name": "Fri\\udbffday", "players": ["Ann"]}')
    assert (response.status_code, errors(response)) == (
        422, [("name", "is not valid Unicode text (a lone U+DBFF)")])
    response = post_raw(client, "/api/v1/groups",
                        b'{"name": "Friday", "players": ["Ann", "\\ud800"]}')
    assert (response.status_code, errors(response)) == (
        422, [("players[1]", "is not valid Unicode text (a lone U+D800)")])
    assert games_and_groups(app) == (0, 0)


@pytest.mark.parametrize("twin", ["Ann\u200b", "\u0410nn", "Ａｎｎ"])
def test_the_api_refuses_two_players_who_look_the_same(
    app: Flask, client: FlaskClient, twin: str
) -> None:
    response = client.post("/api/v1/games", json={"players": ["Ann", twin]})
    assert response.status_code == 422
    assert errors(response) == [("players[1]", "looks the same as the name of players[0]: "
                                               "every player needs a different name")]
    response = client.post("/api/v1/groups", json={"name": "Friday",
                                                   "players": ["Ann", "Bob", twin]})
    assert errors(response) == [("players[2]", "looks the same as the name of players[0]: "
                                               "every player needs a different name")]
    assert games_and_groups(app) == (0, 0)


def test_a_game_of_a_group_keeps_the_groups_spelling(app: Flask, client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Friday", "players": ["Ann", "Bob"]})
    secret = group.get_json()["edit_secret"]
    body = {"players": ["Ann\u200b", "Bob"], "group": group.get_json()["id"]}
    response = client.post("/api/v1/games", json=body, headers={"X-Edit-Secret": secret})
    assert response.status_code == 422
    assert errors(response)[0][0] == "players[0]"
    body["players"] = ["Ann", "Cid"]
    assert client.post("/api/v1/games", json=body,
                       headers={"X-Edit-Secret": secret}).status_code == 201


# -- the forms --------------------------------------------------------------------------

def test_the_new_game_form_refuses_what_is_not_text(app: Flask) -> None:
    """A browser sends UTF-8, so a lone surrogate cannot come through a real form;
    the form refuses one all the same, at its field."""
    with app.test_request_context(method="POST"):
        form = NewGameForm(formdata=MultiDict(
            {"variant": "gin", "player1": "Ann", "player2": LONE, "dealer": "0"}))
        assert not form.validate()
        assert form.player2.errors == ["A name cannot hold the character U+D800."]
        assert form.player1.errors == []


def test_the_new_game_page_refuses_nul(app: Flask, client: FlaskClient) -> None:
    page = client.post("/games/new", data={"variant": "gin", "player1": "A\x00nn",
                                           "player2": "Bob", "preset": "classic", "dealer": "0"})
    assert page.status_code == 422
    field = re.search(r'<div class="field has-error"[^>]*>\s*<label for="player1".*?</div>',
                      page.get_data(as_text=True), re.S)
    assert field is not None
    assert "A name cannot hold the character U+0000." in field.group(0)
    assert games_and_groups(app) == (0, 0)


@pytest.mark.parametrize("twin", ["Ann\u200b", "\u0410nn"])
def test_the_new_game_page_refuses_two_players_who_look_the_same(
    app: Flask, client: FlaskClient, twin: str
) -> None:
    page = client.post("/games/new", data={"variant": "three_hand", "player1": "Ann",
                                           "player2": "Bob", "player3": twin,
                                           "preset": "three_hand", "dealer": "0"})
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    field = re.search(r'<div class="field has-error"[^>]*>\s*<label for="player3".*?</div>',
                      html, re.S)
    assert field is not None
    assert ("Player 1 has a name that looks the same: every player needs a different name."
            in field.group(0))
    assert games_and_groups(app) == (0, 0)


def test_the_group_forms_refuse_what_is_not_text_and_look_alikes(
    app: Flask, client: FlaskClient
) -> None:
    page = client.post("/groups/new", data={"name": "Friday", "players": "Ann\nBob\nAnn\u200b"})
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    field = re.search(r'<div class="field has-error"[^>]*>\s*<label for="players".*?</div>',
                      html, re.S)
    assert field is not None
    assert "Names 1 and 3 look the same: every player needs a different name." in field.group(0)
    page = client.post("/groups/new", data={"name": "Fri\x00day", "players": "Ann"})
    assert page.status_code == 422
    assert "A name cannot hold the character U+0000." in page.get_data(as_text=True)
    with app.test_request_context(method="POST"):
        form = GroupForm(formdata=MultiDict({"name": "Friday", "players": "Ann\nB\udc80ob"}))
        assert not form.validate()
        assert form.players.errors == ["A name cannot hold the character U+DC80."]
    assert games_and_groups(app) == (0, 0)


# -- import -----------------------------------------------------------------------------

def export_of(players: list[str]) -> dict[str, Any]:
    return {"format": "scorekeeper-export", "format_version": 1, "variant": "gin",
            "players": players, "rules": PRESETS["classic"].to_dict(),
            "setup": {"dealer": 0}, "hands": []}


def import_page(client: FlaskClient, text: bytes) -> Any:
    return client.post("/import", data={"file": (io.BytesIO(text), "backup.json")},
                       content_type="multipart/form-data")


def test_import_refuses_a_lone_surrogate_at_its_place(app: Flask, client: FlaskClient) -> None:
    text = json.dumps(export_of([LONE, "Zed"])).encode()  # ensure_ascii: "X\ud800"
    assert b'"X\\ud800"' in text
    page = import_page(client, text)
    assert page.status_code == 422
    problems = re.findall(r"<li><code>(.*?)</code>: (.*?)</li>", page.get_data(as_text=True))
    assert problems == [("game.players[0]", "is not valid Unicode text (a lone U+D800)")]
    assert games_and_groups(app) == (0, 0)
    result = app.test_cli_runner().invoke(args=["import", "-"], input=text)
    assert result.exit_code != 0
    assert "game.players[0]: is not valid Unicode text (a lone U+D800)" in result.output
    assert games_and_groups(app) == (0, 0)


def test_import_refuses_names_that_look_the_same(app: Flask, client: FlaskClient) -> None:
    page = import_page(client, json.dumps(export_of(["Ann", "\u0410nn"])).encode())
    assert page.status_code == 422
    problems = re.findall(r"<li><code>(.*?)</code>: (.*?)</li>", page.get_data(as_text=True))
    assert problems == [("game.players[1]", "looks the same as the name of players[0]: every "
                                            "player needs a different name")]
    assert games_and_groups(app) == (0, 0)


# -- a name stored before the checks ----------------------------------------------------

needs_sqlite = pytest.mark.skipif(
    bool(PG_URL), reason="PostgreSQL refuses to store a lone surrogate at all")


@needs_sqlite
def test_a_name_stored_before_the_checks_never_breaks_a_page(
    app: Flask, client: FlaskClient
) -> None:
    with app.extensions["scorekeeper.db"]() as db:
        game = Game(variant="gin", players=[LONE, "Zed"], rules=PRESETS["classic"].to_dict(),
                    setup={"dealer": 0})
        db.add(game)
        db.commit()
        game_id, secret = game.id, game.edit_secret
    # The stored row really holds the surrogate (SQLite keeps JSON's escape).
    shown = "X\ufffd"
    hand = {"outcome": "knock", "knocker": 1, "knocker_deadwood": 2, "defender_deadwood": 12}
    added = client.post(f"/api/v1/games/{game_id}/hands", json=hand,
                        headers={"X-Edit-Secret": secret})
    assert added.status_code == 201
    assert added.get_json()["totals"] == [0, 10]
    for path in (f"/g/{game_id}", f"/g/{game_id}/history", f"/g/{game_id}/export.json",
                 f"/api/v1/games/{game_id}", f"/g/{game_id}/sheet.pdf", "/"):
        response = client.get(path)  # the sheet first: this browser now remembers it
        assert response.status_code == 200, path
        if path.endswith(".pdf"):
            assert response.data.startswith(b"%PDF-")
        else:
            assert shown in response.get_data(as_text=True), path
    assert client.get(f"/api/v1/games/{game_id}").get_json()["players"] == [shown, "Zed"]
    h1 = re.search(r"<h1>(.*?)</h1>", client.get(f"/g/{game_id}").get_data(as_text=True))
    assert h1 is not None and h1.group(1) == f"<bdi>{shown}</bdi> · <bdi>Zed</bdi>"
    exported = json.loads(client.get(f"/g/{game_id}/export.json").data)
    assert exported["players"] == [shown, "Zed"]
    with app.extensions["scorekeeper.db"]() as db:  # reading repaired nothing in the row
        assert db.get(Game, game_id).players == [shown, "Zed"]
        raw = db.connection().exec_driver_sql(
            "SELECT players FROM games WHERE id = ?", (game_id,)).scalar()
    assert raw == '["X\\ud800", "Zed"]'


@needs_sqlite
def test_a_group_stored_before_the_checks_still_opens(app: Flask, client: FlaskClient) -> None:
    """Only a JSON column could take the surrogate (as its escape): the roster."""
    with app.extensions["scorekeeper.db"]() as db:
        group = Group(name="Friday", players=["Ann", LONE])
        db.add(group)
        db.commit()
        group_id = group.id
    page = client.get(f"/groups/{group_id}")
    assert page.status_code == 200
    roster = re.search(r'<p class="muted roster">(.*?)</p>', page.get_data(as_text=True))
    assert roster is not None and roster.group(1) == "<bdi>Ann</bdi> · <bdi>X\ufffd</bdi>"
    data = client.get(f"/api/v1/groups/{group_id}").get_json()
    assert data["players"] == ["Ann", "X\ufffd"]
    assert client.get(f"/groups/{group_id}/export.json").status_code == 200


# -- isolation --------------------------------------------------------------------------

ATTRIBUTE = re.compile(r'\s[\w-]+="[^"]*"')  # a value no one reads on the page


def not_isolated(html: str, name: str) -> list[str]:
    """The places ``name`` is shown neither inside ``<bdi>`` nor between U+2068 and
    U+2069 (with 30 characters of what is around it), sentences worded in Python
    (explanations, the history, the printed lines, a chart's description) included."""
    rest = ATTRIBUTE.sub("", html)
    rest = rest.replace(f"<bdi>{name}</bdi>", "").replace(f"\u2068{name}\u2069", "")
    return [rest[max(0, m.start() - 30): m.end() + 30] for m in re.finditer(re.escape(name), rest)]


@pytest.fixture
def right_to_left(client: FlaskClient) -> dict[str, Any]:
    """A finished game of "\u202eAnn" (U+202E RIGHT-TO-LEFT OVERRIDE, then "Ann") and Zed
    for 0.01 EUR a point, in a group: Ann's gin against 98 is 20 + 98 = 118, past the
    target of 100, so Zed pays Ann 118 × 0.01 = 1.18 EUR."""
    group = client.post("/api/v1/groups", json={"name": "\u202eFriday",
                                                "players": [RLO_ANN, "Zed"]}).get_json()
    created = client.post("/api/v1/games", json={
        "players": [RLO_ANN, "Zed"], "rules": {"preset": "classic", "target": 100},
        "stake": "0.01", "currency": "EUR", "group": group["id"]},
        headers={"X-Edit-Secret": group["edit_secret"]}).get_json()
    answer = client.post(f"/api/v1/games/{created['id']}/hands",
                         json={"outcome": "gin", "knocker": 0, "knocker_deadwood": 0,
                               "defender_deadwood": 98},
                         headers={"X-Edit-Secret": created["edit_secret"]}).get_json()
    assert answer["totals"] == [118, 0]
    data = client.get(f"/api/v1/games/{created['id']}").get_json()
    assert data["payments"] == [{"from": "Zed", "to": RLO_ANN, "amount": "1.18",
                                 "currency": "EUR"}]
    return {"game": created["id"], "group": group["id"]}


def test_a_right_to_left_name_is_isolated_on_every_page(
    client: FlaskClient, right_to_left: dict[str, Any]
) -> None:
    game, group = right_to_left["game"], right_to_left["group"]
    sheet = client.get(f"/g/{game}").get_data(as_text=True)
    paid = re.search(r'<section class="stakes".*?<li>(.*?)</li>', sheet, re.S)
    assert paid is not None
    assert paid.group(1) == f"<bdi>Zed</bdi> pays <bdi>{RLO_ANN}</bdi> €1.18"
    h1 = re.search(r"<h1>(.*?)</h1>", sheet)
    assert h1 is not None and h1.group(1) == f"<bdi>{RLO_ANN}</bdi> · <bdi>Zed</bdi>"
    title = re.search(r"<title>(.*?)</title>", sheet)
    assert title is not None
    assert title.group(1).startswith(f"\u2068{RLO_ANN}\u2069 · \u2068Zed\u2069")
    for path in (f"/g/{game}", f"/g/{game}/history", f"/g/{game}/hands/1", "/",
                 f"/groups/{group}", f"/groups/{group}/players/{RLO_ANN}"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert not_isolated(page.get_data(as_text=True), RLO_ANN) == [], path
        assert not_isolated(page.get_data(as_text=True), "\u202eFriday") == [], path


def pdf_text(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                          check=True).stdout.decode()


@pytest.mark.once
def test_a_right_to_left_name_is_isolated_in_the_pdf(
    client: FlaskClient, right_to_left: dict[str, Any], typeset: list[str]
) -> None:
    pdf = client.get(f"/g/{right_to_left['game']}/sheet.pdf")
    assert pdf.status_code == 200
    html = typeset[-1]
    assert not_isolated(html.split("<body", 1)[1], RLO_ANN) == []
    assert f"\u2068Zed\u2069 pays \u2068{RLO_ANN}\u2069 €1.18" in html
    lines = [" ".join(line.split()) for line in pdf_text(pdf.data).splitlines()]
    paid = [line for line in lines if line.startswith("Zed pays")]
    assert len(paid) == 1
    # The override turns "Ann" round inside its isolate only: the amount still reads
    # 1.18 after "pays", not "81.1" (and the winner's line keeps its margin).
    assert paid[0].startswith("Zed pays ") and paid[0].endswith("€1.18"), paid[0]
    # The heading's result and the settlement's step: the name turned round inside
    # its isolate, the rest of each line as written.
    won = [line for line in lines if "wins by" in line]
    assert won == ["nnA wins by 118", "4. nnA wins by 118 (118 − 0)."], won
