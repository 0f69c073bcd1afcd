"""Every route the app registers, found from its URL map (so a new route is covered the
day it is added): the security headers on every answer, error pages and PDFs included,
and every form POST outside the API refused without a CSRF token, changing nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import check_headers, new_game, quick, state, urls

# What to put in each kind of URL variable; anything else gets "1", which names nothing
# (and still fits an integer converter).


@pytest.fixture
def game(client: FlaskClient) -> str:
    game_id = new_game(client)
    assert quick(client, game_id, "knock", 0, 3, 20).status_code == 302
    return game_id


def test_the_map_is_walked_whole(app: Flask, game: str) -> None:
    """The walk below reaches the routes that matter (a guard against an empty map)."""
    endpoints = {endpoint for endpoint, _, _ in urls(app, game)}
    assert {"games.home", "games.sheet", "games.add_hand", "pdf.game_sheet", "api.add_hand",
            "static"} <= endpoints, endpoints


def test_every_route_answers_with_the_security_headers(
    app: Flask, client: FlaskClient, game: str
) -> None:
    seen = set()
    for endpoint, method, path in urls(app, game):
        kwargs: dict[str, Any] = {"json": {}} if path.startswith("/api/") else {"data": {}}
        response = client.open(path, method=method, **kwargs)
        assert response.status_code < 500, (method, path, response.get_data(as_text=True)[:500])
        check_headers(response, f"{method} {path} ({endpoint})")
        seen.add(response.status_code)
        response.close()  # a static file is streamed from an open file
    for path in ("/nowhere", f"/g/{game}/hands/99", "/g/%00/history"):  # error pages
        response = client.get(path)
        assert response.status_code == 404, path
        check_headers(response, path)
    assert {200, 302, 403, 422} <= seen  # pages, redirects and refusals were all reached


def test_every_form_post_needs_a_csrf_token(make_app: Any) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"',
                      client.get("/games/new").get_data(as_text=True))
    assert token
    created = client.post("/games/new", data={
        "variant": "gin", "player1": "Ann", "player2": "Bob", "preset": "classic", "dealer": "0",
        "csrf_token": token.group(1)})
    game = created.headers["Location"].rsplit("/", 1)[-1]
    before = state(client, game)
    posts = [(e, p) for e, m, p in urls(app, game) if m == "POST" and not p.startswith("/api/")]
    assert len(posts) >= 8, posts
    for endpoint, path in posts:
        response = client.post(path, data={"version": before["version"], "pin": "1234",
                                           "lang": "ru", "outcome": "dead"})
        assert response.status_code == 400, (endpoint, path, response.status_code)
        assert "too old" in response.get_data(as_text=True), path
        check_headers(response, path)
    assert state(client, game) == before


def test_every_api_post_is_free_of_the_form_token(make_app: Any) -> None:
    """Programs send ``X-Edit-Secret``, not a form token: with CSRF on, no POST under
    ``/api/`` is refused for the lack of one. A route there that someone forgot to
    exempt answers the API's JSON error, not a server error (the API keeps no cookie
    session to draw the error page's token from)."""
    app = make_app(WTF_CSRF_ENABLED=True)

    def forgotten() -> dict[str, bool]:
        return {"ok": True}

    app.add_url_rule("/api/v1/forgotten", "forgotten", forgotten, methods=["POST"])
    client = app.test_client()
    game = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
    assert game.status_code == 201
    posts = [(e, p) for e, m, p in urls(app, game.get_json()["id"])
             if m == "POST" and p.startswith("/api/") and e != "forgotten"]
    assert len(posts) >= 4, posts
    for endpoint, path in posts:
        response = client.post(path, json={})
        assert response.status_code not in (400, 500), (endpoint, path, response.get_data())
    refused = client.post("/api/v1/forgotten", json={})
    assert refused.status_code == 400
    assert refused.get_json() == {"errors": [{
        "where": "request",
        "message": "This form was too old to accept (or cookies are off). Nothing was saved: "
                   "go back, reload the page and save again."}]}
