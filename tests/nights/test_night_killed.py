"""A server killed mid-round loses no confirmed result: the real server (``scorekeeper
serve``, gunicorn as ``make run`` starts it), a night played over HTTP, and SIGKILL to
the master and its workers while tables save their last hands and confirm; started
again on the same database, every confirmation answered 200 is still there, counted
once, and the standings are the ones worked out by hand."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from scorekeeper.models import Hand, NightChange
from tests.trust_server import Browser, ServeProcess

pytestmark = pytest.mark.slow

PLAYERS = [f"P{i:02}" for i in range(1, 13)]
# The circle's round 1 of twelve: P01 (fixed) meets P12, P02 P11 … P06 P07; seat a wins.
TABLES = [(PLAYERS[i], PLAYERS[11 - i]) for i in range(6)]


def knock(points: int) -> dict[str, Any]:
    """Seat 0 knocks with 1 against ``points + 1``: seat 0 scores ``points`` (classic)."""
    return {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1,
            "defender_deadwood": points + 1}


class Table:
    """One table's phone: its last hand (with its key, resent as a phone does), then
    the confirmation, again and again until answered; what the server answered."""

    def __init__(self, base: str, game: str, secret: str) -> None:
        self.base, self.game, self.secret = base, game, secret
        self.hand_status: int | None = None
        self.confirmed: dict[str, Any] | None = None  # the 200 answer to a confirmation

    def play(self, until: threading.Event) -> None:
        phone = Browser(self.base, timeout=10)
        headers = {"X-Edit-Secret": self.secret, "Idempotency-Key": f"{self.game}-last"}
        while not until.is_set() and self.confirmed is None:
            try:
                if self.hand_status not in (200, 201):
                    self.hand_status = phone.post_json(
                        f"/api/v1/games/{self.game}/hands", knock(50), headers).status
                    continue
                reply = phone.post_json(f"/api/v1/games/{self.game}/confirm", {},
                                        {"X-Edit-Secret": self.secret})
                if reply.status == 200:
                    self.confirmed = reply.json()
            except OSError:  # the server is gone: try again, as a phone does
                time.sleep(0.02)


def night_of(phone: Browser, night: str) -> dict[str, Any]:
    reply = phone.get(f"/api/v1/nights/{night}")
    assert reply.status == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


def test_a_killed_server_keeps_every_confirmed_result(database_url: str, tmp_path: Path) -> None:
    server = ServeProcess(database_url, tmp_path, workers=2,
                          env={"SCOREKEEPER_RATELIMIT_ENABLED": "0"})
    server.start()
    try:
        phone = Browser(server.base)
        made = phone.post_json("/api/v1/nights", {"players": PLAYERS, "variant": "gin",
                                                  "rules": "classic", "format": "round_robin"})
        assert made.status == 201, made.text
        night, secret = made.json()["id"], made.json()["organiser_secret"]
        organiser = {"X-Edit-Secret": secret}
        paired = phone.post_json(f"/api/v1/nights/{night}/rounds", {}, organiser)
        assert paired.status == 201, paired.text
        tables = paired.json()["tables"]
        assert [tuple(t["players"]) for t in tables] == TABLES
        for t in tables:  # the first hand of each game: seat a knocks for 60
            reply = phone.post_json(f"/api/v1/games/{t['game']}/hands", knock(60), organiser)
            assert reply.status == 201, reply.text
        # Each table saves its last hand (50: 110 in all, past the target of 100) and
        # confirms, all at once; the server is killed once two confirmations are answered.
        phones = [Table(server.base, t["game"], secret) for t in tables]
        stop = threading.Event()
        threads = [threading.Thread(target=p.play, args=(stop,)) for p in phones]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 20
        while sum(p.confirmed is not None for p in phones) < 2:
            assert time.monotonic() < deadline, "no two confirmations in 20 s"
            time.sleep(0.001)
        server.kill()
        stop.set()
        for thread in threads:
            thread.join(timeout=15)
        answered = {p.game: p.confirmed for p in phones if p.confirmed is not None}
        assert len(answered) >= 2
        server.start()
        # Before anyone tries again: every confirmation answered 200 is there, with the
        # result it was answered with.
        seen = night_of(phone, night)
        kept = {t["game"]: t for t in seen["rounds"][0]["tables"]}
        for game, answer in answered.items():
            assert kept[game]["state"] == "confirmed"
            assert kept[game]["result"] == answer["result"]
            assert answer["result"]["winner"] == "a"
            assert (answer["result"]["points_a"], answer["result"]["points_b"]) == (110, 0)
        # The phones not answered try again on the new server until they are.
        stop.clear()
        threads = [threading.Thread(target=p.play, args=(stop,)) for p in phones]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert all(p.confirmed is not None for p in phones)
        seen = night_of(phone, night)
        assert [t["state"] for t in seen["rounds"][0]["tables"]] == ["confirmed"] * 6
        # Worked out by hand: each table's seat a won 110 to 0, one game each: P01–P06
        # 2 match points, 1 game won, +110, sharing first place (classic rules have no
        # shutout); P07–P12 nothing, −110, sharing seventh. Counted once: one game
        # played each.
        winners = [a for a, _b in TABLES]
        assert [(s["player"], s["rank"], s["points"], s["played"], s["games_won"],
                 s["shutouts"], s["point_difference"]) for s in seen["standings"]] == [
            *[(p, 1, 2, 1, 1, 0, 110) for p in sorted(winners)],
            *[(p, 7, 0, 1, 0, 0, -110) for p in sorted(set(PLAYERS) - set(winners))],
        ]
    finally:
        server.stop()
    # In the database: one confirmation kept per table, two hands per game (the last
    # hand resent with its key was stored once).
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            confirmations = conn.execute(
                select(NightChange.table, func.count()).where(
                    NightChange.night_id == night, NightChange.action == "confirm")
                .group_by(NightChange.table)).all()
            hands = conn.execute(
                select(Hand.game_id, func.count()).where(
                    Hand.game_id.in_([t["game"] for t in tables])).group_by(Hand.game_id)).all()
    finally:
        engine.dispose()
    assert sorted(confirmations) == [(n, 1) for n in range(1, 7)]
    assert sorted(n for _g, n in hands) == [2] * 6
