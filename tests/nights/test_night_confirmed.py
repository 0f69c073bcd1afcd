"""A confirmed table is settled: one sentence says who confirms (the other player, on
the phone that keeps the table's score) alike on the scorer's sheet, a watching phone,
the table card and the night's rules; once confirmed, the table's game takes no hand,
correction, delete, undo or restore (409, on the page and over the API) until the
organiser reopens the table with a reason, kept in the night's history."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import get_session
from scorekeeper.models import Change, Game
from tests.helpers import errors_at, keep_printed_html, quick, version_of, win
from tests.helpers import night_tables as tables
from tests.helpers import start_night as start

RULE = ("When the game is over, the other player checks the result on the phone that keeps "
        "this table's score and taps “Confirm this result”. A confirmed result is settled: "
        "the game takes no more changes, and only the organiser can reopen the table.")
REFUSED = ("The result of this table is confirmed, so its game takes no more changes. The "
           "night's organiser can reopen the table.")
API_REFUSED = ("the result of this table is confirmed, so its game takes no more changes; "
               "the night's organiser can reopen the table")


def text(html: str) -> str:
    """The page's words, tags left out and spaces run together."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def rule_on(html: str) -> list[str]:
    """The words of each element of the page that states the confirmation rule."""
    found = re.findall(r'<(p|span) class="(?:muted )?confirm-rule">(.*?)</\1>', html, re.S)
    return [text(body) for _tag, body in found]


def secret_of(app: Flask, game_id: str) -> str:
    with app.test_request_context():
        game = get_session().get(Game, game_id)
        assert game is not None
        return game.edit_secret


def undone_change(app: Flask, game_id: str) -> int:
    """The id of the game's undo entry."""
    with app.test_request_context():
        game = get_session().get(Game, game_id)
        assert game is not None
        (change,) = [c for c in game.changes if c.action == "undo"]
        assert isinstance(change, Change)
        return change.id


def one_table(client: FlaskClient, app: Flask) -> tuple[str, str]:
    """A night of Ann and Bob, its first round paired, the table's game opened by its
    edit link on this phone: the night's id and the game's."""
    night_id = start(client, "Ann\nBob")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = tables(app, night_id, 1)
    game_id = table.game_id
    assert game_id is not None
    assert client.get(f"/g/{game_id}?key={secret_of(app, game_id)}").status_code == 302
    return night_id, game_id


def settled_table(client: FlaskClient, app: Flask) -> tuple[str, str]:
    """Ann wins 110 to 0 (60, then 10 undone, then 50: the undo can be restored), and the
    result is confirmed on the scorer's phone."""
    night_id, game_id = one_table(client, app)
    win(client, game_id, 0, 60)
    win(client, game_id, 0, 10)
    undone = client.post(f"/g/{game_id}/undo", data={"version": version_of(client, game_id)})
    assert undone.status_code == 302
    win(client, game_id, 0, 50)
    assert client.post(f"/g/{game_id}/confirm").status_code == 302
    return night_id, game_id


def card_text(client: FlaskClient, monkeypatch: pytest.MonkeyPatch, night_id: str,
              lang: str = "en") -> str:
    printed = keep_printed_html(monkeypatch, typeset=False)
    response = client.get(f"/n/{night_id}/tables.pdf", headers={"Accept-Language": lang})
    assert response.status_code == 200
    return printed[-1]


def test_the_rule_reads_the_same_on_the_sheet_the_watch_page_and_the_table_card(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    night_id, game_id = one_table(client, app)
    watcher = app.test_client()
    # Before the game is over, and once it is (the scorer's phone has the button, the
    # watching phone of a night without a PIN has none).
    assert rule_on(client.get(f"/g/{game_id}").get_data(as_text=True)) == [RULE]
    assert rule_on(watcher.get(f"/g/{game_id}").get_data(as_text=True)) == [RULE]
    win(client, game_id, 0, 60)
    win(client, game_id, 0, 50)
    sheet = client.get(f"/g/{game_id}").get_data(as_text=True)
    watch = watcher.get(f"/g/{game_id}").get_data(as_text=True)
    assert rule_on(sheet) == rule_on(watch) == [RULE]
    assert "The game is over: 110 – 0." in text(sheet)
    assert 'class="confirm-result"' in sheet and 'class="confirm-result"' not in watch
    # The table card and the night's rules on the organiser's page.
    assert rule_on(card_text(client, monkeypatch, night_id)) == [RULE]
    assert rule_on(client.get(f"/n/{night_id}").get_data(as_text=True)) == [RULE]
    # In Russian and Persian: one translation, the same on every page.
    for lang in ("ru", "fa"):
        said = {
            "sheet": rule_on(client.get(f"/g/{game_id}", headers={"Accept-Language": lang})
                             .get_data(as_text=True)),
            "watch": rule_on(watcher.get(f"/g/{game_id}", headers={"Accept-Language": lang})
                             .get_data(as_text=True)),
            "card": rule_on(card_text(client, monkeypatch, night_id, lang)),
        }
        assert said["sheet"] == said["watch"] == said["card"], lang
        assert said["sheet"][0] != RULE and "“" not in said["sheet"][0], lang


def test_a_confirmed_table_hides_its_changes_and_says_why(
    client: FlaskClient, app: Flask
) -> None:
    _night_id, game_id = settled_table(client, app)
    sheet = client.get(f"/g/{game_id}").get_data(as_text=True)
    actions = re.findall(r'<form method="post"[^>]* action="([^"]+)"', sheet)
    assert actions == [f"/g/{game_id}/rematch", f"/g/{game_id}/short-names#short-names",
                       f"/g/{game_id}/pin"]
    assert REFUSED in text(sheet)
    assert "The result is confirmed: 110 – 0. It counts for the night." in text(sheet)
    hand = client.get(f"/g/{game_id}/hands/1").get_data(as_text=True)
    assert "/edit" not in hand and "/delete" not in hand
    history = client.get(f"/g/{game_id}/history").get_data(as_text=True)
    assert 'class="restore"' not in history
    table = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    assert 'id="enter-hand"' not in table


def test_every_change_to_a_confirmed_table_is_refused_on_the_page_and_over_the_api(
    client: FlaskClient, app: Flask
) -> None:
    _night_id, game_id = settled_table(client, app)
    version = version_of(client, game_id)
    undo_id = undone_change(app, game_id)
    edit = {"outcome": "knock", "knocker": "1", "knocker_deadwood": "1",
            "defender_deadwood": "31", "version": version}
    refused = {
        "new hand": quick(client, game_id, "knock", 1, 1, 31),
        "correction": client.post(f"/g/{game_id}/hands/2/edit", data=edit),
        "delete": client.post(f"/g/{game_id}/hands/1/delete", data={"version": version}),
        "undo": client.post(f"/g/{game_id}/undo", data={"version": version}),
        "restore": client.post(f"/g/{game_id}/changes/{undo_id}/restore",
                               data={"version": version}),
    }
    for what, response in refused.items():
        assert response.status_code == 409, what
        assert REFUSED in text(response.get_data(as_text=True)), what
    api = client.post(f"/api/v1/games/{game_id}/hands",
                      json={"outcome": "knock", "knocker": 1, "knocker_deadwood": 1,
                            "defender_deadwood": 31},
                      headers={"X-Edit-Secret": secret_of(app, game_id)})
    assert api.status_code == 409
    assert api.get_json() == {"errors": [{"where": "game", "message": API_REFUSED}]}
    # Nothing changed: two hands, Ann 110 to 0, the same version.
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert (len(game["hands"]), game["version"]) == (2, version)
    # The API's description says so.
    spec = client.get("/api/v1/openapi.json").get_json()
    assert "whose result is confirmed takes no hand (409)" in (
        spec["paths"]["/games/{game_id}/hands"]["post"]["description"])


def test_a_table_confirmed_by_a_correction_before_its_game_ended_takes_no_hand(
    client: FlaskClient, app: Flask
) -> None:
    night_id, game_id = one_table(client, app)
    win(client, game_id, 0, 30)
    corrected = client.post(f"/n/{night_id}/rounds/1/tables/1/result", data={
        "what": "correct", "c-points_a": "100", "c-points_b": "0", "c-winner": "a",
        "c-shutout": "", "c-reason": "Bob left early"})
    assert corrected.status_code == 302
    response = quick(client, game_id, "knock", 1, 1, 21)
    assert response.status_code == 409
    assert REFUSED in text(response.get_data(as_text=True))
    assert len(client.get(f"/api/v1/games/{game_id}").get_json()["hands"]) == 1


def standings(client: FlaskClient, night_id: str) -> list[tuple[str, int, int]]:
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()["standings"]
    return [(s["player"], s["points"], s["point_difference"]) for s in seen]


def test_the_organiser_reopens_a_table_with_a_reason_and_it_plays_on(
    client: FlaskClient, app: Flask
) -> None:
    night_id, game_id = settled_table(client, app)
    assert standings(client, night_id) == [("Ann", 2, 110), ("Bob", 0, -110)]
    page = client.get(f"/n/{night_id}/rounds/1/tables/1/result").get_data(as_text=True)
    assert "/rounds/1/tables/1/reopen" in page
    # A reason is needed: the form comes back with a message at it.
    missing = client.post(f"/n/{night_id}/rounds/1/tables/1/reopen", data={"r-reason": " "})
    assert missing.status_code == 422
    assert errors_at(missing.get_data(as_text=True), "r-reason") == ["This field is required."]
    assert standings(client, night_id) == [("Ann", 2, 110), ("Bob", 0, -110)]
    reopened = client.post(f"/n/{night_id}/rounds/1/tables/1/reopen",
                           data={"r-reason": "Hand 2 was 40, not 50"})
    assert reopened.status_code == 302
    # The history keeps it, with the result it had and the reason.
    history = text(client.get(f"/n/{night_id}/history").get_data(as_text=True))
    assert ("Round 1, table 1: reopened. It was 110 – 0. Reason: Hand 2 was 40, not 50 "
            "(the organiser)") in history
    # The result counts no more; the table waits for a confirmation again.
    assert standings(client, night_id) == [("Ann", 0, 0), ("Bob", 0, 0)]
    night = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert night["rounds"][0]["tables"][0]["state"] == "finished"
    # The game changes again: hand 2 undone, 40 entered instead, then 30 more for Bob.
    version = version_of(client, game_id)
    assert client.post(f"/g/{game_id}/undo", data={"version": version}).status_code == 302
    win(client, game_id, 0, 40)  # Ann 100: over at the target
    sheet = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "The game is over: 100 – 0." in text(sheet)
    assert client.post(f"/g/{game_id}/confirm").status_code == 302
    assert standings(client, night_id) == [("Ann", 2, 100), ("Bob", 0, -100)]
    assert "The result is confirmed: 100 – 0. It counts for the night." in text(
        client.get(f"/g/{game_id}").get_data(as_text=True))
    # Settled again.
    assert quick(client, game_id, "knock", 1, 1, 31).status_code == 409


def test_a_reopened_correction_no_longer_shows_on_the_sheet(
    client: FlaskClient, app: Flask
) -> None:
    night_id, game_id = settled_table(client, app)
    client.post(f"/n/{night_id}/rounds/1/tables/1/result", data={
        "what": "correct", "c-points_a": "150", "c-points_b": "50", "c-winner": "a",
        "c-shutout": "", "c-reason": "Miscounted"})
    client.post(f"/n/{night_id}/rounds/1/tables/1/reopen", data={"r-reason": "Replay hand 2"})
    assert client.post(f"/g/{game_id}/confirm").status_code == 302
    box = re.search(r'<section class="night-result".*?</section>',
                    client.get(f"/g/{game_id}").get_data(as_text=True), re.S)
    assert box is not None
    assert text(box.group(0)).startswith(
        "Club night: round 1, table 1 The result is confirmed: 110 – 0. It counts for the "
        "night. A hand in dispute?")


def test_only_the_organiser_reopens_a_table(client: FlaskClient, app: Flask) -> None:
    night_id, game_id = settled_table(client, app)
    with app.test_client() as other:
        # A phone that keeps the table's score is not the organiser.
        other.get(f"/g/{game_id}?key={secret_of(app, game_id)}")
        response = other.post(f"/n/{night_id}/rounds/1/tables/1/reopen",
                              data={"r-reason": "We want to play on"})
        assert response.status_code == 403
    assert standings(client, night_id) == [("Ann", 2, 110), ("Bob", 0, -110)]


def test_an_open_table_is_not_reopened(client: FlaskClient, app: Flask) -> None:
    night_id, _game_id = one_table(client, app)
    response = client.post(f"/n/{night_id}/rounds/1/tables/1/reopen",
                           data={"r-reason": "By mistake"})
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]).get_data(as_text=True))
    assert "The result of this table is not confirmed: there is nothing to reopen." in page
    assert "reopened" not in text(client.get(f"/n/{night_id}/history").get_data(as_text=True))
