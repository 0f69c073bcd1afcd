"""A player named "A/B", ".", "..", "a//b" or "5%" has a player's page whose link works:
followed as a browser follows it (its dots resolved, ``urljoin``) it opens that player's
page, and the same piece of the path opens that player's JSON."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from flask.testing import FlaskClient

NAMES = ["A/B", ".", "..", "a//b", "5%", "Борис", "x/../y"]


@pytest.fixture
def group(client: FlaskClient) -> dict[str, Any]:
    made = client.post("/api/v1/groups", json={"name": "Club", "players": NAMES})
    assert made.status_code == 201, made.get_data(as_text=True)
    created: dict[str, Any] = made.get_json()
    return created


def links(client: FlaskClient, group_id: str) -> dict[str, str]:
    """The player-page links of the group's page, by the name they show, each as a
    browser resolves it."""
    page = client.get(f"/groups/{group_id}").get_data(as_text=True)
    found = re.findall(r'<a href="([^"]*/players/[^"]*)"><bdi>(.*?)</bdi></a>', page)
    base = f"http://localhost/groups/{group_id}"
    return {html.unescape(text): urlsplit(urljoin(base, html.unescape(href))).path
            for href, text in found}


def test_every_players_link_opens_that_players_page_and_json(
    client: FlaskClient, group: dict[str, Any]
) -> None:
    shown = links(client, group["id"])
    assert sorted(shown) == sorted(NAMES)
    for name, path in shown.items():
        page = client.get(path)
        assert page.status_code == 200, (name, path)
        heading = re.search(r"<h1[^>]*>(.*?)</h1>", page.get_data(as_text=True), re.S)
        assert heading is not None
        assert html.escape(name, quote=False) in heading.group(1), (name, heading.group(1))
        prefix = f"/groups/{group['id']}/players/"
        assert path.startswith(prefix), (name, path)
        answer = client.get(f"/api/v1/groups/{group['id']}/players/{path[len(prefix):]}")
        assert answer.status_code == 200, (name, path)
        assert answer.get_json()["name"] == name


def test_a_name_needing_no_escape_is_written_once(client: FlaskClient,
                                                  group: dict[str, Any]) -> None:
    shown = links(client, group["id"])
    prefix = f"/groups/{group['id']}/players/"
    assert shown["A/B"] == prefix + "A%2FB"
    assert shown["Борис"] == prefix + "%D0%91%D0%BE%D1%80%D0%B8%D1%81"
    assert shown[".."] == prefix + "%252E%252E"
    # An API client that writes "A/B" percent-encoded once, or with its "/" as it is,
    # reads the same player.
    for written in ("A%2FB", "A/B"):
        answer = client.get(f"/api/v1/groups/{group['id']}/players/{written}")
        assert answer.status_code == 200, written
        assert answer.get_json()["name"] == "A/B"


def test_the_language_switch_on_a_players_page_comes_back_to_it(
    client: FlaskClient, group: dict[str, Any]
) -> None:
    for name, path in links(client, group["id"]).items():
        page = client.get(f"{path}?kind=gin").get_data(as_text=True)
        found = re.search(r'name="next" value="([^"]*)"', page)
        assert found is not None
        switched = client.post("/lang", data={"lang": "ru", "next": html.unescape(found[1])})
        assert switched.status_code == 302
        back = urlsplit(urljoin(f"http://localhost{path}", switched.headers["Location"]))
        assert (back.path, back.query) == (path, "kind=gin"), name
        again = client.get(f"{back.path}?{back.query}")
        assert again.status_code == 200, name
        client.post("/lang", data={"lang": "en", "next": "/"})
