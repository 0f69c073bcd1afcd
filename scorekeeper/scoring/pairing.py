"""Pairing a club night: who sits at which table in each round, and the board.

A club night seats its entrants (players, or teams "A & B" on a partnership night) two
to a table for several rounds in one evening. Entrants are given in seed order.

The board (``standings``):

- A win scores 2 match points, a draw 1, a loss 0. A bye scores a win's 2 match points
  but no game won. A forfeit, recorded by the organiser, scores the winner a win's match
  points (not a game won) and the loser a loss; its scores count for nothing.
- ``games_won`` counts games won at the table, ``shutouts`` those won with the loser
  scoring nothing, ``point_difference`` each game's own final score minus the
  opponent's, summed; ``head_to_head`` is, among entrants still tied, the match points
  scored in the games between them.
- Entrants are ordered by the keys of ``order`` in turn (by default match points, games
  won, shutouts, point difference, head to head); those tied on every key share a rank
  (1, 2, 2, 4) and stand in seed order.

The formats (``next_round``):

- Round robin: the circle method. The first entrant keeps their seat and the others
  turn round them one seat a round; an odd number of entrants adds an empty seat, and
  whoever faces it sits out, so each entrant sits out exactly once. Every pair meets
  exactly once; a round depends only on the entrants and its number.
  Once the field changes (an entrant added after the first round, one away, or some
  still playing a table carried over from an earlier round), the circle would pair
  some who have met, so the rest of the night is paired among the entrants present:
  each round seats as many tables as can be seated with pairs who have not met (a
  largest matching, as for Swiss), and those left over sit out: those who have sat out
  least, then those with fewest opponents still to meet, then the lowest seeds. Nobody
  meets anyone twice. The night is over when no two entrants present have still to
  meet (``rounds_left``); an away entrant neither plays nor sits out, and meets those
  they missed once back, if rounds are left.
- Swiss: entrants stand in board order (match points, the tie-breaks, then seed). The
  top remaining entrant meets the entrant halfway down their score group (the top half
  of a group against its bottom half; in round one, the top half of the seeds against
  the bottom half), and an odd one out floats down to the next group. Nobody meets an
  opponent twice while any pairing of the whole round without a rematch exists: each
  table is taken only when the rest of the round can still be paired without one, and
  when rematches cannot be avoided there are as few as possible. With an odd number of
  entrants the bye goes to the lowest-standing entrant who has not had one, passing up
  the board only when that bye would force a rematch. Table 1 is the top pairing.
- King of the hill: round one seats the seeds in order (1 v 2 at table 1, 3 v 4 at
  table 2…). Afterwards the winner of table k moves up to table k − 1 and the loser
  down to table k + 1; table 1's winner stays, and so does the bottom table's loser.
  After a draw both stay (and whoever would have taken their seats stays too). A
  forfeit moves the players as a win does. With an odd number of entrants the lowest
  placed who has not sat out yet sits out (once everyone has, the turn starts again,
  never with whoever has just sat out), and whoever sat out comes back at the bottom
  table; so does a late arrival, below them.
  Late tables carried over: the entrants of a table still playing when a round is
  made are left out of it (not a bye) and keep their place: the others are seated as
  above without them. Once their result is in, the round after it moves them from
  the table they played at, as if it were the last round's: its winner to table
  k − 1, its loser to k + 1 (k and the bottom table counted in the round they played).
  Put together, everyone is ordered by the table they go to, then the table they come
  from, then the earlier round, then the seat, and seated two by two from table 1.

Entrants ``absent`` from a round (``next_round``) are not seated in it: away from a
round robin, or still at a table of an earlier round in any format.

>>> [(t.a, t.b) for t in next_round("round_robin", ["Ann", "Bob", "Cy", "Di"], [], []).tables]
[('Ann', 'Di'), ('Bob', 'Cy')]
>>> first = next_round("king_of_the_hill", ["Ann", "Bob", "Cy", "Di"], [], [])
>>> results = [Result(1, 1, "Ann", "Bob", 80, 120, "Bob"),
...            Result(1, 2, "Cy", "Di", 130, 40, "Cy")]
>>> [(t.a, t.b) for t in next_round("king_of_the_hill", ["Ann", "Bob", "Cy", "Di"],
...                                 [first], results).tables]
[('Bob', 'Cy'), ('Ann', 'Di')]
>>> [(s.rank, s.entrant, s.match_points) for s in
...  standings(["Ann", "Bob", "Cy", "Di"], results, [first])]
[(1, 'Cy', 2), (2, 'Bob', 2), (3, 'Ann', 0), (4, 'Di', 0)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

FORMATS = ("round_robin", "swiss", "king_of_the_hill")
TIE_BREAKS = ("match_points", "games_won", "shutouts", "point_difference", "head_to_head")

WIN, DRAW, LOSS = 2, 1, 0  # match points
BYE = WIN


class NightError(ValueError):
    """Entrants, a format or results a night cannot be paired with; the message says
    every problem found."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = tuple(problems)


@dataclass(frozen=True)
class Table:
    """One pairing of a round: ``a`` against ``b`` at table ``number`` (1 is the top)."""

    number: int
    a: str
    b: str


@dataclass(frozen=True)
class Round:
    """One round: its tables, top table first, and who sits out."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Result:
    """One confirmed table of a round: each side's final score and the winner (``None``
    for a draw). A forfeit is a win for ``winner`` but not a game won."""

    round: int
    table: int
    a: str
    b: str
    points_a: int
    points_b: int
    winner: str | None
    shutout: bool = False
    forfeit: bool = False


@dataclass(frozen=True)
class Standing:
    """One line of the board."""

    entrant: str
    rank: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    match_points: int
    games_won: int
    shutouts: int
    point_difference: int
    points_for: int


def check_entrants(entrants: Sequence[str]) -> None:
    """Refuse fewer than two entrants, a blank name or a name given twice."""
    problems = []
    if len(entrants) < 2:
        problems.append(f"a night needs at least 2 entrants, not {len(entrants)}")
    if any(not name.strip() for name in entrants):
        problems.append("an entrant's name is blank")
    repeated = sorted(name for name, n in Counter(entrants).items() if n > 1 and name.strip())
    if repeated:
        problems.append("entered more than once: " + ", ".join(repeated))
    if problems:
        raise NightError(problems)


def check_format(format: str) -> None:
    if format not in FORMATS:
        raise NightError([f"unknown format {format!r}: choose one of " + ", ".join(FORMATS)])


def rounds_needed(format: str, entrants: int) -> int | None:
    """How many rounds a night plays: a round robin ``n - 1`` (``n`` even) or ``n``
    (odd), a Swiss night the rounds that can separate a single winner (the organiser
    may choose another number), king of the hill as many as the organiser decides.

    >>> rounds_needed("round_robin", 6), rounds_needed("round_robin", 5)
    (5, 5)
    >>> rounds_needed("swiss", 16), rounds_needed("swiss", 17), rounds_needed("king_of_the_hill", 9)
    (4, 5, None)
    """
    check_format(format)
    if entrants < 2:
        raise NightError([f"a night needs at least 2 entrants, not {entrants}"])
    if format == "round_robin":
        return entrants - 1 if entrants % 2 == 0 else entrants
    if format == "swiss":
        return (entrants - 1).bit_length()  # ceil(log2 n)
    return None


def next_round(
    format: str,
    entrants: Sequence[str],
    played: Sequence[Round],
    results: Sequence[Result],
    absent: Iterable[str] = (),
) -> Round | None:
    """The round after ``played`` (``None`` once a round robin is over).

    ``entrants`` in seed order; ``results`` the confirmed tables so far (a king of the
    hill round needs the result of every entrant's last table); ``absent`` those not
    seated this round (away, or still playing a table carried over)."""
    check_format(format)
    check_entrants(entrants)
    out = set(absent)
    strangers = sorted(out - set(entrants))
    if strangers:
        raise NightError(["absent but not entered: " + ", ".join(strangers)])
    if format == "round_robin":
        return round_robin_next(entrants, played, out)
    check_results(entrants, results)
    if len(entrants) - len(out) < 2:
        raise NightError([f"{len(entrants) - len(out)} entrants are free to play: a round "
                          "needs at least 2"])
    if format == "swiss":
        return swiss_round(entrants, played, results, out)
    return king_of_the_hill_round(entrants, played, results, out)


def meetings(played: Iterable[Round]) -> set[frozenset[str]]:
    """Every pair that has sat at a table together (played, forfeited or still playing)."""
    return {frozenset((t.a, t.b)) for rnd in played for t in rnd.tables}


# Round robin -------------------------------------------------------------------------


def round_robin_round(entrants: Sequence[str], number: int) -> Round | None:
    """Round ``number`` of a round robin by the circle method; ``None`` past the last.

    >>> round_robin_round(["A", "B", "C"], 1)
    Round(number=1, tables=(Table(number=1, a='B', b='C'),), byes=('A',))
    """
    seats: list[str | None] = list(entrants)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    if not 1 <= number <= n - 1:
        return None
    turn = (number - 1) % (n - 1)
    circle = seats[1:]
    circle = circle[-turn:] + circle[:-turn] if turn else circle
    order = [seats[0], *circle]
    tables: list[Table] = []
    byes: list[str] = []
    for i in range(n // 2):
        a, b = order[i], order[n - 1 - i]
        if i == 0 and number % 2 == 0:
            a, b = b, a  # the fixed seat takes turns at being ``a``
        if a is None or b is None:
            byes.extend(x for x in (a, b) if x is not None)
        else:
            tables.append(Table(len(tables) + 1, a, b))
    return Round(number, tuple(tables), tuple(byes))


def _on_the_circle(entrants: Sequence[str], played: Sequence[Round]) -> bool:
    """Every round so far is the circle's round of the same number for ``entrants``."""

    def seats(rnd: Round | None) -> tuple[set[tuple[int, str, str]], set[str]]:
        if rnd is None:
            return set(), set()
        return {(t.number, t.a, t.b) for t in rnd.tables}, set(rnd.byes)

    return all(
        seats(rnd) == seats(round_robin_round(entrants, rnd.number)) for rnd in played
    )


def round_robin_next(
    entrants: Sequence[str], played: Sequence[Round], absent: Iterable[str] = ()
) -> Round | None:
    """The next round robin round: the circle's while the field is the one the circle
    was drawn for and everyone is present, else the largest pairing of entrants
    present who have not met; ``None`` when no two of them have still to meet.

    Ann, Bob, Cy and Di played the circle's round 1 (Ann–Di, Bob–Cy); Ed arrives. The
    circle of five would seat Bob–Cy again; instead two tables of pairs who have not
    met, and one sits out (Di: the lowest seed of those with three still to meet):

    >>> first = round_robin_round(["Ann", "Bob", "Cy", "Di"], 1)
    >>> second = round_robin_next(["Ann", "Bob", "Cy", "Di", "Ed"], [first])
    >>> [(t.a, t.b) for t in second.tables], second.byes
    ([('Ann', 'Cy'), ('Bob', 'Ed')], ('Di',))
    """
    number = len(played) + 1
    out = set(absent)
    if not out and _on_the_circle(entrants, played):
        return round_robin_round(entrants, number)
    present = [name for name in entrants if name not in out]
    met = meetings(played)
    n = len(present)
    fresh = [
        {j for j in range(n) if j != i and frozenset((present[i], present[j])) not in met}
        for i in range(n)
    ]
    pairs = _Pairs(fresh)
    if pairs.size == 0:
        return None
    # Who sits out: as many as the largest pairing leaves, taken in turn from those
    # who have sat out least (then fewest still to meet, then the lowest seed) as long
    # as the others can still fill as many tables.
    sat_out = Counter(name for rnd in played for name in rnd.byes)
    turn = sorted(range(n), key=lambda i: (sat_out[present[i]], len(fresh[i]), -i))
    byes: list[int] = []
    for i in turn:
        if len(byes) == n - 2 * pairs.size:
            break
        trial = pairs.without(i)
        if trial.size == pairs.size:
            byes.append(i)
            pairs = trial
    # The tables: whoever has most opponents still to meet first (then the top seed),
    # against the one of theirs with most still to meet, as long as the rest of the
    # round can still be paired.
    pairings: list[tuple[int, int]] = []
    while pairs.size:
        left = [i for i in range(n) if pairs.alive[i]]
        top = min(left, key=lambda i: (-len(fresh[i]), i))
        for other in sorted((j for j in fresh[top] if pairs.alive[j]),
                            key=lambda j: (-len(fresh[j]), j)):
            trial = pairs.without(top, other)
            if trial.size == pairs.size - 1:
                break
        pairings.append((min(top, other), max(top, other)))
        pairs = trial
    tables = tuple(
        Table(k + 1, present[a], present[b]) for k, (a, b) in enumerate(sorted(pairings))
    )
    return Round(number, tables, tuple(present[i] for i in sorted(byes)))


def rounds_left(
    entrants: Sequence[str], played: Sequence[Round], away: Iterable[str] = ()
) -> int:
    """How many more rounds a round robin plays if the field stays as it is: the
    circle's rounds still to come, or (the field changed) the rounds ``round_robin_next``
    makes until no two entrants present have still to meet. Entrants at a table still
    playing count as free: they will be by the next round but one.

    >>> first = round_robin_round(["Ann", "Bob", "Cy", "Di"], 1)
    >>> four = ["Ann", "Bob", "Cy", "Di"]
    >>> rounds_left(four, [first]), rounds_left([*four, "Ed"], [first])
    (2, 4)
    """
    out = set(away)
    rounds = list(played)
    if not out and _on_the_circle(entrants, rounds):
        return max(0, (len(entrants) - 1 if len(entrants) % 2 == 0 else len(entrants))
                   - len(rounds))
    left = 0
    while (rnd := round_robin_next(entrants, rounds, out)) is not None:
        rounds.append(rnd)
        left += 1
    return left


# Standings ---------------------------------------------------------------------------


def check_results(entrants: Sequence[str], results: Iterable[Result]) -> None:
    """Refuse a result naming someone who is not entered, or a winner not at its table."""
    known = set(entrants)
    problems = []
    for r in results:
        where = f"round {r.round}, table {r.table}"
        strangers = [x for x in (r.a, r.b) if x not in known]
        if strangers:
            problems.append(f"{where}: not entered: " + ", ".join(strangers))
        if r.a == r.b:
            problems.append(f"{where}: {r.a} cannot play themselves")
        if r.winner is not None and r.winner not in (r.a, r.b):
            problems.append(f"{where}: the winner {r.winner} is not at the table")
        if r.forfeit and r.winner is None:
            problems.append(f"{where}: a forfeit needs a winner")
    if problems:
        raise NightError(problems)


@dataclass
class _Line:
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    games_won: int = 0
    shutouts: int = 0
    point_difference: int = 0
    points_for: int = 0

    @property
    def match_points(self) -> int:
        return WIN * self.wins + DRAW * self.draws + BYE * self.byes


def _match_points(result: Result, entrant: str) -> int:
    if result.winner is None:
        return DRAW
    return WIN if result.winner == entrant else LOSS


def standings(
    entrants: Sequence[str],
    results: Sequence[Result],
    rounds: Sequence[Round],
    order: Sequence[str] = TIE_BREAKS,
) -> list[Standing]:
    """The board: every entrant, best first, ranked by the keys of ``order``."""
    check_entrants(entrants)
    check_results(entrants, results)
    unknown = [key for key in order if key not in TIE_BREAKS]
    if unknown:
        raise NightError(
            [f"unknown tie-break {k!r}: choose from " + ", ".join(TIE_BREAKS) for k in unknown]
        )
    lines = {name: _Line() for name in entrants}
    for rnd in rounds:
        for name in rnd.byes:
            if name not in lines:
                raise NightError([f"round {rnd.number}: {name} sits out but is not entered"])
            lines[name].byes += 1
    for r in results:
        for me, mine, theirs in ((r.a, r.points_a, r.points_b), (r.b, r.points_b, r.points_a)):
            line = lines[me]
            line.played += 1
            if r.winner is None:
                line.draws += 1
            elif r.winner != me:
                line.losses += 1
            else:
                line.wins += 1
                if not r.forfeit:
                    line.games_won += 1
                    line.shutouts += r.shutout
            if not r.forfeit:
                line.points_for += mine
                line.point_difference += mine - theirs

    def key_values(key: str, group: list[str]) -> dict[str, int]:
        if key != "head_to_head":
            return {name: getattr(lines[name], key) for name in group}
        among = set(group)
        points = dict.fromkeys(group, 0)
        for r in results:
            if r.a in among and r.b in among:
                points[r.a] += _match_points(r, r.a)
                points[r.b] += _match_points(r, r.b)
        return points

    groups = [list(entrants)]
    for key in order:
        groups = [part for group in groups for part in _split(group, key_values, key)]
    board: list[Standing] = []
    for group in groups:
        rank = len(board) + 1
        for name in group:
            line = lines[name]
            board.append(
                Standing(
                    name,
                    rank,
                    line.played,
                    line.wins,
                    line.draws,
                    line.losses,
                    line.byes,
                    line.match_points,
                    line.games_won,
                    line.shutouts,
                    line.point_difference,
                    line.points_for,
                )
            )
    return board


def _split(
    group: list[str], values: Callable[[str, list[str]], dict[str, int]], key: str
) -> list[list[str]]:
    """``group`` split by one key, highest value first, seed order kept within."""
    if len(group) < 2:
        return [group]
    value = values(key, group)
    parts: dict[int, list[str]] = {}
    for name in group:
        parts.setdefault(value[name], []).append(name)
    return [parts[v] for v in sorted(parts, reverse=True)]


# Swiss -------------------------------------------------------------------------------


def swiss_round(
    entrants: Sequence[str],
    played: Sequence[Round],
    results: Sequence[Result],
    absent: Iterable[str] = (),
) -> Round:
    """The next Swiss round: score groups top-down, no avoidable rematch; ``absent``
    entrants (at a table carried over) are left out."""
    out = set(absent)
    board = [line for line in standings(entrants, results, played) if line.entrant not in out]
    ranking = [line.entrant for line in board]
    points = [line.match_points for line in board]
    met = meetings(played)
    met.update(frozenset((r.a, r.b)) for r in results)
    n = len(ranking)
    fresh = [
        {j for j in range(n) if j != i and frozenset((ranking[i], ranking[j])) not in met}
        for i in range(n)
    ]
    pairs = _Pairs(fresh)
    byes: list[str] = []
    if n % 2:
        sat_out = Counter(name for rnd in played for name in rnd.byes)
        fewest = min(sat_out[name] for name in ranking)
        # The lowest standing who sat out least, unless that forces a rematch.
        turn = [i for i in reversed(range(n)) if sat_out[ranking[i]] == fewest]
        bye, pairs_left = turn[0], pairs.without(turn[0])
        for i in turn[1:]:
            if pairs_left.size == (n - 1) // 2:
                break
            trial = pairs.without(i)
            if trial.size > pairs_left.size:
                bye, pairs_left = i, trial
        byes.append(ranking[bye])
        pairs = pairs_left
    left = [i for i in range(n) if pairs.alive[i]]
    tables: list[Table] = []
    while left:
        top = left[0]
        group = [i for i in left if points[i] == points[top]]
        half = max(1, len(group) // 2)
        wanted = group[half:] + group[1:half][::-1]
        wanted += [i for i in left[1:] if points[i] != points[top]]
        for other in wanted:
            # Take this table only if the rest can still be paired with as few
            # rematches as the whole round needs.
            keeps = pairs.size - (1 if other in fresh[top] else 0)
            trial = pairs.without(top, other)
            if trial.size == keeps:
                break
        tables.append(Table(len(tables) + 1, ranking[top], ranking[other]))
        pairs = trial
        left = [i for i in left if i not in (top, other)]
    return Round(len(played) + 1, tuple(tables), tuple(byes))


class _Pairs:
    """A largest set of pairings without a rematch among the entrants still to seat
    (a maximum matching of the graph of those who have not met, by Edmonds' blossom
    search). Its size tells how many tables of the round can avoid a rematch."""

    def __init__(
        self,
        fresh: list[set[int]],
        mate: list[int] | None = None,
        alive: list[bool] | None = None,
    ) -> None:
        self.fresh = fresh
        n = len(fresh)
        self.mate = mate if mate is not None else [-1] * n
        self.alive = alive if alive is not None else [True] * n
        if mate is None:
            for v in range(n):
                if self.mate[v] == -1:
                    self._augment(v)

    @property
    def size(self) -> int:
        return sum(1 for v, m in enumerate(self.mate) if m > v)

    def without(self, *seated: int) -> _Pairs:
        """The largest set once ``seated`` are taken out."""
        mate, alive = self.mate[:], self.alive[:]
        freed = []
        for v in seated:
            alive[v] = False
            partner = mate[v]
            if partner != -1:
                mate[v] = mate[partner] = -1
                freed.append(partner)
        pairs = _Pairs(self.fresh, mate, alive)
        for v in freed:
            if alive[v] and mate[v] == -1:
                pairs._augment(v)
        return pairs

    def _augment(self, root: int) -> bool:
        """Grow the matching by an augmenting path from the unmatched ``root``, if any."""
        fresh, mate, alive = self.fresh, self.mate, self.alive
        n = len(fresh)
        parent = [-1] * n
        base = list(range(n))
        in_tree = [False] * n
        in_tree[root] = True
        queue = [root]

        def common_base(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, stem: int, child: int, blossom: list[bool]) -> None:
            while base[v] != stem:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in fresh[v]:
                if not alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    stem = common_base(v, to)
                    blossom = [False] * n
                    mark(v, stem, to, blossom)
                    mark(to, stem, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = stem
                            if not in_tree[i]:
                                in_tree[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        while to != -1:
                            back = parent[to]
                            onward = mate[back]
                            mate[to], mate[back] = back, to
                            to = onward
                        return True
                    in_tree[mate[to]] = True
                    queue.append(mate[to])
        return False


# King of the hill --------------------------------------------------------------------


def king_of_the_hill_round(
    entrants: Sequence[str],
    played: Sequence[Round],
    results: Sequence[Result],
    absent: Iterable[str] = (),
) -> Round:
    """The next king of the hill round: winners up a table, losers down one, from the
    last table each entrant played (``absent`` entrants, at a table carried over, keep
    their place and are not seated)."""
    out = set(absent)
    free = [name for name in entrants if name not in out]
    if not played:
        ladder = free
    else:
        last: dict[str, tuple[Round, Table | None, int]] = {}
        for rnd in played:
            for table in rnd.tables:
                last[table.a], last[table.b] = (rnd, table, 0), (rnd, table, 1)
            for name in rnd.byes:
                last[name] = (rnd, None, 0)
        found = {(r.round, r.table): r for r in results}
        problems: dict[str, None] = {}  # each table's problem once
        places: list[tuple[int, int, int, int, int, str]] = []
        for index, name in enumerate(free):
            if name not in last:  # a late arrival: at the bottom, below the byes
                places.append((2, 0, 0, 0, index, name))
                continue
            rnd, at, seat = last[name]
            if at is None:  # whoever sat out comes back at the bottom table
                places.append((1, 0, 0, rnd.number, index, name))
                continue
            where = f"round {rnd.number}, table {at.number}"
            result = found.get((rnd.number, at.number))
            if result is None:
                problems[f"{where} has no result yet"] = None
                continue
            if {result.a, result.b} != {at.a, at.b}:
                problems[f"{where}: the result is not {at.a} against {at.b}"] = None
                continue
            goes = at.number
            if result.winner == name:
                goes = max(1, at.number - 1)
            elif result.winner is not None:
                goes = min(len(rnd.tables), at.number + 1)
            places.append((0, goes, at.number, rnd.number, seat, name))
        if problems:
            raise NightError(list(problems))
        # Sorted by the table each goes to, a draw's pair keeping its table pushes back
        # whoever would have come to it: the loser from above, the winner from below.
        ladder = [place[-1] for place in sorted(places)]
    byes: list[str] = []
    if len(ladder) % 2:
        sat_out = Counter(name for rnd in played for name in rnd.byes)
        # Whoever just sat out plays the next round, even when a new turn starts.
        back = set(played[-1].byes) if played else set()
        turn = [name for name in ladder if name not in back]
        fewest = min(sat_out[name] for name in turn)
        lowest = max(i for i, name in enumerate(ladder) if name in turn and sat_out[name] == fewest)
        byes.append(ladder.pop(lowest))
    tables = tuple(Table(i // 2 + 1, ladder[i], ladder[i + 1]) for i in range(0, len(ladder), 2))
    return Round(len(played) + 1, tables, tuple(byes))
