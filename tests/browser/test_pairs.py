"""Every line that pairs names with numbers shows, as Chromium draws it, each name
beside its own number on the same line, the number on the side the line reads on to
(to the left of the name in Persian, to the right in English and Russian), and a sum
as it is written: the sheet's "still needed" (of every kind), final line, race legend
and payments, a Remi deal's scores, a game's history, a group's standings, balances,
settle-up and games, a kept ruling; at 390 and at 360 px. Persian names, and Latin names
on a Persian page (a Latin name is a left-to-right run of its own beside a number).
Card fields are left to right in every form that takes cards."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import LANGUAGES, api
from tests.helpers import compile_catalogs
from tests.layout import drawn_pairs, hands

pytestmark = [pytest.mark.browser, pytest.mark.once]

# (page language, the players: two in a gin game, four in Remi)
PLAYERS = {
    "fa": ("fa", ("سارا", "نیما", "رضا", "مریم")),
    "fa-latin": ("fa", ("Ann", "Bob", "Cid", "Dan")),
    "en": ("en", ("Ann", "Bob", "Cid", "Dan")),
    "ru": ("ru", ("Анна", "Борис", "Светлана", "Дмитрий")),
}
# -1.00 and +1.00 €, as each language writes money (spaces and marks left out).
MONEY = {"en": ("−€1.00", "+€1.00"), "fa": ("−€1.00", "+€1.00"), "ru": ("−1,00€", "+1,00€")}


def knock(seat: int, points: int) -> dict[str, Any]:
    """A knock with 1 deadwood against ``points + 1``: ``points`` for ``seat``."""
    return {"outcome": "knock", "knocker": seat, "knocker_deadwood": 1,
            "defender_deadwood": points + 1}


def played(live_url: str, kind: str, players: list[str], hands: list[dict[str, Any]]
           ) -> dict[str, Any]:
    game = api(f"{live_url}/api/v1/games", {"variant": kind, "players": players})
    for hand in hands:
        api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
    return game


def games(live_url: str, players: tuple[str, ...]) -> dict[str, str]:
    """The pages to read: a gin game going on, a group's gin game that is over (stake
    0.05 €), its history and group, a Remi deal kept as a ruling, and a game going on of
    each other kind (and a deal of the Remi game)."""
    a, b = players[:2]
    going = api(f"{live_url}/api/v1/games", {"players": [a, b], "rules": "classic"})
    for hand in (knock(0, 63), knock(1, 42)):  # 63 and 42: 37 and 58 still needed
        api(f"{live_url}/api/v1/games/{going['id']}/hands", hand, going["edit_secret"])
    group = api(f"{live_url}/api/v1/groups",
                {"name": "Club", "players": [a, b], "stake": "0.05", "currency": "EUR"})
    over = api(f"{live_url}/api/v1/games",
               {"players": [a, b], "rules": "classic", "group": group["id"]},
               group["edit_secret"])
    # a: 81 (a knock); b: gin against 81 deadwood, 81 + 20 = 101, past 100. Classic
    # has no game or box bonus: finals 81 and 101, margin 20, b wins; a pays b
    # 20 × 0.05 € = 1.00 €.
    for hand in (knock(0, 81), {"outcome": "gin", "knocker": 1, "defender_deadwood": 81}):
        api(f"{live_url}/api/v1/games/{over['id']}/hands", hand, over["edit_secret"])
    # a goes out: 2♥–5♥ a run (4 × 5 = 20), K♣ K♦ K♠ a set (3 × 10 = 30), closing on
    # A♦ (10 × 15 = 150): +200. b: 7♠ 8♠ 9♠ (15) and 9♥ 9♦ 9♣ (15) against A♠ (15): +15.
    ruling = api(f"{live_url}/api/v1/rulings", {"kind": "remi", "players": [
        {"name": a, "hand": "2H 3H 4H 5H KC KD KS", "went_out": True, "final_discard": "AD"},
        {"name": b, "table": ["7S 8S 9S"], "hand": "9D 9C 9H AS"},
    ]})
    oklahoma = played(live_url, "oklahoma", [a, b], hands("oklahoma"))
    three = played(live_url, "three_hand", list(players[:3]), hands("three_hand"))
    partnership = played(live_url, "partnership", list(players), hands("partnership"))
    remi = played(live_url, "remi", list(players), hands("remi"))
    return {"going": f"/g/{going['id']}", "over": f"/g/{over['id']}",
            "oklahoma": f"/g/{oklahoma['id']}", "three_hand": f"/g/{three['id']}",
            "partnership": f"/g/{partnership['id']}", "remi": f"/g/{remi['id']}",
            "remi-deal": f"/g/{remi['id']}/hands/2",
            "history": f"/g/{over['id']}/history", "group": f"/groups/{group['id']}",
            "ruling": ruling["url"].removeprefix(live_url)}


def expected(case: str) -> dict[str, dict[str, Any]]:
    """Page -> scope -> what the elements it selects show (those ``having`` a number in
    a line, when given): ``pairs`` (each name and the nearest number on the side its
    line reads on to) or ``lines`` (the names and numbers of each line in reading order),
    element by element (``teams``: a partnership's teams are the names); ``words``: its
    names and numbers in reading order, line after line; ``written``: a sum's numbers,
    left to right as written."""
    language, (a, b, c, d) = PLAYERS[case]
    loss, gain = MONEY[language]
    ac, bd = f"{a} & {c}", f"{b} & {d}"  # partnership's teams
    return {
        "going": {
            ".status > div:has(.num)": {"pairs": [[[a, "37"], [b, "58"]]]},
            ".race-legend": {"pairs": [[[a, "63"], [b, "42"]]]},
        },
        "over": {
            "#settlement > p": {"pairs": [[[a, "81"], [b, "101"]]]},
            "#settlement li:last-child": {"written": ["101", "81"]},
            ".race-legend": {"pairs": [[[a, "81"], [b, "101"]]]},
            "#stakes li": {"lines": [[[a, b, gain[1:]]]]},
        },
        "history": {
            # "Hand 1 added: a knocked with 1; b's deadwood 82": a sentence, which may
            # wrap anywhere; read on, it names a, then 1, then b, then 82.
            ".history .change": {"having": "82", "words": [["1", a, "1", b, "82"]]},
        },
        "group": {
            # Ratings after one game (openskill's Plackett–Luce, μ 25, σ 25/3 each):
            # c² = 2σ² + 2(σ/2)², the winner's μ up by σ²/c · ½ = 2.635, the loser's down
            # as much, σ' the same for both; μ − 3σ' is 3.44 for b, so 3.44 − 2 · 2.635
            # = −1.83 for a (both provisional: the * is no number). Then games, won, margins.
            ".standings tbody tr": {"lines": [[[b, "3.4", "1", "1", "+20"]],
                                              [[a, "−1.8", "1", "0", "−20"]]]},
            ".balances tbody tr": {"lines": [[[a, loss]], [[b, gain]]]},
            ".settle-up li": {"lines": [[[a, b, gain[1:]]]]},
            ".group-games small": {"pairs": [[[a, "81"], [b, "101"]]]},
        },
        # Oklahoma's preset: gin 25, undercut 25, to 150; the upcard 9♥ does not double.
        # a knocks 3 against 24: 21; b goes gin against 31: 56; a dead hand; b knocks 8
        # against a's 6: undercut, 8 − 6 + 25 = 27 for a. 48 and 56: 102 and 94 to go.
        "oklahoma": {
            ".status > div:has(.num)": {"pairs": [[[a, "102"], [b, "94"]]]},
            ".race-legend": {"pairs": [[[a, "48"], [b, "56"]]]},
        },
        # Three-hand (gin 25, undercut 10, to 100), a in the box, b captain, c out: the
        # box a knocks, 21, and stays, c captain; captain c goes gin, 56, and the box,
        # b captain, a out; a dead hand; captain b knocks 8 against box c's 6: undercut,
        # 2 + 10 for c. 21, 0 and 68: 79, 100 and 32 to go.
        "three_hand": {
            "#next-roles + p": {"pairs": [[[a, "79"], [b, "100"], [c, "32"]]]},
            ".race-legend": {"pairs": [[[a, "21"], [b, "0"], [c, "68"]]]},
        },
        # Partnership (to 125), a & c against b & d: deal 1, a knocks b, 21, d goes gin
        # on c, 31 + 25: b & d by 35; deal 2, a dead hand, and b knocks 8 against c's 6:
        # undercut, 2 + 25 for c: a & c by 27. 98 and 90 to go.
        "partnership": {
            ".status > div:has(.num)": {"teams": True, "pairs": [[[ac, "98"], [bd, "90"]]]},
            ".race-legend": {"teams": True, "pairs": [[[ac, "27"], [bd, "35"]]]},
        },
        # Remi: deal 1, a goes out on a 10 (10 × 10): 60 + 100 = 160, b 15 − 40, c −85,
        # d 30 − 5; deal 2, c goes out on a 5: a 20 − 25, b 45 − 10, c 55 + 50, d −60.
        "remi": {
            ".race-legend": {"pairs": [[[a, "155"], [b, "10"], [c, "20"], [d, "−35"]]]},
        },
        "remi-deal": {
            ".remi-player h3": {"pairs": [[[a, "−5"]], [[b, "+35"]], [[c, "+105"]], [[d, "−60"]]]},
        },
        "ruling": {
            ".ruling-verdict .verdict strong": {"pairs": [[[a, "+200"], [b, "+15"]]]},
            ".explanation li:last-child": {"written": ["30", "15", "15"]},
        },
    }


def seen(found: list[dict[str, Any]], want: dict[str, Any], names: tuple[str, ...],
         rtl: bool) -> dict[str, Any]:
    """What ``drawn_pairs`` found, in the terms of ``want``."""
    if "having" in want:
        found = [e for e in found if any(want["having"] in line for line in e["lines"])]
    shown: dict[str, Any] = {key: want[key] for key in ("having", "teams") if key in want}
    if "words" in want:
        shown["words"] = [[w for line in e["lines"] for w in line] for e in found]
    for key in ("pairs", "lines"):
        if key in want:
            shown[key] = [e[key] for e in found]
    if "written" in want:
        # the numbers of the element, left to right as drawn: the sum is a run of them
        drawn = [w for e in found for line in e["lines"]
                 for w in (line[::-1] if rtl else line) if w not in names]
        sum_ = want["written"]
        runs = [drawn[i:i + len(sum_)] for i in range(len(drawn))]
        shown["written"] = sum_ if sum_ in runs else drawn
    return shown


@pytest.mark.parametrize("case", list(PLAYERS))
def test_each_name_stands_beside_its_own_number(
    live_url: str, browser: Any, case: str
) -> None:
    compile_catalogs()
    language, players = PLAYERS[case]
    teams = (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")
    paths = games(live_url, players)
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=1, locale=LANGUAGES[language])
    page = context.new_page()
    folder = OUTPUT / f"pairs-{case}"
    folder.mkdir(parents=True, exist_ok=True)
    wrong: dict[str, Any] = {}
    for name, scopes in expected(case).items():
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(live_url + paths[name])
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": 844})
            if width == 360:
                page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
            for scope, want in scopes.items():
                names = teams if want.get("teams") else players
                found = drawn_pairs(page, scope, names)
                shown = seen(found, want, names, language == "fa")
                if shown != want:
                    wrong[f"{name} {scope} at {width}"] = {
                        **shown, "text": [e["text"] for e in found]}
    context.close()
    assert wrong == {}


CARD_FIELDS = "textarea, input[name$=upcard], input[name$=final_discard]"


def test_card_fields_are_left_to_right(live_url: str, browser: Any) -> None:
    """"8♠ 9♠" typed on a Persian page stays "8♠ 9♠": every field that takes cards (in
    /check, /remi/check, each kind's card entry, the upcard of Oklahoma's quick entry,
    of two players and of partnership) is left to right."""
    compile_catalogs()
    pages = ["/check", "/remi/check"]
    editing = []
    players = ["سارا", "نیما", "رضا", "مریم"]
    for kind, count, rules in (("gin", 2, "classic"), ("oklahoma", 2, "oklahoma"),
                               ("three_hand", 3, "three_hand"), ("remi", 3, "remi"),
                               ("partnership", 4, {"preset": "partnership", "oklahoma": True})):
        game = api(f"{live_url}/api/v1/games",
                   {"variant": kind, "players": players[:count], "rules": rules})
        editing.append(game["edit_url"].removeprefix(live_url))  # this window may edit
        pages.append(f"/g/{game['id']}/hands/new")
        if kind in ("oklahoma", "partnership"):
            pages.append(f"/g/{game['id']}")  # the quick entry's upcard
    context = browser.new_context(viewport={"width": 360, "height": 844}, locale="fa-IR")
    page = context.new_page()
    for path in editing:
        page.goto(live_url + path)
    directions: dict[str, list[str]] = {}
    for path in pages:
        page.goto(live_url + path)
        directions[path] = page.eval_on_selector_all(
            CARD_FIELDS, "(all) => all.map((f) => f.name + ' ' + getComputedStyle(f).direction)")
    context.close()
    assert all(directions.values()), directions
    assert [f for fields in directions.values() for f in fields if not f.endswith(" ltr")] == []
