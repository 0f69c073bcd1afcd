"""A group's games, hands, payments and ratings, and a game's hands, as CSV files a
spreadsheet opens.

Each file is UTF-8 with a byte order mark, so Excel reads Persian and Russian names
as they are; rows end in CRLF as RFC 4180 has them. Every number is written as the
app counted it (money as its exact decimal text), never rounded. The header row is
in the language of the request, as the pages and the PDFs are (a person opens the
file in a spreadsheet); ``?lang=en`` (or ``fa``, ``ru``) asks for the header in that
language whatever the browser reads, which is what a script that reads the columns
by name sends. The values written in words are in the header's language too (a Russian
file says ``да``, ``подтверждена``, ``пропуск тура``; ``Word``); the English file keeps
the kinds and outcomes by their API names (``three_hand``, ``big_gin``) and ``yes``/``no``.
Numbers and dates (in UTC) are the same in every language.

A hand's row comes from the game's replayed sheet (``Variant.sheet_json``, the same
figures ``GET /api/v1/games/<id>`` gives): nothing here scores. Hands played after the
game ended count for nothing and are left out. Up to four seats get their own
columns (``player 1``, ``points 1``, ``total 1``…), so that every figure is a number
in a cell of its own:

- two-player gin, Oklahoma, Hollywood: the winner's points, 0 for the other; Hollywood's
  totals are those of the first column the hand counted in;
- three-hand gin: each seat's points and totals;
- partnership: one row per table (``table`` 1 or 2), each partner with their team's
  points at that table and the team's totals after the deal;
- Remi: one row per deal, each seat's score and total; ``knocker`` names who went out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, cast

from flask import Response, abort
from flask_babel import force_locale, gettext, pgettext
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from ..hands.inputs import score_hand
from ..hands.stored import GinHand, QuickGinHand
from ..i18n import LANGUAGES
from ..models import Game, Group
from ..scoring import HandError
from ..variants import VARIANTS
from ..variants.replay import game_rules
from .night_view import NightView
from .ratings import Rating
from .summaries import GameRecord

SEATS = 4  # the most players a game has (partnership, Remi)

BOM = "\ufeff"


class LanguageError(ValueError):
    """A ``?lang=`` the files are not written in."""


@contextmanager
def header_language(lang: str | None) -> Iterator[None]:
    """The header row in ``lang`` (``?lang=``: en, fa or ru) while the file is written;
    without one, in the request's language. ``LanguageError`` for any other value."""
    if lang is None:
        yield
        return
    if lang not in LANGUAGES:
        raise LanguageError(lang)
    with force_locale(lang):
        yield


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """The rows under ``header`` as a CSV file: UTF-8 with a BOM, CRLF line ends. A
    blank row and a second table follow when ``rows`` holds ``TABLE_BREAK`` and then
    the second table's header."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    words = value_words()
    for row in rows:
        writer.writerow(["" if cell is None else words.get(cell, cell) if isinstance(cell, Word)
                         else _cell(cell) for cell in row])
    return (BOM + out.getvalue()).encode("utf-8")


class Word(str):
    """A value the app writes in words (``yes``, ``confirmed``, ``big_gin``), written in
    the file's language (``value_words``); a name that happens to be one stays a name."""


def value_words() -> dict[str, str]:
    """Each word a file's values use, in the language of the request; in English the
    words the API uses, which scripts read."""
    return {
        "yes": pgettext("CSV value", "yes"),
        "no": pgettext("CSV value", "no"),
        # the kinds of game
        "gin": pgettext("CSV value", "gin"),
        "oklahoma": pgettext("CSV value", "oklahoma"),
        "hollywood": pgettext("CSV value", "hollywood"),
        "three_hand": pgettext("CSV value", "three_hand"),
        "partnership": pgettext("CSV value", "partnership"),
        "remi": pgettext("CSV value", "remi"),
        # the outcomes of a hand ("gin" is above)
        "knock": pgettext("CSV value", "knock"),
        "undercut": pgettext("CSV value", "undercut"),
        "big_gin": pgettext("CSV value", "big_gin"),
        "tie": pgettext("CSV value", "tie"),
        "dead": pgettext("CSV value", "dead"),
        "went_out": pgettext("CSV value", "went_out"),
        # a club night's tables
        "missing": pgettext("CSV value", "missing"),
        "playing": pgettext("CSV value", "playing"),
        "finished": pgettext("CSV value", "finished"),
        "confirmed": pgettext("CSV value", "confirmed"),
        "bye": pgettext("CSV value", "bye"),
    }


def _yes(value: object) -> Word:
    return Word("yes" if value else "no")


TABLE_BREAK: tuple[object, ...] = ()  # an empty row: a second table follows


class Token(str):
    """An id the app made (a game's: letters, digits, ``-`` and ``_``), written as it
    is: a program reads it back, and no spreadsheet runs it."""


def _cell(value: object) -> object:
    """A cell as written: text that a spreadsheet would take for a formula (a name
    such as ``=SUM(A1)`` or ``@Ann``) is kept as text behind an apostrophe; numbers,
    numbers written as text (``-1.50``) and the app's ids are written as they are."""
    if (not isinstance(value, str) or isinstance(value, Token)
            or value[:1] not in ("=", "+", "-", "@", "\t", "\r")):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value


def download(filename: str, lang: str | None, write: Callable[[], bytes]) -> Response:
    """The file ``write`` makes, its header in ``lang`` (``?lang=``) or the request's
    language, for the browser to save as ``filename``; 400 for a ``lang`` the files are
    not written in."""
    try:
        with header_language(lang):
            body = write()
    except LanguageError:
        abort(400, gettext("The column names are written in %(languages)s: ?lang=%(codes)s.",
                           languages=", ".join(LANGUAGES.values()),
                           codes="|".join(LANGUAGES)))
    return csv_response(body, filename)


def csv_response(body: bytes, filename: str) -> Response:
    """A CSV file for the browser to save as ``filename``."""
    response = Response(body, content_type="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def when(moment: datetime) -> str:
    """A moment as the files write it: ``2026-12-07 04:49`` in UTC."""
    return moment.strftime("%Y-%m-%d %H:%M")


def _column(name: str) -> str:
    """A column's name in the language of the request (``header_language``); the
    catalogs take every ``_column("…")`` (``make translations`` extracts them)."""
    return str(gettext(name))


def _seats(*names: str) -> list[str]:
    """Each seat's columns (``player 1``, ``final 1``, ``player 2``…) in the language of
    the request."""
    return [_seat_column(name, seat) for seat in range(1, SEATS + 1) for name in names]


def _seat_column(name: str, seat: int) -> str:
    if name == "player":
        return str(pgettext("CSV column", "player %(seat)s", seat=seat))
    if name == "final":
        return str(pgettext("CSV column", "final %(seat)s", seat=seat))
    if name == "points":
        return str(pgettext("CSV column", "points %(seat)s", seat=seat))
    return str(pgettext("CSV column", "total %(seat)s", seat=seat))


# --- games -------------------------------------------------------------------------------


def games_header() -> list[str]:
    """The games file's columns, in the language of the request."""
    return [
        _column("date (UTC)"), _column("game"), _column("kind"), _column("finished"),
        _column("winners"), _column("stake"), _column("currency"), *_seats("player", "final"),
    ]


def games_csv(games: Sequence[tuple[Game, GameRecord]]) -> bytes:
    """One row per game, oldest first: who played, who won, each player's final."""
    rows = []
    for game, record in sorted(games, key=lambda item: (item[0].created_at, item[0].id)):
        seats: list[object] = []
        for name in record.players:
            seats += [name, record.finals.get(name) if record.finished else None]
        rows.append([
            when(game.created_at), Token(game.id), Word(game.variant), _yes(record.finished),
            " & ".join(sorted(record.winners)), game.stake, game.currency if game.stake else None,
            *_pad(seats, 2),
        ])
    return csv_bytes(games_header(), rows)


def _pad(cells: list[object], width: int) -> list[object]:
    return cells + [None] * (SEATS * width - len(cells))


# --- hands -------------------------------------------------------------------------------


def hands_header() -> list[str]:
    """The hands files' columns, in the language of the request."""
    return [
        _column("date (UTC)"), _column("game"), _column("kind"), _column("hand"),
        _column("table"), _column("outcome"), _column("knocker"), _column("knocker deadwood"),
        _column("defender deadwood"), _column("winner"), *_seats("player", "points", "total"),
    ]


def hands_csv(games: Sequence[Game]) -> bytes:
    """One row per hand (a partnership deal's two tables: a row each) of ``games``,
    oldest game first, each game's hands in order."""
    rows: list[list[object]] = []
    for game in sorted(games, key=lambda g: (g.created_at, g.id)):
        rows += hand_rows(game)
    return csv_bytes(hands_header(), rows)


def game_hands_csv(game: Game) -> bytes:
    """One game's hands (``/g/<id>/hands.csv``), as ``hands_csv`` writes them."""
    return csv_bytes(hands_header(), hand_rows(game))


def hand_rows(game: Game) -> list[list[object]]:
    """The rows of one game's hands (``hands_header``)."""
    variant = VARIANTS[game.variant]
    data = variant.sheet_json(game, variant.sheet(game))
    names = list(game.players)
    head = [when(game.created_at), Token(game.id), Word(game.variant)]
    rows: list[list[object]] = []
    for hand in data["hands"]:
        if hand.get("after_end"):
            continue
        for row in _hand(game, data, hand, names):
            rows.append([*head, hand["number"], *row])
    return rows


def _hand(
    game: Game, data: Mapping[str, Any], hand: Mapping[str, Any], names: list[str]
) -> list[list[object]]:
    """The cells after the hand's number: table, outcome, knocker, deadwood both ways,
    winner, then each seat's player, points and total."""
    kind = game.variant
    if kind == "remi":
        out = hand.get("went_out")
        return [[None, Word("went_out") if out is not None else "", _name(names, out), None, None,
                 None, *_seat_cells(names, hand["scores"], hand["totals"])]]
    if kind == "partnership":
        teams = data["teams"]
        team_of = {seat: t for t, members in enumerate(teams) for seat in members}
        rows = []
        for number, (table, inputs) in enumerate(
            zip(hand["tables"], hand["inputs"]["tables"], strict=True), start=1
        ):
            mine = [table["team_points"][team_of[seat]] for seat in range(len(names))]
            after = [hand["totals"][team_of[seat]] for seat in range(len(names))]
            rows.append([number, Word(table["outcome"]), _name(names, inputs.get("knocker")),
                         *_deadwood(game, inputs), _name(names, table["winner"]),
                         *_seat_cells(names, mine, after)])
        return rows
    inputs = hand["inputs"]
    winner = hand["winner"]
    totals: Sequence[object] | None
    if kind == "three_hand":
        knocker, points, totals = hand.get("knocker_seat"), hand["points"], hand["totals"]
    else:
        knocker = inputs.get("knocker")
        points = [hand["points"] if seat == winner else 0 for seat in range(len(names))]
        totals = hand["totals"] if kind != "hollywood" else _column_totals(data, hand)
    if hand["outcome"] == "dead":
        knocker = None
    return [[None, Word(hand["outcome"]), _name(names, knocker), *_deadwood(game, inputs),
             _name(names, winner), *_seat_cells(names, points, totals)]]


def _column_totals(data: Mapping[str, Any], hand: Mapping[str, Any]) -> list[int] | None:
    """A Hollywood hand's totals in the first column it counted in."""
    for column in data["columns"]:
        for entry in column["hands"]:
            if entry["hand"] == hand["number"]:
                return list(entry["totals"])
    return None


def _deadwood(game: Game, inputs: GinHand) -> tuple[int | None, int | None]:
    """The knocker's and the defender's deadwood, as the engine counted it (a hand
    entered with cards has its deadwood counted from them); none for a dead hand."""
    knocker = inputs.get("knocker")
    if inputs.get("outcome") == "dead" or knocker is None:
        return None, None
    if inputs.get("mode") != "cards":
        quick = cast(QuickGinHand, inputs)
        return quick.get("knocker_deadwood"), quick.get("defender_deadwood")
    try:
        result = score_hand(game_rules(game), inputs, (int(knocker), -1)).result
    except (HandError, KeyError, TypeError, ValueError):
        return None, None
    return result.knocker.deadwood_points, result.defender.deadwood_points


def _name(names: list[str], seat: object) -> str | None:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else None


def _seat_cells(
    names: list[str], points: Sequence[object], totals: Sequence[object] | None
) -> list[object]:
    cells: list[object] = []
    for seat, name in enumerate(names):
        cells += [name, points[seat], totals[seat] if totals is not None else None]
    return _pad(cells, 3)


# --- payments ----------------------------------------------------------------------------


def payments_header() -> list[str]:
    """The payments file's columns, in the language of the request."""
    return [_column("date"), _column("from"), _column("to"), _column("amount"),
            _column("currency"), _column("recorded (UTC)")]


def payments_csv(group: Group) -> bytes:
    """The payments recorded in the group, by the date paid."""
    rows = [
        [p.paid_on.isoformat(), p.payer, p.payee, p.amount, p.currency, when(p.recorded_at)]
        for p in sorted(group.payments, key=lambda p: (p.paid_on, p.id))
    ]
    return csv_bytes(payments_header(), rows)


def games_with_hands(db: Session, group: Group) -> list[Game]:
    """The group's games with their hands, in one query for the hands."""
    query = select(Game).where(Game.group_id == group.id).options(selectinload(Game.hands))
    return list(db.scalars(query).all())


# --- ratings -----------------------------------------------------------------------------


def ratings_header() -> list[str]:
    """The ratings file's columns, in the language of the request."""
    return [_column("player"), _column("rating"), _column("mu"), _column("sigma"),
            _column("rated games"), _column("provisional"), _column("best rating")]


def ratings_csv(ratings: Mapping[str, Rating]) -> bytes:
    """Each player's rating (μ − 3σ), μ and σ to four places, highest rating first."""
    rows = [
        [r.name, f"{r.value:.4f}", f"{r.mu:.4f}", f"{r.sigma:.4f}", r.games,
         _yes(r.provisional), f"{r.best:.4f}"]
        for r in sorted(ratings.values(), key=lambda r: (-r.value, r.name))
    ]
    return csv_bytes(ratings_header(), rows)


# --- a club night ----------------------------------------------------------------------


def night_results_csv(shown: NightView) -> bytes:
    """Every table of every round, a row each (a bye too), whether the organiser
    corrected its result and why, then after a blank row the standings in their order,
    every tie-break in a column of its own."""
    rows: list[Sequence[object]] = []
    for r in shown.rounds:
        for t in r.tables:
            result = t.result if t.state == "confirmed" else None
            rows.append([
                r.number, t.number, t.table.a, t.table.b,
                result["points_a"] if result else None, result["points_b"] if result else None,
                (t.winner_name() or "") if result else None,
                _yes(result.get("shutout")) if result else None,
                _yes(result.get("forfeit")) if result else None,
                Word(t.state),
                _yes(t.correction is not None) if result else None,
                t.correction.reason if result and t.correction else None,
            ])
        rows.extend([r.number, None, name, None, None, None, None, None, None, Word("bye"),
                     None, None] for name in r.byes)
    rows.append(TABLE_BREAK)
    rows.append([_column("rank"), _column("player"), _column("match points"),
                 _column("played"), _column("wins"), _column("draws"), _column("losses"),
                 _column("byes"), _column("games won"), _column("shutouts"),
                 _column("point difference")])
    rows.extend([s.rank, s.entrant, s.match_points, s.played, s.wins, s.draws, s.losses,
                 s.byes, s.games_won, s.shutouts, s.point_difference]
                for s in shown.standings)
    header = [_column("round"), _column("table"), _column("first"), _column("second"),
              _column("points first"), _column("points second"), _column("winner"),
              _column("shutout"), _column("forfeit"), _column("state"), _column("corrected"),
              _column("reason")]
    return csv_bytes(header, rows)
