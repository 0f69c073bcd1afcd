"""Long names on a phone, in English, Persian and Russian: every kind of game played by
four 40-letter names of the page's language, and by «Александра Константиновна»,
«Вячеслав Александрович», «Святослав Игоревич» (and «Александра Петрова» where a game
has four players). The sheets with the editor's entry form, and for the 40-letter names
the other pages of the games and their group — history, rule card, a hand, its
correction, card entry (partnership's two tables, Remi's four players) — fit 390 px and
360 px; the sheets head their columns with the short forms, whole;
a partnership deal's row is at most twice a two-player row's height and marks who dealt
at each table. Screenshots: test-output/browser/long-names/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import LANGUAGES, api
from tests.layout import KINDS, PLAYERS, hands

pytestmark = [pytest.mark.browser, pytest.mark.once]

RUSSIAN = ("Александра Константиновна", "Вячеслав Александрович", "Святослав Игоревич",
           "Александра Петрова")
LONG = {
    "en": ("Alexandra Catherine Montgomery-Fairweath", "Alexandra Elizabeth Worthington-Smythe-J",
           "Maximilian Bartholomew Featherstonehaugh", "Christopher Jonathan Wolverhampton-Stone"),
    "ru": ("Александра Константиновна Преображенская", "Александра Петровна Воскресенская-Ильина",
           "Вячеслав Александрович Преображенский-Ли", "Святослав Игоревич Долгоруков-Оболенский"),
    "fa": ("محمدرضا حسینی‌زاده اصفهانی شیرازی بوشهری", "محمدرضا علی‌اکبری کرمانشاهی دماوندی رشتی",
           "فاطمه‌زهرا موسوی خوانساری طباطبایی قزوین", "سیدعبدالحسین امیرحسینی فراهانی سمنانیانی"),
}
# The short forms, worked out by hand: the first word; where two are alike (the first two
# of every long set; the Russian names' two Alexandras at a four-player game), the next
# word's first letter; a first word of more than ten letters is cut only where its parts
# join (a ZWNJ, a hyphen), so these stay whole.
SHORT = {
    LONG["en"]: ("Alexandra C.", "Alexandra E.", "Maximilian", "Christopher"),
    LONG["ru"]: ("Александра К.", "Александра П.", "Вячеслав", "Святослав"),
    LONG["fa"]: ("محمدرضا ح.", "محمدرضا ع.", "فاطمه\u200cزهرا", "سیدعبدالحسین"),
}
RUSSIAN_SHORT = {2: ("Александра", "Вячеслав"), 3: ("Александра", "Вячеслав", "Святослав"),
                 4: ("Александра К.", "Вячеслав", "Святослав", "Александра П.")}
WIDTHS = (390, 360)

# The column headings of the sheet, each heading's words and whether one of them is cut
# over two lines; each partnership deal row's height and the names marked D in it.
SHEET_JS = """() => {
  const heads = [...document.querySelectorAll("#sheet thead th")].map((th) => {
    const split = [...th.querySelectorAll("bdi")].some((bdi) => {
      const range = document.createRange();
      range.selectNodeContents(bdi);
      for (const word of bdi.textContent.split(" ")) {
        if (!word) continue;
        const start = bdi.textContent.indexOf(word);
        range.setStart(bdi.firstChild, start);
        range.setEnd(bdi.firstChild, start + word.length);
        if (new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size > 1) {
          return true;
        }
      }
      return false;
    });
    return {names: [...th.querySelectorAll("bdi")].map((b) => b.textContent), split};
  });
  const rows = [...document.querySelectorAll("#sheet tbody tr[id^=hand-]")].map((tr) => ({
    height: tr.getBoundingClientRect().height,
    dealers: [...tr.querySelectorAll(".dealer-mark")].map(
      (mark) => mark.previousElementSibling.textContent),
  }));
  return {heads, rows};
}"""


def play(live_url: str, kind: str, names: tuple[str, ...]) -> dict[str, Any]:
    """A game of ``kind`` by the first of ``names``, with a few hands."""
    game = api(f"{live_url}/api/v1/games",
               {"variant": kind, "players": list(names[: PLAYERS.get(kind, 2)])})
    for hand in hands(kind):
        api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
    return game


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_long_names_fit_a_phone(live_url: str, browser: Any, language: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1,
                                  locale=LANGUAGES[language],
                                  extra_http_headers={"Accept-Language": language})
    page = context.new_page()
    folder = OUTPUT / "long-names"
    folder.mkdir(parents=True, exist_ok=True)
    wide: dict[str, int] = {}
    sheets: dict[str, Any] = {}
    try:
        for set_name, names in (("long", LONG[language]), ("russian", RUSSIAN)):
            paths = []
            for kind in KINDS:
                game = play(live_url, kind, names)
                page.goto(game["edit_url"])  # this phone keeps score: the entry form shows
                base = f"/g/{game['id']}"
                paths.append((f"{kind}-sheet", base))
                if set_name == "russian":
                    continue  # the long names' pages are the wider ones
                paths += [(f"{kind}-history", f"{base}/history"),
                          (f"{kind}-rules", f"{base}/rules")]
                if kind in ("partnership", "remi"):  # a table's or a player's fields by name
                    paths += [(f"{kind}-hand", f"{base}/hands/1"),
                              (f"{kind}-correct", f"{base}/hands/1/edit"),
                              (f"{kind}-cards", f"{base}/hands/new")]
            if set_name == "long":
                group = api(f"{live_url}/api/v1/groups", {"name": names[0], "players": list(names)})
                api(f"{live_url}/api/v1/games", {"players": list(names[:2]), "group": group["id"]},
                    group["edit_secret"])
                page.goto(group["edit_url"])
                paths += [("group", f"/groups/{group['id']}")]
            for name, path in paths:
                answer = page.goto(live_url + path)
                assert answer is not None and answer.ok, f"{name}: {answer}"
                for width in WIDTHS:
                    page.set_viewport_size({"width": width, "height": 844})
                    scroll = page.evaluate("document.documentElement.scrollWidth")
                    if scroll > width:
                        wide[f"{set_name} {name} at {width}"] = scroll
                        shot = folder / f"{set_name}-{name}-{width}-{language}.png"
                        page.screenshot(path=str(shot), full_page=True)
                    if name.endswith("-sheet"):
                        sheets[f"{set_name} {name} at {width}"] = page.evaluate(SHEET_JS)
                page.set_viewport_size({"width": 390, "height": 844})
            page.set_viewport_size({"width": 360, "height": 844})
            page.goto(live_url + dict(paths)["partnership-sheet"])
            page.screenshot(path=str(folder / f"{set_name}-partnership-{language}.png"),
                            full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
    finally:
        context.close()
    assert wide == {}

    for key, sheet in sheets.items():
        set_name, kind = key.split()[:2]
        seats = PLAYERS.get(kind.removesuffix("-sheet"), 2)
        short = RUSSIAN_SHORT[seats] if set_name == "russian" else SHORT[LONG[language]]
        heads = [head["names"] for head in sheet["heads"] if head["names"]]
        if kind == "partnership-sheet":  # teams: seats 0 and 2, seats 1 and 3
            assert heads == [[short[0], short[2]], [short[1], short[3]]], key
        elif kind == "hollywood-sheet":  # a pair of columns in each of three games
            assert heads == [[short[0]], [short[1]]] * 3, key
        else:
            assert heads == [[name] for name in short[:seats]], key
        assert not any(head["split"] for head in sheet["heads"]), key
    for width in WIDTHS:
        for set_name in ("long", "russian"):
            short = RUSSIAN_SHORT[4] if set_name == "russian" else SHORT[LONG[language]]
            two = sheets[f"{set_name} gin-sheet at {width}"]["rows"][0]["height"]
            deals = sheets[f"{set_name} partnership-sheet at {width}"]["rows"]
            assert max(deal["height"] for deal in deals) <= 2 * two, (set_name, width, deals, two)
            # Deal 1: the first dealer's team (seats 0 and 2) deals at both tables; deal 2:
            # the other team (seat 3 at the first table, seat 1 at the second).
            assert [deal["dealers"] for deal in deals] == [
                [short[0], short[2]], [short[3], short[1]]]
