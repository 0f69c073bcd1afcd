"""A club night through its pages: started (also from a group), paired, played at the
tables as ordinary games, confirmed on the game's page, corrected, printed."""

from __future__ import annotations

import csv
import io
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import Game, Night, NightRound
from tests.helpers import night_tables as tables
from tests.helpers import pdf_text, play_out
from tests.helpers import start_night as start


def test_a_round_robin_night_from_start_to_standings(client: FlaskClient, app: Flask) -> None:
    night_id = start(client)
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    assert "Pair the first round" in page
    assert client.post(f"/n/{night_id}/rounds", data={"round": "0"}).status_code == 302
    first = tables(app, night_id, 1)
    # The circle method: Ann (fixed) meets Di, Bob meets Cy.
    assert [(t.number, t.a, t.b) for t in first] == [(1, "Ann", "Di"), (2, "Bob", "Cy")]
    with app.test_request_context():
        games = [get_session().get(Game, t.game_id) for t in first]
    assert [g.players for g in games if g] == [["Ann", "Di"], ["Bob", "Cy"]]
    # A second press while the round is playing makes no round.
    response = client.post(f"/n/{night_id}/rounds", data={"round": "1"}, follow_redirects=True)
    assert "not confirmed yet" in response.get_data(as_text=True)
    # Table 1: Ann wins 110 to 0.
    play_out(client, first[0].game_id, 0)
    sheet = client.get(f"/g/{first[0].game_id}").get_data(as_text=True)
    assert "Confirm this result" in sheet
    assert client.post(f"/g/{first[0].game_id}/confirm").status_code == 302
    # Confirmed twice counts once.
    again = client.post(f"/g/{first[0].game_id}/confirm", follow_redirects=True)
    assert "confirmed already" in again.get_data(as_text=True)
    with app.test_request_context():
        night = get_session().get(Night, night_id)
        assert night is not None
        confirms = [c for c in night.changes if c.action == "confirm"]
    assert len(confirms) == 1
    # Table 2 is not over: it cannot be confirmed.
    early = client.post(f"/g/{first[1].game_id}/confirm", follow_redirects=True)
    assert "not over yet" in early.get_data(as_text=True)
    play_out(client, first[1].game_id, 1)
    client.post(f"/g/{first[1].game_id}/confirm")
    response = client.post(f"/n/{night_id}/rounds", data={"round": "1"})
    assert response.status_code == 302
    assert [(t.a, t.b) for t in tables(app, night_id, 2)] == [("Cy", "Ann"), ("Di", "Bob")]
    # The round robin of four has three rounds, no more.
    with app.test_request_context():
        assert get_session().scalar(select(func.count()).select_from(NightRound)) == 2
    board = client.get(f"/n/{night_id}/board").get_data(as_text=True)
    assert "Round 2" in board
    # Ann and Cy won: 2 match points each; Bob and Di lost.
    ranks = re.findall(r'data-player="(\w+)"', board)
    assert ranks[:2] == ["Ann", "Cy"] or ranks[:2] == ["Cy", "Ann"]
    assert set(ranks[2:]) == {"Bob", "Di"}


def test_a_watcher_is_sent_to_the_board(client: FlaskClient, app: Flask) -> None:
    night_id = start(client)
    with app.test_request_context():
        night = get_session().get(Night, night_id)
        assert night is not None
        secret = night.organiser_secret
    with app.test_client() as other:
        assert other.get(f"/n/{night_id}").headers["Location"].endswith(f"/n/{night_id}/board")
        assert other.post(f"/n/{night_id}/rounds", data={}).status_code == 403
        response = other.get(f"/n/{night_id}?key={secret}")
        assert response.status_code == 302
        assert "Pair the first round" in other.get(f"/n/{night_id}").get_data(as_text=True)


def test_a_bad_list_of_players_is_told_at_its_field_and_kept(client: FlaskClient) -> None:
    response = client.post("/nights/new", data={"variant": "gin", "entrants": "Ann\nann",
                                                "format": "round_robin", "preset": "classic"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "every player needs a different name" in page
    assert "Ann\nann" in page


def test_prints_and_csv(client: FlaskClient, app: Flask) -> None:
    night_id = start(client, "Ann\nBob\nCy")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    cards = client.get(f"/n/{night_id}/tables.pdf")
    assert cards.status_code == 200
    text = pdf_text(cards.data)
    assert "Table 1" in text and "Bob" in text and "Cy" in text
    body = client.get(f"/n/{night_id}/results.csv").data.decode("utf-8")
    assert body.startswith("\ufeffround,table,first,second")
    assert "1,,Ann,,,,,,,bye" in body


def test_a_groups_night_takes_its_roster_and_its_games_count_for_the_group(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post("/groups/new", data={"name": "Club", "players": "Ann\nBob",
                                                 "stake": "", "currency": ""})
    group_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert "Start a club night" in client.get(f"/groups/{group_id}").get_data(as_text=True)
    form = client.get(f"/nights/new?group={group_id}").get_data(as_text=True)
    assert "Ann\nBob</textarea>" in form
    night_id = start(client, "ann\nBob", group=group_id)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = tables(app, night_id, 1)
    assert (table.a, table.b) == ("Ann", "Bob")  # "ann" is the group's Ann
    play_out(client, table.game_id, 1)
    client.post(f"/g/{table.game_id}/confirm")
    page = client.get(f"/groups/{group_id}").get_data(as_text=True)
    # Bob's win counts in the group's standings: one game, one win.
    row = re.search(r'data-player="Bob">.*?class="num games">(\d+)</td>\s*'
                    r'<td class="num wins">(\d+)</td>', page, re.S)
    assert row and row.groups() == ("1", "1")


def test_the_results_file_speaks_the_readers_language(client: FlaskClient) -> None:
    night_id = start(client, "=Ann\nBob\nCy")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    body = client.get(f"/n/{night_id}/results.csv?lang=ru").data.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body[1:])))
    assert rows[0] == ["тур", "стол", "первый", "второй", "очки первого", "очки второго",
                       "победитель", "сухая партия", "неявка", "состояние", "исправлено",
                       "причина"]
    standings = rows[rows.index([]) + 1]
    assert standings == ["место", "игрок", "очки матча", "сыграно", "победы", "ничьи",
                         "поражения", "пропуски тура", "выигранные партии", "сухие победы",
                         "разница очков"]
    # Ann's name looks like a formula: it is kept as text, wherever it stands.
    assert "'=Ann" in {cell for row in rows for cell in row}
    assert "=Ann" not in {cell for row in rows for cell in row}
    # What the rows say in words is in the file's language too: a table not yet played,
    # and the bye.
    assert [row[9] for row in rows[1:rows.index([])]] == ["раздач ещё нет", "пропуск тура"]
    persian = client.get(f"/n/{night_id}/results.csv?lang=fa").data.decode("utf-8")
    assert next(csv.reader(io.StringIO(persian[1:])))[:4] == ["دور", "میز", "اولی", "دومی"]
    (table,) = tables(client.application, night_id, 1)
    play_out(client, table.game_id, 0)  # 110 to 0; the classic rules count no shutout
    client.post(f"/g/{table.game_id}/confirm")
    body = client.get(f"/n/{night_id}/results.csv?lang=ru").data.decode("utf-8")
    first = next(row for row in csv.reader(io.StringIO(body[1:])) if row[1] == "1")
    assert first[4:] == ["110", "0", table.a, "нет", "нет", "подтверждена", "нет", ""]
    persian = client.get(f"/n/{night_id}/results.csv?lang=fa").data.decode("utf-8")
    first = next(row for row in csv.reader(io.StringIO(persian[1:])) if row[1] == "1")
    assert first[7:] == ["نه", "نه", "تأییدشده", "نه", ""]
    assert client.get(f"/n/{night_id}/results.csv?lang=xx").status_code == 400
