"""Short forms of players' names for the narrow columns: made by the app (the first word,
told apart where two look the same), written by the game's editor, kept by the API and
the backup, printed whole at the head of the partnership sheet's team columns."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import inspect, text

from scorekeeper.db import downgrade, make_engine, upgrade
from scorekeeper.names import same_name, short_forms, shown_short_names
from tests.helpers import keep_printed_html, new_game, pdf_text, state, upload
from tests.layout import hands, pdf_pages

RUSSIAN = ["Александра Константиновна", "Вячеслав Александрович", "Святослав Игоревич",
           "Александра Петрова"]


@pytest.mark.parametrize(("names", "expected"), [
    (RUSSIAN[:3], ["Александра", "Вячеслав", "Святослав"]),
    # Two first words alike: the next word's first letter tells them apart.
    (RUSSIAN, ["Александра К.", "Вячеслав", "Святослав", "Александра П."]),
    (["Александра Константиновна", "Александра Петрова"], ["Александра К.", "Александра П."]),
    # The same first letter: more letters, until they differ.
    (["Ann Smith", "Ann Sanders", "Bob"], ["Ann Sm.", "Ann Sa.", "Bob"]),
    # A name of one word keeps it; the other tells itself apart.
    (["Ann", "Ann Lee"], ["Ann", "Ann L."]),
    # Alike to the eye: "ВОВ" in Cyrillic letters is "BOB".
    (["Bob Smith", "ВОВ Jones"], ["Bob S.", "ВОВ J."]),
    (["محمدرضا حسینی", "محمدرضا علوی", "سارا"], ["محمدرضا ح.", "محمدرضا ع.", "سارا"]),
    # Spaces of any kind fold; a first word longer than ten letters is cut where its parts
    # join (a ZWNJ, a hyphen), never inside a part: one of a single part stays whole.
    ([" Ann\u2003 Lee", "Wolfeschlegelsteinhausen"], ["Ann", "Wolfeschlegelsteinhausen"]),
    (["فاطمه\u200cالسادات رضایی", "Marie-Antoinette Roy", "Jean-Christophe Roy"],
     ["فاطمه…", "Marie…", "Jean…"]),
    # Alike as far as they are shown: the next word, else the seat's number.
    (["Anne-Mariette Lee", "Anne-Marielle Roe"], ["Anne… L.", "Anne… R."]),
    (["Anne-Mariette", "Anne-Marielle"], ["Anne… 1", "Anne… 2"]),
    # The 40-letter names of the browser tests (tests/browser/test_long_names.py).
    (["Alexandra Catherine Montgomery-Fairweath", "Alexandra Elizabeth Worthington-Smythe-J",
      "Maximilian Bartholomew Featherstonehaugh", "Christopher Jonathan Wolverhampton-Stone"],
     ["Alexandra C.", "Alexandra E.", "Maximilian", "Christopher"]),
    (["محمدرضا حسینی‌زاده اصفهانی شیرازی بوشهری", "محمدرضا علی‌اکبری کرمانشاهی دماوندی رشتی",
      "فاطمه‌زهرا موسوی خوانساری طباطبایی قزوین", "سیدعبدالحسین امیرحسینی فراهانی سمنانیانی"],
     ["محمدرضا ح.", "محمدرضا ع.", "فاطمه\u200cزهرا", "سیدعبدالحسین"]),
])
def test_short_forms(names: list[str], expected: list[str]) -> None:
    assert short_forms(names) == expected


words = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zs", "Zl", "Zp")),
                min_size=1, max_size=12)


@given(st.lists(st.lists(words, min_size=1, max_size=4).map(" ".join), min_size=2, max_size=4))
def test_no_two_short_forms_look_alike(names: list[str]) -> None:
    """Whatever the names (no two alike), their short forms are not alike either."""
    if same_name(names) is None:
        assert same_name(short_forms(names)) is None


def test_the_editors_short_forms_are_shown_when_there_is_one_for_each_player() -> None:
    assert shown_short_names(["Ann Lee", "Bob"], ["Annie", "B"]) == ["Annie", "B"]
    assert shown_short_names(["Ann Lee", "Bob"], None) == ["Ann", "Bob"]
    assert shown_short_names(["Ann Lee", "Bob"], ["Annie"]) == ["Ann", "Bob"]


def column_heads(html: str) -> list[str]:
    """The texts of the sheet's column headings (tags stripped)."""
    head = re.search(r'<table class="sheet[^"]*" id="sheet">\s*<thead>(.*?)</thead>', html, re.S)
    assert head is not None
    return [" ".join(re.sub(r"<[^>]+>", "", cell).split())
            for cell in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1), re.S)]


def test_the_editor_changes_the_short_forms(client: FlaskClient, app: Flask) -> None:
    """The sheet heads its columns with the short forms and names the whole names in its
    legend; the editor writes others (checked like names: two alike are refused at the
    field, with what was typed kept); a watcher cannot."""
    game = new_game(client, players=("Александра Константиновна", "Александра Петрова"))
    sheet = client.get(f"/g/{game}").get_data(as_text=True)
    assert column_heads(sheet) == ["#", "Александра К.", "Александра П.", "Hand"]
    assert "Александра К.: Александра Константиновна · Александра П.: Александра Петрова" in (
        re.sub(r"<[^>]+>", "", sheet))
    # The editor's form, filled in, open on a new game whose names had to be told apart.
    assert 'value="Александра К."' in sheet and '<details id="short-names" open>' in sheet
    plain = new_game(client, players=("Ann Lee", "Bob"))
    assert '<details id="short-names">' in client.get(f"/g/{plain}").get_data(as_text=True)

    refused = client.post(f"/g/{game}/short-names",
                          data={"shorts-0": "Саша", "shorts-1": "САША "})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "Player 1 has a short name that looks the same" in page
    assert 'value="САША "' in page and '<details id="short-names" open>' in page
    assert client.post(f"/g/{game}/short-names",
                       data={"shorts-0": "Саша", "shorts-1": ""}).status_code == 422

    saved = client.post(f"/g/{game}/short-names", data={"shorts-0": "Саша", "shorts-1": " Аля "})
    assert saved.status_code == 302
    sheet = client.get(f"/g/{game}").get_data(as_text=True)
    assert column_heads(sheet) == ["#", "Саша", "Аля", "Hand"]
    document = state(client, game)
    assert document["short_names"] == ["Саша", "Аля"]
    assert document["players"] == ["Александра Константиновна", "Александра Петрова"]
    history = client.get(f"/g/{game}/history").get_data(as_text=True)
    assert "Short names on the sheet: \u2068Саша\u2069, \u2068Аля\u2069." in history

    watcher = app.test_client()
    assert watcher.post(f"/g/{game}/short-names",
                        data={"shorts-0": "A", "shorts-1": "B"}).status_code == 403
    assert state(client, game)["short_names"] == ["Саша", "Аля"]


def test_the_api_document_carries_the_short_forms(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"variant": "partnership", "players": RUSSIAN})
    document = state(client, created.get_json()["id"])
    assert document["players"] == RUSSIAN
    assert document["short_names"] == ["Александра К.", "Вячеслав", "Святослав", "Александра П."]


def test_the_backup_keeps_the_editors_short_forms(client: FlaskClient) -> None:
    """Exported and imported, the editor's short forms come back; an export from before
    short forms (none in it) imports with the app's; two alike are refused."""
    game = new_game(client, players=("Ann Lee", "Bob"))
    assert client.post(f"/g/{game}/short-names",
                       data={"shorts-0": "Annie", "shorts-1": "B."}).status_code == 302
    exported = client.get(f"/g/{game}/export.json").get_json()
    assert exported["short_names"] == ["Annie", "B."]

    def imported(document: dict[str, Any]) -> Any:
        response = upload(client, json.dumps(document).encode())
        match = re.search(r"/g/([\w-]+)$", response.headers.get("Location", ""))
        return state(client, match.group(1))["short_names"] if match else response

    assert imported(exported) == ["Annie", "B."]
    older = {k: v for k, v in exported.items() if k != "short_names"}
    assert imported(older) == ["Ann", "Bob"]
    refused = imported({**exported, "short_names": ["Annie", "ANNIE"]})
    assert refused.status_code == 422
    assert "game.short_names[1]: looks the same as short_names[0]" in re.sub(
        r"<[^>]+>", "", refused.get_data(as_text=True))


def test_a_game_stored_before_short_forms_shows_the_apps(database_url: str) -> None:
    """0009 adds ``games.short_names`` empty: a game stored before it shows the short
    forms the app makes; downgraded, the column goes."""
    engine = make_engine(database_url)
    try:
        upgrade(engine, "0008")
        with engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO games (id, edit_secret, pin_failures, variant, players, rules, "
                "setup, version, created_at, updated_at) VALUES ('old', 's', 0, 'gin', "
                "'[\"Ann Lee\", \"Ann Ray\"]', '{}', '{}', 0, '2026-01-01', '2026-01-01')"))
        upgrade(engine)
        with engine.connect() as conn:
            row = conn.execute(text("SELECT players, short_names FROM games")).one()
        assert row.short_names is None
        players = row.players if isinstance(row.players, list) else json.loads(row.players)
        assert shown_short_names(players, row.short_names) == ["Ann L.", "Ann R."]
        downgrade(engine, "0008")
        assert "short_names" not in {c["name"] for c in inspect(engine).get_columns("games")}
    finally:
        engine.dispose()


@pytest.mark.once
def test_the_printed_partnership_sheet_heads_its_teams_whole(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Printed with the three long Russian names and a fourth, each team's heading is
    whole (both short forms, no word cut) and stands over its own two columns, not over
    a neighbour's; each deal prints who dealt at each table."""
    keep_printed_html(monkeypatch, typeset=True)
    created = client.post("/api/v1/games", json={"variant": "partnership", "players": RUSSIAN})
    game = created.get_json()
    for number, hand in enumerate(hands("partnership"), start=1):
        client.post(f"/api/v1/games/{game['id']}/hands", json=hand,
                    headers={"X-Edit-Secret": game["edit_secret"], "Idempotency-Key": str(number)})
    data = client.get(f"/g/{game['id']}/sheet.pdf").data
    page = pdf_pages(data)[0]
    net = [w for w in page.words if w.text == "Net"]
    total = [w for w in page.words if w.text == "Total" and abs(w.y0 - net[0].y0) < 1]
    progress = next(w for w in page.words if w.text == "progress")
    table2 = next(w for w in page.words if w.text == "2" and w.y1 < net[0].y0)
    heads = [w for w in page.words if progress.y1 < w.y0 and w.y1 < net[0].y0
             and w.text not in ("#", "Table", "1", "2")]
    # Teams: seats 0 and 2, seats 1 and 3.
    assert [w.text for w in heads] == ["Александра", "К.", "&", "Святослав",
                                       "Вячеслав", "&", "Александра", "П."]
    first, second = heads[:4], heads[4:]
    assert min(w.x0 for w in first) > table2.x1
    assert max(w.x1 for w in first) < net[1].x0
    assert min(w.x0 for w in second) > total[0].x1
    assert max(w.x1 for w in second) <= page.width - 13 * 72 / 25.4
    # Deal 1: the first dealer's team (seats 0 and 2) deals; deal 2: the other team.
    printed = " ".join(pdf_text(data).replace("\u2068", "").replace("\u2069", "").split())
    assert re.findall(r"dealt by (Александра [КП]\.|Вячеслав|Святослав)", printed) == [
        "Александра К.", "Святослав", "Александра П.", "Вячеслав"]
