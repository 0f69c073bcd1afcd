"""Printed score sheets and blank pads: what the PDF says, its paper, and bad links."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import new_game, pdf_text, quick, win
from pypdf import PdfReader

A4 = (595, 842)
LETTER = (612, 792)


def page_size(data: bytes) -> tuple[int, int]:
    """The first page's size in points, rounded."""
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def sheet_pdf(client: FlaskClient, game_id: str, query: str = "") -> bytes:
    """Fetch a game's PDF and check it is one."""
    response = client.get(f"/g/{game_id}/sheet.pdf{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/pdf"
    data: bytes = response.data
    assert data.startswith(b"%PDF")
    return data


def russian_game(client: FlaskClient, players: tuple[str, str] = ("Ann", "Bob")) -> str:
    """RULES.md §8: A wins 15, 55, 33; B wins 47, 28 — A 278, B 125, margin 153."""
    game_id = new_game(client, "russian", players)
    for seat, points in [(0, 15), (1, 47), (0, 55), (1, 28), (0, 33)]:
        win(client, game_id, seat, points)
    return game_id


def test_sheet_prints_names_every_hand_and_the_finals(client: FlaskClient) -> None:
    text = pdf_text(sheet_pdf(client, russian_game(client)))
    assert "Ann" in text and "Bob" in text
    for points in (15, 47, 55, 28, 33):
        assert re.search(rf"\+{points}\b", text), points
    assert re.search(r"\b278\b", text) and re.search(r"\b125\b", text)
    assert re.search(r"\b153\b", text)  # the margin
    assert "Final" in text and "Margin" in text
    assert "Game bonus to Ann: +100" in text


def test_running_totals_and_dead_hands_are_on_the_sheet(client: FlaskClient) -> None:
    game_id = new_game(client, "classic", ("Ann", "Bob"))
    win(client, game_id, 0, 12)
    assert quick(client, game_id, "dead", None).status_code == 302
    win(client, game_id, 1, 30)
    win(client, game_id, 0, 9)
    lines = pdf_text(sheet_pdf(client, game_id)).splitlines()
    hand = {int(line.split()[0]): line for line in lines if re.match(r"\d+ ", line)}
    assert "dead hand" in hand[2]
    assert re.search(r"\+9\s+21\b", hand[4]), hand[4]  # Ann's 9 and her running 21
    assert "In progress after 4 hands" in "\n".join(lines)


def test_a_sheet_in_progress_counts_its_hands_in_the_readers_grammar(
    client: FlaskClient,
) -> None:
    """One hand is "1 hand", not "1 hands"; Russian agrees with 1, 2 and 5:
    «сыграна 1 раздача», «сыграны 2 раздачи», «сыграно 5 раздач»."""
    game_id = new_game(client, "classic")
    said = {}
    for hands in range(1, 6):
        win(client, game_id, hands % 2, 10)
        for lang in ("en", "ru"):
            response = client.get(f"/g/{game_id}/sheet.pdf", headers={"Accept-Language": lang})
            said[lang, hands] = " ".join(pdf_text(response.data).split())
    assert "In progress after 1 hand " in said["en", 1] + " "
    assert "In progress after 2 hands" in said["en", 2]
    assert "Идёт игра: сыграна 1 раздача" in said["ru", 1]
    assert "Идёт игра: сыграны 2 раздачи" in said["ru", 2]
    assert "Идёт игра: сыграно 5 раздач" in said["ru", 5]


@pytest.mark.parametrize("names", [("مریم", "Пётр"), ("Пётр", "مریم")])
def test_persian_and_cyrillic_names_survive(client: FlaskClient, names: tuple[str, str]) -> None:
    game_id = new_game(client, "classic", names)
    win(client, game_id, 0, 20)
    text = pdf_text(sheet_pdf(client, game_id))
    assert "Пётр" in text
    assert "مریم" in text


def word_boxes(data: bytes) -> list[tuple[str, float, float]]:
    """Every word of the first page with its left edge and top, as poppler lays them out.

    Right-to-left words come out in visual order (letters reversed); ``word`` undoes that.
    """
    out = subprocess.run(["pdftotext", "-f", "1", "-l", "1", "-bbox", "-", "-"], input=data,
                         capture_output=True, check=True).stdout.decode()
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)</word>', out)
    return [(unicodedata.normalize("NFKC", w), float(x), float(y)) for x, y, w in found]


def column_left_edges(data: bytes, first: str, second: str) -> tuple[float, float]:
    """Where the two players' names stand in the sheet's column header (one line)."""
    words = word_boxes(data)
    spellings = {first: {first, first[::-1]}, second: {second, second[::-1]}}
    rows: dict[float, dict[str, float]] = {}
    for word, x, y in words:
        for name, forms in spellings.items():
            if word in forms:
                rows.setdefault(round(y), {})[name] = x
    both = [row for _, row in sorted(rows.items()) if len(row) == 2]
    assert both, words
    return both[-1][first], both[-1][second]  # the table header is the lowest such line


def test_persian_pages_print_right_to_left(client: FlaskClient) -> None:
    game_id = new_game(client, "classic", ("مریم", "Ann"))
    win(client, game_id, 0, 15)
    english = sheet_pdf(client, game_id)
    client.set_cookie("lang", "fa")
    persian = sheet_pdf(client, game_id)
    assert "+15" in pdf_text(persian)  # a left-to-right mark keeps the sign before the number
    # The first player's column is on the left in English and on the right in Persian.
    first, second = column_left_edges(english, "مریم", "Ann")
    assert first < second
    first, second = column_left_edges(persian, "مریم", "Ann")
    assert first > second
    # The title's words run right to left too: "مریم" stands right of "Ann".
    assert max(x for w, x, _ in word_boxes(persian) if w in ("مریم", "میرم")) > A4[0] / 2


def test_html_in_a_name_prints_as_text(client: FlaskClient) -> None:
    game_id = new_game(client, "classic", ("<b>x</b>", "Bob"))
    win(client, game_id, 0, 7)
    assert "<b>x</b>" in pdf_text(sheet_pdf(client, game_id))


@pytest.mark.parametrize("names", [
    ["A\rB", "C\tD\u2028E"],  # a carriage return, a tab, a line separator
    ["A\x01B", "C\x0bD"],  # control characters XML 1.0 does not allow
])
def test_names_with_odd_characters_print(client: FlaskClient, names: list[str]) -> None:
    """What a player may type prints: the whole sheet, to its last line and its footer."""
    created = client.post("/api/v1/games", json={"players": names})
    assert created.status_code == 201, created.get_json()
    text = pdf_text(sheet_pdf(client, created.get_json()["id"]))
    assert "Still needed" in text and text.endswith("page 1 of 1")


@pytest.mark.parametrize(("query", "size"), [("", A4), ("?size=a4", A4), ("?size=letter", LETTER),
                                             ("?size=Letter", LETTER)])
def test_sheet_paper_size(client: FlaskClient, query: str, size: tuple[int, int]) -> None:
    game_id = new_game(client)
    assert page_size(sheet_pdf(client, game_id, query)) == size


def test_a_long_game_goes_on_over_pages(client: FlaskClient) -> None:
    game_id = new_game(client, "classic")
    for number in range(60):
        win(client, game_id, number % 2, 1)
    data = sheet_pdf(client, game_id)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) >= 2
    second = reader.pages[1].extract_text()
    assert "Points" in second  # the column header repeats
    assert "page 2 of" in second
    numbers = [int(m) for m in re.findall(r"^(\d+) ", pdf_text(data), re.M)]
    assert numbers[:60] == list(range(1, 61))


def test_appendix_lists_hands_entered_with_cards(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={
        "variant": "gin", "rules": "classic", "players": ["Ann", "Bob"], "dealer": 0,
    }).get_json()
    hand = {  # RULES.md §8 example 7: the defender lays off four cards and undercuts
        "knocker": {"seat": 0, "cards": "KS KH KD 5S 6S 7S 9C TC JC JD"},
        "defender": {"cards": "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"},
    }
    hand_response = client.post(
        f"/api/v1/games/{created['id']}/hands", json=hand,
        headers={"X-Edit-Secret": created["edit_secret"], "Idempotency-Key": "k1"},
    )
    assert hand_response.status_code == 201, hand_response.get_json()
    plain = pdf_text(sheet_pdf(client, created["id"]))
    assert "Hands entered with cards" not in plain
    text = pdf_text(sheet_pdf(client, created["id"], "?appendix=1"))
    assert "Hands entered with cards" in text
    assert "K♠" in text and "A♣" in text  # the cards, with their suit symbols
    assert re.search(r"\+11\b", text)  # RULES §8 example 7: the defender's 11


def test_watchers_can_print(app: Flask, client: FlaskClient) -> None:
    game_id = russian_game(client)
    watcher = app.test_client()  # another browser: no edit rights
    assert watcher.post(f"/g/{game_id}/undo", data={"version": "0"}).status_code == 403
    assert "Ann" in pdf_text(sheet_pdf(watcher, game_id))


@pytest.mark.parametrize("query", ["?size=b5", "?size=", "?appendix=yes", "?appendix=2"])
def test_bad_sheet_links_are_refused_clearly(client: FlaskClient, query: str) -> None:
    game_id = new_game(client)
    response = client.get(f"/g/{game_id}/sheet.pdf{query}")
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    assert "must be" in response.get_data(as_text=True)


def test_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.get("/g/no-such-game/sheet.pdf").status_code == 404


@pytest.mark.once
def test_pads_page_offers_the_choices(client: FlaskClient) -> None:
    page = client.get("/pads")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    for field in ('name="rows"', 'name="preset"', 'name="size"', 'name="player1"'):
        assert field in body
    assert "/pads/pad.pdf" in body and 'value="hollywood"' in body


@pytest.mark.once
@pytest.mark.parametrize("rows", [5, 37, 80])
def test_blank_pad_has_the_rows_asked_for(client: FlaskClient, rows: int) -> None:
    response = client.get(f"/pads/gin.pdf?rows={rows}&preset=classic")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    numbers = [int(n) for n in re.findall(r"^(\d+)$", pdf_text(response.data), re.M)]
    assert numbers == list(range(1, rows + 1))


@pytest.mark.once
def test_blank_pad_prints_the_rules_names_and_paper(client: FlaskClient) -> None:
    response = client.get("/pads/gin.pdf?rows=10&preset=russian&size=letter"
                          "&player1=Пётр&player2=مریم")
    assert response.status_code == 200
    assert page_size(response.data) == LETTER
    text = pdf_text(response.data)
    assert "gin 25" in text and "undercut 25" in text and "shutout: double" in text
    assert "Пётр" in text and "مریم" in text
    assert page_size(client.get("/pads/gin.pdf?rows=10").data) == A4


@pytest.mark.once
@pytest.mark.parametrize("query", [
    "rows=0", "rows=4", "rows=201", "rows=abc", "rows=", "rows=1e3", "preset=remi",
    "preset=nope", "size=a3", "player1=" + "x" * 41,
])
def test_bad_pad_links_come_back_as_the_form(client: FlaskClient, query: str) -> None:
    response = client.get(f"/pads/gin.pdf?{query}")
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert 'class="error"' in body and 'name="rows"' in body


@pytest.mark.once
def test_weasyprint_loads_only_when_printing() -> None:
    code = (
        "import sys; from scorekeeper import create_app; "
        "create_app({'TESTING': True, 'SECRET_KEY': 'x', 'DATABASE_URL': 'sqlite://'}); "
        "print('weasyprint' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


@pytest.mark.once
def test_printing_fetches_only_the_apps_static_files(app: Flask, tmp_path: Path) -> None:
    """The fetcher WeasyPrint is given serves files under the static folder and refuses
    anything else: another file on the disk (directly, by ".." or by "%2e%2e") and the
    network. Each
    thread keeps its own (one is built once per thread, not per print)."""
    import threading

    import weasyprint

    from scorekeeper.printing import render

    secret = tmp_path / "secret.txt"
    secret.write_text("not for printing")
    static = Path(app.static_folder or "").resolve()
    fetcher = render._static_fetcher(weasyprint, static)
    served = fetcher(f"file://{static}/forms.js")
    try:  # a response (WeasyPrint 68 and later), or the older fetchers' dict
        body = served.read() if hasattr(served, "read") else served["file_obj"].read()
    finally:
        (served.close if hasattr(served, "close") else served["file_obj"].close)()
    assert body == (static / "forms.js").read_bytes()
    climb = "/".join(["%2e%2e"] * len(static.parts))  # "..", as the file opener decodes it
    for url in (f"file://{secret}", f"file://{static}/../../{secret}",
                f"file://{static}/{climb}{secret}", f"file://{static}/%2E%2E/%2e%2e/{secret}",
                "http://127.0.0.1/", "https://example.org/x.css"):
        with pytest.raises(ValueError, match="not fetched"):
            fetcher(url)
    assert render._static_fetcher(weasyprint, static) is fetcher
    others: list[object] = []
    thread = threading.Thread(target=lambda: others.append(
        render._static_fetcher(weasyprint, static)))
    thread.start()
    thread.join()
    assert others and others[0] is not fetcher


@pytest.mark.once
@pytest.mark.parametrize("game", ["gin", "hollywood", "three_hand", "partnership", "remi"])
def test_every_kind_of_game_has_a_blank_pad(client: FlaskClient, game: str) -> None:
    from scorekeeper.variants import VARIANTS

    preset = VARIANTS[game].default_preset
    response = client.get(f"/pads/pad.pdf?game={game}&rows=12&preset={preset}&player1=Ann")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/pdf"
    assert "Ann" in pdf_text(response.data)


@pytest.mark.once
def test_a_pad_with_rules_its_game_does_not_play_is_refused(client: FlaskClient) -> None:
    response = client.get("/pads/pad.pdf?game=remi&rows=12&preset=russian")
    assert response.status_code == 400
    assert "not played with these rules" in response.get_data(as_text=True)


@pytest.mark.once
def test_pads_start_from_the_usual_rules_and_say_which_games_each_preset_fits(
    client: FlaskClient,
) -> None:
    body = client.get("/pads").get_data(as_text=True)
    select = body[body.index('<select id="preset"'):]
    options = re.findall(r'<option value="(\w*)"( data-fits="[^"]*")?( selected)?>',
                         select[: select.index("</select>")])
    assert options == [
        ("", "", " selected"),
        ("classic", ' data-fits="gin hollywood three_hand partnership"', ""),
        ("russian", ' data-fits="gin hollywood three_hand partnership"', ""),
        ("pagat", ' data-fits="gin hollywood three_hand partnership"', ""),
        ("modern", ' data-fits="gin hollywood three_hand partnership"', ""),
        ("oklahoma", ' data-fits="hollywood"', ""),  # the Oklahoma game has no pad of its own
        ("three_hand", ' data-fits="three_hand"', ""),
        ("partnership", ' data-fits="partnership"', ""),
        ("remi", ' data-fits="remi"', ""),
    ]


@pytest.mark.once
@pytest.mark.parametrize(("game", "rules", "title"), [
    ("gin", "Target 100 · knock ≤ 10 · gin 20 · undercut 10 · game 0 · box bonus 0", "Classic"),
    ("hollywood", "Target 100 · knock ≤ 10 · gin 25 · undercut 25 · game 100 · box bonus 25",
     "Russian"),
    ("three_hand", "Target 100 · knock ≤ 10 · gin 25 · undercut 10 · game 0 · box bonus 0",
     "Three-hand"),
    ("partnership", "Target 125 · knock ≤ 10 · gin 25 · undercut 25 · game 100 · box bonus 25",
     "Partnership"),
    ("remi", "Target 500 · sets count only with a sequence", "score pad"),
])
def test_a_pad_without_a_preset_has_its_games_usual_rules(
    client: FlaskClient, game: str, rules: str, title: str
) -> None:
    response = client.get(f"/pads/pad.pdf?game={game}&rows=10")
    assert response.status_code == 200, response.get_data(as_text=True)
    lines = pdf_text(response.data).splitlines()
    assert lines[0].endswith(title), lines[0]
    assert lines[1].startswith(rules), lines[1]


@pytest.mark.once
def test_rules_a_game_is_not_played_with_name_the_ones_it_is(client: FlaskClient) -> None:
    response = client.get("/pads/pad.pdf?game=remi&rows=12&preset=classic")
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    errors = re.findall(r'<p class="error" role="alert">([^<]*)</p>', body)
    assert errors == [
        "This pad cannot be printed as asked; see the marked fields.",
        "Indonesian Remi (2–4 players) is not played with these rules. Choose the usual "
        "rules or one of: Remi."
    ]
    assert '<option value="remi" selected>' in body  # the game asked for stays chosen


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "rules: Russian"), ("ru", "правила: Русские"), ("fa", "روسی")],
)
def test_the_printed_sheet_names_its_rules_in_the_readers_language(
    client: FlaskClient, language: str, words: str
) -> None:
    game_id = russian_game(client)
    response = client.get(f"/g/{game_id}/sheet.pdf", headers={"Accept-Language": language})
    assert response.status_code == 200
    text = pdf_text(response.data)
    # Persian may come out of the PDF in visual order: either reading of the word will do.
    assert words in text or words[::-1] in text
    assert "russian" not in text  # the preset's key, untranslated


@pytest.mark.parametrize("direction", ["rtl", "ltr"])
def test_cards_print_left_to_right_in_a_right_to_left_page(
    app: Flask, direction: str, tmp_path: Path
) -> None:
    """WeasyPrint ignores ``unicode-bidi``: without ``dir`` on the cards' spans a Persian
    page printed "5♠6♠7♥" with its cards in reverse order. The red 7♥ must come last,
    to the right of the black cards, whatever the page's direction."""
    from flask import render_template_string
    from PIL import Image

    from scorekeeper.printing.render import html_to_pdf
    from scorekeeper.scoring import parse_cards

    page = (
        '{% from "_macros.html" import cards %}<!doctype html><html dir="' + direction + '">'
        '<head><meta charset="utf-8"></head><body><p style="font-size: 40pt">'
        "{{ cards(run) }}</p></body></html>"
    )
    with app.test_request_context():
        html = render_template_string(page, run=parse_cards("5S 6S 7H"))
        data = html_to_pdf(html)
    subprocess.run(["pdftoppm", "-r", "50", "-singlefile", "-png", "-", str(tmp_path / "run")],
                   input=data, check=True)
    image = Image.open(tmp_path / "run.png").convert("RGB")
    red, black = [], []
    for x in range(image.width):
        for y in range(image.height // 4):  # the run is on the first line
            r, g, b = image.getpixel((x, y))
            if r > 120 and g < 90 and b < 90:
                red.append(x)
            elif r < 90 and g < 90 and b < 90:
                black.append(x)
    assert red and black
    assert min(red) > max(black)


def test_the_longest_column_heading_is_printed_whole(client: FlaskClient) -> None:
    """Russian «Коробок» is the widest heading of a 13 mm column: it is printed as one
    word, not hyphenated («Коро-бок») nor broken at a letter."""
    game_id = russian_game(client)
    response = client.get(f"/g/{game_id}/sheet.pdf", headers={"Accept-Language": "ru"})
    heading = next(line for line in pdf_text(response.data).splitlines() if "Всего" in line)
    assert heading.split()[-3:] == ["Очки", "Всего", "Коробок"], heading
