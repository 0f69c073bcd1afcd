"""Settle up (RULES.md §9): only those who are down pay, only those who are up are paid,
and each pays or is paid exactly his balance. A suggestion that squares everybody
with the fewest payments by passing money through a creditor ("C pays A 6, A pays B
3" for A +3, B +3, C −6) is not what a table expects: A would pay money he is owed."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.scoring.stakes import balances, settle_up

D = Decimal


@pytest.mark.parametrize(
    ("owed", "expected"),
    [
        pytest.param(
            # One debtor, two creditors: C pays each of them what he is owed.
            {"A": "3", "B": "3", "C": "-6"},
            [("C", "A", "3"), ("C", "B", "3")],
            id="3 players: one pays two",
        ),
        pytest.param(
            # Two debtors, one creditor: each pays A his own debt.
            {"A": "6.00", "B": "-2.00", "C": "-4.00"},
            [("B", "A", "2.00"), ("C", "A", "4.00")],
            id="3 players: two pay one",
        ),
        pytest.param(
            # No two or three of them add up to zero, so three payments: the largest
            # debtor D pays the largest creditor A all his 4 (A is still owed 1); C's 2
            # then goes 1 to A and 1 to B (A before B: the same 1 each, by name).
            {"A": "5", "B": "1", "C": "-2", "D": "-4"},
            [("C", "A", "1"), ("C", "B", "1"), ("D", "A", "4")],
            id="4 players: two pay two, three payments",
        ),
        pytest.param(
            # A and D square each other, B and C too: two payments, one each.
            {"A": "4.50", "B": "2.25", "C": "-2.25", "D": "-4.50"},
            [("C", "B", "2.25"), ("D", "A", "4.50")],
            id="4 players: two pairs",
        ),
        pytest.param(
            # One creditor, three debtors: each pays A.
            {"A": "9", "B": "-1", "C": "-3", "D": "-5"},
            [("B", "A", "1"), ("C", "A", "3"), ("D", "A", "5")],
            id="4 players: three pay one",
        ),
        pytest.param(
            # Three creditors, one debtor: D pays each.
            {"A": "1", "B": "2", "C": "3", "D": "-6"},
            [("D", "A", "1"), ("D", "B", "2"), ("D", "C", "3")],
            id="4 players: one pays three",
        ),
    ],
)
def test_settle_up_pays_each_creditor_from_the_debtors(
    owed: dict[str, str], expected: list[tuple[str, str, str]]
) -> None:
    payments = settle_up({name: D(amount) for name, amount in owed.items()})
    assert sorted((p.payer, p.payee, str(p.amount)) for p in payments) == expected


# Balances in cents: drawn at random, with the last player squaring them, and made of
# parts that square themselves (a pair who played one game), as a group's evening gives.
random_balances = st.lists(st.integers(-5000, 5000), min_size=1, max_size=8).map(
    lambda cents: [*cents, -sum(cents)]
)
parts = st.lists(
    st.lists(st.integers(-900, 900).filter(bool), min_size=1, max_size=3).map(
        lambda cents: [*cents, -sum(cents)]
    ),
    min_size=1,
    max_size=3,
).flatmap(lambda found: st.permutations([c for part in found for c in part]))


@given(st.one_of(random_balances, parts))
def test_nobody_both_pays_and_is_paid(cents: list[int]) -> None:
    owed = {chr(65 + i): D(c).scaleb(-2) for i, c in enumerate(cents)}
    payments = settle_up(owed)
    payers = {p.payer for p in payments}
    payees = {p.payee for p in payments}
    assert not payers & payees
    assert all(owed[name] < 0 for name in payers)
    assert all(owed[name] > 0 for name in payees)
    # Each pays exactly what he owes and is paid exactly what he is owed.
    assert balances(payments, owed) == owed
