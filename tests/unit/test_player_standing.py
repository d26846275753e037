"""Whether a player may play (COMMON-PLAYER-2, bot/rules/discipline.py): which ruling bars them when several do,
the message naming it, the first day of a suspension, and which rulings count towards a team's flag."""

from __future__ import annotations

from datetime import date

import pytest

from bot.rules.discipline import DisciplineKind, Sanction, barring, require_in_good_standing, team_flags
from bot.rules.refusals import RuleViolation

SEASON = 3
DAY = date(2027, 3, 10)


def suspension(id: int, on: date = date(2027, 3, 1), ends: date | None = None) -> Sanction:
    return Sanction(id, DisciplineKind.SUSPENSION, SEASON, on, ends)


def refusal(ledger: list[Sanction], on: date = DAY) -> str:
    with pytest.raises(RuleViolation) as caught:
        require_in_good_standing("Carol", ledger, season_id=SEASON, on=on, doing="play in a lineup")
    return str(caught.value)


@pytest.mark.parametrize(
    ("ledger", "named"),
    [
        ([suspension(4), suspension(2), Sanction(5, DisciplineKind.EXPULSION, SEASON, date(2027, 3, 2))], 5),
        ([suspension(4), suspension(2), suspension(3)], 2),  # the oldest ruling, whatever order they come in
    ],
)
def test_common_player_2_the_expulsion_else_the_oldest_suspension_is_named(ledger: list[Sanction], named: int) -> None:
    bar = barring(ledger, season_id=SEASON, on=DAY)
    assert bar is not None and bar.id == named


def test_common_player_2_a_suspension_to_the_end_of_the_season_is_named_so() -> None:
    assert refusal([suspension(7)]) == (
        "COMMON-PLAYER-2: Carol is suspended for the rest of the season (ruling #7) and cannot play in a lineup. "
        "Only a commissioner can lift it."
    )


def test_common_player_2_a_suspension_bars_from_its_first_day() -> None:
    assert "suspended through 2027-03-17 (ruling #8)" in refusal([suspension(8, DAY, date(2027, 3, 17))])
    require_in_good_standing("Carol", [suspension(8, DAY)], season_id=SEASON, on=date(2027, 3, 9), doing="play")


def test_team_disc_4_only_unlifted_warnings_count_towards_the_teams_flag() -> None:
    warning = Sanction(1, DisciplineKind.WARNING, SEASON, DAY)
    assert team_flags([warning, suspension(2), Sanction(3, DisciplineKind.OFFENCE, SEASON, DAY)]) == []
    assert team_flags([warning, Sanction(4, DisciplineKind.WARNING, SEASON, DAY, lifted=True)]) == []
    assert [rule for rule, _ in team_flags([warning, Sanction(5, DisciplineKind.WARNING, SEASON, DAY)])] == [
        "TEAM-DISC-4"
    ]
