"""Changing a group's payments without ever losing or doubling one.

Every change runs on the group locked (``service.lock_group``), checks the version the
form or the API client read (when it names one), writes one entry into the group's
history and bumps the version; the caller commits. A corrected payment's old values
and a deleted payment stay in their entry (``before``): ``restore`` puts a deleted
payment back from there, as a game's history puts back a deleted hand. A ``restore``
entry names the entry it takes back by its position in the history (``before =
{"restores": i}``, 0-based; positions survive an export and import, ids do not), so
each deletion is restored at most once.

Settling up records the payments the group's balances suggest (``settle_group``) in
one change: the form carries the version and the suggestion it showed
(``plan_key``), so a second click, or a click on a page drawn before somebody else's
change, records nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from ..models import Group, GroupChange, Payment, now_utc
from ..scoring import stakes

RESTORABLE = "delete"


class Conflict(Exception):
    """The group's payments changed since the form was drawn; nothing was saved."""


class NotRestorable(Exception):
    """A history entry that cannot be restored: ``not_found`` (no deletion of this
    group) or ``restored`` (taken back already)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def payment_json(payment: Payment) -> dict[str, Any]:
    """A payment as the history, the export and the API write it."""
    return {
        "from": payment.payer,
        "to": payment.payee,
        "amount": payment.amount,
        "currency": payment.currency,
        "date": payment.paid_on.isoformat(),
    }


def payment_from(data: dict[str, Any]) -> Payment:
    """A payment made again from ``payment_json``'s dictionary."""
    return Payment(
        payer=data["from"],
        payee=data["to"],
        amount=str(data["amount"]),
        currency=data.get("currency"),
        paid_on=date.fromisoformat(str(data["date"])),
    )


def check_version(group: Group, version: int | None) -> None:
    """Refuse a change drawn from another version of the group than the one stored."""
    if version is not None and version != group.version:
        raise Conflict


def find(group: Group, payment_id: int) -> Payment:
    """One of the group's payments; ``LookupError`` if it has none of that id."""
    for payment in group.payments:
        if payment.id == payment_id:
            return payment
    raise LookupError(payment_id)


def record(
    group: Group,
    payer: str,
    payee: str,
    amount: Decimal,
    currency: str | None,
    paid_on: date,
    *,
    by: str,
    version: int | None = None,
) -> Payment:
    """Record money that changed hands."""
    check_version(group, version)
    payment = Payment(payer=payer, payee=payee, amount=str(amount), currency=currency,
                      paid_on=paid_on)
    group.payments.append(payment)
    _note(group, "record", None, payment_json(payment), by)
    return payment


def edit(
    group: Group,
    payment: Payment,
    payer: str,
    payee: str,
    amount: Decimal,
    paid_on: date,
    *,
    by: str,
    version: int | None,
) -> None:
    """Correct a payment (its currency stays); the history keeps what it said before."""
    check_version(group, version)
    before = payment_json(payment)
    payment.payer, payment.payee, payment.amount, payment.paid_on = (
        payer, payee, str(amount), paid_on)
    _note(group, "edit", before, payment_json(payment), by)


def delete(group: Group, payment: Payment, *, by: str, version: int | None) -> None:
    """Delete a payment; its entry in the history keeps it, to be restored."""
    check_version(group, version)
    group.payments.remove(payment)
    _note(group, "delete", payment_json(payment), None, by)


def restorable(changes: Sequence[GroupChange]) -> set[int]:
    """Ids of the deletions that can still be restored."""
    taken = {
        change.before.get("restores")
        for change in changes
        if change.action == "restore" and isinstance(change.before, dict)
    }
    return {
        change.id
        for position, change in enumerate(changes)
        if change.action == RESTORABLE and change.before is not None and position not in taken
    }


def restore(group: Group, change_id: int, *, by: str, version: int | None) -> Payment:
    """Put a deleted payment back, exactly as it was."""
    check_version(group, version)
    changes = list(group.changes)
    position = next((i for i, c in enumerate(changes) if c.id == change_id), None)
    if position is None or changes[position].action != RESTORABLE:
        raise NotRestorable("not_found")
    source = changes[position]
    if source.id not in restorable(changes) or source.before is None:
        raise NotRestorable("restored")
    payment = payment_from(source.before)
    group.payments.append(payment)
    _note(group, "restore", {"restores": position}, payment_json(payment), by)
    return payment


def plan_key(plan: Sequence[stakes.Payment], currency: str | None) -> str:
    """A short fingerprint of a settling-up suggestion, for the form that shows it."""
    text = json.dumps([[p.payer, p.payee, str(p.amount)] for p in plan] + [currency])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def settle(
    group: Group,
    plan: Sequence[stakes.Payment],
    currency: str | None,
    paid_on: date,
    *,
    by: str,
    version: int | None,
    key: str | None = None,
) -> list[Payment]:
    """Record every payment of ``plan`` (the group's settling up, worked out by the
    caller on the locked group) at once. ``key`` is ``plan_key`` of the suggestion the
    form showed: another suggestion now is a ``Conflict``, as another version is."""
    check_version(group, version)
    if not plan or (key is not None and key != plan_key(plan, currency)):
        raise Conflict
    made = [
        Payment(payer=p.payer, payee=p.payee, amount=str(p.amount), currency=currency,
                paid_on=paid_on)
        for p in plan
    ]
    group.payments.extend(made)
    _note(group, "settle", None, {"payments": [payment_json(p) for p in made]}, by)
    return made


def _note(
    group: Group,
    action: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    by: str,
) -> None:
    group.changes.append(GroupChange(action=action, before=before, after=after, by=by,
                                     at=now_utc()))
    group.version = (group.version or 0) + 1
