"""What the table reads on its forms and pages: the players' names where a choice names
a player."""

from __future__ import annotations

import re

from flask.testing import FlaskClient


def dealer_choices(html: str) -> list[str]:
    """The first dealer's choices as they read, in order."""
    block = re.search(r"<fieldset[^>]*>\s*<legend>First dealer.*?</fieldset>", html, re.S)
    assert block, html
    labels = re.findall(r'<label class="choice"[^>]*>.*?</label>', block.group(0), re.S)
    return [re.sub(r"<[^>]+>", "", label).strip() for label in labels]


def test_the_first_dealer_choices_name_the_groups_players(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Friday", "players": ["Ann", "Bob"]})
    assert group.status_code == 201
    client.get(group.get_json()["edit_url"])  # this phone may edit the group now
    page = client.get(f"/games/new?group={group.get_json()['id']}")
    assert page.status_code == 200
    assert dealer_choices(page.get_data(as_text=True)) == [
        "Ann", "Bob", "Player 3", "Player 4", "Draw for it"]


def test_a_refused_new_game_names_the_typed_players_as_dealers(client: FlaskClient) -> None:
    page = client.post("/games/new", data={
        "variant": "three_hand", "player1": "Ann", "player2": "", "player3": "Cid",
        "dealer": "0", "captain": "auto"})
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    assert dealer_choices(html) == ["Ann", "Player 2", "Cid", "Player 4", "Draw for it"]
    captain = re.search(r'<select[^>]*id="captain".*?</select>', html, re.S)
    assert captain
    assert re.findall(r"<option[^>]*>([^<]*)</option>", captain.group(0)) == [
        "The player after the box", "Ann", "Player 2", "Cid"]
