"""Scouting (TEAM-LINEUP-3): the machines a team picks when it declares first, most picked first, with each team's
games won and lost on them whoever picked."""

from __future__ import annotations

from bot.rules.team.scouting import MachineGame, Record, scout

US, THEM, OTHER = 1, 2, 3


def _game(machine: str, teams: tuple[int, int], picked_by: int, winner: int | None) -> MachineGame:
    return MachineGame(machine, frozenset(teams), picked_by, winner)


def test_most_picked_first_with_both_records_on_every_game_of_the_machine() -> None:
    games = [
        _game("Jaws", (THEM, OTHER), THEM, THEM),
        _game("Jaws", (THEM, OTHER), THEM, OTHER),
        _game("Jaws", (US, OTHER), OTHER, US),  # picked by another team: in the records, not in the picks
        _game("Jaws", (US, THEM), US, None),  # no result: in no record
        _game("Elvira", (THEM, US), THEM, THEM),
        _game("Tron", (US, OTHER), US, US),  # never picked by THEM: not shown
    ]
    lines = scout(games, THEM, US)
    assert [(line.machine, line.picks, line.record, line.against) for line in lines] == [
        ("Jaws", 2, Record(1, 1), Record(1, 0)),
        ("Elvira", 1, Record(1, 0), Record(0, 1)),
    ]


def test_equal_picks_put_the_machine_played_most_first_whatever_its_record() -> None:
    """The scouted team picked each machine once; it played Alpha three times (one win) and Zeta once (won)."""
    games = [
        _game("Zeta", (THEM, OTHER), THEM, THEM),
        _game("Alpha", (THEM, OTHER), THEM, OTHER),
        _game("Alpha", (THEM, OTHER), OTHER, OTHER),
        _game("Alpha", (THEM, US), US, THEM),
    ]
    lines = scout(games, THEM, None)
    assert [(line.machine, line.record, line.against) for line in lines] == [
        ("Alpha", Record(1, 2), Record()),
        ("Zeta", Record(1, 0), Record()),
    ]
