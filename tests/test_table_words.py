"""What the table reads on its forms and pages: the players' names where a choice names
a player."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from flask.testing import FlaskClient
from flask_babel import gettext, ngettext

from tests.helpers import pdf_text

RU_CATALOG = (Path(__file__).resolve().parent.parent / "scorekeeper" / "translations" / "ru"
              / "LC_MESSAGES" / "messages.po")


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


def test_ann_and_ann_in_small_letters_are_one_player(client: FlaskClient) -> None:
    page = client.post("/games/new", data={
        "variant": "gin", "player1": "Ann", "player2": " ann", "dealer": "0"})
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    block = re.search(r'<label for="player2".*?</div>', html, re.S)
    assert block
    assert re.findall(r'<p class="error" role="alert">(.*?)</p>', block.group(0)) == [
        "Player 1 has a name that looks the same: every player needs a different name."]


def test_the_api_refuses_one_name_twice_in_other_cases_and_forms(client: FlaskClient) -> None:
    # "Zoë" with its letter whole, then as "e" and a combining diaeresis, in capitals.
    game = client.post("/api/v1/games", json={"players": ["Zo\u00eb", "ZOE\u0308"]})
    assert game.status_code == 422
    assert [e["where"] for e in game.get_json()["errors"]] == ["players[1]"]
    group = client.post("/api/v1/groups", json={"name": "Friday", "players": ["Straße", "STRASSE"]})
    assert group.status_code == 422
    assert [e["where"] for e in group.get_json()["errors"]] == ["players[1]"]


def test_a_group_roster_matches_names_typed_in_other_cases(client: FlaskClient) -> None:
    body = client.post("/api/v1/groups", json={"name": "Friday", "players": ["Ann", "Bob"]})
    group = body.get_json()
    client.get(group["edit_url"])
    page = client.post("/games/new", data={
        "variant": "gin", "player1": "ann", "player2": "BOB", "dealer": "0",
        "group": group["id"]})
    assert page.status_code == 302
    game_id = page.headers["Location"].split("/g/")[1].split("/")[0].split("?")[0]
    assert client.get(f"/api/v1/games/{game_id}").get_json()["players"] == ["Ann", "Bob"]
    assert client.get(f"/api/v1/groups/{group['id']}").get_json()["players"] == ["Ann", "Bob"]


def test_a_group_roster_refuses_ann_twice(client: FlaskClient) -> None:
    page = client.post("/groups/new", data={"name": "Friday", "players": "Ann\nann"})
    assert page.status_code == 422
    assert re.findall(r'<p class="error" role="alert">(.*?)</p>', page.get_data(as_text=True)) == [
        "Names 1 and 2 look the same: every player needs a different name."]


def test_russian_says_korobok_and_razdacha_throughout(app: Any) -> None:
    """The seed's words: «коробок» for a box line (masculine: 1 коробок, 2 коробка,
    5 коробков), «раздача» for a deal, never «сдача» beside it."""
    with RU_CATALOG.open("rb") as po:
        catalog = read_po(po)
    said = [s for m in catalog if m.id
            for s in (m.string if isinstance(m.string, tuple) else (m.string,))]
    assert [s for s in said if re.search(r"(?<!\w)[Сс]дач", s)] == []
    # «коробка» only as коробок's genitive («2 коробка», «ни коробка»), never as a word
    # of its own: not «коробку», «коробкой», «коробка 25» nor «Коробка» alone.
    feminine = r"коробк(у|ой)\b|коробка \d|^[Кк]оробка( \(|$)"
    assert [s for s in said if re.search(feminine, s)] == []
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        boxes = [ngettext("%(num)d box", "%(num)d boxes", n) for n in (1, 2, 5, 21)]
        assert boxes == ["1 коробок", "2 коробка", "5 коробков", "21 коробок"]
        assert [gettext("Box"), gettext("Box bonus"), gettext("Next deal")] == [
            "Коробок", "Бонус за коробок", "Следующая раздача"]


def test_the_history_says_gin_for_a_gin_entered_with_cards(app: Any) -> None:
    from scorekeeper.i18n import render_message
    from scorekeeper.variants.wording import gin_clauses

    gin = {"mode": "cards", "knocker": 0,
           "knocker_cards": "AH 2H 3H 4H 5S 6S 7S 9D 9C 9S",
           "defender_cards": "2C TD JC QS KS 3D 4D 8H TH KC"}
    knock = {**gin, "knocker_cards": "AH 2H 3H 5S 6S 7S 9D 9C 9S 2D"}
    big_gin = {**gin, "knocker_cards": "AH 2H 3H 4H 5S 6S 7S 8S 9D 9C 9H"}
    with app.test_request_context(headers={"Accept-Language": "en"}):
        def first(inputs: dict[str, Any]) -> str:
            return render_message(gin_clauses(inputs, ["Ali", "Bob"])[0].message).split(":")[0]

        assert [first(gin), first(knock), first(big_gin)] == [  # the name isolated
            "\u2068Ali\u2069 went gin", "\u2068Ali\u2069 knocked", "\u2068Ali\u2069 went big gin"]


def test_printed_sheets_name_their_rules_in_the_readers_language(client: FlaskClient) -> None:
    """Every kind's printed sheet names its preset as the page does, never by its key."""
    games = {
        "partnership": ("partnership", ["Ann", "Bob", "Cid", "Dan"]),
        "three_hand": ("three_hand", ["Ann", "Bob", "Cid"]),
        "hollywood": ("russian", ["Ann", "Bob"]),
        "gin": ("pagat", ["Ann", "Bob"]),
    }
    said = {"partnership": "Парная игра", "three_hand": "Втроём", "hollywood": "Русские",
            "gin": "Pagat"}
    for variant, (rules, players) in games.items():
        created = client.post("/api/v1/games",
                              json={"variant": variant, "rules": rules, "players": players})
        assert created.status_code == 201, created.get_json()
        sheet = client.get(f"/g/{created.get_json()['id']}/sheet.pdf",
                           headers={"Accept-Language": "ru"})
        text = " ".join(pdf_text(sheet.data).split())
        assert f"правила: {said[variant]}" in text, (variant, text[:300])
