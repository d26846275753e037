"""UK Pinball League meets recomputed from raw scores, and compared with the published results.

Pure: rows in, rows out. The rules are `UKPL_OPTIONS` (../shared/data/ukpl/README.md): guests are removed
before anything is ranked, every machine ranks its own players N…1 with ties sharing the higher points,
+1 to a sole first place at least double the second, meet position by total, league points by place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.rules.field.options import UKPL_OPTIONS, FieldOptions
from bot.rules.field.scoring import MachineId, MachineScore, MeetRow, meet_results, rank_machine

LEAGUE_POINTS_TOLERANCE = Fraction(1, 100)


@dataclass(frozen=True)
class RawScore:
    player: str
    machine: int
    score: int | None
    guest: bool


@dataclass(frozen=True)
class PublishedResult:
    player: str
    machine_points: Fraction | None
    league_points: Fraction
    position: int


@dataclass(frozen=True)
class MeetComparison:
    competition: int
    machine_points: bool
    league_points: bool
    positions: bool
    players: bool  # the same non-guest players in both

    @property
    def exact(self) -> bool:
        return self.players and self.machine_points and self.league_points and self.positions


def compute_meet(scores: Iterable[RawScore], options: FieldOptions = UKPL_OPTIONS) -> list[MeetRow]:
    by_machine: dict[MachineId, list[MachineScore]] = defaultdict(list)
    for raw in scores:
        by_machine[raw.machine].append(MachineScore(raw.player, raw.score, guest=raw.guest))
    machines = {machine: rank_machine(entries, options) for machine, entries in by_machine.items()}
    return meet_results(machines, options)  # guests are never ranked, so they have no row


def compare_meet(competition: int, computed: Sequence[MeetRow], published: Sequence[PublishedResult]) -> MeetComparison:
    """Each published row against the recomputed one; a published player with no recomputed row (a result
    without scores) is a mismatch in every measure."""
    mine = {row.player: row for row in computed}
    pairs = [(row, mine.get(row.player)) for row in published]
    return MeetComparison(
        competition,
        machine_points=all(c is not None and p.machine_points == c.machine_points for p, c in pairs),
        league_points=all(
            c is not None and abs(p.league_points - c.position_points) <= LEAGUE_POINTS_TOLERANCE for p, c in pairs
        ),
        positions=all(c is not None and p.position == c.position for p, c in pairs),
        players=mine.keys() == {p.player for p in published},
    )
