"""The memory the server's worker processes share for the rows of the games whose
hands are saved through the API (``sharedrows``): an entry comes back as it was put,
in any process forked after the memory was made, or not at all (never kept, pushed
out by another game's, caught half written, too large). Whether a save may trust it
is the checked write's to say (tests/test_tally.py).
"""

from __future__ import annotations

import multiprocessing
import zlib
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from scorekeeper import serving, sharedrows
from scorekeeper.games import service
from scorekeeper.models import GameRow, HandRow
from scorekeeper.sharedrows import SharedRows

# What is kept is the same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once


def entry(key: str, totals: list[int] | None = None) -> list[Any]:
    return [key, "secret", "gin", ["Ann", "Вова"], {"knock_limit": 10, "deals": None},
            {"dealer": 0}, 3, "2026-12-06T02:45:43.861801+00:00",
            {"totals": totals or [37, 27], "winner": None}]


def same_slot(store: SharedRows, key: str) -> str:
    """Another key that ``store`` keeps in ``key``'s slot."""
    slot = zlib.crc32(key.encode()) % store.slots
    return next(other for other in (f"game-{i}" for i in range(10_000))
                if other != key and zlib.crc32(other.encode()) % store.slots == slot)


def test_an_entry_comes_back_as_it_was_put_and_a_new_copy_each_time() -> None:
    store = SharedRows()
    assert store.put("g1", entry("g1"))
    got = store.get("g1")
    assert got == entry("g1")
    got[8]["totals"][0] = 99  # type: ignore[index]
    assert store.get("g1") == entry("g1")
    assert store.get("g2") is None  # never kept


def test_a_game_sharing_the_slot_pushes_the_other_out() -> None:
    store = SharedRows(slots=8)
    other = same_slot(store, "g1")
    store.put("g1", entry("g1"))
    store.put(other, entry(other))
    assert store.get("g1") is None
    assert store.get(other) == entry(other)


def test_an_entry_caught_half_written_is_taken_for_none() -> None:
    """Two processes writing the slot at once can leave the start of one entry and the
    end of another; the digest of the whole no longer matches."""
    store = SharedRows()
    store.put("g1", entry("g1", [1, 2]))
    start = zlib.crc32(b"g1") % store.slots * store.slot_bytes
    kept = bytes(store.memory[start:start + store.slot_bytes])
    store.put("g1", entry("g1", [3, 4]))
    newer = bytes(store.memory[start:start + store.slot_bytes])
    middle = kept.index(b"[1,2]")
    assert newer.index(b"[3,4]") == middle
    store.memory[start:start + store.slot_bytes] = kept
    store.memory[start:start + middle + 2] = newer[:middle + 2]  # "[3" then ",2]"
    assert store.memory[start + middle:start + middle + 5] == b"[3,2]"
    assert store.get("g1") is None
    store.memory[start:start + store.slot_bytes] = newer
    assert store.get("g1") == entry("g1", [3, 4])


def test_an_entry_too_large_for_its_slot_is_not_kept_and_empties_it() -> None:
    store = SharedRows(slot_bytes=256)
    assert store.put("g1", entry("g1"))
    large = entry("g1")
    large[3] = ["A" * 40, "B" * 40, "C" * 40, "D" * 40]
    assert not store.put("g1", large)
    assert store.get("g1") is None


def test_a_dropped_entry_is_gone() -> None:
    store = SharedRows()
    store.put("g1", entry("g1"))
    store.drop("g1")
    assert store.get("g1") is None


def _put_in_child(key: str) -> None:
    shared = sharedrows.shared()
    assert shared is not None
    shared.put(key, entry(key, [5, 6]))


def test_processes_forked_after_share_see_each_others_entries(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """As gunicorn's workers do: the memory made before the fork (``share``) is the
    same memory in every process."""
    monkeypatch.setattr(sharedrows, "_shared", None)
    shared = sharedrows.share()
    assert sharedrows.share() is shared
    child = multiprocessing.get_context("fork").Process(target=_put_in_child, args=("g7",))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    assert shared.get("g7") == entry("g7", [5, 6])


def test_gunicorns_master_makes_the_memory_its_workers_apps_use(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sharedrows, "_shared", None)
    said: list[tuple[Any, ...]] = []
    master = SimpleNamespace(log=SimpleNamespace(info=lambda *args: said.append(args)))
    serving.on_starting(master)  # in the master, before the workers are forked
    shared = sharedrows.shared()
    assert shared is not None
    assert said == [("memory the workers share: %d game rows", 4096)]
    first, second = make_app(), make_app()  # two workers' apps
    for app in (first, second):
        with app.app_context():
            assert service.shared_rows() is shared


def test_an_app_started_without_gunicorn_keeps_its_own(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sharedrows, "_shared", None)
    first, second = make_app(), make_app()
    with first.app_context():
        own = service.shared_rows()
        assert service.shared_rows() is own
    with second.app_context():
        assert service.shared_rows() is not own


def test_a_kept_game_row_comes_back_with_every_field_but_its_hands(app: Flask) -> None:
    row = GameRow(
        id="g1", edit_secret="s" * 32, variant="oklahoma", players=["Ann", "Вова", "رضا"],
        rules={"knock_limit": 10, "deals": None, "spade_doubles": True}, setup={"dealer": 1},
        version=12, created_at=datetime(2026, 12, 1, 20, 5, 7, 123456, tzinfo=UTC),
        updated_at=datetime(2026, 12, 6, 2, 45, 43, 861801, tzinfo=UTC), stake="0.02",
        currency="USD", tally={"version": 12, "totals": [37, 27], "winner": None},
        hands=[HandRow(1, {"outcome": "gin"})],
    )
    with app.app_context():
        service.keep_row(row)
        kept = service.kept_row("g1")
    assert kept == GameRow(
        id="g1", edit_secret="s" * 32, variant="oklahoma", players=["Ann", "Вова", "رضا"],
        rules={"knock_limit": 10, "deals": None, "spade_doubles": True}, setup={"dealer": 1},
        version=12, created_at=datetime(2026, 12, 1, 20, 5, 7, 123456, tzinfo=UTC),
        updated_at=datetime(2026, 12, 6, 2, 45, 43, 861801, tzinfo=UTC), stake="0.02",
        currency="USD", tally={"version": 12, "totals": [37, 27], "winner": None}, hands=[],
    )


def test_a_row_kept_by_a_release_with_other_fields_is_taken_for_none(app: Flask) -> None:
    """gunicorn's workers started after an upgrade share the memory with the ones
    before: a row kept with another list of fields is never read into a GameRow."""
    row = GameRow(id="g2", edit_secret="s", variant="gin", players=["Ann", "Bob"],
                  rules={}, setup={}, version=1, created_at=datetime(2026, 12, 1, tzinfo=UTC),
                  updated_at=datetime(2026, 12, 2, tzinfo=UTC), stake=None, currency=None)
    with app.app_context():
        service.keep_row(row)
        assert service.kept_row("g2") == row
        store = service.shared_rows()
        older = store.get("g2")
        assert older is not None and older[-1].startswith("id edit_secret variant players")
        older[-1] = older[-1].replace(" stake currency", " currency")
        store.put("g2", older)
        assert service.kept_row("g2") is None
