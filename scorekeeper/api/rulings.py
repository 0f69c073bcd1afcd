"""``/api/v1/rulings``: keep a settled hand (a ``/gin/settle`` body) or Remi deal (a
``/remi/settle`` body with ``"kind": "remi"``) as a ruling under an unguessable link.

The body is settled exactly as ``/gin/settle`` or ``/remi/settle`` would; a body they
would refuse is refused the same way (422, every problem named) and nothing is kept.
"""

from __future__ import annotations

from typing import Any

from flask import url_for

from .. import limits
from ..db import get_session
from ..jsonbody import ApiError, json_object
from ..services.rulings import keep_gin, keep_remi
from . import bodies, bp
from .gin import settle_hand, settle_inputs
from .remi import remi_inputs, settle_deal

KINDS = ("gin", "remi")


@bp.post("/rulings")
@limits.rulings
def keep_ruling() -> tuple[dict[str, Any], int]:
    """Settle the body and keep what was decided; 201 with the ruling's id and link."""
    body = json_object()
    kind = body.get("kind", "gin")
    if kind not in KINDS:
        raise ApiError([("kind", "must be gin or remi")])
    if kind == "remi":
        body = bodies.check(body, bodies.RemiRuling, remi_inputs)
    else:
        body = bodies.check(body, bodies.GinRuling, settle_inputs)
    if kind == "remi":
        rules, players = remi_inputs(body)
        ruling = keep_remi(rules, players, settle_deal(rules, players))
    else:
        rules, inputs = settle_inputs(body)
        ruling = keep_gin(rules, inputs, settle_hand(rules, inputs))
    db = get_session()
    db.add(ruling)
    db.commit()
    return {"id": ruling.id,
            "url": url_for("rulings.page", ruling_id=ruling.id, _external=True)}, 201

