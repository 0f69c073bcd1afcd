"""The stamp of the scoring code (services/scoring_stamp.py): it covers every file whose
change could change a game's summary, and any change to one of them changes it."""

from __future__ import annotations

import inspect
import shutil
from pathlib import Path

import pytest

from scorekeeper.hands.inputs import score_hand
from scorekeeper.services.scoring_stamp import ROOT, SCORING_STAMP, sources, stamp_of
from scorekeeper.services.summaries import record_of
from scorekeeper.variants.replay import gin_sheet

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once


def defined_in(function: object) -> Path:
    source = inspect.getsourcefile(function)  # type: ignore[arg-type]
    assert source is not None
    return Path(source).resolve()


def test_the_stamp_covers_the_engine_the_variants_and_what_turns_inputs_into_a_summary() -> (
    None
):
    engine_and_variants = {*(ROOT / "scoring").rglob("*.py"), *(ROOT / "variants").rglob("*.py")}
    # Scoring one hand's stored inputs, replaying a game's hands into its sheet, and
    # counting the sheet up into the game's record.
    turning = {defined_in(score_hand), defined_in(gin_sheet), defined_in(record_of)}
    assert {path.resolve() for path in engine_and_variants} | turning == set(sources())
    assert {path.relative_to(ROOT).as_posix() for path in turning} == {
        "hands/inputs.py",
        "variants/replay.py",
        "services/summaries.py",
    }


def test_the_stamp_is_the_hash_of_those_files() -> None:
    assert stamp_of(sources()) == SCORING_STAMP
    assert len(SCORING_STAMP) == 64  # fits GameSummary.stamp


@pytest.mark.parametrize("changed", ["scoring/settle.py", "variants/remi.py", "variants/replay.py",
                                     "services/summaries.py"])
def test_a_change_to_any_of_them_changes_the_stamp(tmp_path: Path, changed: str) -> None:
    copies = []
    for path in sources():
        copy = tmp_path / path.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
        copies.append(copy)
    assert stamp_of(copies, tmp_path) == SCORING_STAMP  # the same files, somewhere else
    with (tmp_path / changed).open("a", encoding="utf-8") as file:
        file.write("\n")
    assert stamp_of(copies, tmp_path) != SCORING_STAMP
