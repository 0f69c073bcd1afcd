"""Backup: a game exported as JSON and imported back is the same sheet, under new ids."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import Change, Game, Hand
from tests.helpers import new_game, quick, state

VOLATILE = {"id", "edit_secret", "created_at", "format", "format_version"}

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


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """A game's JSON without what an import may change (ids, secrets, timestamps)."""
    return {k: v for k, v in document.items() if k not in VOLATILE | {"history"}}


def history_of(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(c["action"], c["hand_number"], c["before"], c["after"], c["by"], c["at"])
            for c in document["history"] if c["action"] != "import"]


def upload(client: FlaskClient, content: bytes, name: str = "backup.json") -> Any:
    return client.post("/import", data={"file": (io.BytesIO(content), name)},
                       content_type="multipart/form-data")


def counts(app: Flask) -> tuple[int, int, int]:
    with app.app_context():
        db = get_session()
        return tuple(db.scalar(select(func.count()).select_from(m)) or 0  # type: ignore[return-value]
                     for m in (Game, Hand, Change))


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
