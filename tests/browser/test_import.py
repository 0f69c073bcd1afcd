"""An import on a 360 px phone in English, Persian and Russian: a file with a bad hand is
refused with the game, hand and field under the file field; one of more games than a
phone keeps edit rights to lists every new edit link, on the page and in the downloaded
file; both pages fit the screen and pass axe-core, and the game this phone could edit
before still is."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import violations
from tests.helpers import many_games

pytestmark = [pytest.mark.browser, pytest.mark.once]

LOCALES = {"en": "en-GB", "fa": "fa-IR", "ru": "ru-RU"}
FITS_JS = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) out.push("the page scrolls sideways");
  for (const el of document.querySelectorAll("main a, main input, main p, main li")) {
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.right > width + 0.5) out.push(el.outerHTML.slice(0, 80));
  }
  return out;
}"""


@pytest.mark.parametrize("language", list(LOCALES))
def test_an_import_of_35_games_on_a_phone(live_url: str, browser: Any, language: str) -> None:
    request = urllib.request.Request(
        f"{live_url}/api/v1/games", data=json.dumps({"players": ["Ann", "Bob"]}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        own = json.load(answer)
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  device_scale_factor=1, locale=LOCALES[language],
                                  accept_downloads=True, bypass_csp=True)  # axe's script
    page = context.new_page()
    folder = OUTPUT / f"import-{language}"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        page.goto(own["edit_url"])  # this phone may edit its own game
        page.goto(f"{live_url}/import")
        bad = json.loads(many_games(2))
        bad["games"][1]["hands"] = [{"inputs": {"mode": "quick", "outcome": "knock",
                                                "knocker": 2, "defender_deadwood": 20}}]
        page.set_input_files("input[type=file]", files=[{
            "name": "backup.json", "mimeType": "application/json",
            "buffer": json.dumps(bad).encode()}])
        page.click("form[enctype] button[type=submit]")
        said = page.locator(".field.has-error:has(input[type=file]) #import-problems li")
        assert said.all_inner_texts() == ["games[1].hands[0].inputs.knocker: "
                                          "must be between 0 and 1"]
        assert page.evaluate(FITS_JS) == []
        assert violations(page) == []
        page.screenshot(path=str(folder / "refused.png"), full_page=True)
        page.set_input_files("input[type=file]", files=[{
            "name": "backup.json", "mimeType": "application/json", "buffer": many_games(35)}])
        page.click("form[enctype] button[type=submit]")
        page.wait_for_url(re.compile(r"/imports/[\w-]+$"))
        links = page.locator("ol.imported input[type=text]")
        assert links.count() == 35
        values = [links.nth(i).input_value() for i in range(35)]
        assert all(re.search(r"/g/[\w-]+\?key=[\w-]+$", v) for v in values)
        assert len(set(values)) == 35
        assert page.locator("ol.imported strong").count() == 6  # 30 rights: own + 29
        assert page.evaluate(FITS_JS) == []
        assert violations(page) == []
        page.screenshot(path=str(folder / "imported.png"), full_page=True)
        with page.expect_download() as download:
            page.locator("a[href$='/links.txt']").click()
        text = download.value.path().read_text(encoding="utf-8")
        assert [line for line in text.splitlines() if "/g/" in line] == values
        # The game this phone could edit before: its sheet still offers to enter a hand.
        page.goto(f"{live_url}/g/{own['id']}")
        assert page.locator("form input[name=knocker_deadwood]").count() == 1
    finally:
        context.close()
