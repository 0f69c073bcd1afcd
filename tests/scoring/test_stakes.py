"""Stakes and settling up (RULES.md §9): every worked example, and the properties."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.scoring.stakes import (
    Payment,
    StakeError,
    balances,
    columns,
    everyone,
    parse_currency,
    parse_stake,
    round_money,
    settle_up,
    teams,
    two_player,
)

D = Decimal


def paid(payments: list[Payment]) -> set[tuple[str, str, str]]:
    return {(p.payer, p.payee, str(p.amount)) for p in payments}


@pytest.mark.parametrize(
    ("kind", "names", "finals", "stake", "expected", "owed"),
    [
        pytest.param(
            two_player,
            "AB",
            [278, 125],
            "0.01",
            {("B", "A", "1.53")},
            {"A": "1.53", "B": "-1.53"},
            id="russian §8: B pays A 1.53",
        ),
        pytest.param(
            columns,
            "AB",
            [(315, 100), (305, 60), (510, 0)],
            "0.01",
            {("B", "A", "9.70")},
            {"A": "9.70", "B": "-9.70"},
            id="Hollywood: 2.15 + 2.45 + 5.10 = 9.70",
        ),
        pytest.param(
            everyone,
            "XYZ",
            [12, 71, 0],
            "0.10",
            {("X", "Y", "5.90"), ("Z", "Y", "7.10"), ("Z", "X", "1.20")},
            {"X": "-4.70", "Y": "13.00", "Z": "-8.30"},
            id="three-hand",
        ),
        pytest.param(
            everyone,
            "ABCD",
            [200, -10, 15, -60],
            "0.05",
            {
                ("B", "A", "10.50"),
                ("C", "A", "9.25"),
                ("D", "A", "13.00"),
                ("B", "C", "1.25"),
                ("D", "B", "2.50"),
                ("D", "C", "3.75"),
            },
            {"A": "32.75", "B": "-9.25", "C": "-4.25", "D": "-19.25"},
            id="Remi, 4 players",
        ),
        pytest.param(
            teams,
            "ABCD",
            [290, 160],
            "0.02",
            {("B", "A", "2.60"), ("D", "C", "2.60")},
            {"A": "2.60", "C": "2.60", "B": "-2.60", "D": "-2.60"},
            id="partnership",
        ),
    ],
)
def test_rules_9_worked_examples(
    kind: object,
    names: str,
    finals: list[object],
    stake: str,
    expected: set[tuple[str, str, str]],
    owed: dict[str, str],
) -> None:
    payments = kind(list(names), finals, D(stake), "EUR")  # type: ignore[operator]
    assert paid(payments) == expected
    assert {n: str(b) for n, b in balances(payments).items()} == owed


def test_remi_example_settles_up_with_three_payments_largest_debtor_first() -> None:
    owed = balances(everyone(list("ABCD"), [200, -10, 15, -60], D("0.05"), "EUR"))
    assert [(p.payer, p.payee, str(p.amount)) for p in settle_up(owed)] == [
        ("D", "A", "19.25"),
        ("B", "A", "9.25"),
        ("C", "A", "4.25"),
    ]


def test_a_game_with_a_level_margin_pays_nothing() -> None:
    assert two_player(["A", "B"], [100, 100], D("0.01"), "EUR") == []


@pytest.mark.parametrize(
    ("amount", "currency", "rounded"),
    [
        ("0.125", "EUR", "0.13"),  # half-up, not banker's
        ("0.135", "EUR", "0.14"),
        ("0.1249", "USD", "0.12"),
        ("12.5", "JPY", "13"),
        ("1530.5", "IRR", "1531"),
        ("2.675", "eur", "2.68"),
    ],
)
def test_rounding_is_half_up_to_the_minor_unit(amount: str, currency: str, rounded: str) -> None:
    assert str(round_money(D(amount), currency)) == rounded


def test_rounding_happens_once_per_payment_not_per_column() -> None:
    # Two columns of margin 1 at 0.005: 0.01 each if rounded per column, 0.01 in total.
    assert paid(columns(["A", "B"], [(101, 100), (101, 100)], D("0.005"), "EUR")) == {
        ("B", "A", "0.01")
    }


def test_zero_decimal_currency_pays_whole_amounts() -> None:
    assert paid(two_player(["A", "B"], [278, 125], D("10"), "JPY")) == {("B", "A", "1530")}
    assert paid(two_player(["A", "B"], [278, 125], D("0.5"), "JPY")) == {("B", "A", "77")}


@pytest.mark.parametrize("text", ["", "abc", "0", "-1", "NaN", "Infinity", "1e9", "0.0000001"])
def test_a_bad_stake_is_refused(text: str) -> None:
    with pytest.raises(StakeError):
        parse_stake(text)


def test_stakes_and_currencies_read_exactly() -> None:
    assert parse_stake("0,05") == D("0.05")
    assert parse_currency(" eur ") == "EUR"
    with pytest.raises(StakeError):
        parse_currency("EURO")


names = st.lists(st.sampled_from("ABCDEFGHIJ"), min_size=2, max_size=10, unique=True)


@given(
    names.flatmap(
        lambda ns: st.tuples(
            st.just(ns),
            st.lists(st.integers(-300, 600), min_size=len(ns), max_size=len(ns)),
            st.sampled_from(["0.01", "0.05", "0.10", "0.003", "1"]),
        )
    )
)
def test_balances_add_up_to_zero_and_settle_up_clears_them(
    case: tuple[list[str], list[int], str],
) -> None:
    ns, finals, stake = case
    owed = balances(everyone(ns, finals, D(stake), "EUR"), ns)
    assert sum(owed.values()) == 0
    payments = settle_up(owed)
    assert len(payments) <= len([b for b in owed.values() if b]) - 1 or not payments
    assert len(payments) <= len(ns) - 1
    after = balances(payments, ns)
    assert all(owed[n] - after[n] == 0 for n in ns)  # paying them squares everyone
    assert all(p.amount > 0 for p in payments)


@given(st.lists(st.integers(-5000, 5000), min_size=1, max_size=9))
def test_settle_up_uses_the_fewest_payments(cents: list[int]) -> None:
    owed = {chr(65 + i): D(c).scaleb(-2) for i, c in enumerate(cents)}
    owed["Z"] = -sum(owed.values(), D(0))
    payments = settle_up(owed)
    assert len(payments) == _fewest(list(owed.values()))


@pytest.mark.parametrize(
    ("owed", "expected"),
    [
        pytest.param(
            # Largest debtor to largest creditor first takes four: C pays A 5, D pays B 4,
            # E pays A 3, E pays B 1. B and C square each other, A, D and E the rest.
            {"A": "8", "B": "5", "C": "-5", "D": "-4", "E": "-4"},
            [("C", "B", "5"), ("D", "A", "4"), ("E", "A", "4")],
            id="two groups: 3 payments, not 4",
        ),
        pytest.param(
            # The greedy rule: D pays A 7.15, E pays B 6.30, F pays A 2.25, G pays C 2.05,
            # F pays B 0.85 (five). B-D, C-G and A-E-F each add up to zero.
            {"A": "9.40", "B": "7.15", "C": "2.05",
             "D": "-7.15", "E": "-6.30", "F": "-3.10", "G": "-2.05"},
            [("D", "B", "7.15"), ("E", "A", "6.30"), ("F", "A", "3.10"), ("G", "C", "2.05")],
            id="three groups: 4 payments, not 5",
        ),
    ],
)
def test_settle_up_finds_the_players_who_square_each_other(
    owed: dict[str, str], expected: list[tuple[str, str, str]]
) -> None:
    payments = settle_up({name: D(amount) for name, amount in owed.items()})
    assert [(p.payer, p.payee, str(p.amount)) for p in payments] == expected


# Balances made of parts that each add up to zero (a pair who played one game, a table
# of three...), as a group's evening gives them; balances drawn at random almost never
# hold such a part. Each part: one to three amounts in cents and the one that squares them.
zero_sum_parts = st.lists(
    st.lists(st.integers(-900, 900).filter(bool), min_size=1, max_size=3).map(
        lambda cents: [*cents, -sum(cents)]
    ),
    min_size=1,
    max_size=3,
)


@given(zero_sum_parts.flatmap(lambda parts: st.permutations([c for p in parts for c in p])))
def test_settle_up_uses_the_fewest_payments_when_parts_square_themselves(
    cents: list[int],
) -> None:
    owed = {chr(65 + i): D(c).scaleb(-2) for i, c in enumerate(cents)}
    payments = settle_up(owed)
    assert len(payments) == _fewest(list(owed.values()))
    after = balances(payments, owed)
    assert all(after[n] == owed[n] for n in owed)


def _fewest(values: list[Decimal]) -> int:
    """Brute force: players with a balance, less the most zero-sum parts they split into."""
    left = [v for v in values if v]

    def parts(items: list[Decimal]) -> int:
        if not items:
            return 0
        first, rest = items[0], items[1:]
        best = 0
        for mask in range(1 << len(rest)):
            chosen = [rest[i] for i in range(len(rest)) if mask >> i & 1]
            if first + sum(chosen, D(0)) == 0:
                others = [rest[i] for i in range(len(rest)) if not mask >> i & 1]
                best = max(best, 1 + parts(others))
        return best

    return len(left) - parts(left)
