"""Printing the same documents with a part of WeasyPrint replaced by ours and with
WeasyPrint's own (pdf/replaced.py: ``textlayout``, ``glyphs``, ``newlines``), for the
tests that compare the two byte for byte."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any

import pytest
from flask.testing import FlaskClient
from layout import KINDS, NAMES, PLAYERS, sample_game
from test_pdf_parse import PAD_KINDS, staked_game_with_cards


@dataclass(frozen=True)
class Part:
    """A part of WeasyPrint that printing replaces: ``module`` (ours) puts its own in
    place of ``owner.name`` (``owner`` a WeasyPrint module's dotted name), keeping
    WeasyPrint's own as its ``marker`` attribute."""

    module: ModuleType
    owner: str
    name: str
    marker: str

    def weasyprints_own(self) -> Iterator[Any]:
        """For a fixture: WeasyPrint's own, with ours put back in place afterwards."""
        owner = import_module(self.owner)
        self.module.install()
        ours = getattr(owner, self.name)
        assert getattr(ours, self.marker) is not ours
        yield getattr(ours, self.marker)
        setattr(owner, self.name, ours)

    def both_ways(self, print_: Callable[[], list[Any]], monkeypatch: pytest.MonkeyPatch
                  ) -> tuple[list[Any], list[Any]]:
        """What ``print_()`` prints with ours, then with WeasyPrint's own (printing puts
        ours in place: not while it prints the second time)."""
        owner, part = import_module(self.owner), self.module
        ours = print_()
        assert hasattr(getattr(owner, self.name), self.marker)
        with monkeypatch.context() as patched:
            patched.setattr(part, "install", lambda: False)
            part.uninstall()
            try:
                theirs = print_()
                assert not hasattr(getattr(owner, self.name), self.marker)
            finally:
                part.uninstall()
        assert part.install()
        return ours, theirs

    def every_document_both_ways(
        self, client: FlaskClient, language: str, monkeypatch: pytest.MonkeyPatch
    ) -> tuple[list[str], list[bytes], list[bytes]]:
        """``every_document_url`` in ``language``, and each printed ``both_ways``."""
        urls = every_document_url(client, language)
        ours, theirs = self.both_ways(lambda: print_all(client, urls, language), monkeypatch)
        return urls, ours, theirs


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
