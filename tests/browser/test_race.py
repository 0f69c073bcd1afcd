"""The race at phone size (390×844) in English and Persian: the SVG fits the screen, draws
a line per player, breaks no Content-Security-Policy rule; screenshots go to
test-output/browser/."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

pytestmark = [pytest.mark.browser, pytest.mark.once]


def knock(seat: int, points: int) -> dict[str, Any]:
    return {
        "outcome": "knock",
        "knocker": seat,
        "knocker_deadwood": 1,
        "defender_deadwood": points + 1,
    }


def make_game(
    app: Flask, variant: str, players: list[str], hands: list[dict[str, Any]], **body: Any
) -> str:
    client = app.test_client()
    created = client.post("/api/v1/games", json={"variant": variant, "players": players, **body})
    assert created.status_code == 201, created.get_json()
    game, secret = created.get_json()["id"], created.get_json()["edit_secret"]
    for hand in hands:
        response = client.post(
            f"/api/v1/games/{game}/hands", json=hand, headers={"X-Edit-Secret": secret}
        )
        assert response.status_code == 201, response.get_json()
    return str(game)


def remi_deal(scores: list[tuple[int, int]], went_out: int | None = None) -> dict[str, Any]:
    players = [{"plus": plus, "minus": minus} for plus, minus in scores]
    return {
        "went_out": went_out,
        "discard_value": 10 if went_out is not None else None,
        "players": players,
    }


GIN = [knock(0, 25), knock(1, 20), knock(0, 30), knock(1, 12), knock(1, 18)]
REMI = [
    remi_deal([(30, 0), (0, 40), (15, 5), (0, 25)]),
    remi_deal([(0, 50), (20, 0), (0, 10), (45, 0)]),
    remi_deal([(20, 0), (0, 30), (15, 5), (0, 15)], went_out=0),
    remi_deal([(0, 35), (25, 0), (0, 20), (15, 0)]),
]


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_race_fits_a_phone(app: Flask, live_url: str, phone: Any, lang: str) -> None:
    games = {
        "gin": make_game(app, "gin", ["Ann", "Bob"], GIN, rules="classic"),
        "remi": make_game(app, "remi", ["Ann", "زهرا محمدی‌نژاد", "Cy", "Dee"], REMI),
        "hollywood": make_game(app, "hollywood", ["علی", "Bob"], GIN, rules="russian"),
    }
    refused: list[str] = []
    phone.on(
        "console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None
    )
    phone.context.add_cookies([{"name": "lang", "value": lang, "url": live_url}])
    for kind, game in games.items():
        phone.goto(f"{live_url}/g/{game}")
        charts = phone.locator("#race svg.chart")
        expected = {"gin": 1, "remi": 1, "hollywood": 3}[kind]
        assert charts.count() == expected
        players = {"gin": 2, "remi": 4, "hollywood": 2}[kind]
        assert charts.first.locator("polyline").count() == players
        for i in range(expected):
            box = charts.nth(i).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
            assert box["height"] > 100
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.locator("#race").scroll_into_view_if_needed()
        phone.shot(f"{kind}-{lang}")
        phone.locator("#race").screenshot(path=str(phone_dir(phone) / f"{kind}-{lang}-race.png"))
    assert refused == []


def phone_dir(phone: Any) -> Any:
    from pathlib import Path

    from tests.browser.conftest import OUTPUT

    folder: Path = OUTPUT / "race"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
