"""Phones racing each other against a real server (waitress, several threads), on
SQLite and on PostgreSQL: no hand is doubled, none is lost, the loser is told."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.trust_server import (
    Browser,
    Reply,
    at_once,
    create_game,
    hidden_fields,
    open_edit_link,
)

pytestmark = pytest.mark.slow

N = 12
KNOCK = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 6}


def add_via_api(base: str, game: dict[str, Any], key: str) -> Callable[[], Reply]:
    headers = {"X-Edit-Secret": game["edit_secret"], "Idempotency-Key": key}
    return lambda: Browser(base).post_json(f"/api/v1/games/{game['id']}/hands", KNOCK, headers)


def hands_of(base: str, game_id: str) -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = Browser(base).get(f"/api/v1/games/{game_id}").json()["hands"]
    return hands


def test_same_idempotency_key_at_once_makes_one_hand(base: str) -> None:
    game = create_game(Browser(base))
    replies = at_once([add_via_api(base, game, "same-key")] * N)
    statuses = sorted(r.status for r in replies)
    assert statuses == [200] * (N - 1) + [201], [r.text for r in replies if r.status >= 300]
    assert {r.json()["hand"] for r in replies} == {1}
    assert len(hands_of(base, game["id"])) == 1


def test_distinct_keys_at_once_make_every_hand_numbered_without_gaps(base: str) -> None:
    game = create_game(Browser(base))
    replies = at_once([add_via_api(base, game, f"key-{i}") for i in range(N)])
    assert [r.status for r in replies] == [201] * N, [r.text for r in replies]
    assert sorted(r.json()["hand"] for r in replies) == list(range(1, N + 1))
    hands = hands_of(base, game["id"])
    assert [h["number"] for h in hands] == list(range(1, N + 1))
    assert hands[-1]["totals"] == [N, 0]


def test_racing_games_do_not_block_or_mix(base: str) -> None:
    games = [create_game(Browser(base)) for _ in range(3)]
    calls = [add_via_api(base, g, f"k{i}") for g in games for i in range(4)]
    assert {r.status for r in at_once(calls)} == {201}
    for game in games:
        assert [h["number"] for h in hands_of(base, game["id"])] == [1, 2, 3, 4]


def two_phones(base: str) -> tuple[dict[str, Any], Browser, Browser]:
    creator = Browser(base)
    game = create_game(creator)
    phones = Browser(base), Browser(base)
    for phone in phones:
        open_edit_link(phone, game["edit_url"])
    return game, *phones


def quick_form(phone: Browser, game_id: str, **typed: Any) -> dict[str, Any]:
    """The sheet's quick-hand form as this phone draws it, with the typed values."""
    page = phone.get(f"/g/{game_id}")
    assert page.status == 200
    fields = hidden_fields(page.text)
    assert {"csrf_token", "version", "token"} <= set(fields), fields
    return {"csrf_token": fields["csrf_token"], "version": fields["version"],
            "token": fields["token"], "outcome": "knock", "knocker": "0", **typed}


def test_two_phones_sending_the_same_form_token_make_one_hand(base: str) -> None:
    game, ann, bob = two_phones(base)
    form = quick_form(ann, game["id"], knocker_deadwood="3", defender_deadwood="20")
    bobs = {**form, "csrf_token": quick_form(bob, game["id"])["csrf_token"]}
    replies = at_once([lambda: ann.post_form(f"/g/{game['id']}/hands", form),
                       lambda: bob.post_form(f"/g/{game['id']}/hands", bobs)])
    assert [r.status for r in replies] == [302, 302], [r.text[:500] for r in replies]
    assert len(hands_of(base, game["id"])) == 1


def test_two_phones_entering_different_hands_at_once_one_is_told(base: str) -> None:
    game, ann, bob = two_phones(base)
    forms = [quick_form(ann, game["id"], knocker_deadwood="3", defender_deadwood="20"),
             quick_form(bob, game["id"], knocker_deadwood="7", defender_deadwood="23")]
    replies = at_once([lambda: ann.post_form(f"/g/{game['id']}/hands", forms[0]),
                       lambda: bob.post_form(f"/g/{game['id']}/hands", forms[1])])
    assert sorted(r.status for r in replies) == [302, 409], [r.text[:500] for r in replies]
    assert len(hands_of(base, game["id"])) == 1
    loser, typed = next((r, f) for r, f in zip(replies, forms, strict=True) if r.status == 409)
    assert "Another phone changed this game" in loser.text
    assert f'value="{typed["defender_deadwood"]}"' in loser.text


def test_a_stale_form_is_refused_with_409_and_keeps_what_was_typed(base: str) -> None:
    game, ann, bob = two_phones(base)
    stale = quick_form(ann, game["id"], knocker_deadwood="7", defender_deadwood="23")
    fresh = quick_form(bob, game["id"], knocker_deadwood="3", defender_deadwood="20")
    assert bob.post_form(f"/g/{game['id']}/hands", fresh).status == 302
    reply = ann.post_form(f"/g/{game['id']}/hands", stale)
    assert reply.status == 409
    assert 'value="7"' in reply.text and 'value="23"' in reply.text
    assert "Another phone changed this game" in reply.text
    assert len(hands_of(base, game["id"])) == 1
    # the page came back drawn from the current sheet: saving again now works
    retry = {**stale, "version": hidden_fields(reply.text)["version"]}
    assert ann.post_form(f"/g/{game['id']}/hands", retry).status == 302
    assert len(hands_of(base, game["id"])) == 2


def test_a_form_without_csrf_is_refused_by_the_real_server(base: str) -> None:
    game, ann, _bob = two_phones(base)
    form = quick_form(ann, game["id"], knocker_deadwood="3", defender_deadwood="20")
    del form["csrf_token"]
    assert ann.post_form(f"/g/{game['id']}/hands", form).status == 400
    assert hands_of(base, game["id"]) == []
