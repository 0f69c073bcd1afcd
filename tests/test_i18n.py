"""Persian (right-to-left), Russian and English.

The first tests guard the catalogs: every string the code and the templates mark for
translation is extracted again here (the same mapping as ``make translations``) and
must have a finished Persian and Russian translation, with the same placeholders.
When one fails: ``make translations``, translate what it lists in
``scorekeeper/translations/{fa,ru}/LC_MESSAGES/messages.po``, run again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from flask.testing import FlaskClient
from helpers import compile_catalogs, pdf_text

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = ROOT / "scorekeeper" / "translations"
TRANSLATED = ("fa", "ru")
# The Makefile's `translations` target extracts with these keywords too.
# The keywords `make translations` extracts (its `-k` options) beside Babel's own.
KEYWORDS = {**DEFAULT_KEYWORDS, **dict.fromkeys(
    re.findall(r"-k (\w+)", (ROOT / "Makefile").read_text(encoding="utf-8")))}

PYTHON_FORMAT = re.compile(r"%\((\w+)\)[sd]")
STR_FORMAT = re.compile(r"\{(\w+)\}")


@pytest.fixture(autouse=True, scope="module")
def _compiled() -> Iterator[None]:
    compile_catalogs()
    yield


@cache
def extracted() -> dict[tuple[str | None, Any], set[str]]:
    """Every marked message of the code and templates now, by (context, id), with the
    files it is in."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[Any, set[str]] = {}
    for filename, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        found.setdefault((context, message), set()).add(filename)
    return found


@cache
def catalog(lang: str) -> Catalog:
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=lang)


def unfinished(message: Message | None) -> str | None:
    """Why a catalog entry is not a usable translation, or None if it is."""
    if message is None:
        return "missing"
    if message.fuzzy:
        return "fuzzy"
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    if not all(strings):
        return "untranslated"
    return None


def placeholders(text: str) -> tuple[set[str], set[str]]:
    return set(PYTHON_FORMAT.findall(text)), set(STR_FORMAT.findall(text))


def test_extraction_finds_the_marked_strings() -> None:
    messages = {msgid for _context, msgid in extracted()}
    assert "Scorekeeper" in messages  # a template
    assert "Knocker's cards" in messages  # _l in Python
    assert "Defender has no deadwood." in messages  # an engine step (N_)
    assert ("%(num)d box", "%(num)d boxes") in messages  # ngettext in a template
    assert "date (UTC)" in messages  # a CSV file's column (_column)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_marked_string_is_translated(lang: str) -> None:
    """Fails listing each string without a finished translation: run `make translations`
    and translate them."""
    entries = catalog(lang)
    problems = []
    for (context, msgid), files in sorted(extracted().items(), key=str):
        why = unfinished(entries.get(msgid, context=context))
        if why:
            where = ", ".join(sorted(files))
            about = f" [{context}]" if context else ""
            problems.append(f"{why}: {msgid!r}{about} ({where})")
    assert not problems, f"{lang}/LC_MESSAGES/messages.po:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_their_placeholders(lang: str) -> None:
    """%(name)s parameters and the engine's {name} fields are the same in every
    translation (and in every plural form)."""
    wrong = []
    for message in catalog(lang):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = placeholders(ids[-1])
        for text in strings:
            if text and placeholders(text) != expected:
                wrong.append(f"{message.id!r} -> {text!r}")
    assert not wrong, "\n".join(wrong)
    assert not [error for error in catalog(lang).check()]


NAME_PLACEHOLDER = re.compile(
    r"\{(?:name|player|players|team|dealer)\}|%\((?:name|names|box|captain|out|first|second|players)\)s"
)


def test_persian_isolates_player_names() -> None:
    """In Persian a player's name sits between FSI (U+2068) and PDI (U+2069), so a Latin
    name ("Ann") next to numbers keeps its place in right-to-left text."""
    bare = []
    for message in catalog("fa"):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            for found in NAME_PLACEHOLDER.finditer(text or ""):
                before, after = text[found.start() - 1 : found.start()], text[found.end() :][:1]
                if (before, after) != ("\u2068", "\u2069"):
                    bare.append(f"{message.id!r}: {found.group()}")
    assert not bare, "wrap these in \u2068…\u2069:\n" + "\n".join(bare)


def test_plural_forms() -> None:
    assert catalog("ru").num_plurals == 3
    assert catalog("fa").num_plurals == 2


def test_engine_templates_need_no_percent_escaping() -> None:
    """``i18n.translate`` looks engine templates up with ``%`` doubled; a template with a
    ``%`` would never be found in the catalog."""
    steps = [m for (_c, m), files in extracted().items() if any("scoring" in f for f in files)]
    assert steps
    assert not [m for m in steps if "%" in str(m)]


# Pages ------------------------------------------------------------------------------


BIDI_ISOLATES = re.compile("[\u2066-\u2069]")


def page_text(html: str) -> str:
    """What a reader sees of a page: no tags, entities decoded, no invisible isolates."""
    return BIDI_ISOLATES.sub("", unescape(re.sub(r"<[^>]+>", "", html)))


def page(client: FlaskClient, url: str, lang: str | None = None) -> str:
    headers = {"Accept-Language": lang} if lang else {}
    response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("accept", "lang", "direction", "words"),
    [
        ("fa-IR,fa;q=0.9,en;q=0.5", "fa", "rtl", ["امتیازنویس", "بازی تازه"]),
        ("ru-RU,ru;q=0.9", "ru", "ltr", ["Счётчик", "Новая игра"]),
        ("de-DE,en;q=0.5", "en", "ltr", ["Scorekeeper", "New game"]),
    ],
)
def test_language_follows_the_browser(
    client: FlaskClient, accept: str, lang: str, direction: str, words: list[str]
) -> None:
    html = page(client, "/", accept)
    assert f'<html lang="{lang}" dir="{direction}" data-theme="auto">' in html
    for word in words:
        assert word in html


def test_the_switch_is_remembered_in_a_cookie(client: FlaskClient) -> None:
    response = client.post("/lang", data={"lang": "fa", "next": "/games/new"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/games/new"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=fa;") and "HttpOnly" in cookie
    html = page(client, "/games/new", "ru,en;q=0.5")  # the cookie wins over the browser
    assert 'dir="rtl"' in html and "شروع بازی" in html

    client.post("/lang", data={"lang": "ru", "next": "/"})
    html = page(client, "/games/new", "fa")
    assert 'lang="ru" dir="ltr"' in html and "Начать игру" in html


def test_an_unknown_language_changes_nothing(client: FlaskClient) -> None:
    client.post("/lang", data={"lang": "ru", "next": "/"})
    response = client.post("/lang", data={"lang": "xx", "next": "/"})
    assert "Set-Cookie" not in response.headers
    assert 'lang="ru"' in page(client, "/")


def test_every_page_has_the_switch(client: FlaskClient) -> None:
    for url in ("/", "/games/new", "/check", "/remi/check", "/pads"):
        html = page(client, url, "fa")
        for code in ("en", "fa", "ru"):
            assert f'name="lang" value="{code}"' in html, url


# The layoff example of RULES.md §8 (undercut: the defender lays off 8♠ 9♠).
KNOCKER = "KS KH KD 5S 6S 7S 9C TC JC JD"
DEFENDER = "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        (
            "fa",
            [
                "حریف 8♠ 9♠ را روی 5♠6♠7♠ می‌گذارد.",
                "ترکیب‌های ضربه‌زننده 5♠6♠7♠ 9♣10♣J♣ K♠K♥K♦؛ جفت‌نشده J♦ = 10.",
                "جفت‌نشده 9 ≤ 10: از زیر بریدن، 1 + 10 = 11.",
            ],
        ),
        (
            "ru",
            [
                "Соперник докладывает 8♠ 9♠ к 5♠6♠7♠.",
                "Комбинации постучавшего 5♠6♠7♠ 9♣10♣J♣ K♠K♥K♦; сухостой J♦ = 10.",
                "Сухостой 9 ≤ 10: подрез, 1 + 10 = 11.",
            ],
        ),
    ],
)
def test_engine_steps_are_worded_in_the_language(
    client: FlaskClient, lang: str, lines: list[str]
) -> None:
    data = {"preset": "classic", "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    response = client.post("/check", data=data, headers={"Accept-Language": lang})
    assert response.status_code == 200
    text = page_text(response.get_data(as_text=True))
    for line in lines:
        assert line in text
    assert "Defender lays off" not in text and "Knocker melds" not in text


# A finished russian game -------------------------------------------------------------


def finished_russian_game(client: FlaskClient) -> str:
    """Ann beats Bob on the russian preset: RULES.md's game-end example (A: 15, 55, 33;
    B: 47, 28), entered as knocks."""
    from tests.helpers import new_game, win

    game = new_game(client, "russian", ("Ann", "Bob"))
    for seat, points in ((0, 15), (1, 47), (0, 55), (1, 28), (0, 33)):
        win(client, game, seat, points)
    return game


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "fa",
            [
                "جین رامی (دو نفره)",
                "نهایی",
                "Ann: 103 + 100 پاداش بازی + 3 × 25 خانه = 278",
                "کت: دوبرابر",
                "3 خانه",
            ],
        ),
        (
            "ru",
            [
                "Джин-рамми (вдвоём)",
                "Итог",
                "Ann: 103 + 100 за партию + 3 × 25 за коробки = 278",
                "сухая партия: удвоение",
                "3 коробка",
            ],
        ),
    ],
)
def test_the_sheet_in_each_language(client: FlaskClient, lang: str, words: list[str]) -> None:
    game = finished_russian_game(client)
    html = page(client, f"/g/{game}", lang)
    assert ('dir="rtl"' in html) == (lang == "fa")
    text = " ".join(page_text(html).split())
    for word in words:
        assert word in text, word


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Gin rummy", "Final", "Ann", "Bob"]),
        ("fa", ["رامی", "نهایی", "Ann", "Bob"]),
        ("ru", ["Джин-рамми", "Итог", "Ann", "Bob"]),
    ],
)
def test_the_pdf_sheet_in_each_language(client: FlaskClient, lang: str, words: list[str]) -> None:
    game = finished_russian_game(client)
    client.post("/lang", data={"lang": lang, "next": "/"})
    response = client.get(f"/g/{game}/sheet.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    text = pdf_words(response.data)
    for word in words:
        assert word in text, (word, text[:400])


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fa", ["رامی", "روسی", "پاداش", "دوبرابر", "کت:"]),
        ("ru", ["Джин-рамми", "бланк счёта", "Русские", "Бонус", "партию", "удвоение"]),
    ],
)
def test_the_blank_pad_in_each_language(client: FlaskClient, lang: str, words: list[str]) -> None:
    client.post("/lang", data={"lang": lang, "next": "/"})
    response = client.get("/pads/gin.pdf", query_string={"preset": "russian"})
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    text = pdf_words(response.data)
    for word in words:
        assert word in text, (word, text[:400])


def pdf_words(data: bytes) -> str:
    """The PDF's text as one line of words (lines wrap anywhere). Right-to-left lines
    come out in visual order, so the Persian checks are single words."""
    return " ".join(pdf_text(data).split())


# Counts around the places where Russian changes form: 1–5, 11–14 and 111–114 (not the
# forms of 1–4), 21–25 (the forms of 1–4 again).
COUNTS = (1, 2, 3, 4, 5, 11, 12, 13, 14, 21, 22, 23, 24, 25, 111, 112, 113, 114)
# Which of its three forms Russian takes for each count: one (1, 21), few (2–4, 22–24),
# many (5, 11–14, 25, 111–114): by the last digit, unless the last two are 11–14. So:
# 1 коробок, 4 коробка, 5 коробков, 12 коробков, 21 коробок, 22 коробка, 112 коробков.
RUSSIAN_FORM = {
    1: "one", 2: "few", 3: "few", 4: "few", 5: "many",
    11: "many", 12: "many", 13: "many", 14: "many",
    21: "one", 22: "few", 23: "few", 24: "few", 25: "many",
    111: "many", 112: "many", 113: "many", 114: "many",
}
# Every plural of the Russian and Persian catalogs, as a speaker says it: Russian in its
# three forms (one, few, many), Persian with the singular noun after every number.
PLURALS = {
    "ru": {
        "%(num)d box": {"one": "{n} коробок", "few": "{n} коробка", "many": "{n} коробков"},
        "%(num)d deal": {"one": "{n} раздача", "few": "{n} раздачи", "many": "{n} раздач"},
        "%(num)d hand": {"one": "{n} раздача", "few": "{n} раздачи", "many": "{n} раздач"},
        "%(num)d hand won": {"one": "{n} раздача выиграна", "few": "{n} раздачи выиграны",
                             "many": "{n} раздач выиграно"},
        "%(num)d finished game counted": {
            "one": "Учтена {n} законченная партия",
            "few": "Учтены {n} законченные партии",
            "many": "Учтено {n} законченных партий",
        },
        "%(num)d game imported.": {
            "one": "Импортирована {n} партия.",
            "few": "Импортированы {n} партии.",
            "many": "Импортировано {n} партий.",
        },
        "In progress after %(num)d hand": {
            "one": "Идёт игра: сыграна {n} раздача",
            "few": "Идёт игра: сыграны {n} раздачи",
            "many": "Идёт игра: сыграно {n} раздач",
        },
        "In progress after %(num)d deal": {
            "one": "Идёт игра: сыграна {n} раздача",
            "few": "Идёт игра: сыграны {n} раздачи",
            "many": "Идёт игра: сыграно {n} раздач",
        },
        "In progress after %(num)d deal; %(name)s deals next.": {
            "one": "Идёт игра: сыграна {n} раздача; следующим сдаёт Ann.",
            "few": "Идёт игра: сыграны {n} раздачи; следующим сдаёт Ann.",
            "many": "Идёт игра: сыграно {n} раздач; следующим сдаёт Ann.",
        },
        "%(num)d payment recorded: everybody is square.": {
            "one": "Записан {n} платёж: все в расчёте.",
            "few": "Записаны {n} платежа: все в расчёте.",
            "many": "Записано {n} платежей: все в расчёте.",
        },
        "%(num)d game": {"one": "{n} партия", "few": "{n} партии", "many": "{n} партий"},
        "Provisional: %(num)d more rated game before the number settles.": {
            "one": "Предварительный: ещё {n} партия в рейтинге, и число устоится.",
            "few": "Предварительный: ещё {n} партии в рейтинге, и число устоится.",
            "many": "Предварительный: ещё {n} партий в рейтинге, и число устоится.",
        },
        "%(num)d round": {"one": "{n} тур", "few": "{n} тура", "many": "{n} туров"},
        "%(num)d deal a table": {"one": "{n} раздача за столом",
                                 "few": "{n} раздачи за столом",
                                 "many": "{n} раздач за столом"},
        "%(num)d table of this round is not confirmed yet.": {
            "one": "{n} стол этого тура ещё не подтверждён.",
            "few": "{n} стола этого тура ещё не подтверждены.",
            "many": "{n} столов этого тура ещё не подтверждены.",
        },
        "playing, %(num)d hand": {"one": "идёт игра, {n} раздача",
                                  "few": "идёт игра, {n} раздачи",
                                  "many": "идёт игра, {n} раздач"},
        "%(num)d club night imported.": {
            "one": "Импортирован {n} клубный вечер.",
            "few": "Импортированы {n} клубных вечера.",
            "many": "Импортировано {n} клубных вечеров.",
        },
        "%(num)d player": {"one": "{n} игрок", "few": "{n} игрока", "many": "{n} игроков"},
        "%(num)d match point": {"one": "{n} очко матча", "few": "{n} очка матча",
                                "many": "{n} очков матча"},
    },
    "fa": {
        "%(num)d box": "{n} خانه",
        "%(num)d deal": "{n} دست",
        "%(num)d hand": "{n} دست",
        "%(num)d hand won": "{n} دست برده",
        "%(num)d finished game counted": "{n} بازی تمام‌شده شمرده شد",
        "%(num)d game imported.": "{n} بازی وارد شد.",
        "In progress after %(num)d hand": "در جریان، پس از {n} دست",
        "In progress after %(num)d deal": "در جریان، پس از {n} دست",
        "In progress after %(num)d deal; %(name)s deals next.":
            "در جریان، پس از {n} دست؛ دست بعدی را \u2068Ann\u2069 می‌دهد.",
        "%(num)d payment recorded: everybody is square.": "{n} پرداخت ثبت شد: حساب همه صاف است.",
        "%(num)d game": "{n} بازی",
        "Provisional: %(num)d more rated game before the number settles.":
            "موقت: {n} بازی رتبه‌دار دیگر تا این عدد جا بیفتد.",
        "%(num)d round": "{n} دور",
        "%(num)d deal a table": "{n} دست برای هر میز",
        "%(num)d table of this round is not confirmed yet.": "{n} میز این دور هنوز تأیید نشده است.",
        "playing, %(num)d hand": "در حال بازی، {n} دست",
        "%(num)d club night imported.": "{n} شب باشگاه وارد شد.",
        "%(num)d player": "{n} بازیکن",
        "%(num)d match point": "{n} امتیاز مسابقه",
    },
}


def said(lang: str, n: int, forms: Any) -> str:
    """What a speaker says for ``n``: the form of ``forms`` that ``n`` takes."""
    return (forms[RUSSIAN_FORM[n]] if lang == "ru" else forms).format(n=n)


@pytest.mark.parametrize("lang", ["ru", "fa"])
def test_plurals_read_as_a_speaker_says_them(app: Any, lang: str) -> None:
    from flask_babel import force_locale, ngettext

    compile_catalogs()
    plurals = {m.id[0]: m.id[1] for m in catalog(lang) if isinstance(m.id, tuple)}
    assert set(plurals) == set(PLURALS[lang])  # a new plural gets its forms checked here too
    with app.test_request_context(), force_locale(lang):
        for singular, forms in PLURALS[lang].items():
            plural = plurals[singular]
            spoken = [ngettext(singular, plural, n, name="Ann") for n in COUNTS]
            assert spoken == [said(lang, n, forms) for n in COUNTS], singular


@pytest.mark.parametrize(
    ("lang", "written"),
    [
        ("en", ["€0.005", "€1.50", "IRR 500", "\u2212€4.00", "+€1.71", "1 234,50 ₽"]),
        ("ru", ["0,005 €", "1,50 €", "500 IRR", "\u22124,00 €", "+1,71 €", "1 234,50 ₽"]),
        ("fa", ["\u200e€ 0.005", "\u200e€ 1.50", "\u200eریال 500", "\u2212\u200e€ 4.00",
                "+\u200e€ 1.71", "1 234,50 ₽"]),
    ],
)
def test_money_is_written_as_each_language_writes_it(
    app: Any, lang: str, written: list[str]
) -> None:
    """CLDR's ways (symbol before or after, decimal comma in Russian), Latin digits
    everywhere, and never rounded: a stake of half a cent a point is 0.005, where it
    used to show as 0.01. (The last amount is rubles in Russian, for the grouping.)"""
    from scorekeeper.money import money

    with app.test_request_context(headers={"Accept-Language": lang}):
        shown = [money("0.005", "EUR"), money("1.5", "EUR"), money("500", "IRR"),
                 money("-4", "EUR", signed=True), money("1.71", "EUR", signed=True)]
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        shown.append(money("1234.5", "RUB"))
    assert [text.replace("\u00a0", " ") for text in shown] == written
