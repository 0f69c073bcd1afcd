"""The organiser's correction of a table's result reaches the table: its game's sheet
says the result was corrected, to what, from what and why; the organiser's page and the
results PDF mark it; the correction form names the players."""

from __future__ import annotations

import io
import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.helpers import night_tables as tables
from tests.helpers import play_out
from tests.helpers import start_night as start

ANN, BOB = "Алексей Кузнецов", "Игорь Лебедев"


def text(html: str) -> str:
    """The page's words, tags left out and spaces run together."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def confirmed(client: FlaskClient, app: Flask, winner: int) -> tuple[str, str]:
    """A night of one table whose ``winner`` seat won 110 to 0, confirmed: its id and the
    table's game."""
    night_id = start(client, f"{ANN}\n{BOB}")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    game_id = tables(app, night_id, 1)[0].game_id
    assert game_id is not None
    play_out(client, game_id, winner)
    assert client.post(f"/g/{game_id}/confirm").status_code == 302
    return night_id, game_id


def correct(client: FlaskClient, night_id: str) -> None:
    """The organiser corrects table 1 to 150 – 50, with a reason."""
    corrected = client.post(f"/n/{night_id}/rounds/1/tables/1/result", data={
        "what": "correct", "c-points_a": "150", "c-points_b": "50", "c-winner": "a",
        "c-shutout": "", "c-reason": "Hand 2 was written down wrong"})
    assert corrected.status_code == 302, corrected.get_data(as_text=True)


def test_a_corrected_result_reaches_the_tables_sheet_and_the_results(
    client: FlaskClient, app: Flask
) -> None:
    night_id, game_id = confirmed(client, app, 0)  # Алексей wins 110 to 0
    # The correction form names the players, not "the first" and "the second".
    form = text(client.get(f"/n/{night_id}/rounds/1/tables/1/result").get_data(as_text=True))
    assert f"Points of {ANN}" in form and f"Points of {BOB}" in form
    assert f"Winner {ANN} {BOB} Nobody (a draw)" in form
    assert f"Who forfeits {ANN} {BOB}" in form
    assert "the first" not in form.lower()
    correct(client, night_id)
    # The table's sheet: the corrected result, what it was, and why.
    sheet = client.get(f"/g/{game_id}").get_data(as_text=True)
    box = re.search(r'<section class="night-result".*?</section>', sheet, re.S)
    assert box, sheet
    said = text(box.group(0))
    assert (f"The organiser corrected the result: {ANN} 150 · {BOB} 50. "
            "It counts for the night.") in said
    assert f"It was {ANN} 110 · {BOB} 0." in said
    assert "Reason: Hand 2 was written down wrong" in said
    assert "The result is confirmed" not in said
    # The organiser's page marks the table.
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    row = re.search(r'<tr id="table-1-1".*?</tr>', page, re.S)
    assert row and "confirmed · corrected" in text(row.group(0))
    # The results PDF: the corrected result, marked so.
    pdf = client.get(f"/n/{night_id}/results.pdf")
    printed = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
                       .split())
    assert "150 – 50" in printed and "corrected" in printed
    assert "110 – 0" not in printed


def test_a_result_never_corrected_reads_as_confirmed(client: FlaskClient, app: Flask) -> None:
    _night_id, game_id = confirmed(client, app, 1)
    said = text(client.get(f"/g/{game_id}").get_data(as_text=True))
    assert "The result is confirmed: 0 – 110. It counts for the night." in said
    assert "corrected" not in said


def test_the_results_file_marks_a_corrected_result_and_its_reason(
    client: FlaskClient, app: Flask
) -> None:
    import csv

    night_id, _game_id = confirmed(client, app, 0)
    correct(client, night_id)
    body = client.get(f"/n/{night_id}/results.csv?lang=en").data.decode("utf-8")
    rows = list(csv.reader(io.StringIO(body[1:])))
    assert rows[0][-3:] == ["state", "corrected", "reason"]
    assert rows[1] == ["1", "1", ANN, BOB, "150", "50", ANN, "no", "no", "confirmed", "yes",
                       "Hand 2 was written down wrong"]
