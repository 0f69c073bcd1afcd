"""Small helpers the web tests share: start a game, enter hands, read the sheet."""

from __future__ import annotations

import html
import io
import json
import re
import unicodedata
from datetime import datetime
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from sqlalchemy import select

from scorekeeper.db import get_session
from scorekeeper.models import Game, NightTable
from tests.examples import TableHand


def started(client: FlaskClient, data: dict[str, Any]) -> str:
    """Send the new-game page's form and return the new game's id (this client may edit
    it): ``player1``, ``player2``… are the names in seat order."""
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.search(r"/g/([\w-]+)$", response.headers["Location"])
    assert match, response.headers["Location"]
    return match.group(1)


def seats(players: tuple[str, ...]) -> dict[str, str]:
    """The new-game form's name fields: ``player1`` for seat 0, and so on."""
    return {f"player{seat + 1}": name for seat, name in enumerate(players)}


def new_game(
    client: FlaskClient,
    preset: str = "classic",
    players: tuple[str, str] = ("Ann", "Bob"),
    **extra: Any,
) -> str:
    """Start a gin game through the page and return its id (this client may edit it)."""
    return started(
        client, {"variant": "gin", **seats(players), "preset": preset, "dealer": "0", **extra}
    )


def new_oklahoma(client: FlaskClient, preset: str = "oklahoma", **extra: Any) -> str:
    """Start an Oklahoma game, Ann v Bob, through the new-game page."""
    return started(
        client,
        {"variant": "oklahoma", **seats(("Ann", "Bob")), "preset": preset, "dealer": "0",
         **extra},
    )


def new_hollywood(
    client: FlaskClient,
    preset: str = "russian",
    players: tuple[str, str] = ("A", "B"),
    **extra: Any,
) -> str:
    """Start a Hollywood match through the new-game page."""
    return started(
        client, {"variant": "hollywood", **seats(players), "preset": preset, "dealer": "0",
                 **extra},
    )


def new_three_hand(client: FlaskClient, box: str = "0", captain: str = "auto", **extra: Any) -> str:
    """Start a three-hand game through the new-game page; X, Y, Z in seats 0, 1, 2, the
    box in seat ``box``."""
    return started(
        client,
        {"variant": "three_hand", **seats(("X", "Y", "Z")), "preset": "three_hand",
         "dealer": box, "captain": captain, **extra},
    )


def new_partnership(
    client: FlaskClient, players: tuple[str, ...] = ("Ann", "Bob", "Cid", "Dan"), **extra: Any
) -> str:
    """Start a partnership game through the new-game page: seats 0 and 2 (Ann & Cid) play
    seats 1 and 3 (Bob & Dan)."""
    return started(
        client,
        {"variant": "partnership", **seats(players), "preset": "partnership", "dealer": "0",
         **extra},
    )


def new_remi(
    client: FlaskClient,
    players: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee"),
    dealer: int = 0,
    **extra: Any,
) -> str:
    """Start an Indonesian Remi game through the new-game page."""
    return started(
        client,
        {"variant": "remi", "preset": "remi", "dealer": str(dealer), **extra, **seats(players)},
    )


def version_of(client: FlaskClient, game_id: str) -> int:
    """The sheet version the API reports."""
    return int(client.get(f"/api/v1/games/{game_id}").get_json()["version"])


def quick(
    client: FlaskClient,
    game_id: str,
    outcome: str,
    knocker: int | None,
    k: int | None = None,
    d: int | None = None,
    **extra: Any,
) -> Any:
    """Enter a hand in quick mode the way the sheet's form sends it."""
    data: dict[str, Any] = {"outcome": outcome, "version": version_of(client, game_id), **extra}
    if knocker is not None:
        data["knocker"] = str(knocker)
    if k is not None:
        data["knocker_deadwood"] = str(k)
    if d is not None:
        data["defender_deadwood"] = str(d)
    return client.post(f"/g/{game_id}/hands", data=data)


def win(client: FlaskClient, game_id: str, seat: int, points: int) -> None:
    """A knock that gives ``seat`` exactly ``points`` (0 deadwood against ``points``: gin
    would add a bonus, so knock 1 against points + 1)."""
    response = quick(client, game_id, "knock", seat, 1, points + 1)
    assert response.status_code == 302, response.get_data(as_text=True)


def state(client: FlaskClient, game_id: str) -> dict[str, Any]:
    """The whole game as the API returns it."""
    data: dict[str, Any] = client.get(f"/api/v1/games/{game_id}").get_json()
    return data


def partnership_form(
    client: FlaskClient, game_id: str, deal: tuple[TableHand, TableHand]
) -> dict[str, Any]:
    """The partnership sheet's quick form for one deal, table 1's fields ``a-…`` and
    table 2's ``b-…``."""
    data: dict[str, Any] = {"version": state(client, game_id)["version"]}
    for prefix, (outcome, knocker, k, d) in zip("ab", deal, strict=True):
        data[f"{prefix}-outcome"] = outcome
        if knocker is not None:
            data[f"{prefix}-knocker"] = str(knocker)
        if k is not None:
            data[f"{prefix}-knocker_deadwood"] = str(k)
        if d is not None:
            data[f"{prefix}-defender_deadwood"] = str(d)
    return data


def enter_partnership(
    client: FlaskClient, game_id: str, deal: tuple[TableHand, TableHand]
) -> Any:
    """Enter one partnership deal, both tables, the way the sheet's form sends it."""
    return client.post(f"/g/{game_id}/hands", data=partnership_form(client, game_id, deal))


def remi_card_form(deal: dict[str, Any]) -> dict[str, str]:
    """The Remi card page's form fields for a deal written like ``SECTION_8``."""
    data = {
        "went_out": "none" if deal["went_out"] is None else str(deal["went_out"]),
        "final_discard": deal.get("final_discard") or "",
    }
    for seat, player in enumerate(deal["players"]):
        data[f"players-{seat}-table"] = "\n".join(player["table"])
        data[f"players-{seat}-hand"] = player["hand"]
    return data


def post_remi_cards(
    client: FlaskClient, game_id: str, deal: dict[str, Any], number: int | None = None
) -> Any:
    """Enter a Remi deal on the card page, or correct deal ``number`` there."""
    data = {"version": str(version_of(client, game_id)), **remi_card_form(deal)}
    url = f"/g/{game_id}/hands/new" if number is None else f"/g/{game_id}/hands/{number}/edit"
    if number is not None:
        url += "?mode=cards"
    return client.post(url, data=data)


CATALOGS = Path(__file__).resolve().parents[1] / "scorekeeper" / "translations"


def compile_catalogs() -> None:
    """Build each ``messages.mo`` that is missing or older than its ``.po``, as
    ``make catalogs`` does, so the suite also runs from a bare ``pytest``."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in CATALOGS.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parts[-3])
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        partial = mo.with_suffix(".mo.partial")
        partial.write_bytes(buffer.getvalue())
        partial.replace(mo)


def check_headers(response: Any, what: str) -> None:
    """The security headers every answer carries (``what`` names it in a failure)."""
    headers = response.headers
    csp = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
    assert csp["default-src"] == "'self'", what
    assert "'unsafe-inline'" not in csp["script-src"], what
    assert "'unsafe-eval'" not in csp["script-src"], what
    assert "'unsafe-inline'" not in csp.get("style-src", ""), what
    assert csp["frame-ancestors"] == "'none'", what
    assert csp["object-src"] == "'none'", what
    assert headers["Referrer-Policy"] == "same-origin", what
    assert headers["X-Content-Type-Options"] == "nosniff", what
    assert headers["X-Frame-Options"] == "DENY", what


# What an import may change in a game's JSON.
VOLATILE = {"id", "edit_secret", "created_at", "format", "format_version"}


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """A game's JSON without what an import may change (ids, secrets, timestamps)."""
    return {k: v for k, v in document.items() if k not in VOLATILE | {"history"}}


def upload(client: FlaskClient, content: bytes, name: str = "backup.json") -> Any:
    """Send ``content`` as the import form's file. The multipart body is built here: the
    test client would spool a large one into a temporary file it never closes."""
    boundary = "scorekeeper-test-boundary"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{name}"\r\nContent-Type: application/json\r\n\r\n').encode()
    body += content + f"\r\n--{boundary}--\r\n".encode()
    return client.post("/import", data=body,
                       content_type=f"multipart/form-data; boundary={boundary}")


def counts(app: Flask) -> tuple[int, int, int]:
    """How many games, hands and changes the database holds."""
    from sqlalchemy import func, select

    from scorekeeper.db import get_session
    from scorekeeper.models import Change, Game, Hand

    with app.app_context():
        db = get_session()
        return tuple(db.scalar(select(func.count()).select_from(m)) or 0  # type: ignore[return-value]
                     for m in (Game, Hand, Change))


def many_games(count: int) -> bytes:
    """A backup file of ``count`` new gin games, Ann 0… v Bob, no hands."""
    return json.dumps({"format": "scorekeeper-export", "format_version": 1, "games": [
        {"variant": "gin", "players": [f"Ann {i}", "Bob"], "rules": {"preset": "classic"},
         "setup": {"dealer": 0}, "hands": []} for i in range(count)]}).encode()


def api(client: FlaskClient, path: str, body: dict[str, Any], secret: str | None = None) -> Any:
    """POST ``body`` to ``/api/v1{path}`` (with the edit secret, if given); its JSON answer."""
    headers = {"X-Edit-Secret": secret} if secret else {}
    response = client.post(f"/api/v1{path}", json=body, headers=headers)
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def knock(seat: int, k: int, d: int, outcome: str = "knock") -> dict[str, Any]:
    """A gin hand for the API: ``seat`` knocks (or gins) with ``k`` against ``d``."""
    return {"outcome": outcome, "knocker": seat, "knocker_deadwood": k, "defender_deadwood": d}


DEAD = {"outcome": "dead"}


def play(client: FlaskClient, game: dict[str, Any], hands: list[dict[str, Any]]) -> None:
    """Enter ``hands`` in ``game`` (an API answer with its edit secret) through the API."""
    for hand in hands:
        api(client, f"/games/{game['id']}/hands", hand, game["edit_secret"])


def errors_at(html: str, field_id: str) -> list[str]:
    """The messages of the field ``field_id``'s block."""
    block = re.search(rf'<div class="field[^"]*">\s*<label for="{field_id}".*?</div>', html, re.S)
    assert block, field_id
    return re.findall(r'<p class="error" role="alert">(.*?)</p>', block.group(0))


def value_of(html: str, field_id: str) -> str:
    """The value in the input ``field_id`` ("" when it has none)."""
    found = re.search(rf'<input[^>]*id="{field_id}"[^>]*>', html)
    assert found, field_id
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def text_of(html: str, pattern: str) -> str:
    """The words of what ``pattern``'s group matched in ``html``, tags dropped."""
    match = re.search(pattern, html, re.S)
    assert match, pattern
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split())


def verdict(html: str) -> str:
    """The verdict of a settled hand's page, as it reads."""
    return text_of(html, r'<p class="settlement verdict">\s*(.*?)</strong>')


def kept(client: FlaskClient, body: dict[str, Any]) -> str:
    """Keep a ruling through the API; its id."""
    response = client.post("/api/v1/rulings", json=body)
    assert response.status_code == 201, response.get_json()
    answer = response.get_json()
    assert set(answer) == {"id", "url"}
    assert answer["url"] == f"http://localhost/rulings/{answer['id']}"
    return str(answer["id"])


FILL = {"game_id": None, "number": "1", "variant_name": "gin", "filename": "style.css"}


def urls(app: Flask, game: str) -> list[tuple[str, str, str]]:
    """(endpoint, method, path) for every rule and method (HEAD and OPTIONS left out)."""
    found = []
    for rule in app.url_map.iter_rules():
        values = {name: game if name == "game_id" else FILL.get(name) or "1"
                  for name in rule.arguments}
        built = rule.build(values)
        assert built is not None, rule
        path = built[1]
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((rule.endpoint, method, path))
    return found


def remi_quick_form(
    scores: list[tuple[int, int]], went_out: int | None = None, discard: int | None = None
) -> dict[str, str]:
    """The Remi quick form: each seat's (plus, minus), who went out, his discard's value."""
    data = {"went_out": "none" if went_out is None else str(went_out)}
    if discard is not None:
        data["discard_value"] = str(discard)
    for seat, (plus, minus) in enumerate(scores):
        data[f"players-{seat}-plus"] = str(plus)
        data[f"players-{seat}-minus"] = str(minus)
    return data


def post_remi_quick(client: FlaskClient, game_id: str, data: dict[str, str]) -> Any:
    """Enter a Remi deal through the quick form."""
    return client.post(
        f"/g/{game_id}/hands", data={"version": str(version_of(client, game_id)), **data}
    )


def remi_quick_scores(
    client: FlaskClient, game_id: str, *scores: int, went_out: int | None = None
) -> None:
    """A stock-ran-out deal (or one with ``went_out`` and a 5 discard) giving these scores."""
    pairs = [(s, 0) if s > 0 else (0, -s) for s in scores]
    data = remi_quick_form(pairs, went_out, 5 if went_out is not None else None)
    response = post_remi_quick(client, game_id, data)
    assert response.status_code == 302, field_messages(response.get_data(as_text=True))


def field_messages(page: str) -> list[str]:
    """Every error message on the page, in order."""
    return [html.unescape(m) for m in re.findall(r'class="error"[^>]*>([^<]*)<', page)]


# Three-hand seats (X, Y, Z) and roles (``knocker`` in a three-hand quick form).
X, Y, Z = 0, 1, 2
BOX, CAPTAIN = 0, 1


def quick_three_hand(
    client: FlaskClient,
    game_id: str,
    outcome: str,
    knocker: int | None = None,
    k: int | None = None,
    d: int | None = None,
    number: int | None = None,
) -> Any:
    """Post the quick form (``knocker`` is a role) as the sheet, or a correction, sends it."""
    data: dict[str, Any] = {"outcome": outcome, "version": state(client, game_id)["version"]}
    if knocker is not None:
        data["knocker"] = str(knocker)
    if k is not None:
        data["knocker_deadwood"] = str(k)
    if d is not None:
        data["defender_deadwood"] = str(d)
    url = f"/g/{game_id}/hands" if number is None else f"/g/{game_id}/hands/{number}/edit"
    return client.post(url, data=data)


def roles(data: dict[str, Any]) -> tuple[int, int, int]:
    """The seats of the next hand's box, captain and sitter."""
    r = data["next_roles"]
    return (r["box"], r["captain"], r["out"])


def play_three_hand_example(client: FlaskClient, game: str) -> None:
    """RULES §8: X box / Y captain / Z out, then four hands."""
    # Y (captain) knocks 4 vs X 20 → Y +16; next Y box / Z captain / X out.
    assert quick_three_hand(client, game, "knock", CAPTAIN, 4, 20).status_code == 302
    assert roles(state(client, game)) == (Y, Z, X)
    # Y (box) gins vs Z 30 → Y +55; next Y / X / Z.
    assert quick_three_hand(client, game, "gin", BOX, None, 30).status_code == 302
    assert roles(state(client, game)) == (Y, X, Z)
    # Y (box) knocks 7, X (captain) has 5 → X +12; next X / Z / Y.
    assert quick_three_hand(client, game, "knock", BOX, 7, 5).status_code == 302
    assert roles(state(client, game)) == (X, Z, Y)
    # Dead hand → roles unchanged.
    assert quick_three_hand(client, game, "dead").status_code == 302
    assert roles(state(client, game)) == (X, Z, Y)


def date_everything(app: Flask, moment: datetime) -> None:
    """Every game, ruling and change in the database dated ``moment``."""
    from sqlalchemy import update

    from scorekeeper.db import get_session
    from scorekeeper.models import Change, Game, Ruling

    with app.test_request_context(method="POST"):  # a GET's session only reads
        db = get_session()
        for model in (Game, Ruling):
            db.execute(update(model).values(created_at=moment))
        db.execute(update(Change).values(at=moment))
        db.commit()


def keep_printed_html(monkeypatch: pytest.MonkeyPatch, *, typeset: bool) -> list[str]:
    """The HTML of every document the views print during the test, in order; each
    typeset as usual, or (``typeset=False``) answered with an empty PDF instead."""
    from scorekeeper.printing import render

    seen: list[str] = []
    original = render.html_to_pdf

    def keep(html: str, *pictures: Any) -> bytes:
        seen.append(html)
        return original(html, *pictures) if typeset else b"%PDF-1.7\n"

    monkeypatch.setattr(render, "html_to_pdf", keep)
    return seen


def pdf_text(data: bytes) -> str:
    """Every page's text: figure spaces as plain spaces, left-to-right marks dropped,
    Arabic presentation forms folded back to letters (NFKC)."""
    assert data.startswith(b"%PDF"), data[:40]
    text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)
    return unicodedata.normalize("NFKC", text.replace("\u2007", " ").replace("\u200e", ""))


def pdf_lines(data: bytes) -> list[str]:
    """The PDF's text lines, runs of spaces folded."""
    return [" ".join(line.split()) for line in pdf_text(data).splitlines()]


# --- club nights ---------------------------------------------------------------------


def start_night(client: FlaskClient, players: str = "Ann\nBob\nCy\nDi", **extra: str) -> str:
    """A round-robin night of classic gin started on /nights/new; its id."""
    data = {"variant": "gin", "entrants": players, "format": "round_robin", "preset": "classic",
            "order": "games_won shutouts point_difference head_to_head", **extra}
    response = client.post("/nights/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.search(r"/n/([\w-]+)$", response.headers["Location"])
    assert match
    return match.group(1)


def night_tables(app: Flask, night_id: str, round_number: int) -> list[NightTable]:
    """The tables of a night's round, in their order."""
    with app.test_request_context():
        return list(get_session().scalars(
            select(NightTable).where(NightTable.night_id == night_id,
                                     NightTable.round == round_number)
            .order_by(NightTable.number)))


def play_out(client: FlaskClient, game_id: str, seat: int) -> None:
    """``seat`` wins the game (classic: target 100, no bonuses) 110 to 0 with two knocks
    of 60 and 50, entered
    by a phone that opened the game's edit link (as the table card's QR code does)."""
    with client.application.test_request_context():
        game = get_session().get(Game, game_id)
        assert game is not None
        secret = game.edit_secret
    assert client.get(f"/g/{game_id}?key={secret}").status_code == 302
    win(client, game_id, seat, 60)
    win(client, game_id, seat, 50)
