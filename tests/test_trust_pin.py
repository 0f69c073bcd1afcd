"""A PIN guess is worked out before any lock is taken (on SQLite a guess holds no write
lock while its hash runs), then counted under the lock; the hash costs what a 4-6 digit
PIN locked after ten tries needs, and PINs hashed the old way still open."""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError
from werkzeug.security import generate_password_hash

from scorekeeper.models import Game, Group
from scorekeeper.services import access
from tests.helpers import new_game


def pin_hash_of(app: Flask, model: type[Game] | type[Group], item_id: str) -> tuple[str, int]:
    with app.extensions["scorekeeper.db"]() as db:
        item = db.get(model, item_id)
        assert item is not None and item.pin_hash is not None
        return item.pin_hash, item.pin_failures


def test_a_new_pin_is_hashed_at_the_pins_own_cost(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, pin="4321")
    stored, failures = pin_hash_of(app, Game, game)
    assert stored.startswith("scrypt:2048:8:1$")
    assert failures == 0


def test_a_pin_hashed_the_old_way_still_opens(app: Flask, client: FlaskClient) -> None:
    """werkzeug's default until now (scrypt, 32 MiB) and pbkdf2: the stored hash names
    its method."""
    game = new_game(client)
    for method in ("scrypt", "pbkdf2:sha256:600000"):
        with app.extensions["scorekeeper.db"]() as db:
            row = db.get(Game, game)
            assert row is not None
            row.pin_hash = generate_password_hash("2468", method=method)
            db.commit()
        phone = app.test_client()
        assert phone.post(f"/g/{game}/unlock", data={"pin": "1357"}).status_code == 422
        assert phone.post(f"/g/{game}/unlock", data={"pin": "2468"}).status_code == 302
        assert phone.post(f"/g/{game}/undo").status_code != 403


@contextmanager
def probing_the_lock(app: Flask, monkeypatch: pytest.MonkeyPatch, game_id: str) -> Iterator[
        list[str]]:
    """While a PIN's hash is worked out, another writer tries to take the lock a save
    would take (without waiting): SQLite's write lock and the processes' turn at the
    database file, or PostgreSQL's lock on the game's row. What it found is listed."""
    url = app.config["DATABASE_URL"]
    found: list[str] = []
    real = access.check_password_hash

    def probe() -> str:
        if url.startswith("sqlite:///"):
            path = url.removeprefix("sqlite:///")
            fd = os.open(path + ".lock", os.O_RDWR)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(fd, fcntl.LOCK_UN)
            except BlockingIOError:
                return "the processes' turn is taken"
            finally:
                os.close(fd)
            conn = sqlite3.connect(path, timeout=0.2, isolation_level=None)
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("ROLLBACK")
            except sqlite3.OperationalError as exc:
                return str(exc)
            finally:
                conn.close()
            return "free"
        engine = create_engine(url)
        try:
            with engine.begin() as conn:
                conn.execute(text("SET LOCAL lock_timeout = '200ms'"))
                conn.execute(text("SELECT id FROM games WHERE id = :id FOR UPDATE"),
                             {"id": game_id})
        except OperationalError as exc:  # lock_timeout: the row is locked
            return type(exc.orig).__name__
        finally:
            engine.dispose()
        return "free"

    def checking(pin_hash: str, pin: str) -> bool:
        found.append(probe())
        return real(pin_hash, pin)

    monkeypatch.setattr(access, "check_password_hash", checking)
    yield found


def test_a_pin_guess_holds_no_lock_while_its_hash_runs(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(client, pin="4321")
    phone = app.test_client()
    with probing_the_lock(app, monkeypatch, game) as found:
        assert phone.post(f"/g/{game}/unlock", data={"pin": "0000"}).status_code == 422
        assert phone.post(f"/g/{game}/unlock", data={"pin": "4321"}).status_code == 302
    assert found == ["free", "free"]
    # the wrong guess was counted, the right one then reset the count
    assert pin_hash_of(app, Game, game)[1] == 0


def test_a_group_pin_guess_holds_no_lock_while_its_hash_runs(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    response = client.post("/groups/new", data={"name": "Friday", "players": "Ann\nBob",
                                                 "pin": "8642"})
    group = response.headers["Location"].rsplit("/", 1)[1]
    game = new_game(client)  # the probe on PostgreSQL reads a game's row
    phone = app.test_client()
    with probing_the_lock(app, monkeypatch, game) as found:
        assert phone.post(f"/groups/{group}/unlock", data={"pin": "1111"}).status_code == 422
        assert pin_hash_of(app, Group, group)[1] == 1
        assert phone.post(f"/groups/{group}/unlock", data={"pin": "8642"}).status_code == 302
    assert found == ["free", "free"]


def lock(app: Flask, game_id: str) -> Any:
    db = app.extensions["scorekeeper.db"]()
    game = db.get(Game, game_id, with_for_update=True)
    return db, game


def test_guesses_checked_at_the_same_moment_still_stop_at_ten(
    app: Flask, client: FlaskClient
) -> None:
    """Twelve wrong guesses and the right one, all checked before any was counted (as
    when thirteen phones send theirs at once): ten are counted, and the right PIN,
    counted after them, opens nothing."""
    game = new_game(client, pin="4321")
    with app.app_context():
        checks = [access.check_pin(Game, game, f"{n:04d}") for n in range(12)]
        right = access.check_pin(Game, game, "4321")
    assert right.right and not any(check.right for check in checks)
    for check in [*checks, right]:
        db, row = lock(app, game)
        assert access.record_pin(row, check) is False
        db.commit()
        db.close()
    assert pin_hash_of(app, Game, game)[1] == 10


def test_a_pin_changed_since_the_guess_was_checked_neither_opens_nor_counts(
    app: Flask, client: FlaskClient
) -> None:
    game = new_game(client, pin="4321")
    with app.app_context():
        old = access.check_pin(Game, game, "4321")
    assert client.post(f"/g/{game}/pin", data={"pin": "9753"}).status_code == 302
    db, row = lock(app, game)
    assert access.record_pin(row, old) is False
    db.commit()
    db.close()
    assert pin_hash_of(app, Game, game)[1] == 0
    with app.app_context():
        new = access.check_pin(Game, game, "9753")
    db, row = lock(app, game)
    assert access.record_pin(row, new) is True
    db.close()


def test_an_unknown_game_or_group_is_not_found(app: Flask, client: FlaskClient) -> None:
    assert client.post("/g/nosuchgame/unlock", data={"pin": "1234"}).status_code == 404
    assert client.post("/groups/nosuchgroup/unlock", data={"pin": "1234"}).status_code == 404
