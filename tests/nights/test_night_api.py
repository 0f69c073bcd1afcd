"""A club night over JSON: started, read, paired round by round, confirmed."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def create(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    body = {"players": ["Ann", "Bob", "Cy", "Di"], "variant": "gin", "rules": "classic",
            "format": "round_robin", **extra}
    response = client.post("/api/v1/nights", json=body)
    assert response.status_code == 201, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def knock(client: FlaskClient, game_id: str, secret: str, seat: int, points: int) -> None:
    body = {"outcome": "knock", "knocker": seat, "knocker_deadwood": 1,
            "defender_deadwood": points + 1}
    response = client.post(f"/api/v1/games/{game_id}/hands", json=body,
                           headers={"X-Edit-Secret": secret})
    assert response.status_code == 201, response.get_json()


def test_a_night_over_the_api(client: FlaskClient) -> None:
    made = create(client)
    assert set(made) == {"id", "organiser_secret", "organiser_url", "board_url"}
    night, secret = made["id"], made["organiser_secret"]
    organiser = {"X-Edit-Secret": secret}
    assert client.post(f"/api/v1/nights/{night}/rounds").status_code == 403
    response = client.post(f"/api/v1/nights/{night}/rounds", headers=organiser)
    assert response.status_code == 201
    first = response.get_json()
    assert [(t["table"], t["players"]) for t in first["tables"]] == [
        (1, ["Ann", "Di"]), (2, ["Bob", "Cy"])]
    # 409 while a table is not confirmed.
    assert client.post(f"/api/v1/nights/{night}/rounds", headers=organiser).status_code == 409
    # A watcher sees no edit links; the organiser does.
    seen = client.get(f"/api/v1/nights/{night}").get_json()
    assert "edit_url" not in seen["rounds"][0]["tables"][0]
    assert seen["rounds"][0]["tables"][0]["state"] == "missing"
    tables = client.get(f"/api/v1/nights/{night}", headers=organiser).get_json()
    assert "edit_url" in tables["rounds"][0]["tables"][0]
    for table, seat in zip(first["tables"], (0, 1), strict=True):
        # The organiser's secret is accepted where the table's own is.
        knock(client, table["game"], secret, seat, 60)
        knock(client, table["game"], secret, seat, 50)
        assert client.post(f"/api/v1/games/{table['game']}/confirm").status_code == 403
        done = client.post(f"/api/v1/games/{table['game']}/confirm", headers=organiser)
        assert done.get_json()["counted"] is True
        twice = client.post(f"/api/v1/games/{table['game']}/confirm", headers=organiser)
        assert twice.get_json()["counted"] is False
    seen = client.get(f"/api/v1/nights/{night}").get_json()
    assert [t["state"] for t in seen["rounds"][0]["tables"]] == ["confirmed", "confirmed"]
    # Ann beat Di 110-0, Cy beat Bob 110-0: 2 points each, +110; Bob, Di 0 points, -110.
    assert [(s["player"], s["points"], s["point_difference"]) for s in seen["standings"]] == [
        ("Ann", 2, 110), ("Cy", 2, 110), ("Bob", 0, -110), ("Di", 0, -110)]
    assert client.post(f"/api/v1/nights/{night}/rounds", headers=organiser).status_code == 201


def test_a_round_robin_has_no_round_past_its_last(client: FlaskClient) -> None:
    made = create(client, players=["Ann", "Bob"])
    night, organiser = made["id"], {"X-Edit-Secret": made["organiser_secret"]}
    (table,) = client.post(f"/api/v1/nights/{night}/rounds", headers=organiser).get_json()[
        "tables"]
    knock(client, table["game"], made["organiser_secret"], 0, 60)
    knock(client, table["game"], made["organiser_secret"], 0, 50)
    client.post(f"/api/v1/games/{table['game']}/confirm", headers=organiser)
    response = client.post(f"/api/v1/nights/{night}/rounds", headers=organiser)
    assert response.status_code == 409
    assert response.get_json()["errors"][0]["message"] == "the night has no round left"


def test_bad_bodies_are_told_where(client: FlaskClient) -> None:
    response = client.post("/api/v1/nights", json={"players": ["Ann"]})
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {"where": "players", "message": "must have at least 2 items"}]
    response = client.post("/api/v1/nights", json={"players": ["Ann", "Bob"],
                                                   "format": "swiss"})
    assert response.get_json()["errors"][0]["where"] == "rounds"
    response = client.post("/api/v1/nights", json={"players": ["Ann", "Bob"],
                                                   "variant": "partnership"})
    assert response.get_json()["errors"][0]["where"] == "players"
    response = client.post("/api/v1/nights", json={"players": ["Ann", "ann"]})
    assert response.get_json()["errors"][0]["where"] == "players"


def test_king_of_the_hill_with_a_late_table_carried_over(client: FlaskClient) -> None:
    made = create(client, players=list("ABCDEFGH"), format="king_of_the_hill", rounds=3)
    night, secret = made["id"], made["organiser_secret"]
    organiser = {"X-Edit-Secret": secret}

    def pair(carry: bool = False) -> list[tuple[int, list[str]]]:
        response = client.post(f"/api/v1/nights/{night}/rounds", headers=organiser,
                               json={"carry": True} if carry else None)
        assert response.status_code == 201, response.get_json()
        return [(t["table"], t["players"]) for t in response.get_json()["tables"]]

    def win(game: str, seat: int) -> None:
        knock(client, game, secret, seat, 60)
        knock(client, game, secret, seat, 50)
        assert client.post(f"/api/v1/games/{game}/confirm", headers=organiser).status_code == 200

    first = pair()
    assert first == [(1, ["A", "B"]), (2, ["C", "D"]), (3, ["E", "F"]), (4, ["G", "H"])]
    games = [t["game"] for t in client.get(f"/api/v1/nights/{night}").get_json()["rounds"][0][
        "tables"]]
    # A wins table 1, E table 3, H table 4; C–D plays on.
    for game, seat in ((games[0], 0), (games[2], 0), (games[3], 1)):
        win(game, seat)
    assert client.post(f"/api/v1/nights/{night}/rounds", headers=organiser).status_code == 409
    # Round 2 without C and D (no bye), the others moved as usual (bottom table 4):
    # A 1 (won 1), B 2 (lost 1), E 2 (won 3), H 3 (won 4), F 4 (lost 3), G 4 (lost 4).
    # By the table each goes to, then the one each comes from: A | B E | H | F G.
    second = pair(carry=True)
    assert second == [(1, ["A", "B"]), (2, ["E", "H"]), (3, ["F", "G"])]
    seen = client.get(f"/api/v1/nights/{night}").get_json()
    assert seen["rounds"][1]["byes"] == []
    assert seen["rounds"][0]["tables"][1]["state"] == "missing"
    # D wins the carried table; then B, E and G win round 2's.
    win(games[1], 1)
    for table, seat in zip(seen["rounds"][1]["tables"], (1, 0, 1), strict=True):
        win(table["game"], seat)
    # Round 3. From round 1's table 2 (4 tables): D up to 1, C down to 3. From round 2
    # (3 tables): B stays at 1, A down to 2, E up to 1, H down to 3, G up to 2, F stays
    # at 3 (the bottom). Table 1: B (from 1), D (from 2, round 1), E (from 2, round 2);
    # table 2: A (from 1), G (from 3); table 3: C, H (from 2, rounds 1 and 2), F.
    assert pair() == [(1, ["B", "D"]), (2, ["E", "A"]), (3, ["G", "C"]), (4, ["H", "F"])]
    # D's late win counts once confirmed. Match points, 2 a win: E won both rounds (4);
    # A and H won round 1, B and G round 2, D the carried table (2 each); C and F none.
    points = {s["player"]: s["points"]
              for s in client.get(f"/api/v1/nights/{night}").get_json()["standings"]}
    assert points == {"A": 2, "B": 2, "C": 0, "D": 2, "E": 4, "F": 0, "G": 2, "H": 2}
