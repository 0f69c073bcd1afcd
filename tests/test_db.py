"""The database layer: several app processes on one SQLite file take turns."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.conftest import PG_URL

QUICK = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20}


@pytest.mark.skipif(bool(PG_URL), reason="the file lock is SQLite's")
def test_two_apps_on_one_file_take_turns_without_losing_a_hand(make_app: Any) -> None:
    """Two apps (as two gunicorn workers would be) write to one game at once."""
    first, second = make_app(), make_app()
    game = first.test_client().post(
        "/api/v1/games", json={"players": ["Ann", "Bob"], "rules": {"target": 10000}}
    ).get_json()
    statuses: list[int] = []

    def phone(app: Any, name: str) -> None:
        client = app.test_client()
        for i in range(15):
            response = client.post(f"/api/v1/games/{game['id']}/hands", json=QUICK, headers={
                "X-Edit-Secret": game["edit_secret"], "Idempotency-Key": f"{name}-{i}"})
            statuses.append(response.status_code)

    threads = [threading.Thread(target=phone, args=(app, f"{n}{k}"))
               for n, app in enumerate((first, second)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [201] * 60
    hands = second.test_client().get(f"/api/v1/games/{game['id']}").get_json()["hands"]
    assert [h["number"] for h in hands] == list(range(1, 61))
