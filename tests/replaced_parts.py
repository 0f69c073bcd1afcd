"""Printing the same documents with a part of WeasyPrint replaced by ours and with
WeasyPrint's own (pdf/replaced.py: ``textlayout``, ``glyphs``, ``newlines``), for the
tests that compare the two byte for byte."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from flask.testing import FlaskClient
from layout import KINDS, NAMES, PLAYERS, sample_game
from test_pdf_parse import PAD_KINDS, staked_game_with_cards


def both_ways(print_: Callable[[], list[Any]], monkeypatch: pytest.MonkeyPatch,
              part: ModuleType, owner: Any, name: str, marker: str
              ) -> tuple[list[Any], list[Any]]:
    """What ``print_()`` prints with ``part``'s replacement of ``owner.name`` (known by
    its ``marker``), then with WeasyPrint's own (printing puts ours in place: not while
    it prints the second time)."""
    ours = print_()
    assert hasattr(getattr(owner, name), marker)
    with monkeypatch.context() as patched:
        patched.setattr(part, "install", lambda: False)
        part.uninstall()
        try:
            theirs = print_()
            assert not hasattr(getattr(owner, name), marker)
        finally:
            part.uninstall()
    assert part.install()
    return ours, theirs


def every_document_url(client: FlaskClient, language: str) -> list[str]:
    """A sheet of every kind of game (and one with stakes and hands entered with cards),
    with its appendix, and a blank pad of every kind, named in ``language``."""
    urls = [f"/g/{sample_game(client, kind, language)}/sheet.pdf?appendix=1" for kind in KINDS]
    urls.append(f"/g/{staked_game_with_cards(client, language)}/sheet.pdf?appendix=1")
    for kind in PAD_KINDS:
        names = "".join(f"&player{i + 1}={name}"
                        for i, name in enumerate(NAMES[language][: PLAYERS.get(kind, 2)]))
        urls.append(f"/pads/pad.pdf?game={kind}&rows=12{names}")
    return urls


def print_all(client: FlaskClient, urls: list[str], language: str) -> list[bytes]:
    """Each of ``urls`` printed in ``language``."""
    documents = []
    for url in urls:
        response = client.get(url, headers={"Accept-Language": language})
        assert response.status_code == 200, url
        documents.append(response.data)
    return documents
