"""Rule cards: ``/rules``, ``/rules/<name>`` (+ ``.pdf``) and a game's ``/g/<id>/rules``.

The numbers on a card are the engine's: every setting shown is compared with the
preset's ``Rules``, and the worked examples of RULES.md §8 are checked at their rule.
"""

from __future__ import annotations

import re
from html import unescape
from io import BytesIO

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.rulebook.content import CARDS
from scorekeeper.scoring.rules import PRESETS
from scorekeeper.variants import VARIANTS
from tests.helpers import new_game
from tests.layout import pdf_problems

SETTING = re.compile(
    r'<div class="setting( changed)?" data-setting="(\w+)"\s+data-value="([^"]*)">')


def settings_on(html: str) -> dict[str, str]:
    """Every setting a card shows: field name → the value it carries."""
    return {key: unescape(value) for _changed, key, value in SETTING.findall(html)}


def changed_on(html: str) -> set[str]:
    return {key for changed, key, _value in SETTING.findall(html) if changed}


def section(html: str, anchor: str) -> str:
    """The text of one rule's section, tags removed, spaces squeezed."""
    match = re.search(rf'<section class="rule[^"]*" id="{anchor}">(.*?)</section>', html, re.S)
    assert match, anchor
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split())


def verdict(html: str, anchor: str) -> str:
    match = re.search(rf'id="{anchor}">.*?<p class="verdict"><strong>(.*?)</strong>', html, re.S)
    assert match, anchor
    return unescape(match.group(1))


def pages(pdf: bytes) -> int:
    return len(PdfReader(BytesIO(pdf)).pages)


def engine_value(value: object) -> str:
    if value is None:
        return ""
    return str(getattr(value, "value", value))


@pytest.mark.parametrize("name", list(CARDS))
def test_every_number_on_a_card_is_the_presets(client: FlaskClient, name: str) -> None:
    kind, preset = CARDS[name]
    rules = VARIANTS[kind].rules_for(PRESETS[preset])
    response = client.get(f"/rules/{name}")
    assert response.status_code == 200
    shown = settings_on(response.get_data(as_text=True))
    assert shown, name
    assert shown == {key: engine_value(getattr(rules, key)) for key in shown}


def test_the_russian_card_shows_every_gin_setting(client: FlaskClient) -> None:
    shown = settings_on(client.get("/rules/russian").get_data(as_text=True))
    assert shown == {
        "knock_limit": "10", "gin_bonus": "25", "big_gin_bonus": "", "undercut_bonus": "25",
        "tie_is_undercut": "True", "next_dealer": "winner", "target": "100",
        "box_bonus": "25", "game_bonus": "100", "shutout": "double", "deals": "",
    }


def test_the_list_links_every_card(client: FlaskClient) -> None:
    html = client.get("/rules").get_data(as_text=True)
    assert re.findall(r'href="/rules/(\w+)"', html) == list(CARDS)


@pytest.mark.parametrize(
    ("name", "anchor", "expected"),
    [
        ("classic", "knock", "The knocker scores 4."),  # §8 example 1
        ("russian", "knock", "The knocker scores 4."),
        ("classic", "gin", "The knocker scores 32."),  # example 2
        ("russian", "gin", "The knocker scores 37."),
        ("classic", "undercut", "The defender scores 13."),  # example 3
        ("modern", "undercut", "The defender scores 28."),
        ("classic", "tie", "The defender scores 10."),  # example 4
        ("russian", "tie", "The defender scores 25."),
        ("classic", "layoffs", "The defender scores 11."),  # example 7
        ("russian", "layoffs", "The defender scores 26."),
        ("russian", "game-bonus", "A 278, B 125."),  # game end
        ("russian", "shutout", "A 506, B 0."),
        ("modern", "shutout", "A 606, B 0."),
        ("pagat", "shutout", "A 383, B 0."),
        ("oklahoma", "upcard", "The knocker scores 8."),  # 7♠ upcard: 4, doubled
        ("three_hand", "roles", "X 12, Y 71, Z 0."),
        ("remi", "remi-scoring", "A 200, C 15."),
        ("hollywood", "columns",
         "Column 1: A 315, B 100. Column 2: A 305, B 60. Column 3: A 510, B 0."),
        ("partnership", "teams", "Ann & Cid 0, Bob & Dan 24."),  # 3 + 25 − 4
    ],
)
def test_the_worked_examples_are_worked_out_by_the_engine(
    client: FlaskClient, name: str, anchor: str, expected: str
) -> None:
    assert verdict(client.get(f"/rules/{name}").get_data(as_text=True), anchor) == expected


def test_a_rule_states_its_number(client: FlaskClient) -> None:
    html = client.get("/rules/russian").get_data(as_text=True)
    assert section(html, "undercut").startswith(
        "Undercut When the defender has less deadwood than the knocker, the defender scores "
        "the difference plus 25.")
    assert "the difference plus 10." in section(client.get("/rules/classic").get_data(
        as_text=True), "undercut")


def test_the_anchors_are_stable(client: FlaskClient) -> None:
    gin = re.findall(r'<section class="rule[^"]*" id="([\w-]+)"',
                     client.get("/rules/oklahoma").get_data(as_text=True))
    assert gin == ["melds", "knock", "upcard", "layoffs", "gin", "big-gin", "undercut", "tie",
                   "dead-hand", "dealer", "target", "boxes", "game-bonus", "shutout", "deals"]
    remi = re.findall(r'<section class="rule[^"]*" id="([\w-]+)"',
                      client.get("/rules/remi").get_data(as_text=True))
    assert remi == ["deal", "sequences", "sets", "discard-pile", "going-out", "remi-scoring",
                    "remi-end"]


def test_a_card_in_persian_and_russian(client: FlaskClient) -> None:
    fa = client.get("/rules/russian", headers={"Accept-Language": "fa"}).get_data(as_text=True)
    assert 'dir="rtl"' in fa
    assert verdict(fa, "undercut") == "حریف 28 امتیاز می‌گیرد."
    ru = client.get("/rules/russian", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert verdict(ru, "undercut") == "Соперник получает 28."


def test_an_unknown_card_is_a_404_page_in_the_readers_language(client: FlaskClient) -> None:
    response = client.get("/rules/gin_gin", headers={"Accept-Language": "ru"})
    assert response.status_code == 404
    assert '<html lang="ru"' in response.get_data(as_text=True)
    assert client.get("/rules/gin_gin.pdf").status_code == 404


@pytest.mark.once  # a preset's card, typeset: no database holds it
@pytest.mark.slow  # every card typeset: about 5 s each
@pytest.mark.parametrize("size", ["a4", "letter"])
def test_a_card_prints_on_one_page(client: FlaskClient, size: str) -> None:
    """Every card on one page in Persian; the Russian card on A4 laid out cleanly too
    (test_the_printed_card_is_laid_out_cleanly has the other languages): each card is
    typeset once."""
    for name in CARDS:
        response = client.get(f"/rules/{name}.pdf?size={size}",
                              headers={"Accept-Language": "fa"})
        assert response.status_code == 200
        assert response.mimetype == "application/pdf"
        assert pages(response.data) == 1, name
        if (name, size) == ("russian", "a4"):
            assert pdf_problems(response.data, 1) == []


@pytest.mark.once  # a preset's card, typeset: no database holds it
@pytest.mark.slow  # make check typesets a card in test_a_games_card_prints
@pytest.mark.parametrize("language", ["en", "ru"])  # Persian: the test above
def test_the_printed_card_is_laid_out_cleanly(client: FlaskClient, language: str) -> None:
    response = client.get("/rules/russian.pdf", headers={"Accept-Language": language})
    assert pdf_problems(response.data, 1) == []


def test_a_bad_paper_size_is_named(client: FlaskClient) -> None:
    response = client.get("/rules/russian.pdf?size=a3")
    assert response.status_code == 400
    assert "The paper size must be a4 or letter." in response.get_data(as_text=True)


def test_the_site_links_the_cards(client: FlaskClient) -> None:
    assert 'href="/rules"' in client.get("/").get_data(as_text=True)
    assert 'href="/rules"' in client.get("/games/new").get_data(as_text=True)


# --- a game's own card ----------------------------------------------------------------------


def test_a_games_card_marks_its_custom_values(client: FlaskClient) -> None:
    game_id = new_game(client, "russian", target="175", undercut_bonus="20")
    html = client.get(f"/g/{game_id}/rules").get_data(as_text=True)
    shown = settings_on(html)
    assert shown["target"] == "175"
    assert shown["undercut_bonus"] == "20"
    assert shown["gin_bonus"] == "25"
    assert changed_on(html) == {"target", "undercut_bonus"}
    assert "Hands go on until a running total reaches 175." in section(html, "target")
    assert "changed; the preset says 100" in section(html, "target")
    assert "Compared with the Russian rules." in html


def test_a_game_on_a_preset_changes_nothing(client: FlaskClient) -> None:
    game_id = new_game(client, "pagat")
    html = client.get(f"/g/{game_id}/rules").get_data(as_text=True)
    assert changed_on(html) == set()
    assert settings_on(html)["shutout_bonus"] == "100"
    assert "Nothing is changed." in html


def test_a_games_card_prints(client: FlaskClient) -> None:
    game_id = new_game(client, "russian", target="175")
    response = client.get(f"/g/{game_id}/rules.pdf?size=letter")
    assert response.status_code == 200
    assert pages(response.data) == 1
    assert client.get("/g/nope/rules").status_code == 404
    assert client.get("/g/nope/rules.pdf").status_code == 404


def test_the_sheet_links_its_card(client: FlaskClient) -> None:
    game_id = new_game(client, "russian")
    html = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert f'href="/g/{game_id}/rules"' in html


def test_a_groups_usual_rules_are_its_latest_games(client: FlaskClient) -> None:
    response = client.post("/groups/new", data={"name": "Tuesday", "players": "Ann\nBob"})
    group_id = response.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert f'href="/groups/{group_id}/rules"' in page
    empty = client.get(f"/groups/{group_id}/rules").get_data(as_text=True)
    assert "The group has played no game yet" in empty
    assert settings_on(empty) == {}
    new_game(client, "classic", group=group_id)
    latest = new_game(client, "russian", group=group_id, box_bonus="30")
    html = client.get(f"/groups/{group_id}/rules").get_data(as_text=True)
    assert f'href="/g/{latest}"' in html
    assert settings_on(html)["box_bonus"] == "30"
    assert settings_on(html)["gin_bonus"] == "25"
    assert changed_on(html) == {"box_bonus"}
    assert client.get("/groups/nope/rules").status_code == 404


# Ranks as the cards on screen and on paper print them (A, J, Q, K: scoring.Rank.label),
# not the words or letters of a language: Russian В/Д/К, Persian سرباز/بی‌بی/شاه.
RANK_WORDS = {
    "ru": re.compile(r"\b[ВДКТ]-|-[ВДКТ]\b|валет|дама|король", re.I),
    "fa": re.compile("سرباز|بی‌بی|شاه"),
}


@pytest.mark.parametrize("language", ["en", "fa", "ru"])
def test_a_card_names_ranks_with_the_letters_the_cards_show(
    client: FlaskClient, language: str
) -> None:
    headers = {"Accept-Language": language}
    for name in CARDS:
        html = client.get(f"/rules/{name}", headers=headers).get_data(as_text=True)
        text = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
        found = RANK_WORDS[language].findall(text) if language in RANK_WORDS else []
        assert found == [], (name, found)
    melds = section(client.get("/rules/classic", headers=headers).get_data(as_text=True), "melds")
    assert "A-2-3" in melds and "Q-K-A" in melds
    remi = client.get("/rules/remi", headers=headers).get_data(as_text=True)
    assert "J-Q-K" in section(remi, "sequences")
