"""Scouting an opponent: the machines a team picks when it declares first (TEAM-LINEUP-3), and how it fares on
them. Pure: played games in, one line per machine out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from bot.rules.team.model import TeamId

SHOWN_MACHINES = 5


@dataclass(frozen=True)
class MachineGame:
    """One game played out on a machine: the two teams, the one that picked the machine and the winner."""

    machine: str  # its title: the same model at two venues is one machine to scout
    teams: frozenset[TeamId]
    picked_by: TeamId
    winner: TeamId | None  # None: a tie, or no result (a replay due)


@dataclass(frozen=True)
class Record:
    won: int = 0
    lost: int = 0


@dataclass(frozen=True)
class MachinePicks:
    machine: str
    picks: int  # games the scouted team picked this machine for
    record: Record  # the scouted team's games won and lost on it, whoever picked it
    against: Record  # the same for the team scouting it (`scout`'s `us`)


def _record(games: list[MachineGame], team: TeamId) -> Record:
    mine = [game for game in games if team in game.teams and game.winner is not None]
    won = sum(game.winner == team for game in mine)
    return Record(won, len(mine) - won)


def scout(games: Iterable[MachineGame], team: TeamId, us: TeamId | None) -> list[MachinePicks]:
    """The machines `team` picked, most picked first (then the most played, then by title), with its
    record on each and `us`'s record on each (zero when `us` is None)."""
    played = list(games)
    picks = Counter(game.machine for game in played if game.picked_by == team)
    by_machine: dict[str, list[MachineGame]] = {}
    for game in played:
        by_machine.setdefault(game.machine, []).append(game)
    lines = [
        MachinePicks(
            machine,
            count,
            _record(by_machine[machine], team),
            _record(by_machine[machine], us) if us is not None else Record(),
        )
        for machine, count in picks.items()
    ]
    lines.sort(key=lambda line: (-line.picks, -(line.record.won + line.record.lost), line.machine))
    return lines[:SHOWN_MACHINES]
