"""A group's payments corrected, deleted and restored, settling up recorded in one
step, and the group's history of payments."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from ..db import Unchanged, get_session, writing
from ..forms import EmptyForm
from ..models import Group, Payment
from ..services import access, payments
from ..services import groups as service
from . import bp, typed_amount
from .forms import ChangeForm, PaymentEditForm, SettleForm
from .views import editor, offer_names, read_payment


def _to_money(group: Group) -> Response:
    return redirect(url_for("groups.page", group_id=group.id) + "#money")


def _conflict(group: Group) -> Response:
    flash(
        _("The group's payments changed since this page was drawn (on another phone, or "
          "by a second tap); nothing was saved. Here they are as they stand."),
        "warning",
    )
    return _to_money(group)


def _editing(group_id: str) -> Group:
    """The group, locked for a POST, read for a GET; editors only."""
    db = get_session()
    post = request.method == "POST"
    group = service.lock_group(db, group_id) if post else service.load_group(db, group_id)
    access.require_edit(group)
    return group


def _drawn_from(form: ChangeForm | PaymentEditForm | SettleForm) -> int:
    """The group version a form was drawn from; -1, which matches none, without one."""
    text = str(form.version.data or "")
    return int(text) if text.isdigit() else -1


def _payment(group: Group, payment_id: int) -> Payment:
    try:
        return payments.find(group, payment_id)
    except LookupError:
        abort(404)


@bp.route("/groups/<group_id>/payments/<int:payment_id>/edit", methods=["GET", "POST"])
def edit_payment(group_id: str, payment_id: int) -> Response | tuple[str, int]:
    """Correct a recorded payment; the history keeps what it said before."""
    group = _editing(group_id)
    payment = _payment(group, payment_id)
    form = PaymentEditForm(prefix="payment")
    offer_names(form, group, (payment.payer, payment.payee))
    status = 200
    if request.method == "GET":
        form.payer.data, form.payee.data = payment.payer, payment.payee
        form.amount.data = typed_amount(Decimal(payment.amount), payment.currency)
        form.paid_on.data = payment.paid_on
    else:
        status = 422
        try:
            with writing():
                read = read_payment(form, payment.currency)
                if read is None:
                    raise Unchanged
                payer, payee, amount = read
                payments.edit(group, payment, payer, payee, amount, form.paid_on.data,
                              by=editor(group), version=_drawn_from(form))
        except Unchanged:
            pass  # the form again, with what was typed and why not
        except payments.Conflict:
            # What was typed stays, drawn again on the payments as they are now.
            status = 409
            form.form_errors.append(_(
                "The group's payments changed since this page was drawn (on another "
                "phone, or by a second tap); nothing was saved. Look, and save again."))
        else:
            flash(_("Payment corrected."))
            return _to_money(group)
    form.version.data = str(group.version)
    delete = ChangeForm(prefix="delete")
    delete.version.data = str(group.version)
    page = render_template("groups/edit_payment.html", group=group, payment=payment,
                           form=form, delete=delete)
    return page, status


@bp.post("/groups/<group_id>/payments/<int:payment_id>/delete")
def delete_payment(group_id: str, payment_id: int) -> Response:
    """Delete a payment; the group's history keeps it, to be restored."""
    group = _editing(group_id)
    payment = _payment(group, payment_id)
    form = ChangeForm(prefix="delete")
    if not form.validate_on_submit():
        abort(400)
    try:
        with writing():
            payments.delete(group, payment, by=editor(group), version=_drawn_from(form))
    except payments.Conflict:
        return _conflict(group)
    flash(_("Payment deleted. The group's history keeps it: it can be restored from there."))
    return _to_money(group)


@bp.post("/groups/<group_id>/changes/<int:change_id>/restore")
def restore_payment(group_id: str, change_id: int) -> Response:
    """Put a deleted payment back, exactly as it was."""
    group = _editing(group_id)
    form = ChangeForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        with writing():
            payments.restore(group, change_id, by=editor(group), version=_drawn_from(form))
    except payments.Conflict:
        return _conflict(group)
    except payments.NotRestorable as exc:
        flash(_("That one was restored already.") if exc.reason == "restored"
              else _("There is nothing to restore there."), "warning")
        return redirect(url_for("groups.history", group_id=group.id))
    flash(_("Payment restored."))
    return _to_money(group)


@bp.post("/groups/<group_id>/settle")
def settle_up(group_id: str) -> Response:
    """Record the payments "settle up" suggests, all at once: everybody is square."""
    group = _editing(group_id)
    form = SettleForm(prefix="settle")
    if not form.validate_on_submit():
        abort(400)
    shown = service.view(get_session(), group)
    try:
        with writing():
            made = payments.settle(group, shown.settle_up, shown.currency, date.today(),
                                   by=editor(group), version=_drawn_from(form),
                                   key=form.plan.data)
    except payments.Conflict:
        return _conflict(group)
    flash(ngettext("%(num)d payment recorded: everybody is square.",
                   "%(num)d payments recorded: everybody is square.", len(made)))
    return _to_money(group)


@bp.get("/groups/<group_id>/history")
def history(group_id: str) -> str:
    """Every payment recorded, corrected, deleted or restored, newest first."""
    group = service.load_group(get_session(), group_id)
    changes = list(group.changes)
    editable = access.can_edit(group)
    return render_template(
        "groups/history.html",
        group=group,
        entries=list(reversed(changes)),
        restorable=payments.restorable(changes) if editable else set(),
        empty=EmptyForm(),
    )
