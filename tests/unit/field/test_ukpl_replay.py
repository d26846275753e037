"""The UK Pinball League replay (bot/rules/field/ukpl.py, bot/ukpl_replay.py, `pinleague ukpl-replay`).

Runs every meet of ../shared/data/ukpl (about a second) and asserts that every meet of the answer key
`exact_meets.txt` is reproduced: machine points and positions exactly, league points within 0.01.
"""

import os
from fractions import Fraction

import pytest

from bot import ukpl_replay
from bot.cli import main
from bot.rules.field.ukpl import PublishedResult, RawScore, compare_meet, compute_meet

DATA = ukpl_replay.DEFAULT_DATA
needs_data = pytest.mark.skipif(
    not (DATA / "scores.csv").exists() and os.environ.get("CI") != "true", reason=f"no UKPL data at {DATA}"
)


def test_a_small_meet_by_hand():
    """Guests removed first; N…1 per machine; +1 when first ≥ 2 × second; shared places average."""
    scores = [
        RawScore("A", 1, 1000, False),
        RawScore("B", 1, 400, False),
        RawScore("C", 1, 300, False),
        RawScore("G", 1, 5000, True),
        RawScore("A", 2, 10, False),
        RawScore("B", 2, 30, False),
        RawScore("C", 2, 20, False),
    ]
    rows = {r.player: r for r in compute_meet(scores)}
    assert set(rows) == {"A", "B", "C"}
    assert {p: r.machine_points for p, r in rows.items()} == {"A": 5, "B": 5, "C": 3}
    assert rows["A"].position == rows["B"].position == 1 and rows["A"].position_points == Fraction(39, 2)
    published = [
        PublishedResult("A", Fraction(5), Fraction("19.5"), 1),
        PublishedResult("B", Fraction(5), Fraction("19.5"), 1),
        PublishedResult("C", Fraction(3), Fraction(18), 3),
    ]
    assert compare_meet(1, list(rows.values()), published).exact
    wrong = [*published[:2], PublishedResult("C", Fraction(3), Fraction("18.02"), 3)]
    comparison = compare_meet(1, list(rows.values()), wrong)
    assert not comparison.league_points and comparison.machine_points and comparison.positions


def test_a_result_without_scores_is_a_mismatch():
    rows = compute_meet([RawScore("A", 1, 10, False)])
    comparison = compare_meet(
        1, rows, [PublishedResult("A", Fraction(1), Fraction(20), 1), PublishedResult("Z", None, Fraction(19), 2)]
    )
    assert not comparison.players and not comparison.positions


@needs_data
def test_every_exact_meet_is_reproduced_and_the_counts_are_printed(capsys):
    assert main(["ukpl-replay"]) == 0
    out = capsys.readouterr().out
    assert "meets replayed: 523" in out
    assert "exact_meets.txt reproduced: 185 of 185" in out
    assert "all three match: 186 of 523" in out


@needs_data
def test_limit_replays_a_subset(capsys):
    assert main(["ukpl-replay", "--limit", "40", "--data", str(DATA)]) == 0
    out = capsys.readouterr().out
    assert "meets replayed: 40" in out and "exact_meets.txt reproduced: 1 of 1" in out
