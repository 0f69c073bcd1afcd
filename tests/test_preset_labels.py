"""The rules choices say their numbers ("Russian: gin 25, undercut 25, game 100, box 25,
shutout doubles") on the new-game page and on /check: each number said is the engine's
own (scoring/rules.py PRESETS), so a preset changed in one place cannot be misnamed in
the other."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from scorekeeper.scoring.rules import PRESETS, Shutout

# What a label may say, and the setting it names.
SAID = {
    r"(?<!big )gin (\d+)": "gin_bonus",
    r"big gin (\d+)": "big_gin_bonus",
    r"undercut (\d+)": "undercut_bonus",
    r"game (\d+)": "game_bonus",
    r"box (\d+)": "box_bonus",
    r"target (\d+)": "target",
}


def choices(app: Flask, lang: str = "en") -> list[tuple[str, str, str]]:
    """Every (form, preset, label) of the two forms that choose rules, in ``lang``."""
    from scorekeeper.games.forms import NewGameForm
    from scorekeeper.hands.check_form import PRESET_CHOICES

    with app.test_request_context(headers={"Accept-Language": lang}):
        new_game = NewGameForm().preset.choices
        return [(form, choice.value, str(choice.label))
                for form, listed in (("new game", new_game), ("/check", PRESET_CHOICES))
                for choice in listed if choice.value]


def said(label: str) -> dict[str, Any]:
    """The settings a label names, as the engine keeps them."""
    found: dict[str, Any] = {setting: int(m.group(1)) for pattern, setting in SAID.items()
                             for m in [re.search(pattern, label)] if m}
    if "no bonuses" in label:
        found.update(game_bonus=0, box_bonus=0)
    if "shutout doubles" in label:
        found["shutout"] = Shutout.DOUBLE
    if m := re.search(r"shutout \+(\d+)", label):
        found.update(shutout=Shutout.FLAT, shutout_bonus=int(m.group(1)))
    if "upcard sets the knock limit" in label:
        found["oklahoma"] = True
    return found


def test_every_rules_choice_is_listed(app: Flask) -> None:
    listed = choices(app)
    assert {preset for form, preset, _label in listed if form == "new game"} == set(PRESETS)
    assert {preset for form, preset, _label in listed if form == "/check"} == {
        "classic", "russian", "pagat", "modern", "oklahoma"}


@pytest.mark.parametrize("form", ["new game", "/check"])
def test_each_number_a_rules_choice_says_is_the_presets_own(app: Flask, form: str) -> None:
    for chosen, preset, label in choices(app):
        if chosen != form or preset == "remi":
            continue
        named = said(label)
        assert named, label  # every gin preset says at least one of its numbers
        rules = PRESETS[preset]
        assert {k: getattr(rules, k) for k in named} == named, label


@pytest.mark.parametrize("lang", ["fa", "ru"])
def test_a_translated_rules_choice_says_the_same_numbers(app: Flask, lang: str) -> None:
    english = choices(app)
    translated = choices(app, lang)
    assert [(form, preset) for form, preset, _label in translated] == [
        (form, preset) for form, preset, _label in english]
    for (_form, _preset, en), (_f, _p, other) in zip(english, translated, strict=True):
        assert re.findall(r"\d+", other) == re.findall(r"\d+", en), (en, other)
