"""The Remi deal checker's page.

A POST here changes nothing on the server: it scores the typed deal and shows the form
again (typed text kept) with the result below, so it renders instead of redirecting;
the CSRF token is still checked.
"""

from __future__ import annotations

from flask import render_template, url_for

from ..hands.remi_check_form import RemiCheckForm
from ..rulebook.content import card_name_for
from . import bp


@bp.route("/remi/check", methods=["GET", "POST"])
def check() -> str:
    """Check a Remi deal: every player's cards in, every player's points out, step by step."""
    form = RemiCheckForm()
    result = form.settle() if form.validate_on_submit() else None
    # each step links the rule it applied on the card of the chosen rules
    rules_url = url_for("rulecards.card", name=card_name_for("remi", form.deal_rules()))
    return render_template("remi/check.html", form=form, result=result, rules_url=rules_url)
