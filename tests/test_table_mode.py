"""Table mode without JavaScript: every kind of game has a board, open to anyone who may
see the game; the way it faces is chosen by a link."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.layout import KINDS, PLAYERS, sample_game

# The sides a board shows: the players, or a partnership's two teams.
SIDES = {"partnership": ["Ann & Cid", "Bob & Dan"]}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_game_has_a_board(client: FlaskClient, kind: str) -> None:
    game_id = sample_game(client, kind)
    page = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    names = re.findall(r'<p class="side-name"><strong><bdi>(.*?)</bdi>', page)
    players = ["Ann", "Bob", "Cid", "Dan"][: PLAYERS.get(kind, 2)]
    assert [name.replace("&amp;", "&") for name in names] == SIDES.get(kind, players)
    assert 'class="last-hand"' in page


def test_a_watcher_sees_the_board_without_the_entry_link(client: FlaskClient) -> None:
    # Made through the API, so this browser only watches. Its hands, by hand (classic):
    # Ann knocks 3 v 24 (+21), Bob gins v 31 (+51), a dead hand, Ann undercuts 6 v 8 (+12).
    game_id = sample_game(client, "gin")
    page = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    assert re.findall(r'<span class="num total">(\d+)</span>', page) == ["33", "51"]
    assert 'id="enter-hand"' not in page
    assert f'href="/g/{game_id}/table?view=turned"' in page


def test_hollywoods_board_shows_every_game_column(client: FlaskClient) -> None:
    # The Russian rules a Hollywood game starts with (gin 25, undercut 25, each game to
    # 100), the sample's hands by hand: Ann knocks 3 v 24, her first win: game 1 +21.
    # Bob gins v 31, his first: game 1 +56. A dead hand. Ann undercuts 6 v 8 (2 + 25),
    # her second win: games 1 and 2 +27. Ann 48 27 0, still needing 52 73 100; Bob 56 0
    # 0, still needing 44 100 100.
    page = client.get(f"/g/{sample_game(client, 'hollywood')}/table").get_data(as_text=True)
    headings = re.findall(r'<th scope="col" aria-label="([^"]*)">', page)
    assert headings == ["Game 1", "Game 2", "Game 3"]
    assert re.findall(r'<span class="num total">(\d+)</span>', page) == [
        "48", "27", "0", "56", "0", "0"]
    needs = re.findall(r'<tr class="side-needs">(.*?)</tr>', page, re.S)
    assert [re.findall(r'<span class="num">(\d+)</span>', row) for row in needs] == [
        ["52", "73", "100"], ["44", "100", "100"]]


def test_the_way_it_faces_comes_from_the_link(client: FlaskClient) -> None:
    game_id = sample_game(client, "gin")
    assert client.get(f"/g/{game_id}/table?view=turned").get_data(as_text=True).count(
        'class="board turned"') == 1
    split = client.get(f"/g/{game_id}/table?view=split").get_data(as_text=True)
    assert split.count('class="board turned" aria-hidden="true"') == 1
    assert split.count('<section class="board"') == 1
    odd = client.get(f"/g/{game_id}/table?view=sideways").get_data(as_text=True)
    assert "turned" not in re.sub(r'href="[^"]*"', "", odd).replace("Turn for the far side", "")


def test_an_unknown_game_has_no_table(client: FlaskClient) -> None:
    assert client.get("/g/nosuchgame/table").status_code == 404
