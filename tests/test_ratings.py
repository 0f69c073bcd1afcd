"""Ratings: openskill's Plackett–Luce model over a group's finished games, replayed in
the order they were played. Properties reasoned out by hand, and one value worked out
from the model's published update for two new players."""

from __future__ import annotations

import math
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from flask.testing import FlaskClient

from scorekeeper.services.ratings import PROVISIONAL_GAMES, ratings
from scorekeeper.services.summaries import GameRecord
from tests.helpers import version_of

T0 = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)


def game(n: int, finals: dict[str, int], *, variant: str = "gin",
         teams: tuple[tuple[str, str], ...] = ()) -> GameRecord:
    top = max(finals.values())
    return GameRecord(
        game_id=f"g{n}", variant=variant, created_at=T0 + timedelta(minutes=n),
        players=tuple(finals), finished=True, figures={p: Counter() for p in finals},
        biggest={}, finals=finals, winners=frozenset(p for p, f in finals.items() if f == top),
        teams=teams,
    )


def test_one_game_between_new_players_as_the_model_publishes_it() -> None:
    """Weng and Lin's Plackett–Luce update for two new players (μ 25, σ 25/3, β σ/2),
    σ first widened by τ = 25/300: c² = 2σ² + 2β²; the winner's μ rises by σ²/c × ½,
    and σ shrinks by √(1 − γ σ²/c² × ¼) with γ = σ/c."""
    rated = ratings(["Ann", "Bob"], [game(1, {"Ann": 120, "Bob": 40})])
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * sigma2 + 2 * (25 / 6) ** 2)
    mu = 25 + sigma2 / c / 2
    sigma = math.sqrt(sigma2 * (1 - math.sqrt(sigma2) / c * sigma2 / c**2 / 4))
    ann, bob = rated["Ann"], rated["Bob"]
    assert math.isclose(ann.mu, mu, abs_tol=1e-9)
    assert math.isclose(bob.mu, 50 - mu, abs_tol=1e-9)
    assert math.isclose(ann.sigma, sigma, abs_tol=1e-9)
    assert math.isclose(ann.value, mu - 3 * sigma, abs_tol=1e-9)
    assert round(ann.value, 2) == 3.44  # 27.64 − 3 × 8.07


def test_the_winner_rises_and_partners_move_together() -> None:
    rated = ratings(["Ann", "Bob", "Cid", "Dan"], [
        game(1, {"Ann": 300, "Bob": 100, "Cid": 300, "Dan": 100}, variant="partnership",
             teams=(("Ann", "Cid"), ("Bob", "Dan"))),
    ])
    assert rated["Ann"].value > 0 > rated["Bob"].value
    assert (rated["Ann"].mu, rated["Ann"].sigma) == (rated["Cid"].mu, rated["Cid"].sigma)
    assert (rated["Bob"].mu, rated["Bob"].sigma) == (rated["Dan"].mu, rated["Dan"].sigma)


def test_a_remi_deal_rates_by_its_ranking_and_a_tie_shares_its_place() -> None:
    rated = ratings(["Ann", "Bob", "Cid"],
                    [game(1, {"Ann": 5, "Bob": -30, "Cid": 130}, variant="remi")])
    assert rated["Cid"].value > rated["Ann"].value > rated["Bob"].value
    tied = ratings(["Ann", "Bob", "Cid"],
                   [game(1, {"Ann": 0, "Bob": 71, "Cid": 0}, variant="three_hand")])
    assert tied["Ann"].mu == tied["Cid"].mu < 25 < tied["Bob"].mu


def test_the_order_of_the_games_matters() -> None:
    first = [game(1, {"Ann": 100, "Bob": 0}), game(2, {"Ann": 0, "Bob": 100})]
    swapped = [game(2, {"Ann": 100, "Bob": 0}), game(1, {"Ann": 0, "Bob": 100})]
    one, two = ratings(["Ann", "Bob"], first), ratings(["Ann", "Bob"], swapped)
    # Mirror images: whoever won the second game ends where the other did.
    assert one["Ann"].mu != two["Ann"].mu
    assert math.isclose(one["Ann"].mu, two["Bob"].mu, abs_tol=1e-9)


def test_kinds_left_out_and_unfinished_games_are_not_rated() -> None:
    records = [game(1, {"Ann": 100, "Bob": 0}),
               game(2, {"Ann": 5, "Bob": 30}, variant="remi")]
    assert ratings(["Ann", "Bob"], records, ["remi"])["Ann"].games == 1
    assert ratings(["Ann", "Bob"], records, ["remi"])["Ann"].value < 0
    assert ratings(["Ann", "Bob"], records)["Ann"].games == 2


def test_provisional_until_five_rated_games() -> None:
    records = [game(n, {"Ann": 100, "Bob": 0}) for n in range(PROVISIONAL_GAMES)]
    assert PROVISIONAL_GAMES == 5
    assert ratings(["Ann", "Bob"], records[:4])["Ann"].provisional
    rated = ratings(["Ann", "Bob"], records)["Ann"]
    assert not rated.provisional and rated.games_to_go == 0
    values = [v for _g, v in rated.history]
    assert values == sorted(values) and rated.best == values[-1]  # five wins: always up


def standings(client: FlaskClient, group: dict[str, Any]) -> dict[str, dict[str, Any]]:
    data = client.get(f"/api/v1/groups/{group['id']}").get_json()
    return {row["name"]: row for row in data["standings"]}


def test_the_groups_standings_carry_the_rating_and_a_deleted_hand_changes_it(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    group = friday["group"]
    rows = standings(client, group)
    assert {n: (r["rated_games"], r["rating_provisional"]) for n, r in rows.items()} == {
        "Ann": (3, True), "Bob": (4, True), "Cid": (3, True)}
    expected = ratings(["Ann", "Bob", "Cid"], [
        game(1, {"Ann": 278, "Bob": 125}),
        game(2, {"Bob": 50, "Cid": 7}),
        game(3, {"Ann": 0, "Bob": 71, "Cid": 0}, variant="three_hand"),
        game(4, {"Ann": 5, "Bob": -30, "Cid": 130}, variant="remi"),
    ])
    assert {n: r["rating"] for n, r in rows.items()} == {
        n: round(r.value, 2) for n, r in expected.items()}
    # Without Ann's closing gin, G1 (Ann 70, Bob 75 of 100) is not over: not rated.
    g1 = friday["g1"]["id"]
    client.post(f"/g/{g1}/hands/6/delete", data={"version": version_of(client, g1)})
    after = standings(client, group)
    assert after["Ann"]["rated_games"] == 2
    assert after["Ann"]["rating"] != rows["Ann"]["rating"]


def test_the_group_chooses_which_kinds_count(client: FlaskClient, friday: dict[str, Any]) -> None:
    group = friday["group"]["id"]
    page = client.get(f"/groups/{group}").get_data(as_text=True)
    assert page.count('name="rating-kinds"') == 6 and page.count("checked") >= 6
    answer = client.post(f"/groups/{group}/rating-kinds", data={"rating-kinds": ["gin"]})
    assert answer.status_code == 302
    data = client.get(f"/api/v1/groups/{group}").get_json()
    assert data["rating_kinds"] == ["gin"]
    rows = {r["name"]: r for r in data["standings"]}
    assert {n: r["rated_games"] for n, r in rows.items()} == {"Ann": 1, "Bob": 2, "Cid": 1}
    refused = client.post(f"/groups/{group}/rating-kinds", data={})
    assert refused.status_code == 422
    assert "Choose at least one kind of game." in refused.get_data(as_text=True)
    assert client.get(f"/api/v1/groups/{group}").get_json()["rating_kinds"] == ["gin"]
