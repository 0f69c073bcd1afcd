"""Schemathesis, a tool that did not write the document, against a real server: every
operation of ``GET /api/v1/openapi.json`` with a few dozen generated requests each, then
games followed through the document's links (``POST /api/v1/games`` → its hands, with
its id and edit secret) so that hands are really added, not refused with 404s. Every
answer must be no 5xx, a status the document lists for the operation, of the content
type and with the body it describes. On SQLite, and on PostgreSQL in that pass.

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

from scorekeeper.api.openapi import document
from tests.live import serve

pytestmark = pytest.mark.slow

SEED = 44
EXAMPLES = 30  # a few dozen a operation
SCENARIOS = 25  # games followed through the links, a few steps each
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
)


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


# What ``schemathesis run --seed 44 -c <CHECKS> --max-examples 30`` would use. The
# document is read here from the package, which ``GET /api/v1/openapi.json`` serves
# unchanged (tests/test_openapi.py); the requests go to the server the test starts.
CONFIG = SchemathesisConfig.from_dict({
    "seed": SEED,
    "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
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
    "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
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
