"""Dues, the weekly pot and its payouts, forfeits and season prizes, all in integer cents (LADDER-PAY-*)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.rules.ladder.options import LadderOptions
from bot.rules.money import split_in_cents

PlayerId = int


def dues_owed(active_players: int, options: LadderOptions) -> int:
    """LADDER-PAY-1, LADDER-AMB-20: every active player owes the weekly dues, present or not."""
    return active_players * options.weekly_dues_cents


def weekly_pot(collected_cents: int, options: LadderOptions) -> tuple[int, int]:
    """LADDER-PAY-1: (pot, prize fund): 50% of the dues actually collected goes to the night's pot."""
    pot = collected_cents * options.weekly_pot_percent // 100
    return pot, collected_cents - pot


@dataclass(frozen=True)
class GroupLine:
    """A group member's night for the payout (finishing order per LADDER-BONUS-1, winner first)."""

    player: PlayerId
    week_tlp: int
    week_tns: Fraction
    present: bool  # played at least one game in person


def group_candidate(finish: Sequence[GroupLine]) -> GroupLine | None:
    """LADDER-PAY-2/3: the group winner; an absent (premakeup) winner forfeits to the group's next highest
    week-TLP player who was present."""
    if not finish:
        return None
    if finish[0].present:
        return finish[0]
    present = [line for line in finish if line.present]
    return max(present, key=lambda line: (line.week_tlp, line.week_tns), default=None)


def payout_candidates(groups: Sequence[Sequence[GroupLine]]) -> list[GroupLine]:
    """LADDER-PAY-2/3, LADDER-NORM-4: each group's candidate, ranked by week TLP, ties by week TNS."""
    candidates = [c for c in (group_candidate(g) for g in groups) if c is not None]
    return sorted(candidates, key=lambda c: (-c.week_tlp, -c.week_tns, c.player))


def payout_ties(
    groups: Sequence[Sequence[GroupLine]], league_size: int, options: LadderOptions
) -> list[list[PlayerId]]:
    """Candidates level on week TLP and week TNS where money is paid: the rules cannot order them, so they
    share their places' money and the commissioners are told ("flag", the catalog's word for it)."""
    places = len(_split(groups, league_size, options))
    return [
        [c.player for c, _ in run]
        for run in _level_runs(payout_candidates(groups))
        if len(run) > 1 and run[0][1] < places
    ]


def weekly_payouts(
    groups: Sequence[Sequence[GroupLine]], league_size: int, pot_cents: int, options: LadderOptions
) -> dict[PlayerId, int]:
    """LADDER-PAY-2, LADDER-AMB-20: 75/25 below 18 players, 65/25/10 from 18; a single group's winner takes
    all. Cents left by rounding down go one at a time in finishing order (COMMON-AMB-2), shares without a
    candidate go to the first place, so the pot is always paid in full; candidates level on week TLP and TNS
    share their places' money equally (`payout_ties`)."""
    candidates = payout_candidates(groups)
    if not candidates:
        return {}
    shares = split_in_cents(pot_cents, _split(groups, league_size, options))
    amounts = [shares[place] if place < len(shares) else 0 for place in range(len(candidates))]
    amounts[0] += sum(shares[len(candidates) :])
    for run in _level_runs(candidates):
        pooled = sum(amounts[place] for _, place in run)
        for index, (_, place) in enumerate(run):  # equal shares, odd cents in finishing order (COMMON-AMB-2)
            amounts[place] = pooled // len(run) + (1 if index < pooled % len(run) else 0)
    return {c.player: amounts[place] for place, c in enumerate(candidates) if place < len(shares) or amounts[place]}


def _split(groups: Sequence[Sequence[GroupLine]], league_size: int, options: LadderOptions) -> Sequence[int]:
    if len(groups) == 1:
        return (100,)
    return options.large_league_split if league_size >= options.large_league_players else options.small_league_split


def _level_runs(candidates: Sequence[GroupLine]) -> list[list[tuple[GroupLine, int]]]:
    """The ranked candidates (with their place) in runs of equal week TLP and TNS."""
    runs: list[list[tuple[GroupLine, int]]] = []
    for place, candidate in enumerate(candidates):
        if runs and (runs[-1][0][0].week_tlp, runs[-1][0][0].week_tns) == (candidate.week_tlp, candidate.week_tns):
            runs[-1].append((candidate, place))
        else:
            runs.append([(candidate, place)])
    return runs


def no_show_forfeit(paid_so_far_cents: int) -> int:
    """LADDER-PAY-4: the 3rd No-Show forfeits all money paid this season."""
    return max(paid_so_far_cents, 0)


def season_prizes(
    prize_table_cents: Mapping[str, Sequence[int]], finishing: Mapping[str, Sequence[PlayerId]]
) -> dict[PlayerId, int]:
    """LADDER-PAY-5, LADDER-AMB-23/34: the commissioner's prize table per division, paid down the
    finishing order (playoff order by default, standings with `prizes_by=standings`)."""
    awards: dict[PlayerId, int] = {}
    for division, prizes in prize_table_cents.items():
        for player, prize in zip(finishing.get(division, ()), prizes, strict=False):
            awards[player] = awards.get(player, 0) + prize
    return awards


def consolation_prizes(second_place_cents: Mapping[str, int], options: LadderOptions) -> dict[str, int]:
    """LADDER-AMB-23: consolation = 20% of A-division 2nd place ("*"), 50% of B-division 2nd place ("**")."""
    percent = {"A": options.consolation_a_percent, "B": options.consolation_b_percent}
    return {d: cents * percent[d] // 100 for d, cents in second_place_cents.items() if d in percent}
