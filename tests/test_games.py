"""Keeping score of a two-player game (RULES.md §2.4, §2.5, §8) through the pages."""

from __future__ import annotations

from html import unescape

from flask.testing import FlaskClient

from tests.helpers import new_game, quick, state, version_of, win


def seen(page: str) -> str:
    """A page's text as a reader sees it: entities decoded, the invisible isolates
    around names (U+2068, U+2069) left out."""
    return unescape(page).replace("\u2068", "").replace("\u2069", "")


def test_new_game_page_shows_the_form(client: FlaskClient) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    assert "Player 1" in page and "Start the game" in page


def test_missing_names_are_refused_at_the_field_and_typed_values_kept(client: FlaskClient) -> None:
    response = client.post(
        "/games/new",
        data={
            "variant": "gin",
            "player1": "Ann",
            "player2": "",
            "preset": "classic",
            "dealer": "0",
            "target": "150",
        },
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert 'value="Ann"' in page and 'value="150"' in page
    assert "This field is required" in page


def test_russian_game_end_example(client: FlaskClient) -> None:
    """RULES §8: A wins 15, 55, 33; B wins 47, 28 → A 278, B 125, margin 153."""
    game = new_game(client, "russian")
    for seat, points in [(0, 15), (1, 47), (0, 55), (1, 28), (0, 33)]:
        win(client, game, seat, points)
    data = state(client, game)
    assert data["finished"] and data["winner"] == 0
    assert data["settlement"]["finals"] == [278, 125]
    assert data["settlement"]["margin"] == 153
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "278" in page and "125" in page and "153" in page
    assert f'action="/g/{game}/hands#enter"' not in page  # the game is over: no new hands


def test_russian_shutout_example(client: FlaskClient) -> None:
    """RULES §8: A wins 4 hands worth 103, B nothing → (103 + 100) × 2 + 4 × 25 = 506."""
    game = new_game(client, "russian")
    for points in (20, 30, 30, 23):
        win(client, game, 0, points)
    assert state(client, game)["settlement"]["finals"][0] == 506


def test_pagat_shutout_example(client: FlaskClient) -> None:
    """RULES §8: pagat → 103 + 100 + 100 + 4 × 20 = 383."""
    game = new_game(client, "pagat")
    for points in (20, 30, 30, 23):
        win(client, game, 0, points)
    assert state(client, game)["settlement"]["finals"][0] == 383


def test_an_undercut_can_end_the_game(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 95)
    response = quick(client, game, "knock", 0, 10, 0)  # Bob undercuts: 10 + 10 = 20
    assert response.status_code == 302
    data = state(client, game)
    assert data["hands"][-1]["outcome"] == "undercut"
    assert data["totals"] == [95, 20]
    assert not data["finished"]
    for _ in range(4):
        quick(client, game, "knock", 0, 10, 0)
    data = state(client, game)
    assert data["finished"] and data["winner"] == 1


def test_dead_hand_keeps_the_dealer_and_gives_no_box(client: FlaskClient) -> None:
    game = new_game(client)
    assert quick(client, game, "dead", None).status_code == 302
    data = state(client, game)
    assert data["hands"][0]["outcome"] == "dead"
    assert data["boxes"] == [0, 0] and data["next_dealer"] == 0
    assert "dead hand" in client.get(f"/g/{game}").get_data(as_text=True)


def test_winner_deals_next_by_default(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 1, 10)
    assert state(client, game)["next_dealer"] == 1


def test_loser_deals_next_when_set(client: FlaskClient) -> None:
    game = new_game(client, next_dealer="loser")
    win(client, game, 1, 10)
    assert state(client, game)["next_dealer"] == 0


def test_knock_over_the_limit_is_refused_with_the_reason(client: FlaskClient) -> None:
    game = new_game(client)
    response = quick(client, game, "knock", 0, 14, 20)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "14" in page and 'value="20"' in page
    assert state(client, game)["hands"] == []


def test_gin_with_deadwood_and_negative_numbers_are_refused(client: FlaskClient) -> None:
    game = new_game(client)
    assert quick(client, game, "gin", 0, 3, 20).status_code == 422
    assert quick(client, game, "knock", 0, -1, 20).status_code == 422
    assert state(client, game)["hands"] == []


def test_missing_knocker_is_asked_for(client: FlaskClient) -> None:
    game = new_game(client)
    response = quick(client, game, "knock", None, 3, 20)
    assert response.status_code == 422
    assert "Choose who went out" in response.get_data(as_text=True)


def test_double_submit_saves_one_hand(client: FlaskClient) -> None:
    game = new_game(client)
    data = {
        "outcome": "knock",
        "knocker": "0",
        "knocker_deadwood": "3",
        "defender_deadwood": "20",
        "version": str(version_of(client, game)),
        "token": "tap-1",
    }
    first = client.post(f"/g/{game}/hands", data=data)
    again = client.post(f"/g/{game}/hands", data=data)
    assert (first.status_code, again.status_code) == (302, 302)
    assert first.location == again.location == f"/g/{game}#hand-1"
    assert len(state(client, game)["hands"]) == 1


def test_a_stale_form_is_refused_and_keeps_what_was_typed(client: FlaskClient) -> None:
    game = new_game(client)
    stale = version_of(client, game)
    win(client, game, 0, 10)  # the other phone
    response = client.post(
        f"/g/{game}/hands",
        data={
            "outcome": "knock",
            "knocker": "1",
            "knocker_deadwood": "4",
            "defender_deadwood": "17",
            "version": str(stale),
            "token": "other",
        },
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Another phone changed this game" in page
    assert 'value="17"' in page
    assert len(state(client, game)["hands"]) == 1


def test_card_mode_hand_is_checked_and_explained(client: FlaskClient) -> None:
    """RULES §8 example 7 entered with cards."""
    game = new_game(client)
    response = client.post(
        f"/g/{game}/hands/new",
        data={
            "knocker": "0",
            "version": str(version_of(client, game)),
            "token": "c1",
            "knocker_cards": "KS KH KD 5S 6S 7S 9C TC JC JD",
            "defender_cards": "8S 9S 7C 8C 2S 2H 2D 2C AC 8D",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    data = state(client, game)
    hand = data["hands"][0]
    assert hand["outcome"] == "undercut" and hand["winner"] == 1 and hand["points"] == 11
    page = client.get(f"/g/{game}/hands/1").get_data(as_text=True)
    assert "8♠" in page and "11" in page


def test_card_mode_errors_stay_at_the_field(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.post(
        f"/g/{game}/hands/new",
        data={
            "knocker": "0",
            "version": str(version_of(client, game)),
            "token": "c2",
            "knocker_cards": "KS KH KD 5S 6S 7S 9C TC JC 7H",
            "defender_cards": "7H 9S 7C 8C 2S 2H 2D 2C AC 8D",
        },
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "7♥" in page and "KS KH KD 5S 6S 7S 9C TC JC 7H" in page
    assert state(client, game)["hands"] == []


def test_edit_ends_and_unends_the_game(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 60)
    win(client, game, 0, 30)
    assert not state(client, game)["finished"]
    response = client.post(
        f"/g/{game}/hands/2/edit",
        data={
            "outcome": "knock",
            "knocker": "0",
            "knocker_deadwood": "1",
            "defender_deadwood": "42",
            "version": str(version_of(client, game)),
        },
    )
    assert response.status_code == 302
    assert state(client, game)["finished"]
    response = client.post(
        f"/g/{game}/hands/2/edit",
        data={
            "outcome": "knock",
            "knocker": "0",
            "knocker_deadwood": "1",
            "defender_deadwood": "11",
            "version": str(version_of(client, game)),
        },
    )
    assert not state(client, game)["finished"]
    history = client.get(f"/g/{game}/history").get_data(as_text=True)
    assert "Hand 2 corrected: Ann knocked with 1; Bob's deadwood 11 (was 42)." in seen(history)


def test_quick_hand_reentered_with_cards(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 5)
    assert client.get(f"/g/{game}/hands/1/edit?mode=cards").status_code == 200
    response = client.post(
        f"/g/{game}/hands/1/edit?mode=cards",
        data={
            "knocker": "0",
            "version": str(version_of(client, game)),
            "knocker_cards": "AS 2S 3S 4H 5H 6H 7D 8D 9D KC",
            "defender_cards": "KS KH KD QC QD QH 2C 3C 4C 5C",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    hand = state(client, game)["hands"][0]
    assert hand["inputs"]["mode"] == "cards" and hand["outcome"] == "undercut"


def test_delete_and_undo_renumber_and_recompute(client: FlaskClient) -> None:
    game = new_game(client)
    for points in (10, 20, 30):
        win(client, game, 0, points)
    assert "Delete hand 2?" in client.get(f"/g/{game}/hands/2/delete").get_data(as_text=True)
    client.post(f"/g/{game}/hands/2/delete", data={"version": str(version_of(client, game))})
    assert [h["points"] for h in state(client, game)["hands"]] == [10, 30]
    client.post(f"/g/{game}/undo", data={"version": str(version_of(client, game))})
    assert [h["points"] for h in state(client, game)["hands"]] == [10]
    history = client.get(f"/g/{game}/history").get_data(as_text=True)
    assert "Hand 2 deleted: Ann knocked with 1; Bob's deadwood 21." in seen(history)
    assert "Hand 2 undone: Ann knocked with 1; Bob's deadwood 31." in seen(history)


def test_watchers_cannot_change_anything(app: object, client: FlaskClient) -> None:
    game = new_game(client)
    watcher = client.application.test_client()
    page = watcher.get(f"/g/{game}").get_data(as_text=True)
    assert f'action="/g/{game}/hands#enter"' not in page and "watching" in page
    assert watcher.post(f"/g/{game}/hands", data={"outcome": "dead"}).status_code == 403
    assert watcher.post(f"/g/{game}/undo", data={}).status_code == 403
    assert watcher.post(f"/g/{game}/hands/1/edit", data={}).status_code == 403


def test_edit_link_and_pin_let_another_phone_edit(client: FlaskClient) -> None:
    game = new_game(client, pin="4321")
    secret = state(client, game)  # the API does not reveal the secret
    assert "edit_secret" not in secret
    other = client.application.test_client()
    assert other.post(f"/g/{game}/unlock", data={"pin": "0000"}).status_code == 422
    assert other.post(f"/g/{game}/unlock", data={"pin": "4321"}).status_code == 302
    assert quick(other, game, "dead", None).status_code == 302


def test_rematch_keeps_players_and_rules(client: FlaskClient) -> None:
    game = new_game(client, "russian")
    win(client, game, 0, 60)
    win(client, game, 0, 60)
    response = client.post(f"/g/{game}/rematch")
    assert response.status_code == 302
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    data = state(client, new_id)
    assert data["players"] == ["Ann", "Bob"] and data["rules"]["gin_bonus"] == 25
    assert data["hands"] == []


def test_home_lists_this_browsers_games_only(client: FlaskClient) -> None:
    game = new_game(client, players=("Zed", "Yan"))
    home = client.get("/").get_data(as_text=True)
    assert f'href="/g/{game}"' in home and "Zed" in home
    stranger = client.application.test_client()
    home = stranger.get("/").get_data(as_text=True)
    assert f"/g/{game}" not in home and "Zed" not in home


def test_presets_are_frozen_into_the_game(client: FlaskClient) -> None:
    from scorekeeper.scoring import PRESETS

    game = new_game(client, "classic", target="150")
    assert state(client, game)["rules"]["target"] == 150
    assert PRESETS["classic"].target == 100
