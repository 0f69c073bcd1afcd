"""Money: who pays whom when a game with a stake is over, and settling up.

Amounts are ``Decimal`` from end to end; a float never touches money. Each payment is
worked out exactly and rounded half-up to the currency's minor unit only at the end
(two decimals, none for JPY, IRR and the other zero-decimal currencies).

>>> [str(p) for p in two_player(["A", "B"], [278, 125], Decimal("0.01"), "EUR")]
['B pays A 1.53']
>>> owed = {"A": Decimal("2.00"), "B": Decimal("-1.50"), "C": Decimal("-0.50")}
>>> [str(p) for p in settle_up(owed)]
['B pays A 1.50', 'C pays A 0.50']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from itertools import combinations

# ISO 4217 currencies without a minor unit (or, like IRR, whose minor unit nobody uses).
ZERO_DECIMAL = frozenset(
    {
        *("BIF", "CLP", "DJF", "GNF", "IRR", "ISK", "JPY", "KMF", "KRW"),
        *("PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF"),
    }
)
MAX_STAKE = Decimal("1000000")
# The exact settle-up below is a DP over subsets (2**n); a larger group falls back to
# the greedy rule alone, which still needs at most n - 1 payments.
EXACT_SETTLE_UP = 12


class StakeError(ValueError):
    """A stake or currency that cannot be used; the message says why."""


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` (already rounded to the currency)."""

    payer: str
    payee: str
    amount: Decimal

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}"


def minor_unit(currency: str | None) -> int:
    """Decimals of ``currency``: 0 for zero-decimal currencies, otherwise 2."""
    return 0 if (currency or "").upper() in ZERO_DECIMAL else 2


def round_money(amount: Decimal, currency: str | None) -> Decimal:
    """``amount`` rounded half-up to the currency's minor unit.

    >>> round_money(Decimal("0.125"), "EUR"), round_money(Decimal("12.5"), "JPY")
    (Decimal('0.13'), Decimal('13'))
    """
    return amount.quantize(Decimal(1).scaleb(-minor_unit(currency)), rounding=ROUND_HALF_UP)


def parse_stake(text: object) -> Decimal:
    """A stake per point from its text (``"0.01"``): exact, positive, not absurd."""
    if isinstance(text, bool) or not isinstance(text, str | int | Decimal):
        raise StakeError("a stake is a decimal number as text, like 0.01")
    try:
        stake = Decimal(str(text).strip().replace(",", "."))
    except InvalidOperation:
        raise StakeError("a stake is a decimal number, like 0.01") from None
    if not stake.is_finite() or stake <= 0:
        raise StakeError("a stake is more than 0")
    if stake > MAX_STAKE or stake.as_tuple().exponent < -6:  # type: ignore[operator]
        raise StakeError("a stake has at most 6 decimals and is at most 1000000")
    return stake


def parse_currency(text: object) -> str:
    """A currency code: three letters (``EUR``), upper-cased."""
    code = str(text or "").strip().upper()
    if len(code) != 3 or not code.isascii() or not code.isalpha():
        raise StakeError("a currency is a three-letter code, like EUR")
    return code


def _payment(
    payer: str, payee: str, points: Decimal, stake: Decimal, currency: str | None
) -> Payment | None:
    amount = round_money(points * stake, currency)
    return Payment(payer, payee, amount) if amount > 0 else None


def two_player(
    names: Sequence[str], finals: Sequence[int], stake: Decimal, currency: str | None
) -> list[Payment]:
    """Gin and Oklahoma: the loser pays the winner margin × stake."""
    return columns(names, [finals], stake, currency)


def columns(
    names: Sequence[str],
    column_finals: Iterable[Sequence[int]],
    stake: Decimal,
    currency: str | None,
) -> list[Payment]:
    """Hollywood: each column's margin × stake, added up over the columns into one payment
    (rounded once, at the end). Gin is the one-column case."""
    net = sum((Decimal(f[0] - f[1]) for f in column_finals), Decimal(0))
    payment = (
        _payment(names[1], names[0], net, stake, currency)
        if net > 0
        else _payment(names[0], names[1], -net, stake, currency)
    )
    return [payment] if payment else []


def teams(
    names: Sequence[str], team_finals: Sequence[int], stake: Decimal, currency: str | None
) -> list[Payment]:
    """Partnership (seats 0 & 2 against 1 & 3): each loser pays one winner the team
    margin × stake — the second seat of the losing team the first of the winning team."""
    margin = team_finals[0] - team_finals[1]
    if margin == 0:
        return []
    winners, losers = ((0, 2), (1, 3)) if margin > 0 else ((1, 3), (0, 2))
    found = (
        _payment(names[loser], names[winner], Decimal(abs(margin)), stake, currency)
        for loser, winner in zip(losers, winners, strict=True)
    )
    return [p for p in found if p]


def everyone(
    names: Sequence[str], finals: Sequence[int], stake: Decimal, currency: str | None
) -> list[Payment]:
    """Three-hand and Remi: for every pair the lower final pays the higher the difference."""
    payments = []
    for i, j in combinations(range(len(names)), 2):
        low, high = (i, j) if finals[i] < finals[j] else (j, i)
        payment = _payment(
            names[low], names[high], Decimal(finals[high] - finals[low]), stake, currency
        )
        if payment:
            payments.append(payment)
    return payments


def balances(payments: Iterable[Payment], names: Iterable[str] = ()) -> dict[str, Decimal]:
    """What each player is up (+) or down (−) after ``payments`` (everybody in ``names``
    appears, at 0 if untouched). A payment's payer is owed by the payee."""
    result = {name: Decimal(0) for name in names}
    for p in payments:
        result[p.payee] = result.get(p.payee, Decimal(0)) + p.amount
        result[p.payer] = result.get(p.payer, Decimal(0)) - p.amount
    return result


def settle_up(owed: Mapping[str, Decimal]) -> list[Payment]:
    """The fewest payments that bring every balance to zero (at most players − 1).

    The players are split into as many groups whose balances add up to zero as
    possible (each such group of k players needs k − 1 payments, so more groups mean
    fewer payments); within a group the largest debtor pays the largest creditor
    first. Balances must add up to zero.
    """
    people = sorted((n for n, b in owed.items() if b != 0), key=lambda n: (-abs(owed[n]), n))
    if sum(owed[n] for n in people) != 0:
        raise StakeError("balances do not add up to zero")
    groups = _zero_groups(people, owed) if len(people) <= EXACT_SETTLE_UP else [people]
    groups.sort(key=lambda g: (-max(-owed[n] for n in g), g))
    payments: list[Payment] = []
    for group in groups:
        payments += _greedy({n: owed[n] for n in group})
    return payments


def _greedy(owed: Mapping[str, Decimal]) -> list[Payment]:
    """Largest debtor pays largest creditor, until all are square."""
    left = dict(owed)
    payments: list[Payment] = []
    while True:
        debtor = min(left, key=lambda n: (left[n], n))
        creditor = min(left, key=lambda n: (-left[n], n))
        if left[debtor] >= 0 or left[creditor] <= 0:
            return payments
        amount = min(-left[debtor], left[creditor])
        payments.append(Payment(debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount


def _zero_groups(people: Sequence[str], owed: Mapping[str, Decimal]) -> list[list[str]]:
    """The most groups of players whose balances add up to zero (a subset DP)."""
    n = len(people)
    if n == 0:
        return []
    full = (1 << n) - 1
    total = [Decimal(0)] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + owed[people[low]]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) + (
            1 if total[mask] == 0 else 0
        )
    groups: list[list[str]] = []
    current: list[str] = []
    mask = full
    while mask:
        gain = 1 if total[mask] == 0 else 0
        i = next(
            i for i in range(n) if mask >> i & 1 and best[mask ^ (1 << i)] + gain == best[mask]
        )
        current.append(people[i])
        mask ^= 1 << i
        if total[mask] == 0:
            groups.append(current)
            current = []
    return groups
