"""Club nights in the backup: a night exported from its organiser's page (a group's
nights with the group), imported back as a new night with new ids and secrets whose
standings and organiser's page are the original's; a bad file imports nothing; an
older export without nights still imports (SQLite and PostgreSQL)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import Game, Group, Night
from tests.helpers import night_tables as tables
from tests.helpers import play_out, upload, win
from tests.helpers import start_night as start


def night_of(app: Flask, night_id: str) -> Night:
    with app.test_request_context():
        night = get_session().get(Night, night_id)
        assert night is not None
        _ = (night.tables, night.round_rows, night.changes)
        return night


def counts(app: Flask) -> tuple[int, int, int]:
    with app.test_request_context():
        db = get_session()
        return tuple(db.scalar(select(func.count()).select_from(model))  # type: ignore[return-value]
                     for model in (Night, Game, Group))


def mid_way(client: FlaskClient, app: Flask, players: str = "Ann\nBob\nCy\nDi",
            **extra: str) -> str:
    """A night in the middle of its first round: table 1 (Ann v Di) played out, Ann
    winning 110 to 0, confirmed and then corrected to 100 – 0 with a reason; table 2 (Bob v
    Cy) one hand in (Cy 25 up), not confirmed; Cy to sit out the coming rounds."""
    night_id = start(client, players, **extra)
    client.get(f"/n/{night_id}")  # its first page says once that this phone runs it
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first, second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)
    assert client.post(f"/g/{first.game_id}/confirm").status_code == 302
    corrected = client.post(f"/n/{night_id}/rounds/1/tables/1/result", data={
        "c-points_a": "100", "c-points_b": "0", "c-winner": "a", "c-shutout": "yes",
        "c-reason": "A card miscounted at hand 2"})
    assert corrected.status_code == 302, corrected.get_data(as_text=True)
    secret = get_game_secret(app, second.game_id)
    client.get(f"/g/{second.game_id}?key={secret}")
    win(client, second.game_id, 1, 25)
    client.post(f"/n/{night_id}/away", data={"player": "Cy", "away": "1"})
    return night_id


def get_game_secret(app: Flask, game_id: str | None) -> str:
    with app.test_request_context():
        game = get_session().get(Game, game_id)
        assert game is not None
        return game.edit_secret


def exported(client: FlaskClient, night_id: str) -> dict[str, Any]:
    response = client.get(f"/n/{night_id}/export.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="scorekeeper-night-{night_id}.json"')
    document: dict[str, Any] = json.loads(response.data)
    return document


def imported(client: FlaskClient, document: dict[str, Any]) -> tuple[str, str]:
    """Import ``document``; the new night's id and organiser's secret, from the import's
    page of links."""
    response = upload(client, json.dumps(document).encode())
    assert response.status_code == 302, response.get_data(as_text=True)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    links = re.findall(r'href="http://localhost/n/([\w-]+)\?key=([\w-]+)"', page)
    assert len(links) == 1, page
    assert "Club nights" in page
    return links[0]


def same_page(client: FlaskClient, night: Night) -> str:
    """The organiser's page with what names this night (its id and secret, the form's
    token) written the same for every night."""
    page = client.get(f"/n/{night.id}").get_data(as_text=True)
    page = page.replace(night.id, "NIGHT").replace(night.organiser_secret, "SECRET")
    return re.sub(r'name="csrf_token" value="[^"]+"', 'name="csrf_token" value=""', page)


def api_view(client: FlaskClient, night_id: str) -> dict[str, Any]:
    seen: dict[str, Any] = client.get(f"/api/v1/nights/{night_id}").get_json()
    for r in seen["rounds"]:
        for t in r["tables"]:
            t.pop("game")
    seen.pop("id")
    seen.pop("board_url")
    return seen


def test_a_night_mid_way_comes_back_the_same(client: FlaskClient, app: Flask) -> None:
    night_id = mid_way(client, app)
    document = exported(client, night_id)
    (night_doc,) = document["nights"]
    assert [t["game"] for t in night_doc["played_rounds"][0]["tables"]] == [
        g["id"] for g in document["games"]]
    assert night_doc["away"] == ["Cy"]
    assert [c["action"] for c in night_doc["history"]] == [
        "create", "round", "confirm", "correct", "away"]
    with app.test_client() as watcher:  # the history is the organiser's
        assert watcher.get(f"/n/{night_id}/export.json").status_code == 403
    before = counts(app)
    new_id, new_secret = imported(client, document)
    assert counts(app) == (before[0] + 1, before[1] + 2, before[2])
    original, copy_ = night_of(app, night_id), night_of(app, new_id)
    # New ids and secrets: the night's and its games'.
    assert new_id != night_id and new_secret == copy_.organiser_secret != original.organiser_secret
    old_games = {t.game_id for t in original.tables}
    assert not old_games & {t.game_id for t in copy_.tables}
    # Table 1 counts as corrected (100 - 0, a shutout); table 2 plays on, Cy 25 up.
    assert [(t.number, t.a, t.b, t.result, t.confirmed_at is not None) for t in copy_.tables] == [
        (1, "Ann", "Di", {"points_a": 100, "points_b": 0, "winner": "a", "shutout": True,
                          "forfeit": None}, True),
        (2, "Bob", "Cy", None, False)]
    # Confirmations, history and who sits out come along as they were.
    def kept(n: Night) -> list[Any]:
        return [[(t.round, t.number, t.a, t.b, t.result, t.confirmed_at, t.confirmed_by,
                  t.carried) for t in n.tables],
                [(r.number, r.byes) for r in n.round_rows], n.away, n.version, n.order]

    assert kept(copy_) == kept(original)
    assert [(c.action, c.round, c.table, c.before, c.after, c.reason, c.by, c.at)
            for c in copy_.changes] == [
        (c.action, c.round, c.table, c.before, c.after, c.reason, c.by, c.at)
        for c in original.changes] + [("import", None, None, None, None, "", "import",
                                       copy_.changes[-1].at)]
    view = api_view(client, new_id)
    assert view == api_view(client, night_id)
    assert [(t["state"], t["scores"]) for t in view["rounds"][0]["tables"]] == [
        ("confirmed", [100, 0]), ("playing", [0, 25])]
    # Ann has the win (2 points, +100), Di the loss; Bob and Cy have played nothing yet
    # (tied, in the order they were entered).
    assert [(s["player"], s["points"], s["point_difference"]) for s in view["standings"]] == [
        ("Ann", 2, 100), ("Bob", 0, 0), ("Cy", 0, 0), ("Di", 0, -100)]
    # This browser runs the new night too; its page is the original's.
    assert same_page(client, copy_) == same_page(client, original)
    history = client.get(f"/n/{new_id}/history").get_data(as_text=True)
    assert "Reason: A card miscounted at hand 2" in history
    assert "The night was imported from an export file." in history
    # The table goes on where it was: the new game takes hands, and counts once confirmed.
    (_, second) = copy_.tables
    win(client, str(second.game_id), 1, 90)
    assert client.post(f"/g/{second.game_id}/confirm").status_code == 302
    assert api_view(client, new_id)["rounds"][0]["tables"][1]["state"] == "confirmed"


def test_a_partnership_night_keeps_its_teams(client: FlaskClient, app: Flask) -> None:
    made = client.post("/api/v1/nights", json={
        "players": [["Ann", "Bob"], ["Cy", "Di"]], "variant": "partnership",
        "rules": "classic"}).get_json()
    night_id = made["id"]
    assert client.get(f"/n/{night_id}?key={made['organiser_secret']}").status_code == 302
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    new_id, _secret = imported(client, exported(client, night_id))
    copy_ = night_of(app, new_id)
    assert copy_.teams == [["Ann", "Bob"], ["Cy", "Di"]]
    assert copy_.players == ["Ann & Bob", "Cy & Di"]
    with app.test_request_context():
        (table,) = copy_.tables
        game = get_session().get(Game, table.game_id)
        assert game is not None and game.players == ["Ann", "Cy", "Bob", "Di"]
    assert api_view(client, new_id) == api_view(client, night_id)


def problems_of(response: Any) -> str:
    assert response.status_code == 422
    return re.sub(r"<[^>]+>", "", response.get_data(as_text=True))


def test_a_bad_night_imports_nothing(client: FlaskClient, app: Flask) -> None:
    night_id = mid_way(client, app)
    document = exported(client, night_id)
    before = counts(app)

    def spoilt(change: Any) -> str:
        bad = copy.deepcopy(document)
        change(bad)
        return problems_of(upload(client, json.dumps(bad).encode()))

    def unknown_game(d: dict[str, Any]) -> None:
        d["nights"][0]["played_rounds"][0]["tables"][0]["game"] = "nosuchgame"

    def twice(d: dict[str, Any]) -> None:
        tables_ = d["nights"][0]["played_rounds"][0]["tables"]
        tables_[1]["game"] = tables_[0]["game"]

    def bad_hand(d: dict[str, Any]) -> None:
        d["games"][1]["hands"][0]["inputs"]["knocker"] = 2  # a seat this game has not

    def bad_result(d: dict[str, Any]) -> None:
        d["nights"][0]["played_rounds"][0]["tables"][0]["result"]["winner"] = "c"

    def stranger(d: dict[str, Any]) -> None:
        d["nights"][0]["played_rounds"][0]["tables"][1]["b"] = "Zed"

    def wrong_players(d: dict[str, Any]) -> None:
        d["games"][0]["players"] = ["Di", "Ann"]

    assert ("nights[0].played_rounds[0].tables[0].game: must be the id of a game in this file"
            in spoilt(unknown_game))
    assert "tables[1].game: must be the id of a game in this file, at one table only" in spoilt(
        twice)
    assert "games[1].hands[0].inputs.knocker: must be between 0 and 1" in spoilt(bad_hand)
    assert "nights[0].played_rounds[0].tables[0].result: must be" in spoilt(bad_result)
    assert "tables[1]: a and b must be two entrants of the night" in spoilt(stranger)
    assert "tables[0].game: the game&#39;s kind and players must be the table&#39;s" in spoilt(
        wrong_players)
    assert counts(app) == before


def test_a_groups_nights_come_with_the_group_and_older_files_still_import(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post("/groups/new", data={"name": "Club", "players": "Ann\nBob",
                                                 "stake": "", "currency": ""})
    group_id = response.headers["Location"].rsplit("/", 1)[-1]
    night_id = start(client, "Ann\nBob", group=group_id)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = tables(app, night_id, 1)
    play_out(client, table.game_id, 1)
    client.post(f"/g/{table.game_id}/confirm")
    document = json.loads(client.get(f"/groups/{group_id}/export.json").data)
    assert [n["group"] for n in document["nights"]] == [group_id]
    assert document["groups"][0]["id"] == group_id
    new_id, _secret = imported(client, document)
    copy_ = night_of(app, new_id)
    with app.test_request_context():
        group = get_session().scalars(select(Group).where(Group.id != group_id)).one()
        game = get_session().get(Game, copy_.tables[0].game_id)
        assert game is not None
    assert copy_.group_id == group.id and game.group_id == group.id
    assert api_view(client, new_id) == api_view(client, night_id)
    # A file without nights (an older export: its groups have no id either) imports
    # its group and games as before.
    older = {k: v for k, v in document.items() if k != "nights"}
    older["groups"] = [{k: v for k, v in g.items() if k != "id"} for g in older["groups"]]
    before = counts(app)
    response = upload(client, json.dumps(older).encode())
    assert response.status_code == 302
    assert "/groups/" in response.headers["Location"]
    assert counts(app) == (before[0], before[1] + 1, before[2] + 1)
    # A night's game taken out of the group is still exported with the night: the
    # group's file imports again.
    assert client.post(f"/groups/{group_id}/games/{table.game_id}/remove").status_code == 302
    moved = json.loads(client.get(f"/groups/{group_id}/export.json").data)
    assert moved["groups"][0]["games"] == []
    assert [g["id"] for g in moved["games"]] == [table.game_id]
    again, _secret = imported(client, moved)
    assert api_view(client, again) == api_view(client, night_id)
    # A night that names a group the file does not hold is refused.
    stray = copy.deepcopy(document)
    stray["nights"][0]["group"] = "elsewhere"
    assert "nights[0].group: must be the id of a group in this file, or null" in problems_of(
        upload(client, json.dumps(stray).encode()))


def test_the_cli_exports_and_imports_a_night(
    client: FlaskClient, app: Flask, tmp_path: Path
) -> None:
    night_id = mid_way(client, app)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["export", "--night", night_id])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert [n["id"] for n in document["nights"]] == [night_id]
    everything = json.loads(runner.invoke(args=["export"]).output)
    assert [n["id"] for n in everything["nights"]] == [night_id]
    path = tmp_path / "night.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    match = re.search(r"imported night ([\w-]+): organiser's link /n/\1\?key=[\w-]+", result.output)
    assert match, result.output
    assert api_view(client, match.group(1)) == api_view(client, night_id)


def test_a_watchers_group_file_leaves_out_what_only_the_organiser_opens(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post("/groups/new", data={"name": "Club", "players": "Ann\nBob\nCy\nDi",
                                                 "stake": "", "currency": ""})
    group_id = response.headers["Location"].rsplit("/", 1)[-1]
    night_id = mid_way(client, app, group=group_id)
    # The organiser's browser (this client) gets the night's history, reasons and all.
    full = json.loads(client.get(f"/groups/{group_id}/export.json").data)
    (night,) = full["nights"]
    assert [c["action"] for c in night["history"]] == [
        "create", "round", "confirm", "correct", "away"]
    assert night["history"][3]["reason"] == "A card miscounted at hand 2"
    # A phone with only the group's link gets the night without it; the rest is the
    # same, and the file imports as a night with no history.
    with app.test_client() as watcher:
        answer = watcher.get(f"/groups/{group_id}/export.json")
        assert answer.status_code == 200
        seen = json.loads(answer.data)
        assert "A card miscounted" not in answer.get_data(as_text=True)
    assert seen["nights"][0]["history"] == []
    assert {**seen["nights"][0], "history": night["history"]} == night
    new_id, _secret = imported(client, seen)
    assert [c.action for c in night_of(app, new_id).changes] == ["import"]
    assert api_view(client, new_id) == api_view(client, night_id)


def test_the_organisers_page_is_kept_nowhere(client: FlaskClient, app: Flask) -> None:
    night_id = start(client, "Ann\nBob")
    page = client.get(f"/n/{night_id}")
    assert page.status_code == 200 and night_of(app, night_id).organiser_secret in (
        page.get_data(as_text=True))
    assert page.headers["Cache-Control"] == "private, no-store"


def test_a_group_with_no_game_yet_imports_again(client: FlaskClient, app: Flask) -> None:
    response = client.post("/groups/new", data={"name": "Club", "players": "Ann\nBob",
                                                 "stake": "", "currency": ""})
    group_id = response.headers["Location"].rsplit("/", 1)[-1]
    document = json.loads(client.get(f"/groups/{group_id}/export.json").data)
    assert document["games"] == []
    before = counts(app)
    answer = upload(client, json.dumps(document).encode())
    assert answer.status_code == 302, answer.get_data(as_text=True)
    assert counts(app) == (before[0], before[1], before[2] + 1)
    # A file of no game, group or night still says so.
    empty = upload(client, json.dumps({"games": []}).encode())
    assert "the file holds no game" in empty.get_data(as_text=True)


def test_a_reopened_table_comes_back_with_its_reason(client: FlaskClient, app: Flask) -> None:
    """A table confirmed, reopened with a reason and left open: the reopening, the
    result it took back and the reason come back, and the table is still open."""
    night_id = start(client, "Ann\nBob")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = tables(app, night_id, 1)
    play_out(client, table.game_id, 0)
    assert client.post(f"/g/{table.game_id}/confirm").status_code == 302
    reopened = client.post(f"/n/{night_id}/rounds/1/tables/1/reopen",
                           data={"r-reason": "Hand 2 was 40, not 50"})
    assert reopened.status_code == 302
    (night_doc,) = exported(client, night_id)["nights"]
    reopen = night_doc["history"][-1]
    assert {k: reopen[k] for k in ("action", "round", "table", "before", "after", "reason",
                                   "by")} == {
        "action": "reopen", "round": 1, "table": 1,
        # Classic counts no shutout: the bonus is off.
        "before": {"points_a": 110, "points_b": 0, "winner": "a", "shutout": False,
                   "forfeit": None},
        "after": None, "reason": "Hand 2 was 40, not 50", "by": "organiser"}
    new_id, _secret = imported(client, exported(client, night_id))
    copy_ = night_of(app, new_id)
    assert [(c.action, c.before, c.reason) for c in copy_.changes][-2:] == [
        ("reopen", reopen["before"], "Hand 2 was 40, not 50"), ("import", None, "")]
    assert [(t.result, t.confirmed_at) for t in copy_.tables] == [(None, None)]
    history = client.get(f"/n/{new_id}/history").get_data(as_text=True)
    assert "Round 1, table 1: reopened. It was 110 – 0." in history
    assert "Reason: Hand 2 was 40, not 50" in history
