"""The tap picker: cards typed in one hand are shown as taken in the others — within the
same pack only (partnership gin's two tables each play with their own pack)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.once]


def create(live_url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(live_url + "/api/v1/games", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        created: dict[str, Any] = json.load(response)
    return created


def test_each_table_has_its_own_pack(live_url: str, phone: Any) -> None:
    game = create(live_url, {"variant": "partnership", "players": ["Ann", "Bob", "Cid", "Dan"]})
    page = phone
    page.goto(game["edit_url"])
    page.goto(f"{live_url}/g/{game['id']}/hands/new")
    page.locator("[name='a-knocker_cards']").fill("7H 8H")
    page.locator("[name='a-defender_cards']").focus()
    expect(page.locator("button[data-card='7H']")).to_have_class("red taken")
    page.locator("[name='b-knocker_cards']").focus()
    expect(page.locator("button[data-card='7H']")).not_to_have_class("red taken")
    phone.shot("second-table")
