"""The production server killed (SIGKILL) while phones enter hands: after a restart,
every hand that was acknowledged is there, none is doubled, the numbering has no
gaps, and the database is consistent (SQLite and PostgreSQL)."""

from __future__ import annotations

import http.client
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from tests.trust_server import Browser, ChildServer, create_game

pytestmark = pytest.mark.slow

CLIENTS = 6
ACKS_BEFORE_KILL = 40
HAND = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 6}


@dataclass
class Log:
    """What the phones saw: key → (game, status, hand number); keys left unanswered."""

    answered: dict[str, tuple[str, int, int | None]] = field(default_factory=dict)
    unanswered: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def phone(base: str, games: list[dict[str, Any]], n: int, log: Log, stop: threading.Event) -> None:
    """Enter hands until the server goes away (or the test has seen enough)."""
    browser = Browser(base, timeout=10)
    i = 0
    while not stop.is_set():
        game = games[(n + i) % len(games)]
        key = f"phone{n}-hand{i}"
        # The same hand again and again, meant so (X-Confirm): each key saves one.
        headers = {"X-Edit-Secret": game["edit_secret"], "Idempotency-Key": key,
                   "X-Confirm": "repeat"}
        try:
            reply = browser.post_json(f"/api/v1/games/{game['id']}/hands", HAND, headers)
        except (OSError, http.client.HTTPException):
            with log.lock:
                log.unanswered[key] = game["id"]
            return
        hand = reply.json().get("hand") if reply.status in (200, 201) else None
        with log.lock:
            log.answered[key] = (game["id"], reply.status, hand)
        i += 1


def resend(base: str, game: dict[str, Any], key: str) -> Any:
    headers = {"X-Edit-Secret": game["edit_secret"], "Idempotency-Key": key,
               "X-Confirm": "repeat"}
    return Browser(base).post_json(f"/api/v1/games/{game['id']}/hands", HAND, headers)


def test_acknowledged_hands_survive_a_kill(database_url: str) -> None:
    server = ChildServer(database_url, threads=4)
    server.start()
    restarted: ChildServer | None = None
    try:
        rules = {"preset": "classic", "target": 10000}
        games = [create_game(Browser(server.base), rules=rules) for _ in range(3)]
        by_id = {g["id"]: g for g in games}
        log, stop = Log(), threading.Event()
        threads = [threading.Thread(target=phone, args=(server.base, games, n, log, stop))
                   for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 15  # a guard against a hung server, not a timing assert
        while len(log.answered) < ACKS_BEFORE_KILL and time.monotonic() < deadline:
            time.sleep(0.01)
        server.kill()
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        assert len(log.answered) >= ACKS_BEFORE_KILL
        assert {status for _g, status, _h in log.answered.values()} == {201}

        restarted = ChildServer(database_url, threads=4)
        restarted.start()
        browser = Browser(restarted.base)
        sheets = {g: browser.get(f"/api/v1/games/{g}").json() for g in by_id}
        for sheet in sheets.values():
            n = len(sheet["hands"])
            assert [h["number"] for h in sheet["hands"]] == list(range(1, n + 1))
            assert sheet["totals"] == [n, 0]  # one point a hand: nothing doubled
        # every acknowledged key is there, under the number it was given
        for key, (game_id, _status, number) in log.answered.items():
            again = resend(restarted.base, by_id[game_id], key)
            assert (again.status, again.json()["hand"]) == (200, number), key
        # a phone that got no answer retries: its hand is saved exactly once
        for key, game_id in log.unanswered.items():
            assert resend(restarted.base, by_id[game_id], key).status in (200, 201)
            assert resend(restarted.base, by_id[game_id], key).status == 200
        sent = len(log.answered) + len(log.unanswered)
        final = {g: browser.get(f"/api/v1/games/{g}").json() for g in by_id}
        assert sum(len(s["hands"]) for s in final.values()) == sent
        for sheet in final.values():
            assert [h["number"] for h in sheet["hands"]] == list(range(1, len(sheet["hands"]) + 1))
    finally:
        server.kill()
        if restarted is not None:
            restarted.stop()
    assert_consistent(database_url)


CONSISTENCY = {
    "hands without a game":
        "SELECT count(*) FROM hands h LEFT JOIN games g ON g.id = h.game_id WHERE g.id IS NULL",
    "changes without a game":
        "SELECT count(*) FROM changes c LEFT JOIN games g ON g.id = c.game_id WHERE g.id IS NULL",
    "hand numbers used twice":
        "SELECT count(*) FROM (SELECT game_id, number FROM hands GROUP BY game_id, number "
        "HAVING count(*) > 1) d",
    "gaps in the numbering":
        "SELECT count(*) FROM (SELECT game_id FROM hands GROUP BY game_id "
        "HAVING max(number) <> count(*) OR min(number) <> 1) d",
    "keys pointing at no hand":
        "SELECT count(*) FROM submissions s LEFT JOIN hands h "
        "ON h.game_id = s.game_id AND h.number = s.hand_number WHERE h.id IS NULL",
    "hands without their key (every hand here came with one)":
        "SELECT count(*) FROM hands h LEFT JOIN submissions s "
        "ON h.game_id = s.game_id AND h.number = s.hand_number WHERE s.key IS NULL",
    "hands missing from the history":
        "SELECT (SELECT count(*) FROM hands) - (SELECT count(*) FROM changes WHERE action = 'add')",
}


def assert_consistent(url: str) -> None:
    """The storage engine's own check, then the relations between the tables."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            if conn.dialect.name == "sqlite":
                assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
                assert conn.execute(text("PRAGMA foreign_key_check")).fetchall() == []
            problems = {name: conn.execute(text(sql)).scalar() for name, sql in CONSISTENCY.items()}
            assert problems == dict.fromkeys(CONSISTENCY, 0)
    finally:
        engine.dispose()
