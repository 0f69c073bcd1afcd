"""An undone or deleted hand comes back exactly as it was entered."""

from __future__ import annotations

import html
import re
from typing import Any

from flask.testing import FlaskClient

from tests.examples import SECTION_8
from tests.helpers import new_game, new_remi, post_remi_cards, state, version_of, win

# RULES §8 example 7 with cards: Bob undercuts, 11.
CARD_HAND = {
    "knocker": "0",
    "knocker_cards": "KS KH KD 5S 6S 7S 9C TC JC JD",
    "defender_cards": "8S 9S 7C 8C 2S 2H 2D 2C AC 8D",
}


def post(client: FlaskClient, url: str, **data: Any) -> Any:
    return client.post(url, data={"version": str(version_of(client, url.split("/")[2])), **data})


def restore_forms(page: str) -> list[tuple[str, str]]:
    """Each restore form on a page: (its action, its text)."""
    forms = re.findall(
        r'<form method="post" class="restore" action="([^"]+)">(.*?)</form>', page, re.S
    )
    return [
        (action, " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split()))
        for action, body in forms
    ]


def flashes(page: str) -> list[str]:
    return [html.unescape(m).strip() for m in re.findall(r'class="flash[^"]*"[^>]*>([^<]*)<', page)]


def card_game(client: FlaskClient) -> str:
    game = new_game(client)
    win(client, game, 0, 10)
    response = post(client, f"/g/{game}/hands/new", **CARD_HAND)
    assert response.status_code == 302, response.get_data(as_text=True)
    return game


def test_undo_then_restore_puts_the_card_hand_back_exactly(client: FlaskClient) -> None:
    game = card_game(client)
    before = state(client, game)
    assert post(client, f"/g/{game}/undo").status_code == 302
    page = client.get(f"/g/{game}").get_data(as_text=True)
    [(action, text)] = restore_forms(page)
    assert text == "Hand 2 undone — Restore"
    response = post(client, action)
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/g/{game}#hand-2")
    after = state(client, game)
    assert after["hands"] == before["hands"]
    assert after["hands"][1]["inputs"]["knocker_cards"] == CARD_HAND["knocker_cards"].split()
    assert after["totals"] == before["totals"] == [10, 11]
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert restore_forms(page) == []  # nothing left to take back
    assert "Hand 2 restored." in flashes(page)


def test_a_restore_is_in_the_history_and_happens_once(client: FlaskClient) -> None:
    game = card_game(client)
    post(client, f"/g/{game}/undo")
    history = client.get(f"/g/{game}/history").get_data(as_text=True)
    [(action, text)] = restore_forms(history)
    assert text == "Restore"
    assert post(client, action).status_code == 302
    again = post(client, action)
    assert again.status_code == 302
    assert len(state(client, game)["hands"]) == 2
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "That one was restored already." in flashes(page)
    history = client.get(f"/g/{game}/history").get_data(as_text=True)
    assert restore_forms(history) == []


def test_a_deleted_hand_goes_back_to_its_place(client: FlaskClient) -> None:
    game = new_game(client)
    for points in (10, 20, 30):
        win(client, game, 0, points)
    post(client, f"/g/{game}/hands/2/delete")
    win(client, game, 1, 5)
    assert [h["points"] for h in state(client, game)["hands"]] == [10, 30, 5]
    history = client.get(f"/g/{game}/history").get_data(as_text=True)
    [(action, _text)] = restore_forms(history)
    # Hands 2 and 3 stand in its place now: which move is said, and asked first.
    asking = post(client, action)
    assert asking.status_code == 409
    assert ("Hand 2 comes back as number 2, where others stand now: those numbered 2 to 3 "
            "become 3 to 4.") in html.unescape(asking.get_data(as_text=True))
    assert [h["points"] for h in state(client, game)["hands"]] == [10, 30, 5]
    assert post(client, action, confirm="move").status_code == 302
    data = state(client, game)
    assert [h["points"] for h in data["hands"]] == [10, 20, 30, 5]
    assert [h["number"] for h in data["hands"]] == [1, 2, 3, 4]
    assert data["totals"] == [60, 5]


def test_an_undone_hand_comes_back_as_the_last_hand(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 10)
    win(client, game, 0, 20)
    post(client, f"/g/{game}/undo")
    win(client, game, 1, 7)
    history = client.get(f"/g/{game}/history").get_data(as_text=True)
    [(action, _text)] = restore_forms(history)
    assert post(client, action).status_code == 302
    assert [h["points"] for h in state(client, game)["hands"]] == [10, 7, 20]


def test_a_restore_that_no_longer_fits_is_refused_with_the_reason(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 10)
    post(client, f"/g/{game}/undo")
    win(client, game, 0, 60)
    win(client, game, 0, 40)  # the game is over since
    history = client.get(f"/g/{game}/history").get_data(as_text=True)
    [(action, _text)] = restore_forms(history)
    response = post(client, action)
    assert response.status_code == 302
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "The game is over: no more hands, so this one cannot come back." in flashes(page)
    assert [h["points"] for h in state(client, game)["hands"]] == [60, 40]


def test_a_deleted_hand_whose_place_is_gone(client: FlaskClient) -> None:
    game = new_game(client)
    for points in (10, 20, 30):
        win(client, game, 0, points)
    post(client, f"/g/{game}/hands/3/delete")
    post(client, f"/g/{game}/undo")
    post(client, f"/g/{game}/undo")
    history = client.get(f"/g/{game}/history").get_data(as_text=True)
    delete_action = restore_forms(history)[-1][0]  # the oldest entry is listed last
    response = post(client, delete_action)
    assert response.status_code == 302
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "Its old place is past the end of the sheet now, so it was not restored." in flashes(
        page
    )
    assert state(client, game)["hands"] == []


def test_restore_checks_the_version_and_the_right_to_edit(client: FlaskClient) -> None:
    game = card_game(client)
    post(client, f"/g/{game}/undo")
    [(action, _text)] = restore_forms(client.get(f"/g/{game}").get_data(as_text=True))
    stale = client.post(action, data={"version": str(version_of(client, game) - 1)})
    assert stale.status_code == 302
    assert len(state(client, game)["hands"]) == 1
    page = client.get(f"/g/{game}").get_data(as_text=True)
    assert "Another phone changed this game first; nothing was restored." in flashes(page)
    watcher = client.application.test_client()
    assert restore_forms(watcher.get(f"/g/{game}").get_data(as_text=True)) == []
    assert restore_forms(watcher.get(f"/g/{game}/history").get_data(as_text=True)) == []
    refused = watcher.post(action, data={"version": str(version_of(client, game))})
    assert refused.status_code == 403
    assert len(state(client, game)["hands"]) == 1


def test_a_remi_deal_with_cards_comes_back(client: FlaskClient) -> None:
    game = new_remi(client)
    assert post_remi_cards(client, game, SECTION_8).status_code == 302
    before = state(client, game)
    post(client, f"/g/{game}/undo")
    page = client.get(f"/g/{game}").get_data(as_text=True)
    [(action, text)] = restore_forms(page)
    assert text == "Deal 1 undone — Restore"
    assert post(client, action).status_code == 302
    assert state(client, game)["hands"] == before["hands"]
    assert state(client, game)["totals"] == [200, -10, 15, -60]


def test_a_delete_or_undo_on_a_stale_sheet_takes_nothing_back(client: FlaskClient) -> None:
    game = new_game(client)
    win(client, game, 0, 10)
    win(client, game, 1, 20)
    stale = str(version_of(client, game))
    win(client, game, 0, 30)  # another phone saves hand 3
    before = state(client, game)["hands"]
    client.get(f"/g/{game}")  # the saves' own messages are shown
    for url, words in (
        (f"/g/{game}/hands/1/delete", "nothing was deleted"),
        (f"/g/{game}/undo", "nothing was undone"),
    ):
        response = client.post(url, data={"version": stale}, follow_redirects=True)
        assert flashes(response.get_data(as_text=True)) == [
            f"Another phone changed this game first; {words}."
        ]
        assert state(client, game)["hands"] == before
