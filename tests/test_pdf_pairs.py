"""On paper as on the page: every printed line that pairs names with numbers shows each
name beside its own number, the number on the side the line reads on to (left of the
name in Persian), and a sum as it is written, read from where poppler finds each word
(``pdftotext -bbox``): the race legends of gin, Oklahoma, Hollywood (a race a column),
three-hand, partnership (a team's two names and its total) and Remi (a total below zero among them)
sheets, a gin sheet's final sum and who pays whom, a kept ruling's verdict and steps."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.layout import hands, pdf_pages, printed_pairs

pytestmark = pytest.mark.once

# (the sheet's language, the players): Persian names, Latin names on a Persian sheet,
# an English sheet.
PLAYERS = {
    "fa": ("fa", ("سارا", "نیما", "رضا", "مریم")),
    "fa-latin": ("fa", ("Ann", "Bob", "Cid", "Dan")),
    "en": ("en", ("Ann", "Bob", "Cid", "Dan")),
}


def printed(client: FlaskClient, path: str, language: str, names: tuple[str, ...]
            ) -> list[tuple[list[str], list[tuple[str, str | None]]]]:
    """Every line of the PDF at ``path`` with a name or a number in it: its names and
    numbers in reading order, and its pairs."""
    response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200, path
    lines = [printed_pairs(line, names, rtl=language == "fa")
             for page in pdf_pages(response.data) for line in page.lines]
    return [line for line in lines if line[0]]


def game(client: FlaskClient, kind: str, players: tuple[str, ...],
         played: list[dict[str, Any]]) -> str:
    """A game of ``kind`` (gin by the classic rules for 0.05 € a point, any other kind
    by its own rules) with ``played`` hands; the path of its printed sheet."""
    rules = {"rules": "classic", "stake": "0.05", "currency": "EUR"} if kind == "gin" else {}
    created = client.post("/api/v1/games",
                          json={"variant": kind, "players": list(players), **rules})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    for number, hand in enumerate(played):
        response = client.post(f"/api/v1/games/{body['id']}/hands", json=hand,
                               headers={"X-Edit-Secret": body["edit_secret"],
                                        "Idempotency-Key": f"{kind}-{number}"})
        assert response.status_code == 201, response.get_json()
    return f"/g/{body['id']}/sheet.pdf"


def legends(lines: list[tuple[list[str], list[tuple[str, str | None]]]]
            ) -> list[list[tuple[str, str | None]]]:
    """The pairs of the lines that pair names with one number: the race legends."""
    return [pairs for _words, pairs in lines
            if pairs and len({number for _name, number in pairs}) == 1 and pairs[0][1]]


def written(lines: list[tuple[list[str], Any]], sum_: list[str], *, rtl: bool) -> bool:
    """Whether a line shows ``sum_``'s numbers left to right, one after the other."""
    for words, _pairs in lines:
        drawn = words[::-1] if rtl else words
        if any(drawn[i:i + len(sum_)] == sum_ for i in range(len(drawn))):
            return True
    return False


@pytest.mark.slow  # a sheet of every kind typeset for each case
@pytest.mark.parametrize("case", list(PLAYERS))
def test_printed_names_stand_beside_their_own_numbers(client: FlaskClient, case: str) -> None:
    language, (a, b, c, d) = PLAYERS[case]
    rtl = language == "fa"
    # a: 81 (a knock); b: gin against 81, 81 + 20 = 101, past 100; classic adds no
    # bonus: finals 81 and 101, "b wins by 20 (101 − 81)"; a pays b 20 × 0.05 € = 1.00 €.
    gin = printed(client, game(client, "gin", (a, b), [
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 82},
        {"outcome": "gin", "knocker": 1, "defender_deadwood": 81},
    ]), language, (a, b))
    pays = [words for words, _pairs in gin if words[:2] == [a, b] and len(words) == 3]
    assert len(pays) == 1 and pays[0][-1].endswith("1.00"), pays
    assert legends([line for line in gin if line[0] not in pays])[-2:] == [
        [(a, "81")], [(b, "101")]]
    assert written(gin, ["101", "81"], rtl=rtl)
    # Remi (tests/layout.hands): a 60 + 10 × 10 for going out, then 20 − 25: 155;
    # b −25 then 45 − 10: 10; c −85 then 55 + 10 × 5: 20; d 25 then −60: −35.
    remi = printed(client, game(client, "remi", (a, b, c, d), hands("remi")),
                   language, (a, b, c, d))
    assert legends(remi)[-4:] == [[(a, "155")], [(b, "10")], [(c, "20")], [(d, "−35")]]
    # tests/layout.hands: a knocks 3 against 24 (21); b goes gin against 31 (31 + 25);
    # a dead hand; b knocks 8 against a's 6: undercut, 8 − 6 + 25 for a.
    # Oklahoma (upcard 9♥, not doubled): a 21 + 27 = 48, b 56.
    oklahoma = printed(client, game(client, "oklahoma", (a, b), hands("oklahoma")),
                       language, (a, b))
    assert legends(oklahoma)[-2:] == [[(a, "48")], [(b, "56")]]
    # Hollywood: a's first win counts in the first column, his second in the first two;
    # b's one win in the first. First column a 48, b 56; second a 27, b 0.
    hollywood = printed(client, game(client, "hollywood", (a, b), hands("hollywood")),
                        language, (a, b))
    assert legends(hollywood)[-4:] == [[(a, "48")], [(b, "56")], [(a, "27")], [(b, "0")]]
    # Three-hand (gin 25, undercut 10), a in the box, b captain: a 21 and stays, c
    # captain; c's gin, 56, puts c in the box, b captain; b's 8 against c's 6: 12 for c.
    three = printed(client, game(client, "three_hand", (a, b, c), hands("three_hand")),
                    language, (a, b, c))
    assert legends(three)[-3:] == [[(a, "21")], [(b, "0")], [(c, "68")]]
    # Partnership, a & c against b & d: deal 1, a 21 at one table, d 56 at the other:
    # b & d by 35; deal 2, a dead hand and c's undercut, 8 − 6 + 25: a & c by 27.
    partnership = printed(client, game(client, "partnership", (a, b, c, d),
                                       hands("partnership")), language, (a, b, c, d))
    # (a team of Latin names on a Persian sheet reads "Ann & Cid" from its right: Cid first)
    teams = [sorted(pairs) for pairs in legends(partnership)[-2:]]
    assert teams == [sorted([(a, "27"), (c, "27")]), sorted([(b, "35"), (d, "35")])]
    # a goes out: 2♥–5♥ (20), K♣ K♦ K♠ (30), closing on A♦ (10 × 15): 50 − 0 + 150 = 200;
    # b: 7♠ 8♠ 9♠ and 9♥ 9♦ 9♣ (15 each) against A♠ (15): 30 − 15 = 15.
    kept = client.post("/api/v1/rulings", json={"kind": "remi", "players": [
        {"name": a, "hand": "2H 3H 4H 5H KC KD KS", "went_out": True, "final_discard": "AD"},
        {"name": b, "table": ["7S 8S 9S"], "hand": "9D 9C 9H AS"},
    ]})
    assert kept.status_code == 201, kept.get_json()
    ruling = printed(client, f"/rulings/{kept.get_json()['id']}.pdf", language, (a, b))
    assert ruling[0][1] == [(a, "+200"), (b, "+15"), (a, None)]
    assert written(ruling, ["50", "0", "150", "200"], rtl=rtl)
    assert written(ruling, ["30", "15", "15"], rtl=rtl)
    assert any(pairs == [(b, "−15")] for _words, pairs in ruling), "A♠ unmatched: −15"
