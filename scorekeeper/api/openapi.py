"""The JSON API described as OpenAPI 3.1: ``GET /api/v1/openapi.json``.

The document is assembled here: one entry per route under ``/api/v1`` with its request
body, headers and every answer it gives; the shapes it shares live under
``components``. A request body's schema is generated from the type that checks it
(``api/bodies.py``), so the document and the checks cannot disagree. ``/api/docs`` shows it
as a page (``api/docs.py``); tests/test_openapi.py checks that it names exactly
the app's routes, that it is a valid OpenAPI document, and that the running server
answers as it says.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from flask import Response, jsonify

from ..scoring.rules import Rules
from ..services import documents
from ..variants import VARIANTS
from ..variants import answers as sheets
from . import answers, bodies, bp

Schema = dict[str, Any]

VERSION = "1"
TITLE = "Scorekeeper JSON API"

OVERVIEW = """\
The same engine results as the pages, as JSON. Every body is JSON
(`Content-Type: application/json`); every answer is JSON.

**Cards** are written rank (A, 2–10 or T, J, Q, K) then suit (S, H, D, C or ♠ ♥ ♦ ♣),
in any case (`7H`, `10♦`, `q♠`, `TD`), either
as one string (`"7H 8H 9H"`) or as a list of strings; answers always use the
canonical notation: rank then suit, `T` for ten (`TD`).

**Rules** are a preset name (`"russian"`) or an object of settings on top of a preset
(`{"preset": "russian", "target": 150}`); without a preset, `classic`.

**Errors** are answered as `{"errors": [{"where": "defender.cards", "message": "..."}]}`:
`where` is a path into the request body (`defender.layoffs[1].meld`), a header name,
`request` for the request as a whole, or `game`. A body the API cannot use is a 422;
the API never answers with a 500.

**Editing** a game (adding a hand) needs its edit secret in the `X-Edit-Secret` header:
it comes back when the game is created. An `Idempotency-Key` header makes a retried
request harmless: the same key twice adds one hand.

**Money** (stakes, amounts, balances) is always a decimal string (`"1.53"`), never a
JSON number.
"""


def ref(name: str) -> Schema:
    """A reference to one of the shared schemas."""
    return {"$ref": f"#/components/schemas/{name}"}


# --- what requests carry: the bodies' own schemas (api/bodies.py) ---------------------

REQUEST_SCHEMAS: dict[str, Schema] = {
    **bodies.schemas(),
    "RulingRequest": {
        "oneOf": [ref("GinRuling"), ref("RemiRuling")],
        "description": "A `/gin/settle` body, or a `/remi/settle` body with "
        "`\"kind\": \"remi\"`. It is settled as those routes settle it and kept as decided.",
    },
    "NewHand": {
        "description": "A hand (a deal in partnership gin and Remi) in the shape the "
        "game's variant takes.",
        "anyOf": [ref(name) for name in ("QuickHand", "DeadHand", "CardHand",
                                          "PartnershipDeal", "RemiQuickDeal", "RemiCardDeal")],
    },
    "HandCorrection": {
        "description": "A hand in the shape `POST /games/{game_id}/hands` takes, with the "
        "game's `version` as read.",
        "allOf": [ref("NewHand"), ref("GameVersion")],
    },
}
GROUP_VERSION = REQUEST_SCHEMAS["Version"]["properties"]["version"]
GAME_VERSION = REQUEST_SCHEMAS["GameVersion"]["properties"]["version"]


# --- what answers carry: generated from the types the answers are built as -----------

# Each variant's part of a game's document, and the variants that answer with it.
SHEETS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "GinGame": (sheets.GinGame, ("gin", "oklahoma")),
    "HollywoodGame": (sheets.HollywoodGame, ("hollywood",)),
    "ThreeHandGame": (sheets.ThreeHandGame, ("three_hand",)),
    "PartnershipGame": (sheets.PartnershipGame, ("partnership",)),
    "RemiGame": (sheets.RemiGame, ("remi",)),
}
assert sorted(n for _, names in SHEETS.values() for n in names) == sorted(VARIANTS)
ANSWER_TYPES: dict[str, Any] = {
    "Errors": answers.Errors,
    "Arrangement": answers.Arrangement,
    "SettledHand": answers.SettledHand,
    "RemiDeal": answers.RemiDeal,
    "KeptRuling": answers.KeptRuling,
    "Created": answers.Created,
    "GameHead": documents.GameHead,
    "GameMoney": documents.GameMoney,
    **{name: sheet for name, (sheet, _) in SHEETS.items()},
    "AddedHandNumber": answers.AddedHandNumber,
    "DeletionEntry": answers.DeletionEntry,
    "Group": answers.Group,
    "Player": answers.Player,
    "CreatedNight": answers.CreatedNight,
    "Night": answers.Night,
    "Confirmed": answers.Confirmed,
    "GroupChangeMade": answers.GroupChangeMade,
}


def _rules_answer() -> Schema:
    """Every setting, as the game stores it: the request's settings, all present."""
    settings = REQUEST_SCHEMAS["RuleSettings"]["properties"]
    properties = {name: settings[name] for name in Rules().to_dict()}
    properties["preset"] = {"type": "string",
                            "description": "The preset the game started from, or `custom`."}
    return {"type": "object", "properties": properties, "required": list(properties),
            "description": "The game's rules, every setting."}


def _answer_schemas() -> dict[str, Schema]:
    found = bodies.generated(ANSWER_TYPES, mode="serialization")
    clash = set(found) & set(REQUEST_SCHEMAS)
    assert not clash, f"answer and request schemas share names: {clash}"
    # A game's rules are stored as a plain object: the document names every setting.
    found["GameHead"]["properties"]["rules"] = {**ref("GameRules"),
                                                "description": "The game's rules."}
    found["GameHead"]["properties"]["variant"] = {"type": "string", "enum": list(VARIANTS)}
    return {
        **found,
        "GameRules": _rules_answer(),
        "Game": {
            "description": "The whole game (also the export format): rules, players, hands "
            "with their inputs, totals derived from them, settlement. The fields after "
            "`created_at` depend on the variant.",
            "allOf": [ref("GameHead"), ref("GameMoney"), {"oneOf": [
                {"allOf": [ref(name), {"properties": {"variant": {"enum": list(names)}}}]}
                for name, (_, names) in SHEETS.items()
            ]}],
        },
        "AddedHand": {
            "description": "The game's new totals (the game without its list of hands) and "
            "the number of the hand this request added.",
            "allOf": [ref("Game"), ref("AddedHandNumber")],
        },
        "ChangedHand": {
            "description": "The game's new totals (the game without its list of hands) and "
            "the number of the hand changed.",
            "allOf": [ref("Game"), ref("AddedHandNumber")],
        },
        "DeletedHand": {
            "description": "The game's new totals (the game without its list of hands), "
            "the number the deleted hand had and the `change` that restores it.",
            "allOf": [ref("Game"), ref("AddedHandNumber"), ref("DeletionEntry")],
        },
        "ChangedGroup": {
            "description": "The group after the change, with what the change made.",
            "allOf": [ref("Group"), ref("GroupChangeMade")],
        },
    }


RESPONSE_SCHEMAS = _answer_schemas()


# --- the routes ---------------------------------------------------------------------


def body(schema: Schema, description: str = "") -> Schema:
    """A required JSON request body."""
    out: Schema = {"required": True, "content": {"application/json": {"schema": schema}}}
    return {**out, "description": description} if description else out


def answer(description: str, schema: Schema | None = None, **more: Any) -> Schema:
    """A JSON answer."""
    return {
        "description": description,
        "content": {"application/json": {"schema": schema or {"type": "object"}}},
        **more,
    }


def refused(*statuses: str) -> dict[str, Schema]:
    """The shared error answers, by status."""
    return {status: {"$ref": f"#/components/responses/{status}"} for status in statuses}


ERROR_ANSWERS = {
    "403": "The `X-Edit-Secret` header is missing or wrong.",
    "404": "There is no such game or group, hand or history entry.",
    "409": "The game is over or full, or it is a club night's table whose result is "
    "confirmed (until the night's organiser reopens the table), or another hand was saved "
    "at the same moment (retry), or the hand repeats the last one, saved less than a minute "
    "ago (send it again with `X-Confirm: repeat` to save it all the same), or the game "
    "changed since the `version` named, or a restored hand would move others (send it "
    "again with `X-Confirm: move`); a group's payments changed since the `version` named, "
    "or the change was made already.",
    "413": "The body is larger than 1 MiB.",
    "422": "The body cannot be used: not JSON, the wrong shape, or cards and settings "
    "that the rules refuse. Every problem is listed.",
    "429": "Too many from this client for now (`SCOREKEEPER_RATELIMIT_*`): try again after "
    "the seconds `Retry-After` says.",
}
# The headers an error answer carries besides its body.
ERROR_HEADERS = {"429": {"Retry-After": {
    "description": "Seconds to wait before trying again.",
    "schema": {"type": "integer", "minimum": 1},
}}}

EDIT_SECRET = {
    "name": "X-Edit-Secret",
    "in": "header",
    "description": "The game's edit secret (from `POST /games`); on a club night's "
    "table, the night organiser's secret too.",
    "required": True,
    "schema": {"type": "string"},
}
GROUP_SECRET = {
    **EDIT_SECRET,
    "description": "The group's edit secret, when the game counts for a `group`.",
    "required": False,
}
GROUP_EDIT_SECRET = {
    **EDIT_SECRET,
    "description": "The group's edit secret (from `POST /groups`).",
}
ORGANISER_SECRET = {
    **EDIT_SECRET,
    "description": "The night organiser's secret (from `POST /nights`).",
}
ORGANISER_SECRET_OPTIONAL = {**ORGANISER_SECRET, "required": False}
TABLE_SECRET = {
    **EDIT_SECRET,
    "description": "The table game's edit secret, or the night organiser's.",
}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "description": "Any text of the client's choosing, at most 100 characters: the same "
    "key twice adds one hand, and the second answer (200) is the first one's.",
    "required": False,
    "schema": {"type": "string", "maxLength": 100},
}
CONFIRM_REPEAT = {
    "name": "X-Confirm",
    "in": "header",
    "description": "`repeat`: save the hand even though it repeats the game's last hand "
    "(the same outcome, knocker and deadwood, or the same cards; a deal with every "
    "player's the same), saved less than a minute ago. Without it such a hand is refused "
    "with 409 and nothing is saved: two phones, or one sent twice without an "
    "`Idempotency-Key`, entered the same hand.",
    "required": False,
    "schema": {"type": "string", "enum": ["repeat"]},
}


CONFIRM_MOVE = {
    "name": "X-Confirm",
    "in": "header",
    "description": "`move`: restore the hand at its old number even though other hands "
    "stand there now (they move down one). Without it such a restore is refused with 409, "
    "saying which hands would move, and nothing is restored.",
    "required": False,
    "schema": {"type": "string", "enum": ["move"]},
}
HAND_NUMBER = {"name": "number", "in": "path", "required": True,
               "description": "The hand's number (a deal's in partnership gin and Remi), from 1.",
               "schema": {"type": "integer", "minimum": 1}}


def path_id(name: str, what: str) -> Schema:
    """A game's or group's id in the path."""
    return {"name": name, "in": "path", "required": True, "description": f"The {what}'s id.",
            "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"}}


PAYMENT_ID = {"name": "payment_id", "in": "path", "required": True,
              "description": "The payment's `id`.", "schema": {"type": "integer"}}


def operation(operation_id: str, summary: str, description: str, responses: dict[str, Schema],
              **more: Any) -> Schema:
    """One operation: what it does and every answer it gives."""
    return {"operationId": operation_id, "summary": summary, "description": description,
            **more, "responses": responses}


PATHS: dict[str, dict[str, Schema]] = {
    "/gin/arrange": {
        "post": operation(
            "arrangeGinHand",
            "Arrange a gin hand",
            "The best melds and deadwood of 10 cards, or the best discard of 11.",
            {"200": answer("The arrangement.", ref("Arrangement")), **refused("413", "422")},
            tags=["Engine"],
            requestBody=body(ref("ArrangeRequest")),
        )
    },
    "/gin/settle": {
        "post": operation(
            "settleGinHand",
            "Score a gin hand",
            "Score one hand from both players' cards, with optional declared melds and "
            "layoffs.",
            {"200": answer("The hand scored.", ref("SettledHand")), **refused("413", "422")},
            tags=["Engine"],
            requestBody=body(ref("SettleRequest")),
        )
    },
    "/remi/settle": {
        "post": operation(
            "settleRemiDeal",
            "Score a Remi deal",
            "Score one Indonesian Remi deal from every player's table combinations, hand "
            "and final discard. Rules default to the `remi` preset.",
            {"200": answer("The deal scored.", ref("RemiDeal")), **refused("413", "422")},
            tags=["Engine"],
            requestBody=body(ref("RemiSettleRequest")),
        )
    },
    "/rulings": {
        "post": operation(
            "keepRuling",
            "Keep a ruling",
            "Settle a hand (or a Remi deal) and keep the hands, the rules and the verdict "
            "under an unguessable link, read-only and printable. A ruling never changes: "
            "it keeps what it said, with the stamp of the scoring code that said it. A body "
            "that `/gin/settle` or `/remi/settle` refuses is refused the same way and "
            "nothing is kept.",
            {"201": answer("The ruling was kept.", ref("KeptRuling")),
             **refused("413", "422", "429")},
            tags=["Rulings"],
            requestBody=body(ref("RulingRequest")),
        )
    },
    "/games": {
        "post": operation(
            "createGame",
            "Start a game",
            "Start a game; the answer carries its edit secret and links. A game that "
            "counts for a group needs the group's edit secret.",
            {
                "201": answer(
                    "The game was created.",
                    ref("Created"),
                    links={
                        "ReadGame": {"operationId": "readGame",
                                     "parameters": {"game_id": "$response.body#/id"}},
                        "AddHand": {
                            "operationId": "addHand",
                            "parameters": {
                                "path.game_id": "$response.body#/id",
                                "header.X-Edit-Secret": "$response.body#/edit_secret",
                            },
                        },
                    },
                ),
                **refused("403", "413", "422", "429"),
            },
            tags=["Games"],
            parameters=[GROUP_SECRET],
            requestBody=body(ref("NewGame")),
        )
    },
    "/games/{game_id}": {
        "get": operation(
            "readGame",
            "Read a game",
            "The whole game: rules, players, hands with their inputs, totals, settlement. "
            "This is also the export format.",
            {"200": answer("The game.", ref("Game")), **refused("404")},
            tags=["Games"],
            parameters=[path_id("game_id", "game")],
        )
    },
    "/games/{game_id}/hands": {
        "post": operation(
            "addHand",
            "Add a hand",
            "Add a hand (a deal in partnership gin and Remi), by its totals or by the "
            "cards. The same `Idempotency-Key` twice adds one hand. A hand that repeats "
            "the last one, saved less than a minute ago, is refused (409) unless "
            "`X-Confirm: repeat` says it is meant. A club night's table whose result is "
            "confirmed takes no hand (409) until the night's organiser reopens the table.",
            {
                "201": answer(
                    "The hand was added: the game's new totals.",
                    ref("AddedHand"),
                    links={
                        "AddAnotherHand": {
                            "operationId": "addHand",
                            "parameters": {
                                "path.game_id": "$request.path.game_id",
                                "header.X-Edit-Secret": "$request.header.X-Edit-Secret",
                            },
                        },
                        "ReadGame": {"operationId": "readGame",
                                     "parameters": {"game_id": "$request.path.game_id"}},
                    },
                ),
                "200": answer(
                    "A hand with this `Idempotency-Key` was added before: the answer "
                    "names that hand, whatever this body says.",
                    ref("AddedHand"),
                ),
                **refused("403", "404", "409", "413", "422"),
            },
            tags=["Games"],
            parameters=[path_id("game_id", "game"), EDIT_SECRET, IDEMPOTENCY_KEY,
                        CONFIRM_REPEAT],
            requestBody=body(ref("NewHand")),
        )
    },
    "/games/{game_id}/hands/{number}": {
        "patch": operation(
            "correctHand",
            "Correct a hand",
            "Replace a hand's inputs (the body `POST /games/{game_id}/hands` takes, with "
            "the game's `version`); everything after it is recomputed, and the game's "
            "history keeps what it said before.",
            {"200": answer("The hand was corrected: the game's new totals.",
                           ref("ChangedHand")),
             **refused("403", "404", "409", "413", "422")},
            tags=["Games"],
            parameters=[path_id("game_id", "game"), HAND_NUMBER, EDIT_SECRET],
            requestBody=body(ref("HandCorrection")),
        ),
        "delete": operation(
            "deleteHand",
            "Delete a hand",
            "Delete a hand (the last one: undo it); the hands after it move up one. The "
            "game's history keeps it, and the answer's `change` restores it.",
            {"200": answer("The hand was deleted: the game's new totals.",
                           ref("DeletedHand")),
             **refused("403", "404", "409")},
            tags=["Games"],
            parameters=[path_id("game_id", "game"), HAND_NUMBER, EDIT_SECRET,
                        {"name": "version", "in": "query", "required": False,
                         "description": GAME_VERSION["description"],
                         "schema": {"type": "integer", "minimum": 0}}],
        ),
    },
    "/games/{game_id}/changes/{change_id}/restore": {
        "post": operation(
            "restoreHand",
            "Restore a deleted hand",
            "Put a deleted hand back, exactly as it was entered, from its entry in the "
            "game's history: at its old number (the hands there move down one, with "
            "`X-Confirm: move`), as the last hand if it was the last. Each deletion once.",
            {"200": answer("The hand is back: the game's new totals.", ref("ChangedHand")),
             **refused("403", "404", "409", "413", "422")},
            tags=["Games"],
            parameters=[path_id("game_id", "game"),
                        {"name": "change_id", "in": "path", "required": True,
                         "description": "The id of the deletion's entry in the game's "
                         "history (the `change` of `DELETE /games/{game_id}/hands/{number}`).",
                         "schema": {"type": "integer"}},
                        EDIT_SECRET, CONFIRM_MOVE],
            requestBody={**body(ref("GameVersion")), "required": False},
        )
    },
    "/nights": {
        "post": operation(
            "createNight",
            "Start a club night",
            "Start a night of several tables: the players present, the game and rules, "
            "the format. The answer carries the organiser's secret and the board's link.",
            {
                "201": answer(
                    "The night was created.",
                    ref("CreatedNight"),
                    links={"ReadNight": {"operationId": "readNight",
                                         "parameters": {"night_id": "$response.body#/id"}}},
                ),
                **refused("403", "413", "422", "429"),
            },
            tags=["Nights"],
            parameters=[GROUP_SECRET],
            requestBody=body(ref("NewNight")),
        )
    },
    "/nights/{night_id}": {
        "get": operation(
            "readNight",
            "Read a club night",
            "Every round's tables with their state, and the standings. With the "
            "organiser's secret in `X-Edit-Secret` each table also carries its game's "
            "`edit_url`.",
            {"200": answer("The night.", ref("Night")), **refused("404")},
            tags=["Nights"],
            parameters=[path_id("night_id", "night"), ORGANISER_SECRET_OPTIONAL],
        )
    },
    "/nights/{night_id}/rounds": {
        "post": operation(
            "nextRound",
            "Pair the next round",
            "Make the next round's pairings and a game for each table. Refused (409) while "
            "a table of the current round is not confirmed (unless `carry`), when no round "
            "can be paired with the entrants free now (fewer than two; or on a round robin, "
            "those still to meet are at tables still playing), and when the night has no "
            "round left. A "
            "round robin is over when no two entrants present have still to meet: once "
            "its field changes (a late arrival, an entrant away, a table carried over) "
            "each round pairs as many tables as it can of entrants who have not met, and "
            "nobody meets anyone twice. Two requests together make one round.",
            {"201": answer("The round.", ref("NightRound")),
             **refused("403", "404", "409", "413", "422")},
            tags=["Nights"],
            parameters=[path_id("night_id", "night"), ORGANISER_SECRET],
            requestBody={"required": False,
                         "content": {"application/json": {"schema": ref("NextRound")}}},
        )
    },
    "/games/{game_id}/confirm": {
        "post": operation(
            "confirmTable",
            "Confirm a table's result",
            "Confirm a finished club-night table's result so that it counts: with the "
            "game's edit secret (the other player's phone) or the night organiser's. "
            "Confirmed twice, it counts once.",
            {"200": answer("The result counts.", ref("Confirmed")),
             **refused("403", "404", "409")},
            tags=["Nights"],
            parameters=[path_id("game_id", "game"), TABLE_SECRET],
        )
    },
    "/groups": {
        "post": operation(
            "createGroup",
            "Start a group",
            "Start a group of regular players; the answer carries its edit secret and "
            "links.",
            {
                "201": answer(
                    "The group was created.",
                    ref("Created"),
                    links={"ReadGroup": {"operationId": "readGroup",
                                         "parameters": {"group_id": "$response.body#/id"}}},
                ),
                **refused("413", "422", "429"),
            },
            tags=["Groups"],
            requestBody=body(ref("NewGroup")),
        )
    },
    "/groups/{group_id}": {
        "get": operation(
            "readGroup",
            "Read a group",
            "The group: roster, stake, games, standings, head-to-head, money.",
            {"200": answer("The group.", ref("Group")), **refused("404")},
            tags=["Groups"],
            parameters=[path_id("group_id", "group")],
        )
    },
    "/groups/{group_id}/players/{name}": {
        "get": operation(
            "readPlayer",
            "Read a player of a group",
            "One player across the group's finished games: rating and its history, "
            "figures, results against each opponent, money won and lost.",
            {"200": answer("The player.", ref("Player")), **refused("404")},
            tags=["Groups"],
            parameters=[path_id("group_id", "group"),
                        {"name": "name", "in": "path", "required": True,
                         "description": "The player's name, percent-encoded (\"/\" as %2F); "
                         "a name with \"%\" in it, or one that is or holds a piece "
                         "\".\" or \"..\" or an empty one, encoded twice, its dots "
                         "as %2E too (\"..\" as %252E%252E), as the group's page "
                         "links it.",
                         "schema": {"type": "string"}}],
        )
    },
    "/groups/{group_id}/payments": {
        "post": operation(
            "recordPayment",
            "Record a payment",
            "Record money that changed hands; it moves the balances.",
            {"201": answer("The payment was recorded.", ref("ChangedGroup")),
             **refused("403", "404", "409", "413", "422")},
            tags=["Groups"],
            parameters=[path_id("group_id", "group"), GROUP_EDIT_SECRET],
            requestBody=body(ref("NewPayment")),
        )
    },
    "/groups/{group_id}/payments/{payment_id}": {
        "patch": operation(
            "correctPayment",
            "Correct a payment",
            "Change who paid, whom, how much or when; the history keeps what it said "
            "before.",
            {"200": answer("The payment was corrected.", ref("ChangedGroup")),
             **refused("403", "404", "409", "413", "422")},
            tags=["Groups"],
            parameters=[path_id("group_id", "group"), PAYMENT_ID, GROUP_EDIT_SECRET],
            requestBody=body(ref("PaymentCorrection")),
        ),
        "delete": operation(
            "deletePayment",
            "Delete a payment",
            "Delete a payment; the group's history keeps it, and its entry can restore it.",
            {"200": answer("The payment was deleted.", ref("ChangedGroup")),
             **refused("403", "404", "409")},
            tags=["Groups"],
            parameters=[path_id("group_id", "group"), PAYMENT_ID, GROUP_EDIT_SECRET,
                        {"name": "version", "in": "query", "required": False,
                         "description": GROUP_VERSION["description"],
                         "schema": {"type": "integer", "minimum": 0}}],
        ),
    },
    "/groups/{group_id}/changes/{change_id}/restore": {
        "post": operation(
            "restorePayment",
            "Restore a deleted payment",
            "Put a deleted payment back, exactly as it was, from its entry in the group's "
            "`history`; each deletion once.",
            {"200": answer("The payment is back.", ref("ChangedGroup")),
             **refused("403", "404", "409", "413", "422")},
            tags=["Groups"],
            parameters=[path_id("group_id", "group"),
                        {"name": "change_id", "in": "path", "required": True,
                         "description": "The id of the deletion's entry in `history`.",
                         "schema": {"type": "integer"}},
                        GROUP_EDIT_SECRET],
            requestBody={**body(ref("Version")), "required": False},
        )
    },
    "/groups/{group_id}/settle-up": {
        "post": operation(
            "settleUp",
            "Record the settling up",
            "Record every payment `settle_up` suggests, dated today, at once: everybody "
            "is square. The body names the group's `version`: the same request sent "
            "twice records once (the second is a 409), as does one overtaken by "
            "another change.",
            {"201": answer("The payments were recorded.", ref("ChangedGroup")),
             **refused("403", "404", "409", "413", "422")},
            tags=["Groups"],
            parameters=[path_id("group_id", "group"), GROUP_EDIT_SECRET],
            requestBody=body(ref("SettleUp")),
        )
    },
    "/openapi.json": {
        "get": operation(
            "readOpenapi",
            "This document",
            "The API described as OpenAPI 3.1.",
            {"200": answer("The OpenAPI document.")},
            tags=["About"],
        )
    },
}


@cache
def _document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": TITLE, "version": VERSION, "description": OVERVIEW},
        "servers": [{"url": "/api/v1"}],
        "tags": [
            {"name": "Engine", "description": "Score hands without keeping them."},
            {"name": "Rulings", "description": "Settled disputes kept as decided."},
            {"name": "Games", "description": "Games kept on the server."},
            {"name": "Groups", "description": "Regular players, their standings and money."},
            {"name": "Nights", "description": "Club nights: several tables, one board."},
            {"name": "About", "description": "This description."},
        ],
        "paths": PATHS,
        "components": {
            "schemas": {**REQUEST_SCHEMAS, **RESPONSE_SCHEMAS},
            "responses": {
                status: answer(description, ref("Errors"),
                               **({"headers": ERROR_HEADERS[status]}
                                  if status in ERROR_HEADERS else {}))
                for status, description in ERROR_ANSWERS.items()
            },
        },
    }


def document() -> dict[str, Any]:
    """The OpenAPI document (a copy: the caller may change it)."""
    return copy.deepcopy(_document())


@bp.get("/openapi.json")
def openapi_json() -> Response:
    """This API described as OpenAPI 3.1."""
    return jsonify(_document())
