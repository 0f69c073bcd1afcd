"""A disputed hand at a night's table, in the browser: from the table's game to the
checker, the ruling kept, and the organiser's page linking it, at 360 px in English,
Persian and Russian (nothing wider than the screen, no controls overlapping).
Screenshots: test-output/browser/nights/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import (
    LANGUAGES,
    NIGHT_NAMES,
    OPEN_DETAILS_JS,
    PROBLEMS_JS,
    api,
    night,
    picture,
)
from tests.examples import DEFENDER, KNOCKER

pytestmark = [pytest.mark.browser, pytest.mark.once]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_ruling_kept_at_a_table_is_linked_from_the_organisers_page(
    live_url: str, screen: Any, language: str
) -> None:
    made, first = night(live_url, NIGHT_NAMES)
    game = first["tables"][0]["game"]
    api(f"{live_url}/api/v1/games/{game}/hands",
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 31},
        made["organiser_secret"])
    page = screen(language)
    page.goto(made["organiser_url"])
    # The organiser opens table 1's game, and checks its hand 1 from there.
    page.locator("#table-1-1 .table-actions a").first.click()
    page.wait_for_url(f"**/g/{game}")
    assert page.evaluate(PROBLEMS_JS) == [], "sheet"
    picture(page, "nights", f"table-sheet-{language}")
    page.locator("form.check-hand button").click()
    page.wait_for_url(f"**/check?game={game}&hand=1")
    page.fill("textarea[name=knocker_cards]", KNOCKER)
    page.fill("textarea[name=defender_cards]", DEFENDER)
    page.locator("form.check-form button[type=submit]").click()
    page.locator("#keep-ruling").click()
    page.wait_for_url("**/rulings/*")
    ruling = page.url.rsplit("/", 1)[-1]
    page.goto(made["organiser_url"])
    link = page.locator(f"#table-1-1 a[data-ruling='{ruling}']")
    assert link.count() == 1
    page.evaluate(OPEN_DETAILS_JS)
    assert page.evaluate(PROBLEMS_JS) == [], "organiser"
    picture(page, "nights", f"organiser-ruling-{language}")
    link.click()
    page.wait_for_url(f"**/rulings/{ruling}")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_night_exported_from_its_page_imports_with_its_organisers_link(
    live_url: str, screen: Any, language: str
) -> None:
    made, _first = night(live_url, NIGHT_NAMES)
    page = screen(language)
    page.goto(made["organiser_url"])
    with page.expect_download() as download:
        page.locator(f"a[href$='/n/{made['id']}/export.json']").click()
    document = download.value.path().read_bytes()
    page.goto(f"{live_url}/import")
    page.set_input_files("input[type=file]", files=[{
        "name": "night.json", "mimeType": "application/json", "buffer": document}])
    page.click("form[enctype] button[type=submit]")
    page.wait_for_url("**/imports/*")
    links = page.locator("ol.imported input[type=text]")
    # The night's organiser's link first, then its four tables' games.
    values = [links.nth(i).input_value() for i in range(links.count())]
    assert len(values) == 5 and "/n/" in values[0] and "?key=" in values[0]
    assert all("/g/" in v for v in values[1:])
    assert page.evaluate(PROBLEMS_JS) == [], "imported"
    picture(page, "nights", f"imported-night-{language}")
    page.goto(values[0])
    assert page.locator("#table-1-4").count() == 1
