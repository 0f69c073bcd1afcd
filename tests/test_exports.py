"""CSV files a spreadsheet opens: the group's games, hands and payments, and a game's
hands, checked against the hand-made group of tests/test_groups.py (every figure
worked out there by hand)."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from scorekeeper.services import exports
from tests.helpers import DEAD, api, knock, play

BOM = "\ufeff".encode()


def read_csv(
    client: FlaskClient, path: str, language: str = "en"
) -> tuple[list[str], list[dict[str, str]]]:
    """The file's header and rows, after checking what makes Excel read it right."""
    response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200, path
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    data = response.get_data()
    assert data.startswith(BOM)
    assert b"\r\n" in data
    reader = csv.reader(io.StringIO(data[len(BOM):].decode("utf-8"), newline=""))
    header, *rows = list(reader)
    return header, [dict(zip(header, row, strict=True)) for row in rows]


def seats(row: dict[str, str], *fields: str) -> list[tuple[str, ...]]:
    return [tuple(row[f"{f} {n}"] for f in fields) for n in range(1, 5)]


def test_the_groups_games_one_row_each_oldest_first(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    header, rows = read_csv(client, f"/groups/{friday['group']['id']}/games.csv")
    assert header[:7] == ["date (UTC)", "game", "kind", "finished", "winners", "stake", "currency"]
    assert [r["game"] for r in rows] == [friday[g]["id"] for g in ("g1", "g2", "g3", "g4")]
    assert [(r["kind"], r["finished"], r["winners"], r["stake"], r["currency"]) for r in rows] == [
        ("gin", "yes", "Ann", "0.01", "EUR"),
        ("gin", "yes", "Bob", "0.01", "EUR"),
        ("three_hand", "yes", "Bob", "0.01", "EUR"),
        ("remi", "yes", "Cid", "0.01", "EUR"),
    ]
    assert [seats(r, "player", "final") for r in rows] == [
        [("Ann", "278"), ("Bob", "125"), ("", ""), ("", "")],
        [("Bob", "50"), ("Cid", "7"), ("", ""), ("", "")],
        [("Ann", "0"), ("Bob", "71"), ("Cid", "0"), ("", "")],
        [("Ann", "5"), ("Bob", "-30"), ("Cid", "130"), ("", "")],
    ]


def test_the_groups_hands_one_row_each_with_deadwood_points_and_totals(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    _header, rows = read_csv(client, f"/groups/{friday['group']['id']}/hands.csv")
    g1 = [r for r in rows if r["game"] == friday["g1"]["id"]]
    cells = ("hand", "outcome", "knocker", "knocker deadwood", "defender deadwood", "winner")
    assert [tuple(r[c] for c in cells) for r in g1] == [
        ("1", "knock", "Ann", "1", "16", "Ann"),
        ("2", "knock", "Bob", "2", "49", "Bob"),
        ("3", "dead", "", "", "", ""),
        ("4", "knock", "Ann", "5", "60", "Ann"),
        ("5", "undercut", "Ann", "7", "4", "Bob"),
        ("6", "gin", "Ann", "0", "8", "Ann"),
    ]
    assert [seats(r, "points", "total")[:2] for r in g1] == [
        [("15", "15"), ("0", "0")],
        [("0", "15"), ("47", "47")],
        [("0", "15"), ("0", "47")],
        [("55", "70"), ("0", "47")],
        [("0", "70"), ("28", "75")],  # 7 − 4 = 3, and the 25 undercut bonus
        [("33", "103"), ("0", "75")],  # 8 and the 25 gin bonus
    ]
    g3 = [r for r in rows if r["game"] == friday["g3"]["id"]]
    # Bob (captain) knocks 4 against Ann's 20; then Bob, now in the box, gins v Cid's 30.
    assert [(r["knocker"], r["knocker deadwood"], r["defender deadwood"], r["winner"])
            for r in g3] == [("Bob", "4", "20", "Bob"), ("Bob", "0", "30", "Bob")]
    assert [seats(r, "player", "points", "total")[:3] for r in g3] == [
        [("Ann", "0", "0"), ("Bob", "16", "16"), ("Cid", "0", "0")],
        [("Ann", "0", "0"), ("Bob", "55", "71"), ("Cid", "0", "0")],
    ]
    (g4,) = [r for r in rows if r["game"] == friday["g4"]["id"]]
    assert (g4["outcome"], g4["knocker"]) == ("went_out", "Cid")
    assert seats(g4, "points", "total")[:3] == [("5", "5"), ("-30", "-30"), ("130", "130")]
    assert len(rows) == 6 + 2 + 2 + 1


def names_group(client: FlaskClient) -> dict[str, Any]:
    group = api(client, "/groups", {"name": "Дом", "players": ["علی", "Борис"],
                                    "stake": "0.5", "currency": "EUR"})
    game = api(client, "/games", {"variant": "gin", "players": ["علی", "Борис"],
                                  "group": group["id"]}, group["edit_secret"])
    play(client, game, [knock(1, 3, 12), DEAD])
    return {"group": group, "game": game}


def test_persian_and_russian_names_come_back_from_the_csv_reader(client: FlaskClient) -> None:
    made = names_group(client)
    _header, rows = read_csv(client, f"/g/{made['game']['id']}/hands.csv")
    assert [(r["knocker"], r["winner"], r["player 1"], r["player 2"], r["points 2"])
            for r in rows] == [("Борис", "Борис", "علی", "Борис", "9"),
                               ("", "", "علی", "Борис", "0")]
    group = made["group"]
    api(client, f"/groups/{group['id']}/payments",
        {"from": "علی", "to": "Борис", "amount": "1.25", "date": "2026-01-02"},
        group["edit_secret"])
    header, rows = read_csv(client, f"/groups/{group['id']}/payments.csv")
    assert header == ["date", "from", "to", "amount", "currency", "recorded (UTC)"]
    assert [(r["date"], r["from"], r["to"], r["amount"], r["currency"]) for r in rows] == [
        ("2026-01-02", "علی", "Борис", "1.25", "EUR")
    ]


def test_the_sheet_and_the_group_page_link_their_csv_files(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    game, group = friday["g1"]["id"], friday["group"]["id"]
    assert f'href="/g/{game}/hands.csv"' in client.get(f"/g/{game}").get_data(as_text=True)
    page = client.get(f"/groups/{group}").get_data(as_text=True)
    for name in ("games", "hands", "payments"):
        assert f'href="/groups/{group}/{name}.csv"' in page


def test_the_groups_ratings_highest_first(client: FlaskClient, friday: dict[str, Any]) -> None:
    header, rows = read_csv(client, f"/groups/{friday['group']['id']}/ratings.csv")
    assert header == ["player", "rating", "mu", "sigma", "rated games", "provisional",
                      "best rating"]
    api_rows = client.get(f"/api/v1/groups/{friday['group']['id']}").get_json()["standings"]
    by_rating = sorted(api_rows, key=lambda r: -r["rating"])
    assert [r["player"] for r in rows] == [r["name"] for r in by_rating]
    assert [(r["rated games"], r["provisional"]) for r in rows] == [
        (str(r["rated_games"]), "yes") for r in by_rating]
    for row, api_row in zip(rows, by_rating, strict=True):
        assert round(float(row["rating"]), 2) == api_row["rating"]


# Each file's header row, worked out from the columns' names in each language. Seats 1 to
# 4 repeat their columns ("player 1", "final 1", "player 2"…).
GAMES_FA = ["تاریخ (UTC)", "بازی", "نوع", "تمام‌شده", "برندگان", "مبلغ هر امتیاز", "واحد پول",
            "بازیکن 1", "امتیاز نهایی 1", "بازیکن 2", "امتیاز نهایی 2",
            "بازیکن 3", "امتیاز نهایی 3", "بازیکن 4", "امتیاز نهایی 4"]
GAMES_RU = ["дата (UTC)", "партия", "вид", "окончена", "победители", "ставка за очко", "валюта",
            "игрок 1", "итог 1", "игрок 2", "итог 2", "игрок 3", "итог 3", "игрок 4", "итог 4"]
GAMES_EN = ["date (UTC)", "game", "kind", "finished", "winners", "stake", "currency",
            "player 1", "final 1", "player 2", "final 2", "player 3", "final 3",
            "player 4", "final 4"]
HANDS_FA = ["تاریخ (UTC)", "بازی", "نوع", "دست", "میز", "نتیجه", "ضربه‌زننده",
            "جفت‌نشدهٔ ضربه‌زننده", "جفت‌نشدهٔ حریف", "برنده",
            "بازیکن 1", "امتیاز 1", "جمع 1", "بازیکن 2", "امتیاز 2", "جمع 2",
            "بازیکن 3", "امتیاز 3", "جمع 3", "بازیکن 4", "امتیاز 4", "جمع 4"]
HANDS_RU = ["дата (UTC)", "партия", "вид", "раздача", "стол", "исход", "постучавший",
            "сухостой постучавшего", "сухостой соперника", "победитель",
            "игрок 1", "очки 1", "счёт 1", "игрок 2", "очки 2", "счёт 2",
            "игрок 3", "очки 3", "счёт 3", "игрок 4", "очки 4", "счёт 4"]
HANDS_EN = ["date (UTC)", "game", "kind", "hand", "table", "outcome", "knocker",
            "knocker deadwood", "defender deadwood", "winner",
            "player 1", "points 1", "total 1", "player 2", "points 2", "total 2",
            "player 3", "points 3", "total 3", "player 4", "points 4", "total 4"]
PAYMENTS_FA = ["تاریخ", "پرداخت‌کننده", "گیرنده", "مبلغ", "واحد پول", "زمان ثبت (UTC)"]
PAYMENTS_RU = ["дата", "кто платит", "кому", "сумма", "валюта", "записано (UTC)"]
PAYMENTS_EN = ["date", "from", "to", "amount", "currency", "recorded (UTC)"]
RATINGS_FA = ["بازیکن", "رتبه", "مهارت محتمل (μ)", "عدم قطعیت (σ)", "بازی‌های رتبه‌دار", "موقت",
              "بهترین رتبه"]
RATINGS_RU = ["игрок", "рейтинг", "вероятное мастерство (μ)", "неопределённость (σ)",
              "партий в рейтинге", "предварительный", "лучший рейтинг"]
RATINGS_EN = ["player", "rating", "mu", "sigma", "rated games", "provisional", "best rating"]


# The values written in words, as a reader of each language reads them.
WORDS_RU = {"yes": "да", "no": "нет", "gin": "джин", "three_hand": "джин втроём",
            "remi": "реми", "knock": "стук", "undercut": "подрез", "dead": "пустая раздача",
            "went_out": "выход"}
WORDS_FA = {"yes": "بله", "no": "نه", "gin": "جین", "three_hand": "جین سه‌نفره", "remi": "رمی",
            "knock": "ضربه", "undercut": "از زیر بریدن", "dead": "دست باطل",
            "went_out": "تمام کردن بازی"}
WORD_COLUMNS = {"kind", "finished", "outcome", "provisional"}


def test_each_files_header_and_words_are_in_the_readers_language(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    group, game = friday["group"]["id"], friday["g1"]["id"]
    files = {
        f"/groups/{group}/games.csv": (GAMES_EN, GAMES_FA, GAMES_RU),
        f"/groups/{group}/hands.csv": (HANDS_EN, HANDS_FA, HANDS_RU),
        f"/groups/{group}/payments.csv": (PAYMENTS_EN, PAYMENTS_FA, PAYMENTS_RU),
        f"/groups/{group}/ratings.csv": (RATINGS_EN, RATINGS_FA, RATINGS_RU),
        f"/g/{game}/hands.csv": (HANDS_EN, HANDS_FA, HANDS_RU),
    }
    for path, (english, persian, russian) in files.items():
        en_header, en_rows = read_csv(client, path, "en")
        assert en_header == english, path
        for language, header, words in (("fa", persian, WORDS_FA), ("ru", russian, WORDS_RU)):
            got, rows = read_csv(client, path, language)
            assert got == header, (path, language)
            # Under each column the English file's value, or the same word in the reader's
            # language; numbers, names and dates as they are.
            expected = [[words[v] if column in WORD_COLUMNS and v else v
                         for column, v in row.items()] for row in en_rows]
            assert [list(r.values()) for r in rows] == expected, (path, language)
    _header, rows = read_csv(client, f"/groups/{group}/games.csv", "fa")
    first = rows[0]
    assert (first["نوع"], first["تمام‌شده"], first["مبلغ هر امتیاز"]) == ("جین", "بله", "0.01")
    _header, rows = read_csv(client, f"/g/{game}/hands.csv", "ru")
    assert [(r["исход"], r["сухостой постучавшего"], r["очки 1"]) for r in rows][:2] == [
        ("стук", "1", "15"), ("стук", "2", "0")]
    _header, rows = read_csv(client, f"/groups/{group}/games.csv", "ru")
    assert [(r["вид"], r["окончена"]) for r in rows] == [
        ("джин", "да"), ("джин", "да"), ("джин втроём", "да"), ("реми", "да")]


def test_a_name_that_is_a_word_stays_a_name(app: Flask) -> None:
    body = exports.csv_bytes(["player", "finished"], [["yes", exports.Word("yes")]])
    with app.test_request_context(), force_locale("ru"):
        body_ru = exports.csv_bytes(["player", "finished"], [["yes", exports.Word("yes")]])
    assert body.decode("utf-8-sig").splitlines()[1] == "yes,yes"
    assert body_ru.decode("utf-8-sig").splitlines()[1] == "yes,да"


def test_a_script_asks_for_the_english_header_whatever_the_browser_reads(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    group = friday["group"]["id"]
    header, _rows = read_csv(client, f"/groups/{group}/ratings.csv?lang=en", "fa")
    assert header == RATINGS_EN
    header, _rows = read_csv(client, f"/g/{friday['g2']['id']}/hands.csv?lang=ru", "fa")
    assert header == HANDS_RU
    wrong = client.get(f"/groups/{group}/games.csv?lang=de")
    assert wrong.status_code == 400
    assert "?lang=en|fa|ru" in wrong.get_data(as_text=True)


def test_a_name_a_spreadsheet_would_run_is_kept_as_text(client: FlaskClient) -> None:
    game = api(client, "/games", {"variant": "gin", "players": ["=1+2", "@Bob"]})
    play(client, game, [knock(0, 3, 12)])
    _header, rows = read_csv(client, f"/g/{game['id']}/hands.csv")
    # The names behind an apostrophe; the points (9) and totals stay numbers.
    assert [(r["player 1"], r["player 2"], r["knocker"], r["points 1"], r["total 1"])
            for r in rows] == [("'=1+2", "'@Bob", "'=1+2", "9", "9")]


def test_an_id_is_written_as_it_is_and_a_name_like_it_is_not() -> None:
    # A game's id may start with "-" (token_urlsafe); a name that does is kept as text.
    body = exports.csv_bytes(["game", "player", "amount"],
                             [[exports.Token("-O9rd_k"), "-O9rd_k", "-1.50"]])
    assert body.decode("utf-8") == "\ufeffgame,player,amount\r\n-O9rd_k,'-O9rd_k,-1.50\r\n"
