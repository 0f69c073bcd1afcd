"""Backup: a game exported as JSON and imported back is the same sheet, under new ids."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, insert, select

from scorekeeper import limits
from scorekeeper.db import get_session
from scorekeeper.models import Change, Game, Hand
from scorekeeper.scoring.rules import Rules
from tests.helpers import comparable, counts, many_games, new_game, quick, state, upload

CARD_HAND = {
    "knocker": "0", "knocker_cards": "7H 8H 9H 2S 3S 4S KC KD KS AD",
    "defender_cards": "5H 6H 2C 3C 4C QD JD 9C 9D 8S", "defender_melds": "",
    "knocker_melds": "", "layoffs": "", "upcard": "",
}


def played_game(client: FlaskClient) -> str:
    """A game with quick hands, a card hand, an edit, a delete and an undo in its history."""
    game = new_game(client, "russian", players=("Ann <b>", "Борис"))
    for outcome, seat, k, d in [("knock", 0, 3, 20), ("gin", 1, None, 14), ("knock", 0, 9, 4),
                                ("dead", None, None, None), ("knock", 1, 2, 30)]:
        assert quick(client, game, outcome, seat, k, d).status_code == 302
    version = state(client, game)["version"]
    response = client.post(f"/g/{game}/hands/new", data={**CARD_HAND, "version": version})
    assert response.status_code == 302, response.get_data(as_text=True)
    version = state(client, game)["version"]
    response = client.post(f"/g/{game}/hands/2/edit", data={
        "outcome": "gin", "knocker": "1", "defender_deadwood": "22", "version": version})
    assert response.status_code == 302
    version = state(client, game)["version"]
    assert client.post(f"/g/{game}/hands/3/delete", data={"version": version}).status_code == 302
    return game


def history_of(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(c["action"], c["hand_number"], c["before"], c["after"], c["by"], c["at"])
            for c in document["history"] if c["action"] != "import"]


def test_export_is_the_api_document_plus_history(client: FlaskClient) -> None:
    game = played_game(client)
    response = client.get(f"/g/{game}/export.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    exported = response.get_json()
    api = state(client, game)
    extra = ("history", "format", "format_version")
    assert {k: v for k, v in exported.items() if k not in extra} == api
    assert [c["action"] for c in exported["history"]] == [
        "create", "add", "add", "add", "add", "add", "add", "edit", "delete"]
    with client.application.app_context():
        secret = get_session().get(Game, game).edit_secret  # type: ignore[union-attr]
    assert secret not in json.dumps(exported)  # the export is for anyone: no secret inside
    assert client.get("/g/nope/export.json").status_code == 404


def test_export_needs_no_edit_rights(app: Flask, client: FlaskClient) -> None:
    game = played_game(client)
    assert app.test_client().get(f"/g/{game}/export.json").status_code == 200


def test_round_trip_through_the_page_reproduces_the_sheet(app: Flask, client: FlaskClient) -> None:
    game = played_game(client)
    exported = client.get(f"/g/{game}/export.json").get_json()
    other_phone = app.test_client()
    response = upload(other_phone, json.dumps(exported).encode())
    assert response.status_code == 302, response.get_data(as_text=True)
    new_id = re.search(r"/g/([\w-]+)$", response.headers["Location"]).group(1)  # type: ignore[union-attr]
    assert new_id != game
    again = other_phone.get(f"/g/{new_id}/export.json").get_json()
    assert comparable(again) == comparable(exported)
    assert history_of(again) == history_of(exported)
    assert again["history"][-1]["action"] == "import"
    # the importing browser may edit the copy; the original is untouched
    assert quick(other_phone, new_id, "knock", 0, 1, 11).status_code == 302
    assert state(client, game)["version"] == exported["version"]


def test_imported_game_has_new_secrets(app: Flask, client: FlaskClient) -> None:
    game = played_game(client)
    exported = client.get(f"/g/{game}/export.json").get_data()
    assert upload(client, exported).status_code == 302
    with app.app_context():
        games = get_session().scalars(select(Game)).all()
        assert len(games) == 2
        assert len({g.id for g in games}) == 2 and len({g.edit_secret for g in games}) == 2
        assert all(g.pin_hash is None for g in games if g.id != game)


def test_cli_round_trip_of_every_game(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    first, second = played_game(client), new_game(client, "classic")
    runner = app.test_cli_runner()
    result = runner.invoke(args=["export"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [g["id"] for g in document["games"]] == [first, second]
    path = tmp_path / "all.json"
    path.write_text(result.stdout, encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    new_ids = re.findall(r"imported (\S+):", result.stdout)
    assert len(new_ids) == 2 and not {first, second} & set(new_ids)
    for old, new in zip((first, second), new_ids, strict=True):
        one = runner.invoke(args=["export", "--game", new])
        assert one.exit_code == 0
        copy = json.loads(one.stdout)
        original = next(g for g in document["games"] if g["id"] == old)
        assert comparable(copy) == comparable(original)
        assert history_of(copy) == history_of(original)
    assert runner.invoke(args=["export", "--game", "nope"]).exit_code != 0


def bad_files() -> list[tuple[str, bytes, str]]:
    good = {"variant": "gin", "players": ["Ann", "Bob"], "rules": {"preset": "classic"},
            "setup": {"dealer": 0}, "hands": [
                {"inputs": {"mode": "quick", "outcome": "knock", "knocker": 0,
                            "knocker_deadwood": 3, "defender_deadwood": 20, "upcard": None}}]}

    def variant(**changes: Any) -> bytes:
        return json.dumps({**good, **changes}).encode()

    knock_over = {"inputs": {"mode": "quick", "outcome": "knock", "knocker": 0,
                             "knocker_deadwood": 14, "defender_deadwood": 20}}
    doubled = {"inputs": {"mode": "cards", "knocker": 0,
                          "knocker_cards": "7H 8H 9H 2S 3S 4S KC KD KS AD",
                          "defender_cards": "7H 6H 2C 3C 4C QD JD 9C 9D 8S"}}
    return [
        ("not json", b"\xff\xfe{not json", "not a JSON export"),
        ("a list", b"[1, 2]", "must hold a JSON object"),
        ("deep", b"[" * 100_000 + b"]" * 100_000, "not a JSON export"),
        ("no players", variant(players=["Ann"]), "players"),
        ("long name", variant(players=["A" * 41, "Bob"]), "at most 40"),
        ("bad rules", variant(rules={"knock_limit": "many"}), "rules.knock_limit"),
        ("unknown rule", variant(rules={"free_beer": True}), "free_beer"),
        ("variant", variant(variant="poker"), "variant"),
        ("dealer", variant(setup={"dealer": 7}), "setup.dealer"),
        ("knock over the limit", variant(hands=[knock_over]), "hands[0].inputs"),
        ("card twice", variant(hands=[doubled]), "7♥"),
        ("hand not object", variant(hands=["knock"]), "hands[0].inputs"),
        ("bad mode", variant(hands=[{"inputs": {"mode": "x"}}]), "quick or with cards"),
        ("bad outcome", variant(hands=[{"inputs": {"mode": "quick", "outcome": "win"}}]),
         "hands[0].inputs"),
        ("bad history", variant(history=[{"action": "x" * 50}]), "history[0]"),
        ("bad time", variant(history=[{"action": "add", "at": "yesterday"}]), "history[0].at"),
        ("one bad of two", json.dumps({"games": [good, {**good, "players": "Ann"}]}).encode(),
         "games[1].players"),
        ("empty", json.dumps({"games": []}).encode(), "no game"),
    ]


def test_bad_files_are_refused_with_a_message_and_nothing_written(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    new_game(client)
    before = counts(app)
    for name, content, message in bad_files():
        response = upload(client, content)
        page = response.get_data(as_text=True)
        assert response.status_code == 422, name
        assert "Nothing was imported" in page or "not a JSON export" in page, name
        assert message in page, name
        assert counts(app) == before, name
        path = tmp_path / "bad.json"
        path.write_bytes(content)
        result = app.test_cli_runner().invoke(args=["import", str(path)])
        assert result.exit_code != 0 and "nothing was imported" in result.output, name
        assert counts(app) == before, name


def test_the_good_file_of_the_bad_list_imports(app: Flask, client: FlaskClient) -> None:
    good = json.loads(bad_files()[4][1])
    good["players"] = ["Ann", "Bob"]
    response = upload(client, json.dumps(good).encode())
    assert response.status_code == 302, response.get_data(as_text=True)
    assert counts(app)[:2] == (1, 1)


def test_import_page_needs_a_file_and_csrf(make_app: Any) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/import")
    assert page.status_code == 200 and 'name="csrf_token"' in page.get_data(as_text=True)
    assert upload(client, b'{"games": []}').status_code == 400  # no CSRF token
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.data)
    assert token is not None
    response = client.post("/import", data={"csrf_token": token.group(1).decode()},
                           content_type="multipart/form-data")
    assert response.status_code == 422


def test_export_link_partial_renders(app: Flask) -> None:
    with app.test_request_context():
        from flask import render_template_string

        html = render_template_string('{% include "backup/_game_actions.html" %}',
                                      game=type("G", (), {"id": "abc"})())
    assert 'href="/g/abc/export.json"' in html


# --- one set of limits: what a game may hold is what an import reads back ---------------

def long_game(app: Flask, hands: int) -> str:
    """A gin game of ``hands`` hands (1 point each way in turn, to a target far away),
    each added as the API adds one (``service.add_hand``, its inputs read by the API's
    reading): built in the database, not through thousands of requests."""
    from scorekeeper.services import games as service
    from scorekeeper.variants import VARIANTS

    with app.app_context():
        db = get_session()
        game = Game(variant="gin", players=["Ann", "Bob"], setup={"dealer": 0}, version=0,
                    rules={**Rules.from_dict({"preset": "classic"}).to_dict(), "target": 10_000})
        db.add(game)
        gin = VARIANTS["gin"]
        bodies = [{"outcome": "knock", "knocker": seat, "knocker_deadwood": 9,
                   "defender_deadwood": 10} for seat in (0, 1)]
        inputs = [gin.api_inputs(body, game) for body in bodies]
        with db.no_autoflush:  # one flush at the end, not one a hand
            for n in range(hands):
                service.add_hand(db, game, inputs[n % 2], token=None, version=None, by="API",
                                 finished=lambda _game: False)
        db.commit()
        return game.id


def test_the_largest_game_exports_and_imports_by_both_importers(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """``limits.MOST_HANDS`` hands, each with its history entry."""
    game = long_game(app, limits.MOST_HANDS)
    response = client.get(f"/g/{game}/export.json")
    exported = response.get_json()
    assert len(exported["hands"]) == 1_000 and not exported["finished"]
    assert exported["totals"] == [500, 500]  # a point for each knock, Ann's first
    assert len(response.data) < limits.IMPORT_BYTES
    imported = upload(client, response.data)
    assert imported.status_code == 302, imported.get_data(as_text=True)[:2000]
    path = tmp_path / "long.json"
    path.write_bytes(response.data)
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output[:2000]
    assert counts(app)[1] == 3 * 1_000
    copy = re.search(r"/g/([\w-]+)$", imported.headers["Location"]).group(1)  # type: ignore[union-attr]
    again = client.get(f"/g/{copy}/export.json").get_json()
    assert comparable(again) == comparable(exported)
    assert history_of(again) == history_of(exported)


def test_a_game_takes_no_hand_past_the_most_one_game_may_hold(
    app: Flask, client: FlaskClient
) -> None:
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    dead = {"mode": "quick", "outcome": "dead", "knocker": None, "knocker_deadwood": None,
            "defender_deadwood": None, "upcard": None}
    with app.app_context():
        db = get_session()
        db.execute(insert(Hand), [{"game_id": created["id"], "number": n, "inputs": dead}
                                  for n in range(1, limits.MOST_HANDS)])
        db.commit()
    headers = {"X-Edit-Secret": created["edit_secret"]}
    url = f"/api/v1/games/{created['id']}/hands"
    last = client.post(url, json={"outcome": "dead"}, headers=headers)
    assert last.status_code == 201 and last.get_json()["hand"] == 1_000
    refused = client.post(url, json={"outcome": "dead"}, headers=headers)
    assert refused.status_code == 409
    assert refused.get_json()["errors"] == [{"where": "game", "message": (
        "a game holds at most 1000 hands and 2000 changes in its history: this one is full")}]
    assert counts(app)[1] == 1_000


def test_a_full_history_takes_no_more_changes(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MOST_CHANGES", 300)  # the real 2,000 is only slower
    game = new_game(client)
    assert quick(client, game, "knock", 0, 3, 20).status_code == 302
    with app.app_context():
        db = get_session()
        have = db.scalar(select(func.count()).select_from(Change)) or 0  # create, add
        db.execute(insert(Change), [{"game_id": game, "action": "pin", "by": "edit link"}
                                    for _ in range(limits.MOST_CHANGES - have)])
        db.commit()
    before = state(client, game)
    full = ("This game holds as much as one game may (1000 hands, 300 changes in its "
            "history), so nothing more is saved in it. Start a new game.")
    for response in (quick(client, game, "knock", 1, 3, 20),
                     client.post(f"/g/{game}/hands/1/edit", data={
                         "outcome": "gin", "knocker": "1", "defender_deadwood": "22",
                         "version": before["version"]}),
                     client.post(f"/g/{game}/hands/1/delete", data={"version": before["version"]},
                                 follow_redirects=True),
                     client.post(f"/g/{game}/undo", data={"version": before["version"]},
                                 follow_redirects=True),
                     client.post(f"/g/{game}/pin", data={"pin": "1234"}, follow_redirects=True)):
        assert response.status_code in (200, 409), response.request.path
        assert full in response.get_data(as_text=True), response.request.path
        assert state(client, game) == before
    assert counts(app)[2] == limits.MOST_CHANGES
    # Its export still imports: the history as it is, without an entry of its own.
    exported = client.get(f"/g/{game}/export.json")
    assert upload(client, exported.data).status_code == 302
    assert counts(app)[2] == 2 * limits.MOST_CHANGES


NAMES = ["Анастасия Владимировна Константинопольская"[:40], "Б" * 40, "В" * 40, "Г" * 40]
# Hands as the API takes them with every card typed: melds, layoffs, an upcard.
CARDS_BODY = {"upcard": "9S", "knocker": {
    "seat": 0, "cards": "AH 2H 3H 4H 5H 6H 7H 8H 9H 2C",
    "melds": ["AH 2H 3H 4H 5H 6H 7H 8H 9H"]},
    "defender": {"cards": "TH JH QH 3C 4C 5C KD KS KC 6D", "melds": ["3C 4C 5C", "KD KS KC"],
                 "layoffs": [{"card": "TH", "meld": 0}]}}
HEAVIEST: dict[str, tuple[int, str, dict[str, Any]]] = {
    "gin": (2, "classic", CARDS_BODY),
    "oklahoma": (2, "oklahoma", CARDS_BODY),
    "hollywood": (2, "russian", CARDS_BODY),
    "three_hand": (3, "three_hand", CARDS_BODY),
    "partnership": (4, "partnership", {"tables": [CARDS_BODY, {
        **CARDS_BODY, "knocker": {**CARDS_BODY["knocker"], "seat": 1}}]}),
    "remi": (4, "remi", {"mode": "cards", "went_out": 0, "final_discard": "AD", "players": [
        {"table": ["2H 3H 4H", "5S 5D 5C", "8C 9C TC"], "hand": []},
        {"table": ["6H 7H 8H"], "hand": "KS QD JD 2C 3D 4S 7C"},
        {"table": ["JH QH KH"], "hand": "9S TS 8D 9D 2S 3S 4D"},
        {"table": ["6C 6D 6S"], "hand": "KD KC 5H 8S 7S AS AC"}]}),
}


@pytest.mark.parametrize("kind", sorted(HEAVIEST))
def test_the_heaviest_hand_and_correction_fit_the_import_size(
    app: Flask, client: FlaskClient, kind: str
) -> None:
    """``limits.IMPORT_BYTES`` counts ``EXPORT_HAND_BYTES`` a hand and
    ``EXPORT_CHANGE_BYTES`` a history entry: no hand of any kind, nor its correction,
    weighs more in an export (long Cyrillic names: two bytes a letter)."""
    seats, preset, body = HEAVIEST[kind]
    created = client.post("/api/v1/games", json={
        "variant": kind, "players": NAMES[:seats], "rules": preset}).get_json()
    game, headers = created["id"], {"X-Edit-Secret": created["edit_secret"]}

    def size() -> int:
        return len(client.get(f"/g/{game}/export.json").data)

    empty = size()
    for _ in range(3):
        added = client.post(f"/api/v1/games/{game}/hands", json=body, headers=headers)
        assert added.status_code == 201, added.get_json()
    hands = size()
    assert (hands - empty) / 3 <= limits.EXPORT_HAND_BYTES
    with app.app_context():
        db = get_session()
        inputs = db.scalars(select(Hand.inputs).where(Hand.game_id == game)).first()
        db.execute(insert(Change), [{"game_id": game, "action": "edit", "hand_number": 9_999,
                                     "before": inputs, "after": inputs, "by": "edit link"}] * 3)
        db.commit()
    assert (size() - hands) / 3 <= limits.EXPORT_CHANGE_BYTES


# --- the edit links of an import: all shown, in a file too; no right the browser had lost --

def edit_rights(client: FlaskClient) -> list[str]:
    with client.session_transaction() as session:
        return list(session.get("edit", []))


def test_an_import_shows_every_edit_link_and_takes_no_right_away(
    app: Flask, client: FlaskClient
) -> None:
    own = new_game(client)
    response = upload(client, many_games(35))
    assert response.status_code == 302
    page_url = response.headers["Location"]
    assert re.fullmatch(r"/imports/[\w-]{32}", page_url)
    page = client.get(page_url)
    assert page.status_code == 200 and "no-store" in page.headers["Cache-Control"]
    text = page.get_data(as_text=True)
    assert "35 games imported." in text
    with app.app_context():
        made = get_session().scalars(select(Game).where(Game.id != own)).all()
        secrets = {g.id: g.edit_secret for g in made}
        order = sorted(made, key=lambda g: int(g.players[0].split()[1]))
    shown = re.findall(r'<input type="text" readonly dir="ltr" '
                       r'value="http://localhost/g/([\w-]+)\?key=([\w-]+)"', text)
    assert shown == [(g.id, g.edit_secret) for g in order]  # all 35, in the file's order
    assert len(secrets) == 35
    # 30 rights at most: the browser's own game keeps its, the first 29 get one, the last 6
    # are marked "link only".
    rights = edit_rights(client)
    assert own in rights and len(rights) == 30
    assert set(rights) - {own} == {g.id for g in order[:29]}
    assert text.count("<strong>link only</strong>") == 6
    assert quick(client, own, "knock", 0, 3, 20).status_code == 302
    # The file of the links: every one, a line each under the game's name.
    file = client.get(f"{page_url}/links.txt")
    assert file.status_code == 200 and file.mimetype == "text/plain"
    assert file.headers["Content-Disposition"].startswith("attachment;")
    lines = file.get_data(as_text=True).splitlines()
    for game in order:
        at = lines.index(f"Ann {game.players[0].split()[1]} – Bob (Gin rummy (two players))")
        assert lines[at + 1] == f"http://localhost/g/{game.id}?key={game.edit_secret}"
    # Only the importing browser sees them.
    other = app.test_client()
    assert other.get(page_url).status_code == 404
    assert other.get(f"{page_url}/links.txt").status_code == 404


def test_a_browser_with_no_room_left_keeps_its_rights_and_gets_the_link(
    app: Flask, client: FlaskClient
) -> None:
    held = [new_game(client, players=(f"Ann {i}", "Bob")) for i in range(30)]
    assert sorted(edit_rights(client)) == sorted(held)
    response = upload(client, many_games(1))
    assert response.status_code == 302 and response.headers["Location"].startswith("/imports/")
    assert sorted(edit_rights(client)) == sorted(held)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        new = get_session().scalars(select(Game).where(Game.id.not_in(held))).one()
    assert f'value="http://localhost/g/{new.id}?key={new.edit_secret}"' in page
    assert "<strong>link only</strong>" in page
    # Its link opens it for editing here, as any edit link does.
    assert client.get(f"/g/{new.id}?key={new.edit_secret}").status_code in (200, 302)
    assert new.id in edit_rights(client)
