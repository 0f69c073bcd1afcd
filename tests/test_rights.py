"""What a browser may change, and for how long: a right outlives the browser session;
the page drawn right after making a game, a group or a night says this phone keeps it
and offers its link; a PIN lets one phone keep score, never hand the game on, and a new
PIN ends what the old one gave."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.models import Change, Game, Group, Night
from tests.helpers import new_game, quick, start_night


def secret_of(app: Flask, model: type[Game] | type[Group], item_id: str) -> str:
    with app.extensions["scorekeeper.db"]() as db:
        item = db.get(model, item_id)
        assert item is not None
        return item.edit_secret


def organiser_secret(app: Flask, night_id: str) -> str:
    with app.extensions["scorekeeper.db"]() as db:
        night = db.get(Night, night_id)
        assert night is not None
        return night.organiser_secret


def session_expiry(response: object) -> datetime:
    """When the session cookie the response sets expires."""
    cookies = [c for c in response.headers.getlist("Set-Cookie")  # type: ignore[attr-defined]
               if c.startswith("session=")]
    assert len(cookies) == 1, cookies
    found = re.search(r"Expires=([^;]+)", cookies[0])
    assert found, cookies[0]
    return parsedate_to_datetime(found.group(1))


def new_group(client: FlaskClient, **extra: str) -> str:
    response = client.post("/groups/new", data={"name": "Friday", "players": "Ann\nBob", **extra})
    assert response.status_code == 302, response.get_data(as_text=True)
    found = re.search(r"/groups/([\w-]+)$", response.headers["Location"])
    assert found
    return found.group(1)


# --- a right outlives the browser -----------------------------------------------------


def test_the_cookie_that_holds_a_new_game_lasts_400_days(client: FlaskClient) -> None:
    before = datetime.now(UTC).replace(microsecond=0)  # a cookie's date has whole seconds
    response = client.post("/games/new", data={"variant": "gin", "player1": "Ann",
                                               "player2": "Bob", "preset": "classic",
                                               "dealer": "0"})
    assert response.status_code == 302
    expiry = session_expiry(response)
    assert before + timedelta(days=400) <= expiry <= datetime.now(UTC) + timedelta(days=400)


def test_a_group_and_a_night_are_kept_in_a_lasting_cookie(client: FlaskClient) -> None:
    for path, data in (
        ("/groups/new", {"name": "Friday", "players": "Ann\nBob"}),
        ("/nights/new", {"variant": "gin", "entrants": "Ann\nBob\nCy\nDi",
                         "format": "round_robin", "preset": "classic",
                         "order": "games_won shutouts point_difference head_to_head"}),
    ):
        response = client.post(path, data=data)
        assert response.status_code == 302, path
        assert session_expiry(response) > datetime.now(UTC) + timedelta(days=399), path


def test_a_pin_right_is_kept_in_a_lasting_cookie(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, pin="4321")
    phone = app.test_client()
    response = phone.post(f"/g/{game}/unlock", data={"pin": "4321"})
    assert response.status_code == 302
    assert session_expiry(response) > datetime.now(UTC) + timedelta(days=399)


def test_the_api_sets_no_cookie(client: FlaskClient) -> None:
    response = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
    assert response.status_code == 201
    assert response.headers.getlist("Set-Cookie") == []


# --- "this phone keeps score", right after making it ----------------------------------


def test_the_sheet_after_creating_says_this_phone_keeps_score(app: Flask,
                                                             client: FlaskClient) -> None:
    game = new_game(client)
    secret = secret_of(app, Game, game)
    first = client.get(f"/g/{game}")
    html = first.get_data(as_text=True)
    assert "This phone keeps score in this game, also after the browser is closed." in html
    assert f'value="http://localhost/g/{game}?key={secret}"' in html
    assert f'src="/g/{game}/qr/edit.svg"' in html
    assert first.headers["X-Shows-Edit-Link"] == "1"
    assert first.headers["Cache-Control"] == "private, no-store"
    # Said once: the sheet drawn again keeps the link in the share section's own page.
    again = client.get(f"/g/{game}")
    assert "This phone keeps score in this game" not in again.get_data(as_text=True)
    assert secret not in again.get_data(as_text=True)
    assert "X-Shows-Edit-Link" not in again.headers


def test_the_notice_is_for_the_browser_that_made_the_game(app: Flask,
                                                          client: FlaskClient) -> None:
    game = new_game(client)
    secret = secret_of(app, Game, game)
    other = app.test_client()
    assert other.get(f"/g/{game}?key={secret}").status_code == 302
    html = other.get(f"/g/{game}").get_data(as_text=True)
    assert "This phone keeps score in this game" not in html
    assert secret not in html


def test_a_new_group_says_this_phone_keeps_it(app: Flask, client: FlaskClient) -> None:
    group = new_group(client)
    secret = secret_of(app, Group, group)
    html = client.get(f"/groups/{group}").get_data(as_text=True)
    assert "This phone keeps this group's score, also after the browser is closed." in html
    assert f'value="http://localhost/groups/{group}?key={secret}"' in html
    assert f'src="/groups/{group}/qr/edit.svg"' in html
    assert secret not in client.get(f"/groups/{group}").get_data(as_text=True)


def test_a_new_night_says_this_phone_runs_it(app: Flask, client: FlaskClient) -> None:
    night = start_night(client)
    secret = organiser_secret(app, night)
    html = client.get(f"/n/{night}").get_data(as_text=True)
    assert "This phone runs the night, also after the browser is closed." in html
    assert html.count(f"http://localhost/n/{night}?key={secret}") == 2  # notice, links
    qr = client.get(f"/n/{night}/qr/organiser.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert qr.headers["Cache-Control"] == "private, no-store"
    assert app.test_client().get(f"/n/{night}/qr/organiser.svg").status_code == 403
    assert "This phone runs the night" not in client.get(f"/n/{night}").get_data(as_text=True)


# --- a PIN keeps score on one phone --------------------------------------------------


def test_a_pin_phone_never_sees_the_edit_link(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, pin="4321")
    secret = secret_of(app, Game, game)
    phone = app.test_client()
    assert phone.post(f"/g/{game}/unlock", data={"pin": "4321"}).status_code == 302
    sheet = phone.get(f"/g/{game}").get_data(as_text=True)
    assert 'action="/g/' + game + '/hands#enter"' in sheet  # it keeps score
    assert secret not in sheet
    assert f"/g/{game}/share/edit" not in sheet
    assert "Only the phone with the edit link can show that link or change the PIN." in sheet
    assert phone.get(f"/g/{game}/share/edit").status_code == 403
    assert phone.get(f"/g/{game}/qr/edit.svg").status_code == 403
    # Nor may it set a PIN of its own to hand the game on.
    assert phone.post(f"/g/{game}/pin", data={"pin": "9999"}).status_code == 403
    # The creator still may.
    assert client.get(f"/g/{game}/share/edit").status_code == 200
    assert client.post(f"/g/{game}/pin", data={"pin": "9999"}).status_code == 302


def test_a_new_pin_ends_what_the_old_one_gave(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, pin="4321")
    phone = app.test_client()
    assert phone.post(f"/g/{game}/unlock", data={"pin": "4321"}).status_code == 302
    assert quick(phone, game, "knock", 0, 3, 20).status_code == 302
    assert client.post(f"/g/{game}/pin", data={"pin": "5678"}).status_code == 302
    assert quick(phone, game, "knock", 0, 3, 20).status_code == 403
    sheet = phone.get(f"/g/{game}").get_data(as_text=True)
    assert "You are watching this game." in sheet
    # The new PIN lets the phone in again; the creator's link was never touched.
    assert phone.post(f"/g/{game}/unlock", data={"pin": "4321"}).status_code == 422
    assert phone.post(f"/g/{game}/unlock", data={"pin": "5678"}).status_code == 302
    assert quick(phone, game, "knock", 1, 2, 12).status_code == 302
    assert quick(client, game, "knock", 0, 5, 9).status_code == 302
    with app.extensions["scorekeeper.db"]() as db:
        added = db.scalars(select(Change.by).where(Change.game_id == game,
                                                   Change.action == "add")
                           .order_by(Change.id)).all()
    assert added == ["PIN", "PIN", "edit link"]


def test_a_pin_phone_that_opens_the_edit_link_holds_it(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, pin="4321")
    secret = secret_of(app, Game, game)
    phone = app.test_client()
    phone.post(f"/g/{game}/unlock", data={"pin": "4321"})
    assert phone.get(f"/g/{game}?key={secret}").status_code == 302
    assert client.post(f"/g/{game}/pin", data={"pin": "5678"}).status_code == 302
    assert phone.get(f"/g/{game}/share/edit").status_code == 200
    assert quick(phone, game, "knock", 0, 3, 20).status_code == 302


def test_a_group_pin_grants_changes_not_the_link(app: Flask, client: FlaskClient) -> None:
    group = new_group(client, pin="2468")
    secret = secret_of(app, Group, group)
    phone = app.test_client()
    assert phone.post(f"/groups/{group}/unlock", data={"pin": "2468"}).status_code == 302
    page = phone.get(f"/groups/{group}").get_data(as_text=True)
    assert secret not in page
    assert "This phone changes the group with the PIN." in page
    assert phone.get(f"/groups/{group}/share/edit").status_code == 403
    assert phone.get(f"/groups/{group}/qr/edit.svg").status_code == 403
    assert phone.post(f"/groups/{group}/pin", data={"pin": "1111"}).status_code == 403
    assert phone.get(f"/games/new?group={group}").status_code == 200
    assert client.post(f"/groups/{group}/pin", data={"pin": "1357"}).status_code == 302
    assert phone.get(f"/games/new?group={group}").status_code == 403


def test_an_old_cookies_pin_right_is_not_taken_for_the_link(app: Flask) -> None:
    """A browser from before the two were told apart listed a PIN's game under both
    ``edit`` and ``pin``: that is a PIN's right, which it has to ask for again."""
    maker = app.test_client()
    game = new_game(maker, pin="4321")
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["edit"] = [game]
        session["pin"] = [game]
    assert phone.get(f"/g/{game}/share/edit").status_code == 403
    assert quick(phone, game, "knock", 0, 3, 20).status_code == 403
