"""A kept ruling shows the rules it was decided with, as stored with it: a preset
changed since (the Russian undercut bonus raised to 30, say) changes neither its page
nor its print, whose rules line must agree with the verdict beside it."""

from __future__ import annotations

import dataclasses

import pytest
from flask.testing import FlaskClient
from helpers import kept, pdf_lines, text_of, verdict

from scorekeeper.scoring import rules
from tests.examples import HAND

# The Russian preset's values when the ruling is kept: gin 25, undercut 25, game 100,
# box 25, a shutout doubles; target 100, knock limit 10.
RUSSIAN_LINE = ("Target 100 · knock ≤ 10 · gin 25 · undercut 25 · game 100 · box bonus 25 · "
                "shutout: doubled")


def test_a_ruling_keeps_its_rules_line_when_the_preset_changes(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruling_id = kept(client, HAND)
    monkeypatch.setitem(rules.PRESETS, "russian",
                        dataclasses.replace(rules.PRESETS["russian"], undercut_bonus=30))
    page = client.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    # Deadwood 9 against the defender's 8 after layoffs: 1 + 25, as decided.
    assert verdict(page) == "Defender scores 26"
    assert text_of(page, r'<p class="muted rules-summary">(.*?)</p>') == RUSSIAN_LINE
    printed = client.get(f"/rulings/{ruling_id}.pdf")
    assert printed.status_code == 200
    text = " ".join(pdf_lines(printed.data))  # the print wraps the line
    assert text.count("Target ") == 1 and RUSSIAN_LINE in text, text
    assert "undercut 30" not in text
    assert "Defender scores 26" in text
