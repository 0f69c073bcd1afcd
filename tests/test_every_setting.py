"""Every value of every setting the new-game form offers makes a game whose every page
answers: the sheet, its history, its rule card and both prints, and its JSON (a rule
card's worked examples are scored by the engine with the game's own rules, so a
setting the examples did not expect once answered 500). A kept ruling too, with any
knock limit. SQLite and PostgreSQL."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import keep_printed_html

from scorekeeper.games.forms import NewGameForm
from scorekeeper.rulebook.content import game_card
from scorekeeper.scoring.rules import PRESETS
from scorekeeper.variants import VARIANTS

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]
GIN_KINDS = ("gin", "oklahoma", "hollywood", "three_hand", "partnership")
# Both ends of each number the form takes (its validators' range).
NUMBERS: dict[str, tuple[int, int]] = {
    "target": (1, 10000),
    "gin_bonus": (0, 10000),
    "big_gin_bonus": (0, 10000),
    "undercut_bonus": (0, 10000),
    "game_bonus": (0, 10000),
    "box_bonus": (0, 10000),
    "shutout_bonus": (0, 10000),
}
# The form's choices whose values are rules (not the game, the preset or the dealer),
# and the kinds of game that read them.
CHOICES: dict[str, tuple[str, ...]] = {
    "shutout": GIN_KINDS,
    "tie": GIN_KINDS,
    "next_dealer": GIN_KINDS,
    "oklahoma_ace": ("oklahoma",),
    "spade_doubles": ("oklahoma",),
}
BOXES: dict[str, tuple[str, ...]] = {
    "no_big_gin": GIN_KINDS,
    "lenient": ("remi",),
    "hollywood_fourth": ("hollywood",),
}


def offered(name: str) -> list[str]:
    """The values of a choice of the new-game form, "as the preset" left out."""
    field = NewGameForm.__dict__[name]
    return [str(choice.value) for choice in field.kwargs["choices"] if choice.value]


def kinds_for(name: str) -> tuple[str, ...]:
    """The kinds of game that read a setting."""
    if name in ("oklahoma_ace", "spade_doubles"):
        return ("oklahoma",)
    if name == "deals":  # every kind: Remi instead of the target, the gin kinds at the latest
        return (*GIN_KINDS, "remi")
    if name == "lenient":
        return ("remi",)
    if name == "hollywood_fourth":
        return ("hollywood",)
    if name == "knock_limit":  # Oklahoma's upcard sets it instead
        return ("gin", "hollywood", "three_hand", "partnership")
    return GIN_KINDS


def values(name: str) -> list[str]:
    """Every value the form offers for ``name``: both ends of a number (the knock limit's
    every one), every choice but "as the preset", a box ticked."""
    if name == "knock_limit":
        return [str(limit) for limit in range(11)]
    if name == "deals":  # both ends, and each kind once
        return ["1", "1000"] * 3
    if name in NUMBERS:
        return [str(end) for end in NUMBERS[name]]
    if name in BOXES:
        return ["y"]
    return offered(name)


def games(name: str) -> list[tuple[str, dict[str, str]]]:
    """One game for each value of the setting ``name``, the kinds that read it taken in
    turn; for the preset, every kind of game with each preset it is played with."""
    if name == "preset":
        return [(kind, {"preset": preset}) for kind, variant in VARIANTS.items()
                for preset in ("", *variant.presets)]
    kinds = kinds_for(name)
    return [(kinds[i % len(kinds)], {name: value}) for i, value in enumerate(values(name))]


SETTINGS = ["preset", "knock_limit", *NUMBERS, *CHOICES, *BOXES, "deals"]


def test_the_cases_reach_every_choice_the_form_offers() -> None:
    """A choice added to the form is a case here the day it is added."""
    assert offered("shutout") == ["none", "double", "double_all", "flat"]
    assert offered("tie") == ["undercut", "nil"]
    assert offered("next_dealer") == ["winner", "loser", "alternate"]
    assert set(offered("preset")) == {p for v in VARIANTS.values() for p in v.presets}
    assert set(VARIANTS) == {*GIN_KINDS, "remi"}
    ranges = {name: (NewGameForm.__dict__[name].kwargs["validators"][1].min,
                     NewGameForm.__dict__[name].kwargs["validators"][1].max)
              for name in [*NUMBERS, "knock_limit", "deals"]}
    assert ranges == {**NUMBERS, "knock_limit": (0, 10), "deals": (1, 1000)}


def page_kinds(game_id: str) -> list[str]:
    return [f"/g/{game_id}", f"/g/{game_id}/history", f"/g/{game_id}/rules",
            f"/g/{game_id}/rules.pdf", f"/g/{game_id}/sheet.pdf", f"/api/v1/games/{game_id}"]


def new_game(client: FlaskClient, kind: str, setting: dict[str, str]) -> str:
    players = VARIANTS[kind].player_counts[0]
    data = {"variant": kind, "dealer": "0", "preset": "", **setting,
            **{f"player{n + 1}": PLAYERS[n] for n in range(players)}}
    created = client.post("/games/new", data=data)
    assert created.status_code == 302, created.get_data(as_text=True)
    return str(created.headers["Location"].rsplit("/", 1)[1])


@pytest.mark.parametrize("name", SETTINGS)
def test_every_page_of_a_game_answers_with_every_setting(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    printed = keep_printed_html(monkeypatch, typeset=False)  # the HTML is what reads the rules
    played = games(name)
    for kind, setting in played:
        game_id = new_game(client, kind, setting)
        for path in page_kinds(game_id):
            response = client.get(path)
            assert response.status_code == 200, (kind, setting, path)
    assert len(printed) == 2 * len(played)


def card_examples(html: str) -> dict[str, str]:
    """Each rule's worked example on a card page (situation and verdict), by anchor."""
    found = {}
    for anchor, body in re.findall(r'<section class="rule[^"]*" id="([\w-]+)">(.*?)</section>',
                                   html, re.S):
        example = re.search(r'<div class="example">(.*?)</div>\s*$', body, re.S)
        if example:
            shown = re.sub(r'<ol class="explanation">.*?</ol>', "", example.group(1), flags=re.S)
            found[anchor] = " ".join(unescape(re.sub(r"<[^>]+>", " ", shown)).split())
    return found


def game_rules(client: FlaskClient, kind: str, preset: str, limit: int) -> dict[str, str]:
    game_id = new_game(client, kind, {"preset": preset, "knock_limit": str(limit)})
    return card_examples(client.get(f"/g/{game_id}/rules").get_data(as_text=True))


def test_a_knock_limit_below_the_examples_knocks_plays_them_at_the_limit(
    client: FlaskClient,
) -> None:
    """Limit 3, the knocks of §8 held at 3, the defender as much more or less as in §8:
    5 against 9 is 3 against 7, 8 against 5 is 3 against 0, 6 against 6 is 3 against 3.
    Classic: the knocker scores 7 − 3 = 4; the defender 3 − 0 + 10 = 13, and on a tie
    0 + 10 = 10. Melds, gin and the game's end read no knock limit."""
    examples = game_rules(client, "gin", "classic", 3)
    assert examples["knock"] == "Example: A knock with 3 against 7. The knocker scores 4."
    assert examples["undercut"] == "Example: A knock with 3 against 0. The defender scores 13."
    assert examples["tie"] == "Example: A knock with 3 against 3. The defender scores 10."
    assert examples["gin"] == "Example: Gin against 12. The knocker scores 32."
    assert "layoffs" not in examples  # §8's layoff hand knocks with 10
    # Three-hand (gin 25, undercut 10): Y, captain, knocks 3 against X's 19: Y 16. Y, now
    # the box, goes gin against Z's 30: 30 + 25 = 55, Y 71. X, captain again, undercuts
    # Y's 3 with 1: 3 − 1 + 10 = 12.
    assert game_rules(client, "three_hand", "three_hand", 3)["roles"] == (
        "Example: X box, Y captain, Z sitting out. Y knocks with 3 against X's 19; then Y, "
        "in the box, goes gin against Z's 30; then Y knocks with 3 and X has 1; then a dead "
        "hand. X 12, Y 71, Z 0.")
    # Partnership (undercut 25): Ann 3 against Bob's 7, +4; Dan undercuts Cid's 3 with 0,
    # 3 + 25 = 28. One hand each: the larger less the smaller, 28 − 4 = 24 to Bob & Dan.
    assert game_rules(client, "partnership", "partnership", 3)["teams"] == (
        "Example: Ann and Cid against Bob and Dan. Ann knocks with 3 against Bob's 7; Cid "
        "knocks with 3 against Dan's 0. Ann & Cid 0, Bob & Dan 24.")


def test_every_card_builds_with_every_knock_limit(app: Flask) -> None:
    """Each kind of game with each of its presets and each knock limit: the card's
    examples are scored by the engine, which refuses a knock over the limit."""
    with app.test_request_context():
        for kind in GIN_KINDS:
            variant = VARIANTS[kind]
            for preset in variant.presets:
                for limit in range(11):
                    rules = variant.rules_for(PRESETS[preset].replace(knock_limit=limit))
                    assert game_card(kind, rules).items, (kind, preset, limit)


def test_a_knock_limit_of_0_shows_no_knock(client: FlaskClient) -> None:
    """Only gin goes down: no example of a knock, an undercut or a tie."""
    examples = game_rules(client, "gin", "russian", 0)
    assert set(examples) == {"melds", "gin", "dead-hand", "game-bonus", "shutout"}
    assert examples["gin"] == "Example: Gin against 12. The knocker scores 37."
    assert "roles" not in game_rules(client, "three_hand", "three_hand", 0)
    assert "teams" not in game_rules(client, "partnership", "partnership", 0)


def test_a_groups_rules_with_a_custom_knock_limit(client: FlaskClient) -> None:
    """A group's usual rules are its latest game's: knock limit 5, so §8's knock of 5
    against 9 stands and its undercut, 8 against 5, is played as 5 against 2."""
    created = client.post("/groups/new", data={"name": "Tuesdays", "players": "Ann\nBob"})
    group_id = created.headers["Location"].rsplit("/", 1)[1]
    new_game(client, "gin", {"group": group_id, "knock_limit": "5"})
    page = client.get(f"/groups/{group_id}/rules")
    assert page.status_code == 200
    examples = card_examples(page.get_data(as_text=True))
    assert examples["knock"] == "Example: A knock with 5 against 9. The knocker scores 4."
    # Classic: 5 − 2 + 10 = 13.
    assert examples["undercut"] == "Example: A knock with 5 against 2. The defender scores 13."


@pytest.mark.parametrize("limit", [0, 5, 10])
def test_a_kept_ruling_with_any_knock_limit_answers(client: FlaskClient, limit: int) -> None:
    """Gin goes down under any knock limit: the defender's ten cards meld nothing, 5 + 5 +
    9 + 9 + 10 + 10 + 2 + 3 + 10 + 10 = 73, and the classic gin bonus is 20: 93."""
    body = {
        "rules": {"preset": "classic", "knock_limit": limit},
        "knocker": {"cards": "AS 2S 3S 4H 5H 6H 7C 8C 9C TC"},
        "defender": {"cards": "5D 5C 9H 9S KS KH 2D 3D QC JD"},
    }
    kept = client.post("/api/v1/rulings", json=body)
    assert kept.status_code == 201, kept.get_json()
    ruling = kept.get_json()["id"]
    page = client.get(f"/rulings/{ruling}")
    assert page.status_code == 200
    assert "Knocker scores 93" in page.get_data(as_text=True)
    assert client.get(f"/rulings/{ruling}.pdf").status_code == 200
