"""Small helpers the web tests share: start a game, enter hands, read the sheet."""

from __future__ import annotations

import io
import re
import unicodedata
from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader


def new_game(
    client: FlaskClient,
    preset: str = "classic",
    players: tuple[str, str] = ("Ann", "Bob"),
    **extra: Any,
) -> str:
    """Start a game through the page and return its id (this client may edit it)."""
    data = {
        "variant": "gin",
        "player1": players[0],
        "player2": players[1],
        "preset": preset,
        "dealer": "0",
        **extra,
    }
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.search(r"/g/([\w-]+)$", response.headers["Location"])
    assert match, response.headers["Location"]
    return match.group(1)


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
