"""The dispute settler's page.

A POST here changes nothing on the server: it scores the typed hand and shows the
form again (typed text kept) with the result below. So it renders directly instead
of redirecting; the CSRF token is still checked, like on every form.
"""

from __future__ import annotations

from flask import render_template, url_for

from ..hands.check_form import CheckForm
from ..rulebook.content import card_name_for
from . import bp


@bp.route("/check", methods=["GET", "POST"])
def check() -> str:
    """Settle a dispute: enter one hand card by card and see how it scores, step by step."""
    form = CheckForm()
    result = form.settle() if form.validate_on_submit() else None
    rules = form.rules() if result is not None else None
    rules_url = None
    if rules is not None:  # each step links the rule it applied on the chosen rules' card
        kind = "oklahoma" if rules.oklahoma else "gin"
        rules_url = url_for("rulecards.card", name=card_name_for(kind, rules))
    return render_template("checker/check.html", form=form, result=result, rules_url=rules_url)
