"""Schemathesis, a tool that did not write the document, against a real server, with
all its checks: every operation of ``GET /api/v1/openapi.json`` with a few dozen
generated requests each (bodies the document accepts and bodies it refuses), then
games followed through the document's links (``POST /api/v1/games`` → its hands, with
its id and edit secret) so that hands are really added, not refused with 404s. Every
answer must be no 5xx, a status the document lists for the operation, of the content
type and with the body and headers it describes; a body the document refuses must be
refused. On SQLite, and on PostgreSQL in that pass.

A body the document accepts may still be refused with a 422 by the engine: cards that
no deal holds, a meld that is none, a seat the game does not have; JSON Schema cannot
say those. So Schemathesis takes a 422 to such a body as an answer, and
``has_its_shape`` checks the rest: every body the document accepts passes the check of
its shape (``api/bodies.py``), the one the API refuses shapes with.

The runs are bounded and repeatable: a fixed seed, a fixed number of examples.
"""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask, got_request_exception
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from scorekeeper.api import bodies
from scorekeeper.api.openapi import document
from scorekeeper.jsonbody import ApiError
from tests.live import serve

pytestmark = pytest.mark.slow

SEED = 44
EXAMPLES = 30  # a few dozen a operation
SCENARIOS = 25  # games followed through the links, a few steps each
# Schemathesis's own list, and a 422 of the engine's (above).
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
CHECKS = {"enabled": True, "positive_data_acceptance": {"expected-statuses": ACCEPTED}}


def shape_of(operation: str, body: dict[str, Any]) -> Any:
    """The shape (``api/bodies.py``) the API checks this operation's body with."""
    name = document()["paths"][operation.split(" ", 1)[1]][operation.split(" ", 1)[0].lower()][
        "requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    if name == "RulingRequest":
        return bodies.RemiRuling if body.get("kind") == "remi" else bodies.GinRuling
    if name in ("NewHand", "HandCorrection"):
        return None
    return bodies.BODIES[name]


@schemathesis.check
def has_its_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """A body the document accepts passes the check of its shape."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or not isinstance(case.body, dict):
        return None
    shape = shape_of(case.operation.label, case.body)
    try:
        if shape is not None:
            bodies.check(case.body, shape)
        else:  # a hand: the shape of one variant or another
            refused = []
            for variant in ("gin", "three_hand", "partnership", "remi"):
                try:
                    bodies.check_hand(variant, {key: value for key, value in case.body.items()
                                                if key != "version"})
                    break
                except ApiError as exc:
                    refused.append(exc)
            else:
                raise refused[0]
    except ApiError as exc:
        raise AssertionError(f"the document accepts a body its shape refuses: {exc}") from None
    return None


@pytest.fixture
def server(make_app: Any) -> Iterator[tuple[str, list[str]]]:
    """The app served for real on the test's database (``TESTING`` off: errors answered
    as in production), and the traceback of every exception a request raised."""
    app: Flask = make_app(TESTING=False)
    raised: list[str] = []

    def keep(_sender: Flask, exception: BaseException, **_extra: Any) -> None:
        raised.append("".join(traceback.format_exception(exception)))

    got_request_exception.connect(keep, app)
    with serve(app) as url:
        yield url, raised
    got_request_exception.disconnect(keep, app)


# What ``schemathesis run --seed 44 -c all --max-examples 30`` would use. The
# document is read here from the package, which ``GET /api/v1/openapi.json`` serves
# unchanged (tests/test_openapi.py); the requests go to the server the test starts.
CONFIG = SchemathesisConfig.from_dict({
    "seed": SEED,
    "checks": CHECKS,
    "generation": {"max-examples": EXAMPLES, "database": "none"},
})
schema = schemathesis.openapi.from_dict(document(), config=CONFIG)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case: Any, server: tuple[str, list[str]]) -> None:
    base, raised = server
    raised.clear()
    case.call_and_validate(base_url=f"{base}/api/v1")
    assert not raised, raised[0]


# Games are followed with valid data only (positive mode): a game must be created, and a
# hand's body accepted, for the links to lead anywhere.
LINKED = schemathesis.openapi.from_dict(document(), config=SchemathesisConfig.from_dict({
    "seed": SEED,
    "checks": CHECKS,
    "generation": {"mode": "positive", "database": "none"},
}))


def test_games_followed_through_their_links(server: tuple[str, list[str]]) -> None:
    base, raised = server
    answered: Counter[tuple[str, int]] = Counter()

    class Games(LINKED.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"base_url": f"{base}/api/v1"}

        def after_call(self, response: Any, case: Any) -> None:
            answered[(case.operation.label, response.status_code)] += 1
            super().after_call(response, case)

    Games.run(settings=settings(max_examples=SCENARIOS, stateful_step_count=6, deadline=None,
                                database=None, derandomize=True,
                                suppress_health_check=list(HealthCheck)))
    assert not raised, raised[0]
    # The links were followed: hands were added to games the run created, and read back.
    assert answered[("POST /games/{game_id}/hands", 201)] > 0, answered
    assert answered[("GET /games/{game_id}", 200)] > 0, answered
