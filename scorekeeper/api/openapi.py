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
from ..variants import VARIANTS
from . import bodies, bp

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


def obj(properties: dict[str, Schema], required: tuple[str, ...] = (), **more: Any) -> Schema:
    """A JSON object with these properties, ``required`` ones always present."""
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return {**schema, **more}


def array(items: Schema, **more: Any) -> Schema:
    """A JSON array of ``items``."""
    return {"type": "array", "items": items, **more}


def nullable(schema: Schema) -> Schema:
    """``schema`` or ``null``."""
    return {"anyOf": [schema, {"type": "null"}]}


def text(description: str, **more: Any) -> Schema:
    """A string, described."""
    return {"type": "string", "description": description, **more}


def number(description: str, **more: Any) -> Schema:
    """A whole number, described."""
    return {"type": "integer", "description": description, **more}


def flag(description: str) -> Schema:
    """``true`` or ``false``, described."""
    return {"type": "boolean", "description": description}


SEAT = number("A seat: 0 for the first player named, 1 for the second, and so on.", minimum=0)
SEATS = array(number("Points, one entry per seat (or team)."))
OPTIONAL_SEAT = {**nullable(SEAT), "description": "A seat, or null for none."}
EXPLANATION = array(
    obj(
        {
            "text": text("One step of the scoring, as an English sentence."),
            "rule": text("The rule it applied: an anchor of the rule cards, as in "
                         "`/rules/russian#undercut` (empty for a step that applies none)."),
        },
        ("text", "rule"),
    ),
    description="The scoring step by step, each step with the rule it applied.",
)
MONEY = text(
    "An amount of money as a decimal string, never a JSON number.",
    pattern=r"^-?[0-9]+(\.[0-9]+)?$",
    examples=["1.53"],
)
CURRENCY = text("A three-letter currency code.", pattern="^[A-Z]{3}$", examples=["EUR"])
HAND_OUTCOMES = ["knock", "undercut", "gin", "big_gin", "tie", "dead"]


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
}
GROUP_VERSION = REQUEST_SCHEMAS["Version"]["properties"]["version"]


# --- what answers carry -------------------------------------------------------------

RULE_VALUES = Rules().to_dict()


def _rules_answer() -> Schema:
    """Every setting, as the game stores it."""
    properties: dict[str, Schema] = {}
    settings = REQUEST_SCHEMAS["RuleSettings"]["properties"]
    for name in RULE_VALUES:
        properties[name] = (
            text("The preset the game started from, or `custom`.")
            if name == "preset"
            else settings[name]
        )
    return obj(properties, tuple(RULE_VALUES), description="The game's rules, every setting.")


SETTLEMENT = obj(
    {
        "winner": SEAT,
        "shutout": flag("Whether the loser won no hand."),
        "lines": array(
            obj({"seat": SEAT, "amount": number("Points added."), "text": text("What for.")},
                ("seat", "amount", "text"))
        ),
        "finals": SEATS,
        "margin": number("The winner's final less the runner-up's."),
        "explanation": EXPLANATION,
    },
    ("winner", "shutout", "lines", "finals", "margin", "explanation"),
    description="The final settlement of a finished game (rule card `/rules/classic#game-bonus`).",
)

HAND_ROW_COMMON: dict[str, Schema] = {
    "number": number("The hand's number, from 1.", minimum=1),
    "inputs": {"type": "object", "description": "The hand as it was entered and stored."},
    "outcome": {"type": "string", "enum": HAND_OUTCOMES},
    "after_end": flag("Entered after the game had ended: it does not count."),
    "explanation": EXPLANATION,
}


def _game(variant: str | list[str], properties: dict[str, Schema], required: tuple[str, ...],
          hand: Schema, description: str) -> Schema:
    names = [variant] if isinstance(variant, str) else variant
    return obj(
        {
            "variant": {"type": "string", "enum": names},
            "hands": array(hand, description="Every hand; left out of the answer to adding one."),
            **properties,
        },
        ("variant", *required),
        description=description,
    )


RESPONSE_SCHEMAS: dict[str, Schema] = {
    "CreatedNight": obj(
        {
            "id": text("The night's id."),
            "organiser_secret": text("The secret that runs the night (`X-Edit-Secret`); "
                                     "it is accepted wherever a table's own edit secret is."),
            "organiser_url": text("The organiser's page with the secret.", format="uri"),
            "board_url": text("The board for a TV or projector.", format="uri"),
        },
        ("id", "organiser_secret", "organiser_url", "board_url"),
    ),
    "NightTable": obj(
        {
            "table": number("The table's number (1 is the top table).", minimum=1),
            "players": array(text("An entrant."), description="The two entrants, first "
                             "seated first."),
            "seats": array(text("A player."), description="The game's players in their seats."),
            "game": nullable(text("The table's game (`GET /games/{game_id}`).")),
            "state": text("`missing`: no hand yet; `playing`; `finished`: over, waiting for the "
                          "other player's confirmation; `confirmed`: it counts.",
                          enum=["missing", "playing", "finished", "confirmed"]),
            "hands": number("Hands played.", minimum=0),
            "scores": nullable(array(number("A side's score."))),
            "result": nullable(obj({
                "points_a": number("The first's final."),
                "points_b": number("The second's final."),
                "winner": nullable(text("Who won.", enum=["a", "b"])),
                "shutout": flag("Won with the loser scoring nothing."),
                "forfeit": nullable(text("Who forfeited.", enum=["a", "b"])),
            })),
            "edit_url": text("The game's page with its edit secret (only with the "
                             "organiser's secret).", format="uri"),
        },
        ("table", "players", "game", "state"),
    ),
    "NightRound": obj(
        {
            "number": number("The round's number.", minimum=1),
            "tables": array(ref("NightTable")),
            "byes": array(text("An entrant sitting this round out.")),
        },
        ("number", "tables", "byes"),
    ),
    "Night": obj(
        {
            "id": text("The night's id."),
            "name": text("Its name."),
            "variant": text("The game at every table."),
            "format": text("The format."),
            "planned_rounds": nullable(number("How many rounds the night has.")),
            "deals": nullable(number("Deals a table, or `null`: to the target.")),
            "order": array(text("A tie-break.")),
            "players": array(text("An entrant.")),
            "rounds": array(ref("NightRound")),
            "standings": array(obj({
                "player": text("The entrant."),
                "rank": number("Rank; tied entrants share one."),
                "points": number("Match points: 2 a win or bye, 1 a draw."),
                "played": number("Tables played."),
                "wins": number("Wins."),
                "draws": number("Draws."),
                "losses": number("Losses."),
                "byes": number("Byes."),
                "games_won": number("Games won at the table (a forfeit is not one)."),
                "shutouts": number("Games won with the loser scoring nothing."),
                "point_difference": number("Own finals less the opponents', summed."),
            }, ("player", "rank", "points", "wins"))),
            "board_url": text("The board.", format="uri"),
        },
        ("id", "rounds", "standings"),
    ),
    "Confirmed": obj(
        {
            "confirmed": flag("The table's result counts."),
            "counted": flag("`true` if this request confirmed it, `false` if it was "
                            "confirmed already (twice counts once)."),
            "result": ref("NightResult"),
        },
        ("confirmed", "counted"),
    ),
    "NightResult": nullable(obj({
        "points_a": number("The first's final."),
        "points_b": number("The second's final."),
        "winner": nullable(text("Who won.", enum=["a", "b"])),
        "shutout": flag("Won with the loser scoring nothing."),
        "forfeit": nullable(text("Who forfeited.", enum=["a", "b"])),
    })),
    "Errors": obj(
        {
            "errors": array(
                obj(
                    {
                        "where": text("What the message is about: a path into the body, "
                                      "a header, `request` or `game`."),
                        "message": text("What is wrong, in English."),
                    },
                    ("where", "message"),
                ),
                minItems=1,
            )
        },
        ("errors",),
        description="Why the request was refused: every problem found at once.",
    ),
    "CanonicalCard": text("A card in canonical notation: rank then suit, `T` for ten.",
                          pattern="^[A2-9TJQK][SHDC]$", examples=["TD"]),
    "Meld": array(ref("CanonicalCard"), description="A meld's cards."),
    "Arrangement": obj(
        {
            "melds": array(ref("Meld")),
            "deadwood": array(ref("CanonicalCard")),
            "deadwood_points": number("The deadwood's count.", minimum=0),
            "gin": flag("No deadwood."),
            "discard": {**nullable(ref("CanonicalCard")),
                        "description": "11 cards: the best discard; melds and deadwood are "
                        "after it."},
            "big_gin": flag("11 cards: all eleven melded."),
        },
        ("melds", "deadwood", "deadwood_points", "gin"),
        description="The best melds of 10 cards, or of 11 after the best discard.",
    ),
    "SettledHand": obj(
        {
            "outcome": {"type": "string", "enum": [o for o in HAND_OUTCOMES if o != "dead"]},
            "winner": {"description": "Who scores; null for a tie.",
                       "anyOf": [{"type": "string", "enum": ["knocker", "defender"]},
                                 {"type": "null"}]},
            "points": number("The points the winner scores.", minimum=0),
            "knocker": obj(
                {"melds": array(ref("Meld")), "deadwood": array(ref("CanonicalCard")),
                 "deadwood_points": number("", minimum=0)},
                ("melds", "deadwood", "deadwood_points"),
            ),
            "defender": obj(
                {
                    "melds": array(ref("Meld")),
                    "layoffs": array(obj({"card": ref("CanonicalCard"),
                                          "meld": number("0-based index into `knocker.melds`.",
                                                         minimum=0)},
                                         ("card", "meld"))),
                    "deadwood": array(ref("CanonicalCard")),
                    "deadwood_points": number("", minimum=0),
                },
                ("melds", "layoffs", "deadwood", "deadwood_points"),
            ),
            "explanation": EXPLANATION,
        },
        ("outcome", "winner", "points", "knocker", "defender", "explanation"),
        description="One hand scored; a layoff's `meld` indexes `knocker.melds`.",
    ),
    "RemiDeal": obj(
        {
            "players": array(
                obj(
                    {
                        "name": text("The player's name."),
                        "combinations": array(array(ref("CanonicalCard"))),
                        "unmatched": array(ref("CanonicalCard")),
                        "points": number("The deal's score."),
                        "plus": number("Points on the table."),
                        "minus": number("Points left in hand."),
                        "closing_bonus": number("The bonus for going out."),
                    },
                    ("name", "combinations", "unmatched", "points", "plus", "minus",
                     "closing_bonus"),
                )
            ),
            "explanation": EXPLANATION,
        },
        ("players", "explanation"),
        description="One Remi deal scored (rule card `/rules/remi`).",
    ),
    "KeptRuling": obj(
        {
            "id": text("The ruling's id.", pattern="^[A-Za-z0-9_-]{1,64}$"),
            "url": text("Its read-only page (`<url>.pdf` prints it).", format="uri"),
        },
        ("id", "url"),
        description="A kept ruling: what was decided, never scored again.",
    ),
    "Created": obj(
        {
            "id": text("Its id.", pattern="^[A-Za-z0-9_-]{1,64}$"),
            "edit_secret": text("The secret that lets you change it (`X-Edit-Secret`)."),
            "view_url": text("Its page, to read.", format="uri"),
            "edit_url": text("Its page with the secret: whoever opens it may edit.",
                             format="uri"),
        },
        ("id", "edit_secret", "view_url", "edit_url"),
        description="What was created, with its edit secret and links.",
    ),
    "Payment": obj(
        {"from": text("Who pays."), "to": text("Who is paid."), "amount": MONEY,
         "currency": {**nullable(CURRENCY), "description": "The currency, if any."}},
        ("from", "to", "amount", "currency"),
        description="Money owed at the end of a game with a stake.",
    ),
    "GameRules": _rules_answer(),
    "Game": {
        "description": "The whole game (also the export format): rules, players, hands with "
        "their inputs, totals derived from them, settlement. The fields after `finished` "
        "depend on the variant.",
        "allOf": [
            obj(
                {
                    "id": text("The game's id."),
                    "variant": {"type": "string", "enum": list(VARIANTS)},
                    "players": array({"type": "string"}),
                    "short_names": array(
                        {"type": "string"},
                        description="Each player's short form, seat by seat, as the "
                        "sheet's narrow columns show it: the first word of the name, told "
                        "apart from another player's, or what the game's editor wrote.",
                    ),
                    "rules": ref("GameRules"),
                    "setup": {"type": "object", "description": "Who dealt (or had which "
                              "role) first.",
                              "additionalProperties": {"type": "integer"}},
                    "version": number("Goes up by one with every change.", minimum=0),
                    "created_at": text("When the game was created.", format="date-time"),
                    "finished": flag("Whether the game is over."),
                    "stake": {**MONEY, "description": "The stake per point (games with "
                              "a stake only)."},
                    "currency": CURRENCY,
                    "payments": array(ref("Payment"), description="Who pays whom (a "
                                      "finished game with a stake only)."),
                },
                ("id", "variant", "players", "rules", "setup", "version", "created_at",
                 "finished"),
            ),
            {"oneOf": [ref("GinGame"), ref("HollywoodGame"), ref("ThreeHandGame"),
                       ref("PartnershipGame"), ref("RemiGame")]},
        ],
    },
    "AddedHand": {
        "description": "The game's new totals (the game without its list of hands) and the "
        "number of the hand this request added.",
        "allOf": [
            ref("Game"),
            obj({"hand": number("The hand's number.", minimum=1)}, ("hand",)),
        ],
    },
    "GinGame": _game(
        ["gin", "oklahoma"],
        {
            "totals": SEATS,
            "boxes": array(number("Hands won.")),
            "needs": array(number("Points still needed to reach the target.")),
            "next_dealer": SEAT,
            "winner": OPTIONAL_SEAT,
            "settlement": nullable(ref("Settlement")),
        },
        ("totals", "boxes", "needs", "next_dealer", "winner", "settlement"),
        obj(
            {
                **HAND_ROW_COMMON,
                "dealer": SEAT,
                "winner": OPTIONAL_SEAT,
                "points": number("Points the winner scored."),
                "doubled": flag("Oklahoma: doubled by a spade upcard."),
                "box": OPTIONAL_SEAT,
                "totals": SEATS,
            },
            ("number", "inputs", "dealer", "outcome", "winner", "points", "doubled", "box",
             "totals", "after_end", "explanation"),
        ),
        "Gin and Oklahoma gin: one hand per row.",
    ),
    "HollywoodGame": _game(
        "hollywood",
        {
            "columns": array(ref("HollywoodColumn")),
            "next_dealer": SEAT,
            "ignored": array(number("A hand entered after the match ended.")),
            "match": obj({"finals": SEATS, "leader": OPTIONAL_SEAT}, ("finals", "leader")),
        },
        ("columns", "next_dealer", "ignored", "match"),
        obj(
            {
                **HAND_ROW_COMMON,
                "dealer": SEAT,
                "winner": OPTIONAL_SEAT,
                "points": number("Points the winner scored."),
                "doubled": flag("Doubled by a spade upcard."),
                "columns": array(number("A column the points went into.")),
                "closes": array(number("A column this hand closed.")),
            },
            ("number", "inputs", "dealer", "outcome", "winner", "points", "doubled", "columns",
             "closes", "after_end", "explanation"),
        ),
        "Hollywood gin: three games (columns) at once.",
    ),
    "HollywoodColumn": obj(
        {
            "number": number("The column, from 1.", minimum=1),
            "open": flag("Open and not yet closed."),
            "opened_after": {**nullable(number("", minimum=0)),
                             "description": "The hand after which it opened (0: from the "
                             "start); null: not yet."},
            "closed": flag("Its game is over."),
            "winner": OPTIONAL_SEAT,
            "totals": SEATS,
            "boxes": array(number("Hands won.")),
            "needs": array(number("Points still needed.")),
            "hands": array(
                obj({"hand": number("", minimum=1), "points": SEATS, "totals": SEATS,
                     "box": OPTIONAL_SEAT}, ("hand", "points", "totals", "box")),
                description="Left out of the answer to adding a hand.",
            ),
            "settlement": nullable(ref("Settlement")),
        },
        ("number", "open", "opened_after", "closed", "winner", "totals", "boxes", "needs",
         "settlement"),
    ),
    "ThreeHandGame": _game(
        "three_hand",
        {
            "totals": SEATS,
            "boxes": array(number("Hands won.")),
            "needs": array(number("Points still needed to reach the target.")),
            "next_roles": ref("Roles"),
            "next_dealer": SEAT,
            "winner": OPTIONAL_SEAT,
            "settlement": nullable(ref("Settlement")),
        },
        ("totals", "boxes", "needs", "next_roles", "next_dealer", "winner", "settlement"),
        obj(
            {
                **HAND_ROW_COMMON,
                "roles": ref("Roles"),
                "dealer": SEAT,
                "knocker_seat": OPTIONAL_SEAT,
                "winner_role": {"anyOf": [{"type": "string", "enum": ["box", "captain"]},
                                          {"type": "null"}]},
                "winner": OPTIONAL_SEAT,
                "points": SEATS,
                "totals": SEATS,
                "next_roles": ref("Roles"),
            },
            ("number", "inputs", "roles", "dealer", "knocker_seat", "outcome", "winner_role",
             "winner", "points", "totals", "next_roles", "after_end", "explanation"),
        ),
        "Three-hand gin: the box plays the captain, the third sits out.",
    ),
    "Roles": obj({"box": SEAT, "captain": SEAT, "out": SEAT}, ("box", "captain", "out"),
                 description="Which seat has which role."),
    "PartnershipGame": _game(
        "partnership",
        {
            "teams": array(array(SEAT)),
            "team_names": array({"type": "string"}),
            "totals": array(number("A team's total.")),
            "boxes": array(number("Deals won.")),
            "needs": array(number("Points still needed.")),
            "next_pairing": array(array(SEAT), description="Who plays whom in the next deal."),
            "winner": {**nullable(number("", minimum=0)), "description": "The winning team."},
            "settlement": nullable(ref("Settlement")),
        },
        ("teams", "team_names", "totals", "boxes", "needs", "next_pairing", "winner",
         "settlement"),
        obj(
            {
                "number": number("The deal's number.", minimum=1),
                "inputs": {"type": "object", "description": "The deal as entered."},
                "pairing": array(array(SEAT)),
                "tables": array(
                    obj(
                        {
                            "players": array(SEAT),
                            "outcome": {"type": "string", "enum": HAND_OUTCOMES},
                            "winner": OPTIONAL_SEAT,
                            "points": number(""),
                            "team_points": array(number("")),
                            "explanation": EXPLANATION,
                        },
                        ("players", "outcome", "winner", "points", "team_points",
                         "explanation"),
                    )
                ),
                "points": array(number("A team's net for the deal.")),
                "box": {**nullable(number("", minimum=0)), "description": "The team that "
                        "won the deal."},
                "totals": array(number("")),
                "after_end": flag("Entered after the game had ended."),
                "explanation": text("The deal's net, in words."),
            },
            ("number", "inputs", "pairing", "tables", "points", "box", "totals",
             "after_end", "explanation"),
        ),
        "Partnership gin: two teams, two tables a deal.",
    ),
    "RemiGame": _game(
        "remi",
        {
            "totals": SEATS,
            "next_dealer": SEAT,
            "winners": array(SEAT, description="More than one when tied."),
            "target": {**nullable(number("")), "description": "The target; null when "
                       "the game lasts a number of deals."},
            "deals_left": {**nullable(number("", minimum=0)),
                           "description": "Deals still to play, when it lasts a number."},
        },
        ("totals", "next_dealer", "winners", "target", "deals_left"),
        obj(
            {
                "number": number("The deal's number.", minimum=1),
                "inputs": {"type": "object", "description": "The deal as entered."},
                "mode": {"type": "string", "enum": ["quick", "cards"]},
                "went_out": OPTIONAL_SEAT,
                "dealer": OPTIONAL_SEAT,
                "scores": SEATS,
                "totals": nullable(SEATS),
                "after_end": flag("Entered after the game had ended."),
                "players": array(
                    obj(
                        {
                            "points": number(""),
                            "plus": number(""),
                            "minus": number(""),
                            "closing_bonus": number(""),
                            "combinations": array(array(ref("CanonicalCard"))),
                            "void_sets": array(array(ref("CanonicalCard"))),
                            "unmatched": array(ref("CanonicalCard")),
                        },
                        ("points", "plus", "minus", "closing_bonus"),
                    )
                ),
                "explanation": EXPLANATION,
            },
            ("number", "inputs", "mode", "went_out", "dealer", "scores", "totals",
             "after_end", "players", "explanation"),
        ),
        "Indonesian Remi: 2 to 4 players, one row a deal.",
    ),
    "Settlement": SETTLEMENT,
    "Group": obj(
        {
            "id": text("The group's id."),
            "name": text("The group's name."),
            "players": array({"type": "string"}),
            "stake": {**nullable(MONEY), "description": "The stake per point its games "
                      "take, if any."},
            "currency": nullable(CURRENCY),
            "games": array(
                obj(
                    {
                        "id": text("The game's id."),
                        "variant": {"type": "string", "enum": list(VARIANTS)},
                        "created_at": text("", format="date-time"),
                        "finished": flag(""),
                        "winner": {**nullable({"type": "string"}),
                                   "description": "The winner's name, when there is one."},
                        "winners": array({"type": "string"}),
                        "finals": {"type": "object", "additionalProperties": {"type": "integer"},
                                   "description": "Each player's final score, by name."},
                        "stake": nullable(MONEY),
                        "currency": nullable(CURRENCY),
                        "payments": array(ref("Payment")),
                    },
                    ("id", "variant", "created_at", "finished", "winner", "winners", "finals",
                     "stake", "currency", "payments"),
                ),
                description="The group's games, newest first.",
            ),
            "standings": array(ref("Standing")),
            "head_to_head": array(
                obj(
                    {
                        "players": array({"type": "string"}, minItems=2, maxItems=2),
                        "games": number("", minimum=0),
                        "wins": array(number("", minimum=0), minItems=2, maxItems=2),
                        "net": number("The first player's finals less the second's."),
                    },
                    ("players", "games", "wins", "net"),
                )
            ),
            "balances": {"type": "object", "additionalProperties": MONEY,
                         "description": "What each player is up (or down), by name."},
            "balance_currency": nullable(CURRENCY),
            "settle_up": array(ref("Payment"), description="The fewest payments that settle "
                               "the balances."),
            "payments": array(ref("RecordedPayment"), description="Payments recorded as "
                              "made."),
            "version": number("Moves with every change to the payments; a change may "
                              "name it (`version`).", minimum=0),
            "history": array(ref("GroupChange"), description="Every change to the "
                             "payments, oldest first."),
        },
        ("id", "name", "players", "stake", "currency", "games", "standings", "head_to_head",
         "balances", "balance_currency", "settle_up", "payments", "version", "history"),
        description="A group of regular players: its games, standings and money.",
    ),
    "RecordedPayment": obj(
        {"id": number("The payment's id, for `PATCH` and `DELETE`."),
         "from": text(""), "to": text(""), "amount": MONEY,
         "currency": nullable(CURRENCY), "date": text("", format="date")},
        ("id", "from", "to", "amount", "currency", "date"),
        description="A payment recorded as made.",
    ),
    "GroupChange": obj(
        {
            "id": number("The entry's id (a deletion's restores it)."),
            "action": {"type": "string",
                       "enum": ["record", "edit", "delete", "restore", "settle"]},
            "at": text("", format="date-time"),
            "by": text("How the change was made: `edit link`, `PIN`, `API`."),
            "before": {"type": ["object", "null"], "description": "The payment before "
                       "(`edit`, `delete`); a restore's names the entry it took back "
                       "(`{\"restores\": position}`)."},
            "after": {"type": ["object", "null"], "description": "The payment after "
                      "(`record`, `edit`, `restore`); a settling up's lists them "
                      "(`{\"payments\": [...]}`)."},
            "restorable": flag("A deletion that can still be restored."),
        },
        ("id", "action", "at", "by", "before", "after", "restorable"),
        description="One change to a group's payments.",
    ),
    "ChangedGroup": {
        "description": "The group after the change; `payment` is the payment recorded, "
        "corrected or restored, `recorded` those a settling up recorded.",
        "allOf": [
            ref("Group"),
            obj({"payment": ref("RecordedPayment"),
                 "recorded": array(ref("RecordedPayment"))}),
        ],
    },
    "Standing": obj(
        {
            **{
                name: number("", minimum=0)
                for name in ("games", "wins", "hands", "hands_won", "gins", "big_gins",
                             "undercuts", "undercuts_suffered", "knocks", "dead_hands",
                             "boxes", "shutouts_given", "shutouts_suffered", "longest_streak")
            },
            "name": text("The player's name."),
            "finals": number("Final scores added up."),
            "margins": number("Margins added up."),
            "biggest_hand": nullable(number("")),
            "balance": MONEY,
        },
        ("name", "games", "wins", "finals", "margins", "hands", "hands_won", "gins",
         "big_gins", "undercuts", "undercuts_suffered", "knocks", "dead_hands", "boxes",
         "shutouts_given", "shutouts_suffered", "longest_streak", "biggest_hand", "balance"),
        description="One player's figures over the group's finished games.",
    ),
}


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
    "404": "There is no such game or group.",
    "409": "The game is over, or another hand was saved at the same moment (retry); a "
    "group's payments changed since the `version` named, or the change was made already.",
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
            "cards. The same `Idempotency-Key` twice adds one hand.",
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
            parameters=[path_id("game_id", "game"), EDIT_SECRET, IDEMPOTENCY_KEY],
            requestBody=body(ref("NewHand")),
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
            "a table of the current round is not confirmed (unless `carry`), and when the "
            "night has no round left. Two requests together make one round.",
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
