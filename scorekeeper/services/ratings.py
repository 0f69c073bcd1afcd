"""Each player's skill rating in a group, counted again from the group's finished games
in the order they were played.

The update is openskill's Plackett–Luce model (the Weng–Lin Bayesian approximation),
not one written here. It was chosen because one model rates every table the app keeps:
two players, three players of three-hand gin and Remi ranked by their finals (a tie
shares its place), and the two teams of partnership gin, whose partners move together.
Each player has a most likely skill μ and an uncertainty σ that shrinks as they play;
the number shown is the library's conservative ordinal, μ − 3σ (a new player starts at
0: 25 − 3 × 25/3), which rises as a player wins and as the app gets surer of them.

Nothing is stored: the ratings are replayed from the games' records (``summaries``,
themselves counted from the stored hands), so a corrected or deleted hand, a game
taken out of the group or a change to which kinds count changes them on the next
page, as it changes the totals. The group chooses which kinds of game count
(``Group.rating_kinds``; ``None``: every kind).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from openskill.models import PlackettLuce

from .summaries import GameRecord

MODEL = PlackettLuce()
START = MODEL.mu - 3 * MODEL.sigma  # 0: everybody's first rating
PROVISIONAL_GAMES = 5  # a rating is provisional until the player has this many rated games


@dataclass
class Rating:
    """One player's rating now, and after each of their rated games."""

    name: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    # (game id, rating after it) for each rated game of theirs, oldest first.
    history: list[tuple[str, float]] = field(default_factory=list)

    @property
    def value(self) -> float:
        """The conservative rating, μ − 3σ (the library's ordinal)."""
        return self.mu - 3 * self.sigma

    @property
    def best(self) -> float:
        """The highest rating they have had after a game (their first, before any)."""
        return max((value for _game, value in self.history), default=START)

    @property
    def provisional(self) -> bool:
        """Whether too few games are rated yet for the number to mean much."""
        return self.games < PROVISIONAL_GAMES

    @property
    def games_to_go(self) -> int:
        """How many more rated games until the rating is no longer provisional."""
        return max(PROVISIONAL_GAMES - self.games, 0)


def rated(records: Iterable[GameRecord], kinds: Collection[str] | None) -> list[GameRecord]:
    """The finished games that count, of the kinds that count, in the order played."""
    return sorted(
        (r for r in records if r.finished and r.finals and (kinds is None or r.variant in kinds)),
        key=lambda r: (r.created_at, r.game_id),
    )


# A rated game as the replay needs it: id, players, finals by name, teams.
Played = tuple[str, tuple[str, ...], tuple[tuple[str, int], ...], tuple[tuple[str, ...], ...]]


def ratings(
    roster: Iterable[str], records: Iterable[GameRecord], kinds: Collection[str] | None = None
) -> dict[str, Rating]:
    """Every player's rating (the roster's and anybody else's who played a rated game)
    after replaying the rated games in order."""
    played = tuple(
        (r.game_id, r.players, tuple(sorted(r.finals.items())), tuple(map(tuple, r.teams)))
        for r in rated(records, kinds)
    )
    table = {name: Rating(name) for name in roster}
    for name, (mu, sigma, history) in _replayed(played).items():
        table[name] = Rating(name, mu, sigma, len(history), list(history))
    return table


@lru_cache(maxsize=64)
def _replayed(
    played: tuple[Played, ...],
) -> dict[str, tuple[float, float, tuple[tuple[str, float], ...]]]:
    """μ, σ and the rating after each game, per player, from the rated games in order.
    Remembered by the games themselves (their ids, finals and teams): a group page, its
    JSON and each player's page read the same games in a row, and any change to a game
    (a corrected hand, another kind counted) is another key."""
    table: dict[str, Rating] = {}
    for game_id, players, finals_by_name, teams in played:
        finals_of = dict(finals_by_name)
        sides = list(teams) or [(name,) for name in players]
        finals = [finals_of[side[0]] for side in sides]
        # Plackett–Luce ranks: 1 is first; equal finals share a place.
        ranks = [1.0 + sum(other > final for other in finals) for final in finals]
        seated = [[table.setdefault(name, Rating(name)) for name in side] for side in sides]
        teams_now = [
            [MODEL.rating(mu=p.mu, sigma=p.sigma, name=p.name) for p in side] for side in seated
        ]
        for side, after in zip(seated, MODEL.rate(teams_now, ranks=ranks), strict=True):
            for player, new in zip(side, after, strict=True):
                player.mu, player.sigma = new.mu, new.sigma
                player.games += 1
                player.history.append((game_id, player.value))
    return {name: (r.mu, r.sigma, tuple(r.history)) for name, r in table.items()}
