"""The JSON API's OpenAPI document (``GET /api/v1/openapi.json``) and its page (``/api/docs``):
the document names exactly the app's routes under ``/api/v1``, is a valid OpenAPI 3.1
document by a validator that did not write it, gives every answer each route gives, and
the page shows every operation. tests/test_openapi_live.py runs Schemathesis against a
real server."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from scorekeeper.api.docs import fields_of, type_of
from scorekeeper.api.openapi import document, ref
from tests.helpers import check_headers

API = "/api/v1"
HTTP_METHODS = ("get", "put", "post", "delete", "patch")


def app_routes(app: Flask) -> set[tuple[str, str]]:
    """(method, path) of every route the app has under /api/v1, in OpenAPI's ``{name}``
    spelling of a path variable."""
    found = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(f"{API}/"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        found |= {(method, path) for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}
    return found


def documented_routes(doc: dict[str, Any]) -> set[tuple[str, str]]:
    """(method, path) of every operation the document names."""
    base = doc["servers"][0]["url"]
    return {
        (method.upper(), base + path)
        for path, item in doc["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }


def test_the_document_names_every_api_route_and_no_other(app: Flask) -> None:
    assert documented_routes(document()) == app_routes(app)


def test_a_route_left_out_or_one_made_up_is_seen(make_app: Any) -> None:
    app = make_app()
    app.add_url_rule(f"{API}/games/<game_id>/undo", "undo", lambda game_id: {}, methods=["POST"])
    doc = document()
    doc["paths"]["/groups/{group_id}/games"] = {"post": doc["paths"]["/groups"]["post"]}
    routes, documented = app_routes(app), documented_routes(doc)
    assert routes - documented == {("POST", "/api/v1/games/{game_id}/undo")}
    assert documented - routes == {("POST", "/api/v1/groups/{group_id}/games")}


def test_the_document_is_valid_openapi_3_1() -> None:
    doc = document()
    assert doc["openapi"] == "3.1.0"
    validate(doc)
    broken = document()
    del broken["paths"]["/games/{game_id}"]["get"]["parameters"]  # {game_id} left undeclared
    with pytest.raises(OpenAPIValidationError):
        validate(broken)


def test_the_document_is_served(client: FlaskClient) -> None:
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.get_json() == document()


# Every status each operation gives, worked out from the views (api/*.py): 413 is
# Flask's answer to a body over MAX_CONTENT_LENGTH, 429 the rate limit's (limits.py).
STATUSES = {
    "arrangeGinHand": {"200", "413", "422"},
    "settleGinHand": {"200", "413", "422"},
    "settleRemiDeal": {"200", "413", "422"},
    "keepRuling": {"201", "413", "422", "429"},
    "createGame": {"201", "403", "413", "422", "429"},
    "readGame": {"200", "404"},
    "addHand": {"200", "201", "403", "404", "409", "413", "422"},
    "correctHand": {"200", "403", "404", "409", "413", "422"},
    "deleteHand": {"200", "403", "404", "409"},
    "restoreHand": {"200", "403", "404", "409", "413", "422"},
    "createGroup": {"201", "413", "422", "429"},
    "readGroup": {"200", "404"},
    "readPlayer": {"200", "404"},
    "recordPayment": {"201", "403", "404", "409", "413", "422"},
    "correctPayment": {"200", "403", "404", "409", "413", "422"},
    "deletePayment": {"200", "403", "404", "409"},
    "restorePayment": {"200", "403", "404", "409", "413", "422"},
    "settleUp": {"201", "403", "404", "409", "413", "422"},
    "readOpenapi": {"200"},
    "createNight": {"201", "403", "413", "422", "429"},
    "readNight": {"200", "404"},
    "nextRound": {"201", "403", "404", "409", "413", "422"},
    "confirmTable": {"200", "403", "404", "409"},
}


def operations(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        op["operationId"]: op
        for item in doc["paths"].values()
        for method, op in item.items()
        if method in HTTP_METHODS
    }


def test_every_status_each_route_gives_is_documented() -> None:
    found = {name: set(op["responses"]) for name, op in operations(document()).items()}
    assert found == STATUSES


def test_the_headers_the_contract_names() -> None:
    ops = operations(document())
    headers = {
        name: {(p["name"], p["required"]) for p in op.get("parameters", []) if p["in"] == "header"}
        for name, op in ops.items()
    }
    assert headers["addHand"] == {("X-Edit-Secret", True), ("Idempotency-Key", False),
                                  ("X-Confirm", False)}
    assert headers["correctHand"] == headers["deleteHand"] == {("X-Edit-Secret", True)}
    assert headers["restoreHand"] == {("X-Edit-Secret", True), ("X-Confirm", False)}
    assert headers["createGame"] == {("X-Edit-Secret", False)}  # a group's secret
    group_changes = {"recordPayment", "correctPayment", "deletePayment", "restorePayment",
                     "settleUp"}
    for name in group_changes:
        assert headers[name] == {("X-Edit-Secret", True)}, name
    assert headers["createNight"] == {("X-Edit-Secret", False)}  # a group's secret
    assert headers["readNight"] == {("X-Edit-Secret", False)}  # the organiser's: edit links
    assert headers["nextRound"] == {("X-Edit-Secret", True)}
    assert headers["confirmTable"] == {("X-Edit-Secret", True)}
    assert {name for name, found in headers.items() if found} == {
        "addHand", "correctHand", "deleteHand", "restoreHand", "createGame", *group_changes,
        "createNight", "readNight", "nextRound", "confirmTable"}


def test_cards_rules_and_money_as_the_contract_says() -> None:
    schemas = document()["components"]["schemas"]
    assert [part.get("type") for part in schemas["Cards"]["oneOf"]] == ["string", "array"]
    assert schemas["Rules"]["oneOf"] == [ref("Preset"), ref("RuleSettings")]
    assert schemas["Preset"]["enum"] == [
        "classic", "russian", "pagat", "modern", "oklahoma", "three_hand", "partnership", "remi"
    ]
    money = [
        schemas["Payment"]["properties"]["amount"],
        schemas["Standing"]["properties"]["balance"],
        schemas["Group"]["properties"]["balances"]["additionalProperties"],
        schemas["NewGame"]["properties"]["stake"],
        schemas["NewGroup"]["properties"]["stake"],
    ]
    assert [schema["type"] for schema in money] == ["string"] * 5
    errors = schemas["Errors"]["properties"]["errors"]
    assert errors["minItems"] == 1
    assert errors["items"] == ref("Problem")
    assert schemas["Problem"]["required"] == ["where", "message"]


@pytest.fixture
def api() -> Any:
    """The document as Schemathesis reads it, to check real answers against."""
    return schemathesis.openapi.from_dict(document())


def check(api: Any, path: str, method: str, response: Any, status: int) -> None:
    """The answer has the status expected, the document lists it, and its body is as
    the document describes it for that status."""
    assert response.status_code == status, response.get_data(as_text=True)
    operation = api[path][method]
    assert str(status) in operation.definition.raw["responses"]
    operation.validate_response(response)


def test_every_answer_of_adding_a_hand_is_as_documented(
    client: FlaskClient, app: Flask, api: Any
) -> None:
    created = client.post(f"{API}/games", json={"players": ["Ann", "Bob"], "stake": "0.05",
                                                "currency": "EUR"})
    check(api, "/games", "POST", created, 201)
    game = created.get_json()
    hands = f"{API}/games/{game['id']}/hands"
    path = "/games/{game_id}/hands"
    secret = {"X-Edit-Secret": game["edit_secret"]}
    knock = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20}
    gin = {"outcome": "gin", "knocker": 0, "defender_deadwood": 100}

    added = client.post(hands, json=knock, headers={**secret, "Idempotency-Key": "one"})
    check(api, path, "POST", added, 201)
    again = client.post(hands, json=knock, headers={**secret, "Idempotency-Key": "one"})
    check(api, path, "POST", again, 200)
    assert (added.get_json()["hand"], again.get_json()["hand"]) == (1, 1)
    check(api, path, "POST", client.post(hands, json=knock), 403)
    wrong = client.post(hands, json=knock, headers={"X-Edit-Secret": "clé"})  # not ASCII
    check(api, path, "POST", wrong, 403)
    check(api, path, "POST", client.post(f"{API}/games/nothing/hands", json=knock), 404)
    refused = client.post(hands, json={**knock, "knocker": 2}, headers=secret)
    check(api, path, "POST", refused, 422)
    assert refused.get_json() == {
        "errors": [{"where": "knocker", "message": "must be between 0 and 1"}]
    }
    over = client.post(hands, json=gin, headers=secret)
    check(api, path, "POST", over, 201)  # 17 + 120: Ann wins, Bob pays 137 × 0.05
    assert over.get_json()["payments"] == [
        {"from": "Bob", "to": "Ann", "amount": "6.85", "currency": "EUR"}
    ]
    check(api, path, "POST", client.post(hands, json=gin, headers=secret), 409)
    too_big = client.post(hands, data=b"[" * (app.config["MAX_CONTENT_LENGTH"] + 1),
                          headers={**secret, "Content-Type": "application/json"})
    check(api, path, "POST", too_big, 413)
    read = client.get(f"{API}/games/{game['id']}")
    check(api, "/games/{game_id}", "GET", read, 200)
    assert [hand["points"] for hand in read.get_json()["hands"]] == [17, 120]


def test_games_of_every_variant_and_groups_read_as_documented(
    client: FlaskClient, api: Any
) -> None:
    group = client.post(f"{API}/groups", json={"name": "Friday", "players": ["Ann", "Bob"],
                                               "stake": "0.01", "currency": "EUR"})
    check(api, "/groups", "POST", group, 201)
    knock = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20}
    bodies = {
        "gin": (["Ann", "Bob"], knock),
        "oklahoma": (["Ann", "Bob"], {**knock, "upcard": "5H"}),
        "hollywood": (["Ann", "Bob"], knock),
        "three_hand": (["Ann", "Bob", "Cid"], {**knock, "knocker": "box"}),
        "partnership": (["Ann", "Bob", "Cid", "Dan"], {"tables": [knock, {"outcome": "dead"}]}),
        "remi": (["Ann", "Bob", "Cid"], {"went_out": 2, "discard_value": 10, "players": [
            {"plus": 20, "minus": 15}, {"plus": 0, "minus": 30}, {"plus": 30, "minus": 0}]}),
    }
    for variant, (players, hand) in bodies.items():
        game = client.post(f"{API}/games", json={"variant": variant, "players": players,
                                                 "group": group.get_json()["id"]},
                           headers={"X-Edit-Secret": group.get_json()["edit_secret"]})
        check(api, "/games", "POST", game, 201)
        added = client.post(f"{API}/games/{game.get_json()['id']}/hands", json=hand,
                            headers={"X-Edit-Secret": game.get_json()["edit_secret"]})
        check(api, "/games/{game_id}/hands", "POST", added, 201)
        read = client.get(f"{API}/games/{game.get_json()['id']}")
        check(api, "/games/{game_id}", "GET", read, 200)
        assert read.get_json()["variant"] == variant
    stranger = client.post(f"{API}/games", json={"players": ["Ann", "Bob"],
                                                 "group": group.get_json()["id"]})
    check(api, "/games", "POST", stranger, 403)
    read = client.get(f"{API}/groups/{group.get_json()['id']}")
    check(api, "/groups/{group_id}", "GET", read, 200)
    assert len(read.get_json()["games"]) == 6
    base, secret = f"{API}/groups/{group.get_json()['id']}", {
        "X-Edit-Secret": group.get_json()["edit_secret"]}
    paid = client.post(f"{base}/payments", headers=secret,
                       json={"from": "Ann", "to": "Bob", "amount": "1.50"})
    check(api, "/groups/{group_id}/payments", "POST", paid, 201)
    payment = f"{base}/payments/{paid.get_json()['payment']['id']}"
    route = "/groups/{group_id}/payments/{payment_id}"
    check(api, route, "PATCH", client.patch(payment, headers=secret, json={"amount": "1"}), 200)
    check(api, route, "PATCH", client.patch(payment, headers=secret, json={"version": 0}), 409)
    deleted = client.delete(payment, headers=secret)
    check(api, route, "DELETE", deleted, 200)
    [change] = [c["id"] for c in deleted.get_json()["history"] if c["restorable"]]
    restore = "/groups/{group_id}/changes/{change_id}/restore"
    check(api, restore, "POST", client.post(f"{base}/changes/{change}/restore",
                                            headers=secret), 200)
    version = {"version": read.get_json()["version"]}
    stale = client.post(f"{base}/settle-up", headers=secret, json=version)
    check(api, "/groups/{group_id}/settle-up", "POST", stale, 409)
    settled = client.post(f"{base}/settle-up", headers=secret,
                          json={"version": client.get(base).get_json()["version"]})
    check(api, "/groups/{group_id}/settle-up", "POST", settled, 201)
    check(api, "/groups/{group_id}", "GET", client.get(f"{API}/groups/nothing"), 404)


def test_the_engine_routes_answer_as_documented(client: FlaskClient, api: Any) -> None:
    arranged = client.post(f"{API}/gin/arrange", json={"cards": "7H 8H 9H KS KH KD 2C 3C 4C 5D QS"})
    check(api, "/gin/arrange", "POST", arranged, 200)
    assert (arranged.get_json()["discard"], arranged.get_json()["deadwood"]) == ("QS", ["5D"])
    settled = client.post(f"{API}/gin/settle", json={
        "knocker": {"cards": "KS KH KD 5S 6S 7S 9C TC JC JD"},
        "defender": {"cards": ["8S", "9S", "7C", "8C", "2S", "2H", "2D", "2C", "AC", "8D"]},
    })
    check(api, "/gin/settle", "POST", settled, 200)
    assert (settled.get_json()["outcome"], settled.get_json()["points"]) == ("undercut", 11)
    dealt = client.post(f"{API}/remi/settle", json={"players": [
        {"name": "Ann", "table": ["2H 3H 4H 5H", "7S 7D 7C"], "hand": [], "went_out": True,
         "final_discard": "KC"},
        {"name": "Bob", "table": [], "hand": "AS 5D 9C JH QH KS 2C"},
    ]})
    check(api, "/remi/settle", "POST", dealt, 200)
    refused = client.post(f"{API}/gin/arrange", data="7H", content_type="text/plain")
    check(api, "/gin/arrange", "POST", refused, 422)
    assert refused.get_json()["errors"] == [
        {"where": "request", "message": "send a JSON body with Content-Type: application/json"}
    ]


# --- the page -----------------------------------------------------------------------


def test_the_page_shows_every_operation_in_the_documents_order(client: FlaskClient) -> None:
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    check_headers(response, "/api/docs")
    html = response.get_data(as_text=True)
    shown = re.findall(
        r'<section class="operation" id="(\w+)">\s*<h3><code class="method">(\w+)</code> '
        r"<code>([^<]+)</code></h3>",
        html,
    )
    doc = document()
    listed = [
        (op["operationId"], method.upper(), "/api/v1" + unescape(path))
        for path, item in doc["paths"].items()
        for method, op in item.items()
    ]
    assert sorted((i, m, unescape(p)) for i, m, p in shown) == sorted(listed)
    assert len(shown) == 23


def test_the_page_needs_no_script_and_nothing_from_elsewhere(client: FlaskClient) -> None:
    html = client.get("/api/docs").get_data(as_text=True)
    assert "<script" not in html
    assert " style=" not in html  # the policy allows no inline style either
    sources = re.findall(r'(?:href|src)="([^"#]+)"', html)
    assert sources and all(s.startswith("/") and not s.startswith("//") for s in sources), sources


def test_every_link_on_the_page_leads_somewhere_on_it(client: FlaskClient) -> None:
    html = client.get("/api/docs").get_data(as_text=True)
    targets = set(re.findall(r'href="#([^"]+)"', html))
    ids = set(re.findall(r'id="([^"]+)"', html))
    assert targets <= ids, targets - ids
    schemas = {f"schema-{name}" for name in document()["components"]["schemas"]}
    assert schemas <= ids


def test_a_fields_table_of_the_page(client: FlaskClient) -> None:
    """The layoffs of a declared defender: a row for the list, linked to the layoff's
    own table."""
    html = client.get("/api/docs").get_data(as_text=True)

    def rows(name: str) -> list[tuple[int, str]]:
        section = html.split(f'id="schema-{name}"', 1)[1].split("</section>", 1)[0]
        return [
            (int(depth),
             " ".join(unescape(re.sub(r"<[^>]+>", " ", row)).split()).replace(" ,", ","))
            for depth, row in re.findall(
                r'<tr>\s*<th scope="row" class="depth-(\d)">(.*?)</tr>', section, re.S)
        ]

    assert rows("DefenderCards") == [
        (0, "cards required Cards"),
        (0, "melds array of Cards, at most 11 items Declared melds (optional)."),
        (0, "layoffs array of Layoff, at most 11 items Declared layoffs (optional)."),
    ]
    assert rows("Layoff") == [
        (0, "card required Card"),
        (0, "meld required integer, 0–10 0-based index into the knocker's melds."),
    ]


@pytest.mark.parametrize(
    ("schema", "shown"),
    [
        (ref("Cards"), '<a href="#schema-Cards">Cards</a>'),
        ({"type": "integer", "minimum": 0}, "integer, 0 or more"),
        ({"type": "integer", "minimum": 1, "maximum": 10000}, "integer, 1–10000"),
        ({"type": "string", "maxLength": 100}, "string, at most 100 characters"),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "integer or null"),
        ({"type": "string", "enum": ["box", "captain"]},
         "one of <code>box</code>, <code>captain</code>"),
        ({"type": "array", "items": ref("Meld"), "minItems": 2, "maxItems": 2},
         'array of <a href="#schema-Meld">Meld</a>, exactly 2 items'),
        ({"type": "object", "additionalProperties": {"type": "integer"}},
         "object of integer by name"),
    ],
)
def test_types_as_the_page_words_them(schema: dict[str, Any], shown: str) -> None:
    assert str(type_of(schema)) == shown


def test_fields_inside_a_list_of_objects() -> None:
    player = document()["components"]["schemas"]["RemiPlayer"]
    assert [(f.name, f.required, str(f.type)) for f in fields_of(player)] == [
        ("name", True, "string, at most 40 characters"),
        ("table", False, 'array of <a href="#schema-Cards">Cards</a>, at most 16 items'),
        ("hand", False, '<a href="#schema-Cards">Cards</a>'),
        ("went_out", False, "true or false"),
        ("final_discard", False, '<a href="#schema-Card">Card</a>'),
    ]


@pytest.mark.parametrize(
    ("lang", "text"), [("en", "API for programs"), ("fa", "رابط برنامه‌نویسی (API)"),
                       ("ru", "API для программ")]
)
def test_the_footer_links_to_the_page(client: FlaskClient, lang: str, text: str) -> None:
    html = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    [footer] = re.findall(r'<footer class="site">(.*?)</footer>', html)
    assert f'<a href="/api/docs">{text}</a>' in footer.split(" · ")
