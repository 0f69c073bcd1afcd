"""A disputed hand at a night's table goes to the checker; the ruling kept there is
linked from the round (the organiser's page, the API) and from the game's sheet. The
organiser's secret opens a table's game ready to edit, as the table's own key does."""

from __future__ import annotations

import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import get_session
from scorekeeper.models import Night, Ruling
from tests.examples import DEFENDER, KNOCKER
from tests.helpers import night_tables as tables
from tests.helpers import play_out, win
from tests.helpers import start_night as start


def check_form(**extra: str) -> dict[str, str]:
    # modern: Defender undercuts, 26 (tests/test_rulings.py works it out).
    return {"preset": "modern", "knocker_cards": KNOCKER, "defender_cards": DEFENDER, **extra}


def keep(client: FlaskClient, **about: str) -> str:
    """Check the hand (from a game's hand when ``about`` has ``game`` and ``hand``), keep
    the ruling with the form the check page gives, and return the ruling's id."""
    page = client.post("/check", data=check_form(**about)).get_data(as_text=True)
    form = re.search(r'<form method="post" action="/rulings".*?</form>', page, re.S)
    assert form, page
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">',
                             form.group(0)))
    response = client.post("/rulings", data=fields)
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[-1]


def ruling(app: Flask, ruling_id: str) -> Ruling:
    with app.test_request_context():
        found = get_session().get(Ruling, ruling_id)
        assert found is not None
        return found


def organiser_secret(app: Flask, night_id: str) -> str:
    with app.test_request_context():
        night = get_session().get(Night, night_id)
        assert night is not None
        return night.organiser_secret


def test_a_ruling_kept_from_a_tables_hand_is_linked_from_its_round(
    client: FlaskClient, app: Flask
) -> None:
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first, second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)  # two hands: Ann wins 110 to 0
    # The sheet's way to the checker carries the game and a hand, the last one chosen.
    sheet = client.get(f"/g/{first.game_id}").get_data(as_text=True)
    form = re.search(r'<form method="get" action="/check".*?</form>', sheet, re.S)
    assert form, sheet
    assert f'<input type="hidden" name="game" value="{first.game_id}">' in form.group(0)
    assert re.findall(r'<option value="(\d)"( selected)?>', form.group(0)) == [
        ("1", ""), ("2", " selected")]
    # Opened from hand 2, the checker says so and takes the game's rules (classic).
    page = unescape(client.get(f"/check?game={first.game_id}&hand=2").get_data(as_text=True))
    assert "A ruling kept here is about hand 2 of the game" in page
    assert re.search(r'<option selected value="classic">', page), page
    ruling_id = keep(client, game=first.game_id, hand="2")
    kept = ruling(app, ruling_id)
    assert (kept.game_id, kept.hand, kept.verdict["points"]) == (first.game_id, 2, 26)
    link = f'href="/rulings/{ruling_id}"'
    # The organiser's page links it from table 1's row, not from table 2's.
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    row1 = re.search(r'<tr id="table-1-1".*?</tr>', page, re.S)
    row2 = re.search(r'<tr id="table-1-2".*?</tr>', page, re.S)
    assert row1 and row2
    assert link in row1.group(0) and "Ruling on hand 2" in row1.group(0)
    assert "/rulings/" not in row2.group(0)
    # The game's sheet lists it.
    sheet = client.get(f"/g/{first.game_id}").get_data(as_text=True)
    assert f'{link} data-ruling="{ruling_id}">Ruling on hand 2</a>' in sheet
    assert "/rulings/" not in client.get(f"/g/{second.game_id}").get_data(as_text=True)
    # The API's tables carry it.
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert [t["rulings"] for t in seen["rounds"][0]["tables"]] == [
        [f"http://localhost/rulings/{ruling_id}"], []]
    # The OpenAPI document describes them: a list of links.
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    rulings = schemas["NightTable"]["properties"]["rulings"]
    assert rulings["type"] == "array" and rulings["items"]["format"] == "uri"
    # Once the round is over, the round's listing among the past rounds links it.
    client.post(f"/g/{first.game_id}/confirm")
    play_out(client, second.game_id, 1)
    client.post(f"/g/{second.game_id}/confirm")
    assert client.post(f"/n/{night_id}/rounds", data={"round": "1"}).status_code == 302
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    past = re.search(r'<details class="past-round">.*?</details>', page, re.S)
    assert past and 'id="round-1"' in past.group(0)
    assert past.group(0).count("/rulings/") == 1 and link in past.group(0)
    # The board links no game, and so no ruling.
    board = client.get(f"/n/{night_id}/board").get_data(as_text=True)
    assert ruling_id not in board


def test_a_ruling_from_the_plain_checker_is_linked_nowhere(
    client: FlaskClient, app: Flask
) -> None:
    night_id = start(client, "Ann\nBob")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = tables(app, night_id, 1)
    play_out(client, table.game_id, 0)
    plain = keep(client)
    # A game that is not there, or a hand the game has not played: about nothing.
    unknown = keep(client, game="nosuchgame", hand="1")
    too_far = keep(client, game=table.game_id, hand="3")
    for ruling_id in (plain, unknown, too_far):
        assert (ruling(app, ruling_id).game_id, ruling(app, ruling_id).hand) == (None, None)
    assert "about hand" not in client.get(
        f"/check?game={table.game_id}&hand=3").get_data(as_text=True)
    assert "/rulings/" not in client.get(f"/n/{night_id}").get_data(as_text=True)
    assert "/rulings/" not in client.get(f"/g/{table.game_id}").get_data(as_text=True)
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["rounds"][0]["tables"][0]["rulings"] == []


def editable(client: FlaskClient, game_id: str) -> bool:
    """Whether the sheet offers this browser the form to enter a hand."""
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    return f'action="/g/{game_id}/hands' in page


def test_the_organisers_secret_opens_a_tables_game_ready_to_edit(
    client: FlaskClient, app: Flask
) -> None:
    night_id = start(client)
    other_night = start(client, "Eve\nFay")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    client.post(f"/n/{other_night}/rounds", data={"round": "0"})
    first, second = tables(app, night_id, 1)
    (elsewhere,) = tables(app, other_night, 1)
    secret = organiser_secret(app, night_id)
    with app.test_client() as phone:
        # A wrong key, or another night's organiser's, grants nothing.
        for key in ("not-the-key", organiser_secret(app, other_night)):
            response = phone.get(f"/g/{first.game_id}?key={key}", follow_redirects=True)
            assert "That edit link is not right" in response.get_data(as_text=True)
            assert not editable(phone, first.game_id)
        # The night's organiser's secret does, for this game only.
        response = phone.get(f"/g/{first.game_id}?key={secret}")
        assert response.status_code == 302
        assert response.headers["Location"].endswith(f"/g/{first.game_id}")
        assert editable(phone, first.game_id)
        assert not editable(phone, second.game_id)
        assert not editable(phone, elsewhere.game_id)
        # It does not make the phone the night's organiser.
        assert phone.get(f"/n/{night_id}").headers["Location"].endswith(
            f"/n/{night_id}/board")
        # The phone enters a hand: Ann knocks and wins 25.
        win(phone, first.game_id, 0, 25)
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["rounds"][0]["tables"][0]["scores"] == [25, 0]


def test_only_the_tables_scorer_or_organiser_attaches_a_ruling_to_its_hand(
    client: FlaskClient, app: Flask
) -> None:
    night_id = start(client, "Ann\nBob")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = tables(app, night_id, 1)
    play_out(client, table.game_id, 0)
    with app.test_client() as watcher:
        # A phone with only the watch link sees no way to the checker on the sheet,
        # and a form posted with the game and hand all the same keeps a plain ruling.
        assert 'class="check-hand' not in watcher.get(
            f"/g/{table.game_id}").get_data(as_text=True)
        assert "about hand" not in watcher.get(
            f"/check?game={table.game_id}&hand=1").get_data(as_text=True)
        plain = keep(watcher, game=table.game_id, hand="1")
    assert (ruling(app, plain).game_id, ruling(app, plain).hand) == (None, None)
    assert "/rulings/" not in client.get(f"/g/{table.game_id}").get_data(as_text=True)
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["rounds"][0]["tables"][0]["rulings"] == []
    # The organiser's browser runs the night without the game's own right: it attaches.
    with app.test_client() as organiser:
        organiser.get(f"/n/{night_id}?key={organiser_secret(app, night_id)}")
        assert not editable(organiser, table.game_id)
        kept = keep(organiser, game=table.game_id, hand="2")
    assert (ruling(app, kept).game_id, ruling(app, kept).hand) == (table.game_id, 2)
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["rounds"][0]["tables"][0]["rulings"] == [f"http://localhost/rulings/{kept}"]
