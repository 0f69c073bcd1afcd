"""Odd requests get an answer about the request, never a server error: a NUL byte in any
id of a path, a query or a JSON body (PostgreSQL refuses one outright), a method a
route does not take (405 naming the ones it does), JSON ``null`` where the document
declares a string."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import new_game, urls

NUL = "\x00"
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def test_a_nul_in_any_path_variable_is_not_found(app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    checked = 0
    for rule in app.url_map.iter_rules():
        for name in rule.arguments:
            if name == "filename":  # a static file's name
                continue
            values = {n: game if n == "game_id" else "gin" if n == "variant_name" else "1"
                      for n in rule.arguments}
            values[name] = NUL
            try:
                path = rule.build(values)[1]
            except ValueError:  # an integer variable: no NUL gets through its converter
                continue
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                response = client.open(path, method=method, json={})
                assert response.status_code == 404, (method, path, response.status_code)
                checked += 1
    assert checked >= 30, checked  # games, groups, rulings, rule cards, the API


@pytest.mark.parametrize("path", ["/games/new?group=%00", "/games/new?group=a%00b",
                                  "/groups/x?key=%00", "/rules/%00"])
def test_a_nul_in_a_query_is_refused_or_not_found(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code in (400, 403, 404), path


def test_a_nul_in_a_posted_group_is_refused_at_the_field(client: FlaskClient) -> None:
    response = client.post("/games/new", data={
        "variant": "gin", "player1": "Ann", "player2": "Bob", "preset": "classic",
        "dealer": "0", "group": NUL})
    assert response.status_code in (403, 404, 422), response.status_code


@pytest.mark.parametrize("body", [
    {"players": ["Ann", "Bob"], "group": NUL},
    {"players": ["Ann", "Bob"], "group": "a\x00b"},
])
def test_a_nul_in_a_json_group_is_a_422_at_the_group(client: FlaskClient, body: Any) -> None:
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 422, response.get_data(as_text=True)
    assert [e["where"] for e in response.get_json()["errors"]] == ["group"]


@pytest.mark.parametrize("field", ["group", "stake", "currency"])
def test_null_where_the_document_declares_a_string_is_refused(
        client: FlaskClient, field: str) -> None:
    response = client.post("/api/v1/games", json={"players": ["Ann", "Bob"], field: None})
    assert response.status_code == 422, response.get_data(as_text=True)
    assert response.get_json()["errors"][0]["where"] == field


def test_null_is_refused_for_a_group_s_stake_and_currency(client: FlaskClient) -> None:
    for field in ("stake", "currency"):
        response = client.post("/api/v1/groups", json={"name": "Club", "players": ["Ann", "Bob"],
                                                       field: None})
        assert response.status_code == 422, (field, response.get_data(as_text=True))
        assert response.get_json()["errors"][0]["where"] == field


def test_a_method_a_route_does_not_take_is_405_with_allow(app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    adapter = app.url_map.bind("localhost")
    seen = 0
    for path in sorted({path for _endpoint, _method, path in urls(app, game)}):
        allowed = set(adapter.allowed_methods(path))
        for method in sorted(set(METHODS) - allowed):
            response = client.open(path, method=method)
            assert response.status_code == 405, (method, path, response.status_code)
            named = {m.strip() for m in response.headers.get("Allow", "").split(",") if m}
            assert named == allowed, (method, path, response.headers.get("Allow"))
            seen += 1
    assert seen >= 100, seen


def test_an_api_405_is_json_with_allow(client: FlaskClient) -> None:
    response = client.delete("/api/v1/games")
    assert response.status_code == 405
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"POST"}
    assert response.get_json()["errors"][0]["where"] == "request"


def test_every_operation_that_counts_clients_documents_429(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    for path in ("/games", "/groups"):
        responses = document["paths"][path]["post"]["responses"]
        assert responses["429"] == {"$ref": "#/components/responses/429"}, path
    assert "Retry-After" in document["components"]["responses"]["429"]["headers"]
