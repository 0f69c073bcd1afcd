"""A night on paper: table cards with each table's QR code, the pairing sheet, the
results as PDF and as CSV (UTF-8 with a byte order mark, so a spreadsheet opens
Persian and Russian names as they were typed)."""

from __future__ import annotations

import csv
import io

from flask import Response, url_for
from markupsafe import Markup

from ..charts.qr import svg
from ..db import get_session, release_session
from ..lan import phone_url
from ..models import Game, Night
from ..printing.render import pdf_response, render_pdf
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


CSV_HEADER = ("round", "table", "first", "second", "points_first", "points_second",
              "winner", "shutout", "forfeit", "state")


@bp.get("/n/<night_id>/results.csv")
def results_csv(night_id: str) -> Response:
    """Every table of every round, a line each, then the standings."""
    night = load(night_id)
    shown = night_view(get_session(), night)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for r in shown.rounds:
        for t in r.tables:
            result = t.result if t.state == "confirmed" else None
            writer.writerow([
                r.number, t.number, _cell(t.table.a), _cell(t.table.b),
                result["points_a"] if result else "", result["points_b"] if result else "",
                _cell(t.winner_name() or "") if result else "",
                ("yes" if result.get("shutout") else "no") if result else "",
                ("yes" if result.get("forfeit") else "no") if result else "",
                t.state,
            ])
        for name in r.byes:
            writer.writerow([r.number, "", _cell(name), "", "", "", "", "", "", "bye"])
    writer.writerow([])
    writer.writerow(("rank", "player", "match_points", "played", "wins", "draws", "losses",
                     "byes", "games_won", "shutouts", "point_difference"))
    for s in shown.standings:
        writer.writerow((s.rank, _cell(s.entrant), s.match_points, s.played, s.wins, s.draws,
                         s.losses, s.byes, s.games_won, s.shutouts, s.point_difference))
    response = Response(out.getvalue().encode("utf-8"), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="results-{night.id[:8]}.csv"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: one that starts like a formula is kept as text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
