"""The UK Pinball League replay (bot/rules/field/ukpl.py, bot/ukpl_replay.py, `pinleague ukpl-replay`).

Replays every meet of ../shared/data/ukpl under the documented rules (about a second) and asserts that every
meet of the answer key `exact_meets.txt` is reproduced: machine points and positions exactly, league points
within 0.01. The era rules (docs/ukpl-eras.md) are checked on a handful of meets, one per era that differs;
the full replay under both rule sets is `pinleague ukpl-replay` (a few seconds more, so not run here).
"""

import os
import re
from fractions import Fraction

import pytest

from bot import ukpl_replay
from bot.cli import main
from bot.rules.field.ukpl import PublishedResult, RawScore, compare_meet, compute_meet

DATA = ukpl_replay.DEFAULT_DATA
needs_data = pytest.mark.skipif(
    not (DATA / "scores.csv").exists() and os.environ.get("CI") != "true", reason=f"no UKPL data at {DATA}"
)


@pytest.fixture(scope="module")
def dataset() -> ukpl_replay.Dataset:
    return ukpl_replay.load_dataset(DATA)


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
def test_every_exact_meet_is_reproduced_under_the_documented_rules(dataset):
    compared = {c.competition: c for c in ukpl_replay.replay(dataset, dataset.meets())}
    assert len(compared) == 523
    assert [c for c in dataset.exact if not compared[c].exact] == []
    assert sum(c.exact for c in compared.values()) == 186


# One meet per era rule that differs from the documented ones (bot/rules/field/ukpl_eras.py).
ERA_MEETS = {
    8: "season 3: league points 7 … 1 and a point for the top half, no double-score bonus in Northern",
    21: "season 5: first place earns 15 league points",
    47: "season 9: the legacy position ranks league points",
    187: "Midlands season 8: an unrecorded score earns 0 and still counts in the machine's N",
    200: "Midlands season 10: tied players take the lower points, an unrecorded score earns 0",
    435: "season 15 from 2022-02-14: tied players take the lower points",
}


@needs_data
@pytest.mark.parametrize("competition", ERA_MEETS)
def test_an_era_meet_is_reproduced_only_under_its_era_rules(dataset, competition):
    meet = dataset.calendar[competition]
    assert ukpl_replay.replay_meet(dataset, competition, ukpl_replay.era_rules(meet)).exact, ERA_MEETS[competition]
    assert not ukpl_replay.replay_meet(dataset, competition, ukpl_replay.documented_rules(meet)).exact


@needs_data
def test_northerns_first_season_15_meet_kept_the_higher_points(dataset):
    """Comp 432 (2021-11-28) predates the 2022-02-14 version that gave tied players the lower points."""
    options = ukpl_replay.era_rules(dataset.calendar[432])
    assert options.machine_ties == "share_higher" and ukpl_replay.replay_meet(dataset, 432, options).exact
    assert not ukpl_replay.replay_meet(dataset, 432, options.model_copy(update={"machine_ties": "share_lower"})).exact


@needs_data
def test_limit_replays_a_subset_under_both_rule_sets(capsys):
    assert main(["ukpl-replay", "--limit", "40", "--data", str(DATA)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "meets replayed: 40" in out
    documented = [line for line in out if re.fullmatch(r"documented rules: answer key 1/1, all three \d+/40", line)]
    era = [line for line in out if re.fullmatch(r"era rules: all three \d+/40", line)]
    assert len(documented) == len(era) == 1
    assert int(era[0].split()[-1].split("/")[0]) > int(documented[0].split()[-1].split("/")[0])
    unreproduced = next(line for line in out if line.startswith("unreproduced under era rules:"))
    causes = out[out.index(unreproduced) + 1 :]
    assert causes and all(re.fullmatch(r" +\d+  .+: comps \d+(, \d+)*(, …)?", line) for line in causes)


@needs_data
@pytest.mark.parametrize(
    ("competition", "cause"),
    [
        (89, ukpl_replay.PLAYERS_DIFFER),
        (26, ukpl_replay.READ_OTHERWISE.format(reading="top_bonus = 0")),
        (439, ukpl_replay.HALF_POINTS),
        (2, ukpl_replay.TOTALS_DIFFER),
        (467, ukpl_replay.POINTS_DIFFER),
        (441, ukpl_replay.POSITIONS_DIFFER),
    ],
)
def test_each_unreproduced_meet_gets_the_first_cause_that_applies(dataset, competition, cause):
    options = ukpl_replay.era_rules(dataset.calendar[competition])
    comparison = ukpl_replay.replay_meet(dataset, competition, options)
    assert not comparison.exact
    assert ukpl_replay.unreproduced_cause(dataset, comparison, options) == cause


def test_league_points_within_a_hundredth_match_and_the_comparison_names_its_meet():
    """The published league points are rounded to 0.01: a difference of exactly 0.01 still matches."""
    rows = compute_meet([RawScore("A", 1, 10, False)])
    comparison = compare_meet(7, rows, [PublishedResult("A", Fraction(1), Fraction("19.99"), 1)])
    assert comparison.competition == 7 and comparison.league_points and comparison.exact
