"""Forms that show only what the choice above them uses (static/forms.js), sections
that open like controls, a card picker a finger can hit, a Delete that looks like one —
at 390×844 in English, Russian and Persian."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import LANGUAGES, sample
from tests.helpers import compile_catalogs

pytestmark = [pytest.mark.browser, pytest.mark.once]


@pytest.fixture(params=list(LANGUAGES))
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A phone-sized page in each language; ``page.lang`` says which."""
    compile_catalogs()
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1,
        locale=LANGUAGES[request.param],
    )
    tab = context.new_page()
    tab.lang = request.param
    yield tab
    context.close()


def shot(page: Any, name: str) -> None:
    folder = OUTPUT / "forms"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}-{page.lang}.png"), full_page=True)


def offered(page: Any, select: str) -> list[str]:
    """The values of the options a player can choose in ``select``."""
    values: list[str] = page.eval_on_selector_all(
        f"{select} option", "(os) => os.filter((o) => !o.hidden && !o.disabled).map((o) => o.value)"
    )
    return values


def visible_fields(page: Any) -> list[str]:
    """The names of the inputs a player sees in the page's main form."""
    names: list[str] = page.eval_on_selector_all(
        "main form input:not([type=hidden]), main form select, main form textarea",
        "(els) => [...new Set(els.filter((e) => e.checkVisibility()).map((e) => e.name))]",
    )
    return names


def test_pads_offer_only_the_chosen_games_rules(live_url: str, page: Any) -> None:
    page.goto(live_url + "/pads")
    assert "player3" not in visible_fields(page)  # a gin pad has two players
    assert offered(page, "#preset") == ["", "classic", "russian", "pagat", "modern"]
    page.select_option("#preset", "russian")
    page.select_option("#game", "remi")
    assert offered(page, "#preset") == ["", "remi"]
    assert page.eval_on_selector("#preset", "(s) => s.value") == ""  # back to the usual
    assert "player4" in visible_fields(page)
    page.select_option("#game", "three_hand")
    assert "player3" in visible_fields(page) and "player4" not in visible_fields(page)
    page.select_option("#game", "partnership")
    assert offered(page, "#preset") == ["", "classic", "russian", "pagat", "modern", "partnership"]
    shot(page, "pads")
    # What the form sends prints: the usual partnership rules.
    query = page.eval_on_selector(
        "main form", "(f) => new URLSearchParams(new FormData(f)).toString()")
    assert query.startswith("game=partnership&rows=30&preset=&size=a4")
    assert page.request.get(f"{live_url}/pads/pad.pdf?{query}").status == 200


def test_new_game_shows_only_what_the_chosen_game_uses(live_url: str, page: Any) -> None:
    page.goto(live_url + "/games/new")
    page.click("main summary")  # open "Change the rules"
    gin_rules = ["target", "knock_limit", "gin_bonus", "undercut_bonus", "game_bonus",
                 "box_bonus", "big_gin_bonus", "shutout_bonus", "no_big_gin", "shutout", "tie",
                 "next_dealer", "deals"]
    assert visible_fields(page) == [
        "variant", "player1", "player2", "preset", "dealer", *gin_rules, "stake", "currency",
        "pin"]
    assert page.locator("label.choice:has(input[name=dealer]):visible").count() == 3  # 1, 2, draw
    assert offered(page, "#preset") == ["", "classic", "russian", "pagat", "modern"]
    shot(page, "new-gin")
    page.select_option("#variant", "remi")
    assert visible_fields(page) == [
        "variant", "player1", "player2", "player3", "player4", "preset", "dealer", "target",
        "deals", "lenient", "stake", "currency", "pin"]
    assert offered(page, "#preset") == ["", "remi"]
    shot(page, "new-remi")
    page.select_option("#variant", "three_hand")
    assert "captain" in visible_fields(page) and "player4" not in visible_fields(page)
    page.select_option("#variant", "hollywood")
    assert "hollywood_fourth" in visible_fields(page) and "deals" in visible_fields(page)
    assert "lenient" not in visible_fields(page)
    # What is hidden is not sent: a three-hand game starts with three players.
    page.select_option("#variant", "three_hand")
    for number, name in enumerate(["Ann", "Bob", "Cid"], start=1):
        page.fill(f"[name=player{number}]", name)
    page.click("button.primary")
    expect(page.locator("#next-roles")).to_be_visible()


def test_hand_forms_ask_only_what_the_outcome_needs(live_url: str, page: Any) -> None:
    game = sample(live_url, "gin", page.lang)
    page.goto(game["edit_url"])
    form = page.locator("form.quick")
    assert "upcard" not in visible_fields(page)
    fields = ["outcome", "knocker", "knocker_deadwood", "defender_deadwood"]
    assert [f for f in visible_fields(page) if f in fields] == fields
    form.locator("input[name=outcome][value=gin]").check()
    assert [f for f in visible_fields(page) if f in fields] == ["outcome", "knocker",
                                                                "defender_deadwood"]
    form.locator("input[name=outcome][value=dead]").check()
    assert [f for f in visible_fields(page) if f in fields] == ["outcome"]
    shot(page, "gin-dead")
    remi = sample(live_url, "remi", page.lang)
    page.goto(remi["edit_url"])
    assert "discard_value" not in visible_fields(page)  # nobody has gone out yet
    page.locator("input[name=went_out][value='1']").check()
    assert "discard_value" in visible_fields(page)
    page.locator("input[name=went_out]").last.check()  # the stock ran out
    assert "discard_value" not in visible_fields(page)
    shot(page, "remi-quick")


def test_sections_that_open_look_like_it(live_url: str, page: Any) -> None:
    game = sample(live_url, "gin", page.lang)
    page.goto(game["edit_url"])
    summary = page.locator("details > summary").last
    box = summary.bounding_box()
    assert box["height"] >= 44
    marker = summary.evaluate("(s) => getComputedStyle(s, '::before').content")
    assert marker == ('"◂"' if page.lang == "fa" else '"▸"')
    summary.click()
    assert summary.evaluate("(s) => getComputedStyle(s, '::before').content") == '"▾"'
    shot(page, "share-open")


def test_picker_buttons_are_44_px_both_ways(live_url: str, page: Any) -> None:
    page.goto(live_url + "/check")
    page.locator("[name=knocker_cards]").focus()
    buttons = page.locator("button[data-card]")
    expect(buttons.first).to_be_visible()
    boxes = buttons.evaluate_all(
        "(bs) => bs.map((b) => { const r = b.getBoundingClientRect();"
        " return [b.dataset.card, r.width, r.height, r.right]; })"
    )
    assert len(boxes) == 52
    assert [b for b in boxes if b[1] < 44 or b[2] < 44 or b[3] > 390] == []
    buttons.first.click()  # still one tap a card
    assert page.input_value("[name=knocker_cards]").strip() != ""
    shot(page, "picker")


def test_delete_looks_destructive(live_url: str, page: Any) -> None:
    game = sample(live_url, "gin", page.lang)
    page.goto(game["edit_url"])
    page.goto(f"{live_url}/g/{game['id']}/hands/1")
    delete = page.locator("a.button.danger")
    assert delete.evaluate("(a) => getComputedStyle(a).color") == "rgb(179, 38, 30)"
    assert delete.evaluate("(a) => getComputedStyle(a).borderColor") == "rgb(179, 38, 30)"
