"""Season standings from weekly results (FIELD-STAND-*, FIELD-ATT-4, FIELD-AMB-11/19, UKPL best-N)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.rules.common import competition_ranks
from bot.rules.field.options import FieldOptions
from bot.rules.field.scoring import PlayerId

Points = Fraction | int


@dataclass(frozen=True)
class SeasonRow:
    player: PlayerId
    rank: int  # shared by equal totals (1, 2, 2, 4)
    total: Fraction  # after the dropped weeks, or the best N meets
    raw_total: Fraction
    weeks_played: int  # FIELD-ATT-4
    tiebreak: tuple[Fraction, ...]  # UKPL: best N+1, then N+2; empty for Lafayette


def counted_total(weekly: Sequence[Points], options: FieldOptions) -> tuple[Fraction, tuple[Fraction, ...]]:
    """One player's season total from their points in every week held (0 for an absent week).

    Lafayette (FIELD-STAND-1): the lowest `drop_lowest_weeks` are dropped, so the best W−2 count.
    UKPL: the best `best_meets` count, ties broken by the best N+1 and N+2.
    """
    best_first = sorted((Fraction(p) for p in weekly), reverse=True)
    if options.best_meets is not None:
        n = options.best_meets
        return sum(best_first[:n], Fraction(0)), tuple(sum(best_first[: n + k], Fraction(0)) for k in (1, 2))
    kept = max(0, len(best_first) - options.drop_lowest_weeks)
    return sum(best_first[:kept], Fraction(0)), ()


def ranked_by_running_total(weeks_held: int, options: FieldOptions) -> bool:
    """FIELD-STAND-1 in the first weeks: while no more nights are held than are dropped, every counted total
    is 0, so the table goes by the running (raw) total until a night counts."""
    return options.best_meets is None and weeks_held <= options.drop_lowest_weeks


def season_standings(
    weekly: Mapping[PlayerId, Mapping[int, Points]],
    weeks_held: Sequence[int],
    options: FieldOptions,
    *,
    excluded: Collection[PlayerId] = (),
) -> list[SeasonRow]:
    """The season table. `weekly[player][week]` holds the points of each week the player recorded a score.
    `excluded`: guests (FIELD-AMB-11) and players whose season was forfeited (FIELD-PEN-3, FIELD-AMB-19)."""
    early = ranked_by_running_total(len(weeks_held), options)
    rows = []
    for player, weeks in weekly.items():
        if player in excluded:
            continue
        values = [weeks.get(week, 0) for week in weeks_held]
        total, tiebreak = counted_total(values, options)
        played = sum(1 for week in weeks_held if week in weeks)
        rows.append((player, total, sum(map(Fraction, values), Fraction(0)), played, tiebreak))

    def ordered_by(row: tuple[PlayerId, Fraction, Fraction, int, tuple[Fraction, ...]]) -> Fraction:
        return row[2] if early else row[1]

    rows.sort(key=lambda r: (-ordered_by(r), tuple(-t for t in r[4]), str(r[0])))
    ranks = competition_ranks([(ordered_by(row), row[4]) for row in rows])
    return [
        SeasonRow(player, rank, total, raw, played, tiebreak)
        for (player, total, raw, played, tiebreak), rank in zip(rows, ranks, strict=True)
    ]


def regular_season_winner(table: Sequence[SeasonRow]) -> tuple[PlayerId, ...]:
    """FIELD-STAND-3: the regular-season title (rank 1), kept apart from the Playoffs Winner."""
    return tuple(row.player for row in table if row.rank == 1)
