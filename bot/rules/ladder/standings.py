"""Season standings, the week-5 division split and playoff qualification (LADDER-STAND/DIV/PO-*)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from fractions import Fraction

from bot.rules.common import competition_ranks
from bot.rules.ladder.attendance import splits_into_divisions
from bot.rules.ladder.groups import deal
from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.scoring import ans

PlayerId = int


@dataclass(frozen=True)
class WeekRecord:
    """A player's week: week TLP (game points + match bonus) and TNS; `tns` None = no TNS record."""

    week: int
    tlp: int
    tns: Fraction | None


@dataclass(frozen=True)
class StandingRow:
    player: PlayerId
    tlp: int
    ans: Fraction
    position: int  # shared by players level on TLP and ANS
    division: str | None = None


def season_totals(weeks: Sequence[WeekRecord], *, up_to_week: int | None = None) -> tuple[int, Fraction]:
    """LADDER-BONUS-4, LADDER-NORM-3: TLP = sum of week TLPs; ANS over the weeks with a TNS record."""
    counted = [w for w in weeks if up_to_week is None or w.week <= up_to_week]
    return sum(w.tlp for w in counted), ans([w.tns for w in counted if w.tns is not None])


def standings(
    records: Mapping[PlayerId, Sequence[WeekRecord]], divisions: Mapping[PlayerId, str] | None = None
) -> list[StandingRow]:
    """LADDER-STAND-1/2: TLP descending, ties by ANS; per division once the split has happened."""
    rows: list[StandingRow] = []
    by_division: dict[str | None, list[tuple[PlayerId, int, Fraction]]] = defaultdict(list)
    for player, weeks in records.items():
        tlp, average = season_totals(weeks)
        by_division[divisions.get(player) if divisions else None].append((player, tlp, average))
    for division in sorted(by_division, key=lambda d: d or ""):
        ordered = sorted(by_division[division], key=lambda row: (-row[1], -row[2], row[0]))
        positions = competition_ranks([(tlp, average) for _, tlp, average in ordered])
        for (player, tlp, average), position in zip(ordered, positions, strict=True):
            rows.append(StandingRow(player, tlp, average, position, division))
    return rows


# --- Division split (LADDER-DIV-*) ---------------------------------------------------------------------


@dataclass(frozen=True)
class WinLoss:
    """LADDER-AMB-17: pairwise game record over weeks 1-5."""

    wins: int = 0
    losses: int = 0

    @property
    def share(self) -> Fraction:
        played = self.wins + self.losses
        return Fraction(self.wins, played) if played else Fraction(0)


def win_loss(games: Sequence[Mapping[PlayerId, int]]) -> dict[PlayerId, WinLoss]:
    """LADDER-AMB-17: each game, +1 W per opponent with a lower placement score, +1 L per higher one."""
    wins: dict[PlayerId, int] = defaultdict(int)
    losses: dict[PlayerId, int] = defaultdict(int)
    for placements in games:
        for player, score in placements.items():
            wins[player] += sum(1 for other, s in placements.items() if other != player and s < score)
            losses[player] += sum(1 for other, s in placements.items() if other != player and s > score)
    return {player: WinLoss(wins[player], losses[player]) for player in set(wins) | set(losses)}


@dataclass(frozen=True)
class SplitLine:
    player: PlayerId
    tlp: int  # weeks 1-5
    ans: Fraction  # weeks 1-5
    record: WinLoss = field(default_factory=WinLoss)


def split_divisions(lines: Sequence[SplitLine], options: LadderOptions) -> dict[PlayerId, str] | None:
    """LADDER-DIV-1/3: active players at week 5 (dropped ones left out by the caller, LADDER-ATT-6) split
    A/B: top n/2 (odd n: (n-1)/2) by TLP go to A, ties by ANS, then win-loss. None = no split (n < 8)."""
    if not splits_into_divisions(len(lines), options):
        return None
    ordered = sorted(lines, key=lambda line: (-line.tlp, -line.ans, -line.record.share, line.player))
    top = len(ordered) // 2
    return {line.player: "A" if index < top else "B" for index, line in enumerate(ordered)}


def division_groups(players_best_first: Sequence[PlayerId]) -> list[list[PlayerId]]:
    """LADDER-DIV-2, LADDER-AMB-33: the week-6 groups of a division, dealt by TLP rank from the top."""
    return deal(players_best_first)


# --- Playoffs (LADDER-PO-*) ----------------------------------------------------------------------------


def playoff_count(division_size: int, options: LadderOptions) -> int:
    """LADDER-PO-1, LADDER-AMB-19: clamp(size // 3, 2, 6) unless the commissioner set a number."""
    count = options.playoff_qualifiers or min(max(division_size // 3, 2), 6)
    return min(count, division_size)


@dataclass(frozen=True)
class PlayoffField:
    players: tuple[PlayerId, ...]
    replacements: tuple[tuple[PlayerId, PlayerId], ...]  # (missing qualifier, alternate) (LADDER-PO-2)
    reschedule_tasks: tuple[PlayerId, ...]  # notified absences the commissioner tries first (LADDER-PO-3)


def playoff_field(
    final_order: Sequence[PlayerId],
    count: int,
    present: AbstractSet[PlayerId],
    notified_absent: AbstractSet[PlayerId] = frozenset(),
    rescheduled: AbstractSet[PlayerId] = frozenset(),
) -> PlayoffField:
    """LADDER-PO-1/2/3: the top `count` of a division's final standings; at 19:30 each missing qualifier is
    replaced by the next runner-up present. A qualifier who gave notice is first a reschedule task; once the
    commissioner could not reschedule (not in `rescheduled`), the alternate plays."""
    qualifiers = list(final_order[:count])
    runners_up = [p for p in final_order[count:] if p in present]
    entrants: list[PlayerId] = []
    replacements = []
    for player in qualifiers:
        if player in present or player in rescheduled:
            entrants.append(player)
        elif runners_up:
            alternate = runners_up.pop(0)
            entrants.append(alternate)
            replacements.append((player, alternate))
    tasks = tuple(p for p in qualifiers if p in notified_absent)
    return PlayoffField(tuple(entrants), tuple(replacements), tasks)
