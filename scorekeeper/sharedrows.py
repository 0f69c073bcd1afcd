"""Memory that the server's worker processes share (8 MB: 4,096 slots of 2 KB): the
row each game had when a hand was last saved through the API, so that the next hand
can go on from it without reading the game first (``api.games._save_alone``).

What is kept here is only ever a guess. The save that uses it is the checked write
of PostgreSQL (``games.service.write_new_hand`` with ``unlocked``): it goes through
only if the game's version and its last change's time (``updated_at``) are still the
ones kept, and otherwise writes nothing, and the game is read as before. So an entry
that is stale (another phone changed the game on its sheet, a group gave it a stake),
torn (two processes wrote it at once), or another game's (two games share a slot)
costs a refused write or a read, never a wrong save.

The memory is one mapping made before the workers start (gunicorn's ``on_starting``,
``share``), which each worker inherits; an app started any other way keeps its own
(``SharedRows()``), which its threads share. Nothing here is written to disk.

Each slot holds one entry: its length, a digest of it, and the entry itself as JSON
(what a game's row reads as). Writing an entry copies it into its slot in one go; a
reader that meets one half written finds the digest wrong and takes it for none.
Entries are written by orjson (as ``jsoncodec`` writes JSON columns) and read by the
standard library, which reads an integer beyond 64 bits as one, as a row read from
the database does. This module imports nothing of the app, only the standard library
and orjson: gunicorn's master process imports it (``serving``).
"""

from __future__ import annotations

import hashlib
import json
import mmap
import struct
import zlib
from typing import Any

import orjson

SLOTS = 4096  # games kept at once (two games whose ids share a slot take turns)
SLOT_BYTES = 2048  # a gin game's row is about 900 bytes as JSON; a larger one is not kept
_HEAD = struct.Struct("<I16s")  # the entry's length, its digest (BLAKE2b, 16 bytes)


class SharedRows:
    """Entries (JSON values) by key, in memory shared with the processes forked after
    it was made; see the module's text for what an entry may be worth."""

    def __init__(self, slots: int = SLOTS, slot_bytes: int = SLOT_BYTES) -> None:
        self.slots, self.slot_bytes = slots, slot_bytes
        # Anonymous and shared (mmap's default on Unix): a forked process writes to
        # the same memory, and the pages are only taken as entries are written.
        self.memory = mmap.mmap(-1, slots * slot_bytes)

    def get(self, key: str) -> list[Any] | None:
        """The entry kept under ``key`` (a list whose first item is the key), or
        ``None``: never kept, replaced by another key's, or caught half written."""
        start = self._slot(key)
        length, digest = _HEAD.unpack(self.memory[start:start + _HEAD.size])
        if not 0 < length <= self.slot_bytes - _HEAD.size:
            return None
        body = self.memory[start + _HEAD.size:start + _HEAD.size + length]
        if hashlib.blake2b(body, digest_size=16).digest() != digest:
            return None
        entry = json.loads(body)
        return entry if entry[0] == key else None

    def put(self, key: str, entry: list[Any]) -> bool:
        """Keep ``entry`` (JSON values, ``key`` first) in ``key``'s slot, in place of
        what was there; whether it fitted (a larger entry is not kept, and the slot is
        emptied of what it held)."""
        assert entry[0] == key
        try:
            body = orjson.dumps(entry)
        except TypeError:  # what orjson does not write (an integer beyond 64 bits…)
            body = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode()
        start = self._slot(key)
        if len(body) > self.slot_bytes - _HEAD.size:
            self.drop(key)
            return False
        head = _HEAD.pack(len(body), hashlib.blake2b(body, digest_size=16).digest())
        self.memory[start:start + _HEAD.size + len(body)] = head + body
        return True

    def drop(self, key: str) -> None:
        """Empty ``key``'s slot (whatever it holds: an entry found stale)."""
        start = self._slot(key)
        self.memory[start:start + _HEAD.size] = bytes(_HEAD.size)

    def _slot(self, key: str) -> int:
        return zlib.crc32(key.encode()) % self.slots * self.slot_bytes


_shared: SharedRows | None = None


def share() -> SharedRows:
    """Make the memory that the processes forked from now on share (gunicorn's master,
    before it starts its workers); the one already made when called again."""
    global _shared
    if _shared is None:
        _shared = SharedRows()
    return _shared


def shared() -> SharedRows | None:
    """The memory ``share`` made in this process or in the one it was forked from."""
    return _shared
