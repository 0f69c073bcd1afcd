"""Every form that can be refused starts with a summary of its errors (the GOV.UK error
summary): each error a link to its field, the field there; a problem of the whole form
said in it. A refused form's page opened again (the language switch goes back to the
address it was sent to) leads back to the page that holds the form."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from typing import Any, ClassVar

import pytest
from flask.testing import FlaskClient
from helpers import new_game, quick, version_of


class Refused(HTMLParser):
    """What a refused page shows: the ids on it, the summary's links and its own
    errors, the errors at the fields, and what each form starts with."""

    VOID: ClassVar[set[str]] = {"input", "br", "img", "meta", "link", "hr", "source", "col", "wbr"}

    def __init__(self, html: str) -> None:
        super().__init__()
        self.ids: dict[str, str] = {}
        self.links: list[tuple[str, str]] = []  # (target id, text) in the summary
        self.said: list[str] = []  # the whole form's problems, in the summary
        self.at_fields: list[str] = []  # the .error texts outside the summary
        self.starts: list[str] = []  # each form's first element a player sees
        self._stack: list[tuple[str, set[str]]] = []
        self._text: list[list[str]] = []  # the texts being gathered (links, errors)
        self._form_depth: int | None = None
        self.feed(html)

    def _in(self, what: str) -> bool:
        return any(what in classes for _tag, classes in self._stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids[a["id"]] = tag
        hidden = tag == "input" and a.get("type") == "hidden"
        if self._form_depth == len(self._stack) and not hidden:
            self.starts.append("summary" if "data-error-summary" in a else tag)
            self._form_depth = None
        if tag == "form":
            self._form_depth = len(self._stack) + 1
        if tag in self.VOID:
            return
        classes = set(a.get("class", "").split())
        if tag == "a" and self._in("error-summary"):
            classes.add("link:" + a["href"].removeprefix("#"))
        self._stack.append((tag, classes))
        if "error" in classes or (tag == "a" and self._in("error-summary")):
            self._text.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not self._stack:
            return
        _tag, classes = self._stack.pop()
        link = next((c[5:] for c in classes if c.startswith("link:")), None)
        if "error" not in classes and link is None:
            return
        text = " ".join("".join(self._text.pop()).split())
        if link is not None:
            self.links.append((link, text))
        elif self._in("error-summary"):
            self.said.append(text)
        else:
            self.at_fields.append(text)

    def handle_data(self, data: str) -> None:
        for gathered in self._text:
            gathered.append(data)


def summarised(page: str, *expected: str) -> Refused:
    """Checks the page's summary and returns what it found: every link goes to a field
    on the page, every error shown at a field is in the summary, the form starts with
    the summary, and each of ``expected`` is in it."""
    seen = Refused(page)
    assert seen.links or seen.said, "no error summary"
    assert "summary" in seen.starts, seen.starts
    for target, _text in seen.links:
        assert seen.ids.get(target) in ("input", "textarea", "select"), target
    texts = " | ".join(t for _target, t in seen.links)
    for message in seen.at_fields:
        assert message in texts, (message, texts)
    everything = " | ".join([texts, *seen.said])
    for words in expected:
        assert words in everything, (words, everything)
    return seen


def api_game(client: FlaskClient, variant: str, players: list[str]) -> str:
    """A game made through the API; this client opens its edit link."""
    made = client.post("/api/v1/games", json={"variant": variant, "players": players}).get_json()
    client.get(made["edit_url"])
    return str(made["id"])


KINDS = {
    "gin": ["Ann", "Bob"],
    "oklahoma": ["Ann", "Bob"],
    "hollywood": ["Ann", "Bob"],
    "three_hand": ["Ann", "Bob", "Cid"],
    "partnership": ["Ann", "Bob", "Cid", "Dan"],
    "remi": ["Ann", "Bob", "Cid"],
}


@pytest.mark.parametrize("variant", list(KINDS))
def test_every_kinds_hand_forms_start_with_the_summary(client: FlaskClient, variant: str) -> None:
    game = api_game(client, variant, KINDS[variant])
    version = str(version_of(client, game))
    if variant == "remi":
        quick_data = {"went_out": "none", "players-0-plus": "5000"}
        card_data = {"went_out": "0", "players-1-hand": "ZZ 7H"}
        quick_words, card_words = "Ann: plus", "Bob: Cards in hand"
    elif variant == "partnership":
        quick_data = {"a-outcome": "knock", "a-knocker": "0", "a-knocker_deadwood": "14",
                      "a-defender_deadwood": "30", "b-outcome": "dead"}
        card_data = {"a-knocker": "dead", "b-knocker": "0", "b-knocker_cards": "ZZ"}
        quick_words, card_words = "Table 1: ", "Table 2: "
    else:
        quick_data = {"outcome": "knock", "knocker": "0", "knocker_deadwood": "14",
                      "defender_deadwood": "30"}
        card_data = {"knocker": "0", "knocker_cards": "ZZ 7H", "defender_cards": "2C"}
        quick_words, card_words = "", "ZZ"
    quick_page = client.post(f"/g/{game}/hands", data={"version": version, **quick_data})
    assert quick_page.status_code == 422
    summarised(quick_page.get_data(as_text=True), quick_words)
    cards = client.post(f"/g/{game}/hands/new", data={"version": version, **card_data})
    assert cards.status_code == 422
    summarised(cards.get_data(as_text=True), card_words)
    # Both forms keep what is typed as a draft of the next hand (static/entry.js).
    assert f'data-draft="{game}:new:quick"' in quick_page.get_data(as_text=True)
    assert f'data-draft="{game}:new:cards"' in cards.get_data(as_text=True)


def test_a_knock_over_the_limit_is_summarised_and_linked_to_its_field(client: FlaskClient) -> None:
    game = new_game(client)
    page = quick(client, game, "knock", 0, 14, 30)
    assert page.status_code == 422
    seen = summarised(page.get_data(as_text=True))
    assert [target for target, _text in seen.links] == ["knocker_deadwood"]
    # Correcting a past hand, quick and with cards.
    assert quick(client, game, "knock", 0, 3, 30).status_code == 302
    version = str(version_of(client, game))
    edit = client.post(f"/g/{game}/hands/1/edit", data={
        "version": version, "outcome": "knock", "knocker": "0", "knocker_deadwood": "14",
        "defender_deadwood": "30"})
    assert edit.status_code == 422
    summarised(edit.get_data(as_text=True))
    edit = client.post(f"/g/{game}/hands/1/edit?mode=cards", data={
        "version": version, "knocker": "0", "knocker_cards": "7H 7H", "defender_cards": ""})
    assert edit.status_code == 422
    summarised(edit.get_data(as_text=True), "Defender's cards: ")
    assert f'data-draft="{game}:1:cards"' in edit.get_data(as_text=True)


def test_a_lost_race_is_said_in_the_summary(client: FlaskClient) -> None:
    game = new_game(client)
    stale = str(version_of(client, game))
    assert quick(client, game, "knock", 0, 3, 30).status_code == 302  # another phone
    page = client.post(f"/g/{game}/hands", data={
        "version": stale, "outcome": "knock", "knocker": "1", "knocker_deadwood": "5",
        "defender_deadwood": "20"})
    assert page.status_code == 409
    seen = summarised(page.get_data(as_text=True), "Another phone changed this game")
    assert seen.links == []  # about the whole form: no field to go to


def test_the_other_forms_start_with_the_summary(client: FlaskClient) -> None:
    new = client.post("/games/new", data={"variant": "gin", "player1": "Ann", "player2": "",
                                          "preset": "classic", "dealer": "0", "target": "-5"})
    assert new.status_code == 422
    summarised(new.get_data(as_text=True), "Player 2", "Target")
    group = client.post("/groups/new", data={"name": "Club", "players": "", "stake": "x"})
    assert group.status_code == 422
    summarised(group.get_data(as_text=True), "Players")
    check = client.post("/check", data={"preset": "classic", "knocker_cards": "7H 7H",
                                        "defender_cards": "ZZ"})
    summarised(check.get_data(as_text=True), "ZZ")
    remi = client.post("/remi/check", data={"rules": "remi", "players-0-hand": "ZZ"})
    summarised(remi.get_data(as_text=True), "ZZ")
    imported = client.post("/import", data={"file": (io.BytesIO(b"{not json"), "x.json")},
                           content_type="multipart/form-data")
    assert imported.status_code == 422
    seen = summarised(imported.get_data(as_text=True), "This is not a JSON export file.")
    assert [target for target, _text in seen.links] == ["file"]
    empty = client.post("/import", data={})
    assert empty.status_code == 422
    summarised(empty.get_data(as_text=True))


def test_pin_and_group_forms_start_with_the_summary(client: FlaskClient, app: Any) -> None:
    game = new_game(client)
    made = client.post("/groups/new", data={"name": "Club", "players": "Ann\nBob"})
    group = made.headers["Location"].rsplit("/", 1)[-1]
    watcher = app.test_client()
    for unlock in (f"/g/{game}/unlock", f"/groups/{group}/unlock"):
        for pin in ("12", "9999"):  # too short; not the PIN
            page = watcher.post(unlock, data={"pin": pin})
            assert page.status_code == 422, unlock
            summarised(page.get_data(as_text=True), "PIN")
    settings = client.post(f"/groups/{group}/settings", data={
        "settings-name": "Club night", "settings-players": "Ann\nBob", "settings-stake": "-1"})
    assert settings.status_code == 422
    page = settings.get_data(as_text=True)
    summarised(page, "stake")
    assert re.search(r'<details id="settings" open>', page)
    assert 'value="Club night"' in page  # what was typed is still there
    paid = client.post(f"/groups/{group}/payments", data={
        "payment-payer": "Ann", "payment-payee": "Ann", "payment-amount": "5",
        "payment-paid_on": "2026-01-02"})
    assert paid.status_code == 422
    summarised(paid.get_data(as_text=True), "Somebody pays somebody else.")


def test_a_refused_forms_address_opened_again_leads_back_to_the_form(client: FlaskClient) -> None:
    game = new_game(client)
    assert quick(client, game, "knock", 0, 14, 30).status_code == 422
    switched = client.post("/lang", data={"lang": "ru", "next": f"/g/{game}/hands?"})
    assert switched.status_code == 302
    back = client.get(switched.headers["Location"])
    assert back.status_code == 302
    assert back.headers["Location"] == f"/g/{game}#enter"
    assert client.get(back.headers["Location"]).status_code == 200
    made = client.post("/groups/new", data={"name": "Club", "players": "Ann\nBob"})
    group = made.headers["Location"].rsplit("/", 1)[-1]
    for form, anchor in (("settings", "#settings"), ("payments", "#money")):
        back = client.get(f"/groups/{group}/{form}")
        assert back.headers["Location"] == f"/groups/{group}{anchor}"


def test_the_language_switch_on_a_refused_page_goes_back_to_its_address(
    client: FlaskClient,
) -> None:
    """The switch's ``next`` is the address the form was sent to, with its query
    (a correction with cards is ``?mode=cards``)."""
    game = new_game(client)
    assert quick(client, game, "knock", 0, 3, 30).status_code == 302
    page = client.post(f"/g/{game}/hands/1/edit?mode=cards", data={
        "version": str(version_of(client, game)), "knocker": "0", "knocker_cards": "ZZ"})
    assert page.status_code == 422
    assert f'name="next" value="/g/{game}/hands/1/edit?mode=cards"' in page.get_data(as_text=True)
