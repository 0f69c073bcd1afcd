"""A night on paper: table cards with each table's QR code, the pairing sheet, the
results as PDF and as CSV (UTF-8 with a byte order mark, so a spreadsheet opens
Persian and Russian names as they were typed)."""

from __future__ import annotations

from flask import Response, request, url_for
from markupsafe import Markup

from ..charts.qr import svg
from ..db import get_session, release_session
from ..lan import phone_url
from ..models import Game, Night
from ..printing.render import pdf_response, render_pdf
from ..services import exports
from ..services import night_access as access
from ..services.night_view import NightView, night_view
from . import bp
from .forms import FORMAT_LABELS, TIE_BREAK_LABELS, VARIANT_LABELS
from .views import load


def _context(night: Night, shown: NightView) -> dict[str, object]:
    return {
        "night": night,
        "shown": shown,
        "paper": "A4",
        "variant_label": VARIANT_LABELS.get(night.variant, night.variant),
        "format_label": FORMAT_LABELS.get(night.format, night.format),
        "order_words": ", ".join(str(TIE_BREAK_LABELS.get(k, k)) for k in night.order),
        "payments": [],
    }


@bp.get("/n/<night_id>/tables.pdf")
def table_cards(night_id: str) -> Response:
    """One card per table of the latest round: its number, the players in their seats,
    and a QR code that opens the table's game ready to edit (organiser only: the code
    carries the game's edit secret)."""
    night = load(night_id)
    access.require_organiser(night)
    shown = night_view(get_session(), night)
    cards = []
    latest = shown.latest
    ids = [t.table.game_id for t in latest.tables] if latest else []
    games = {g.id: g for g in get_session().query(Game).filter(Game.id.in_(ids))} if ids else {}
    for t in latest.tables if latest else []:
        game = games.get(t.table.game_id or "")
        if game is None:
            continue
        link = phone_url(url_for("games.sheet", game_id=game.id, key=game.edit_secret,
                                 _external=True))
        code = svg(link, "").decode()
        cards.append({"view": t, "link": link, "qr": Markup(code)})
    release_session()
    body = render_pdf("nights/pdf/tables.html", cards=cards, **_context(night, shown))
    return pdf_response(body, f"tables-{night.id[:8]}.pdf")


@bp.get("/n/<night_id>/pairings.pdf")
def pairing_sheet(night_id: str) -> Response:
    """The latest round's pairings on one sheet, for the wall by the door."""
    night = load(night_id)
    shown = night_view(get_session(), night)
    release_session()
    body = render_pdf("nights/pdf/pairings.html", **_context(night, shown))
    return pdf_response(body, f"pairings-{night.id[:8]}.pdf")


@bp.get("/n/<night_id>/results.pdf")
def results_pdf(night_id: str) -> Response:
    """The standings and every round's results."""
    night = load(night_id)
    shown = night_view(get_session(), night)
    release_session()
    body = render_pdf("nights/pdf/results.html", **_context(night, shown))
    return pdf_response(body, f"results-{night.id[:8]}.pdf")


@bp.get("/n/<night_id>/results.csv")
def results_csv(night_id: str) -> Response:
    """Every table of every round, a line each, then the standings; the header rows in
    the reader's language (``?lang=en`` for scripts), as every CSV file of the app."""
    night = load(night_id)
    shown = night_view(get_session(), night)
    response = exports.download(f"results-{night.id[:8]}.csv", request.args.get("lang"),
                                lambda: exports.night_results_csv(shown))
    response.headers["Cache-Control"] = "no-store"
    return response
