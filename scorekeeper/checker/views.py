"""The dispute settler's page.

A POST here changes nothing on the server: it scores the typed hand and shows the
form again (typed text kept) with the result below. So it renders directly instead
of redirecting; the CSRF token is still checked, like on every form.
"""

from __future__ import annotations

from flask import render_template, request, url_for

from ..db import get_session
from ..hands.check_form import OVERRIDES, PRESET_CHOICES, CheckForm
from ..rulebook.content import card_name_for
from ..scoring.rules import PRESETS, Rules, RulesError
from ..services.rulings import hand_about
from . import bp


@bp.route("/check", methods=["GET", "POST"])
def check() -> str:
    """Settle a dispute: enter one hand card by card and see how it scores, step by step.
    Opened from a game's hand (``?game=<id>&hand=<n>``), a ruling kept here is that
    hand's."""
    values = request.form if request.method == "POST" else request.args
    about = hand_about(get_session(), values.get("game"), values.get("hand"))
    form = CheckForm()
    if about is not None and request.method == "GET":
        _game_rules(form, about.game.rules)
    result = form.settle() if form.validate_on_submit() else None
    rules = form.rules() if result is not None else None
    rules_url = None
    if rules is not None:  # each step links the rule it applied on the chosen rules' card
        kind = "oklahoma" if rules.oklahoma else "gin"
        rules_url = url_for("rulecards.card", name=card_name_for(kind, rules))
    chosen = PRESETS.get(form.preset.data or "", PRESETS["classic"])
    return render_template("checker/check.html", form=form, result=result, rules_url=rules_url,
                           about=about, big_gin=chosen.big_gin_bonus is not None)


def _game_rules(form: CheckForm, settings: dict[str, object]) -> None:
    """The form's rules set to a game's, as near as the checker's settings go: its
    preset (else classic, or Oklahoma) and the limit and bonuses it changed."""
    try:
        rules = Rules.from_dict(settings)
    except (RulesError, ValueError, TypeError):
        return
    offered = {choice.value for choice in PRESET_CHOICES}
    preset = rules.preset if rules.preset in offered else (
        "oklahoma" if rules.oklahoma else "classic")
    base = PRESETS[preset]
    form.preset.data = preset
    for name in OVERRIDES:
        if getattr(rules, name) != getattr(base, name):
            form[name].data = getattr(rules, name)
    if rules.tie_is_undercut != base.tie_is_undercut:
        form.tie_is_undercut.data = "yes" if rules.tie_is_undercut else "no"
