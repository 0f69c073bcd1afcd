"""The Remi deal checker's page.

A POST here changes nothing on the server: it scores the typed deal and shows the form
again (typed text kept) with the result below, so it renders instead of redirecting;
the CSRF token is still checked.
"""

from __future__ import annotations

from flask import render_template, request, url_for

from ..db import get_session
from ..hands.remi_check_form import RemiCheckForm
from ..rulebook.content import card_name_for
from ..services.rulings import hand_about
from . import bp


@bp.route("/remi/check", methods=["GET", "POST"])
def check() -> str:
    """Check a Remi deal: every player's cards in, every player's points out, step by step.
    Opened from a game's deal (``?game=<id>&hand=<n>``), a ruling kept here is that
    deal's."""
    values = request.form if request.method == "POST" else request.args
    about = hand_about(get_session(), values.get("game"), values.get("hand"))
    form = RemiCheckForm()
    result = form.settle() if form.validate_on_submit() else None
    # each step links the rule it applied on the card of the chosen rules
    rules_url = url_for("rulecards.card", name=card_name_for("remi", form.deal_rules()))
    return render_template("remi/check.html", form=form, result=result, rules_url=rules_url,
                           about=about)
