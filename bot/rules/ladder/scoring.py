"""Game points, match bonus and normalized scores of one league night (LADDER-SCORE/BONUS/NORM-*).

A game entry carries two scores: the **placement** score that ranks it and the **official** score that
counts (LADDER-GHOST-6). They differ only for absent players: a premakeup places and counts with its
value; a ghost places with its ghost value and counts 0. Normalized values are exact `Fraction`s so the
"more than combined" comparisons of LADDER-BONUS-3 never suffer from rounding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from bot.rules.ladder.options import LadderOptions
from bot.rules.refusals import InvalidInput, RuleViolation

PlayerId = int

BASE_POINTS = {2: (3, 0), 3: (3, 2, 0), 4: (3, 2, 1, 0)}  # LADDER-SCORE-1, LADDER-AMB-1/2


class EntryKind(StrEnum):
    """How a player's score in one game came about (LADDER-GHOST-6)."""

    PLAYED = "played"
    PREMAKEUP = "premakeup"  # LADDER-PMU-6
    HALF_GHOST = "half_ghost"  # LADDER-GHOST-1: placed at round10(N/2), official 0
    REGIME_GHOST = "ghost"  # LADDER-GHOST-3: placed at the premakeup average, official 0

    @property
    def absent(self) -> bool:
        return self is not EntryKind.PLAYED


@dataclass(frozen=True)
class GameEntry:
    player: PlayerId
    kind: EntryKind
    placement: int
    rank: int  # current league rank (LADDER-ORDER-3): orders absent players level on score (LADDER-GHOST-4)

    @property
    def official(self) -> int:
        return self.placement if self.kind in (EntryKind.PLAYED, EntryKind.PREMAKEUP) else 0

    @property
    def forfeits_points(self) -> bool:
        """LADDER-GHOST-5 / LADDER-SCORE-3: points falling to an absent player with official 0 go to no one."""
        return self.kind.absent and self.official == 0


@dataclass(frozen=True)
class GameResult:
    order: tuple[PlayerId, ...]  # placement order, 1st first
    points: Mapping[PlayerId, int]
    voided: int  # points given to no one (LADDER-SCORE-2, LADDER-GHOST-5)


@dataclass(frozen=True)
class TieNeedsPlayoff:
    """LADDER-AMB-5: present players level on raw score play a one-ball playoff; points wait for it."""

    players: tuple[PlayerId, ...]


def round10(value: Fraction | int, *, half: str = "up") -> int:
    """Nearest multiple of 10 (LADDER-PMU-2); exact halves round up by default (LADDER-AMB-6).

    LADDER-TV-5: (12,345,670 + 23,456,780) / 2 = 17,901,225 → 17,901,230; 1,617,283.5 → 1,617,280.
    """
    tens = Fraction(value) / 10
    floor = tens.numerator // tens.denominator
    remainder = tens - floor
    if remainder > Fraction(1, 2) or (remainder == Fraction(1, 2) and (half == "up" or floor % 2 == 1)):
        floor += 1
    return floor * 10


def placement_order(
    entries: Sequence[GameEntry], playoff_order: Sequence[PlayerId] = ()
) -> tuple[PlayerId, ...] | TieNeedsPlayoff:
    """Rank a game by placement score (LADDER-SCORE-1).

    Exactly level scores (LADDER-SCORE-5): a present player goes ahead of an absent one (LADDER-AMB-10); absent
    players go by league rank (LADDER-GHOST-4); present players need the one-ball playoff of LADDER-AMB-5, whose
    finishing order is `playoff_order`.
    """
    by_score: dict[int, list[GameEntry]] = {}
    for entry in entries:
        by_score.setdefault(entry.placement, []).append(entry)
    order: list[PlayerId] = []
    for score in sorted(by_score, reverse=True):
        level = by_score[score]
        present = [e.player for e in level if not e.kind.absent]
        if len(present) > 1:
            settled = [p for p in playoff_order if p in present]
            if sorted(settled) != sorted(present):
                return TieNeedsPlayoff(tuple(sorted(present)))
            present = settled
        # LADDER-TV-9: two ghosts at 25M, the better-ranked absent player first
        absent = [e.player for e in sorted((e for e in level if e.kind.absent), key=lambda e: e.rank)]
        order += present + absent
    return tuple(order)


def players_in_a_tie(entries: Sequence[GameEntry]) -> frozenset[PlayerId]:
    """LADDER-AMB-5: the present players level on placement score with another present player, the only
    ones a one-ball playoff can be for."""
    present: dict[int, list[PlayerId]] = {}
    for entry in entries:
        if not entry.kind.absent:
            present.setdefault(entry.placement, []).append(entry.player)
    return frozenset(p for level in present.values() if len(level) > 1 for p in level)


def game_points(
    entries: Sequence[GameEntry],
    *,
    normalizer: int,
    options: LadderOptions,
    playoff_order: Sequence[PlayerId] = (),
) -> GameResult | TieNeedsPlayoff:
    """Points of one game for 2, 3 or 4 players (LADDER-SCORE-1..5, LADDER-GHOST-2/5)."""
    size = len(entries)
    if size not in BASE_POINTS:
        raise InvalidInput(f"A ladder game has 2 to 4 players, not {size} (LADDER-SCORE-1).")
    order = placement_order(entries, playoff_order)
    if isinstance(order, TieNeedsPlayoff):
        return order
    by_player = {e.player: e for e in entries}
    ranked = [by_player[p] for p in order]
    scores = [e.placement for e in ranked]
    awards = list(BASE_POINTS[size])  # LADDER-AMB-1 (2 players 3-0), LADDER-AMB-2 (4 players 3-2-1-0)
    voided = 0

    def first_place_point(earned: bool, fallback: int | None) -> None:
        """The decisive 1st-place point; a premakeup 1st never receives it (LADDER-SCORE-2, LADDER-AMB-4).

        LADDER-TV-10: a premakeup 90M > 30M + 20M still scores 3; the point is void (or goes to 3rd).
        """
        nonlocal voided
        if earned and ranked[0].kind is EntryKind.PREMAKEUP:
            if options.pmu_4th_point == "to_third" and fallback is not None:
                awards[fallback] += 1
            else:
                voided += 1
        elif earned:
            awards[0] += 1
        elif fallback is not None:
            awards[fallback] += 1

    if size == 2:
        ghost_opponent = ranked_half_ghost_opponent(ranked)
        if ghost_opponent is not None:  # LADDER-GHOST-2: the present player scores 3 or 4, whatever the order
            present = ranked[1 - ghost_opponent]
            decisive = present.placement * 2 >= normalizer * 3
            points = {present.player: 3, ranked[ghost_opponent].player: 0}
            if decisive and present.kind is EntryKind.PREMAKEUP:
                voided += 1
            elif decisive:
                points[present.player] = 4
            if present.forfeits_points:  # LADDER-SCORE-3 holds here too: an absent 0 scores nothing
                voided += points[present.player]
                points[present.player] = 0
            return GameResult(order, points, voided)
        first_place_point(scores[0] >= 3 * scores[1], 1)  # LADDER-AMB-1, LADDER-TV-3: 30M >= 3 x 10M → 4-0
    elif size == 3:
        # LADDER-TV-1: 50 > 25 + 20 → 4-2-0; LADDER-TV-2, LADDER-AMB-3: strict, 45 > 25 + 20 fails → 3-2-1
        first_place_point(scores[0] > scores[1] + scores[2], 2)
    else:  # LADDER-TV-4: 100/40/30/5 → 4-3-1-0, 60/40/30/20 → 3-2-2-1
        first_place_point(scores[0] > scores[1] + scores[2], 2)
        awards[1 if scores[1] > scores[2] + scores[3] else 3] += 1
    points = {}
    for entry, award in zip(ranked, awards, strict=True):
        if entry.forfeits_points:
            voided += award
            award = 0
        points[entry.player] = award
    return GameResult(order, points, voided)


def ranked_half_ghost_opponent(ranked: Sequence[GameEntry]) -> int | None:
    """Index of the half-normalizer ghost facing a non-ghost in a 2-player game (LADDER-GHOST-2)."""
    kinds = [e.kind for e in ranked]
    ghosts = [i for i, kind in enumerate(kinds) if kind is EntryKind.HALF_GHOST]
    others = [i for i, kind in enumerate(kinds) if kind not in (EntryKind.HALF_GHOST, EntryKind.REGIME_GHOST)]
    return ghosts[0] if len(ghosts) == 1 and len(others) == 1 else None


# --- Normalized scores (LADDER-NORM-*) -----------------------------------------------------------------


def check_normalizer(machine: str, normalizer: int | None) -> int:
    """LADDER-NORM-1: a machine needs a positive normalizer before it joins the nightly set."""
    if normalizer is None:
        raise RuleViolation("LADDER-NORM-1", f"Set a normalizer for {machine} first.")
    if normalizer <= 0:
        raise RuleViolation("LADDER-NORM-1", f"The normalizer for {machine} must be a positive score.")
    return normalizer


def normalized(official: int, normalizer: int) -> Fraction:
    """LADDER-NORM-1: raw ÷ normalizer, exact (shown to 4 decimals)."""
    return Fraction(official, check_normalizer("this machine", normalizer))


def week_tns(games: Sequence[tuple[int, int]]) -> Fraction:
    """LADDER-NORM-2: sum of (official score, normalizer) normalized; ghosts and zeros count 0."""
    return sum((normalized(score, normalizer) for score, normalizer in games), Fraction(0))


def ans(weekly_tns: Sequence[Fraction]) -> Fraction:
    """LADDER-NORM-3: average over the weeks with a TNS record (LADDER-AMB-25); 0 before any."""
    return sum(weekly_tns, Fraction(0)) / len(weekly_tns) if weekly_tns else Fraction(0)


def show(value: Fraction) -> str:
    """A normalized value the way the sheet prints it, to 4 decimals."""
    return f"{float(value):.4f}"


# --- Match ranking and bonus (LADDER-BONUS-*) ----------------------------------------------------------


@dataclass(frozen=True)
class NightLine:
    """One player's night in a group: week game points and week TNS."""

    player: PlayerId
    game_points: int
    tns: Fraction
    rank: int  # league rank, the last resort when points and TNS are both level
    absent_all_night: bool = False  # played no game and used no premakeup: bonus goes to no one


@dataclass(frozen=True)
class MatchResult:
    order: tuple[PlayerId, ...]  # winner first, loser last (LADDER-BONUS-1)
    bonus: Mapping[PlayerId, int]
    week_tlp: Mapping[PlayerId, int] = field(default_factory=dict)

    @property
    def winner(self) -> PlayerId:
        return self.order[0]

    @property
    def loser(self) -> PlayerId:
        return self.order[-1]


def match_order(lines: Sequence[NightLine]) -> tuple[PlayerId, ...]:
    """LADDER-BONUS-1: by week game points, ties by higher week TNS ("Case 1"), then league rank."""
    return tuple(line.player for line in sorted(lines, key=lambda line: (-line.game_points, -line.tns, line.rank)))


def match_bonus(lines: Sequence[NightLine], options: LadderOptions) -> MatchResult:
    """LADDER-BONUS-2/3/4 and LADDER-AMB-3/31: the match bonus, scored like a game on week game points."""
    size = len(lines)
    if size not in BASE_POINTS:
        raise InvalidInput(f"A ladder group has 2 to 4 players, not {size} (LADDER-GROUP-1).")
    by_player = {line.player: line for line in lines}
    ranked = [by_player[p] for p in match_order(lines)]
    pts = [line.game_points for line in ranked]
    tns = [line.tns for line in ranked]
    awards = list(BASE_POINTS[size])
    if size == 2:
        awards[0 if pts[0] >= 3 * pts[1] else 1] += 1  # LADDER-TV-14: 16 >= 3 x 4 → 4-0; 11 >= 27 fails → 3-1
    elif size == 3:
        awards[_three_player_point(pts, tns, options)] += 1  # LADDER-TV-11, LADDER-TV-12
    else:  # LADDER-TV-13: 14 / 12 / 8 / 6 → 3 / 2 / 2 / 1
        awards[_beats(pts[0], pts[1] + pts[2], tns[0], tns[1] + tns[2], 0, 2)] += 1
        awards[_beats(pts[1], pts[2] + pts[3], tns[1], tns[2] + tns[3], 1, 3)] += 1
        if _beats(pts[0], pts[1] + pts[2] + pts[3], tns[0], tns[1] + tns[2] + tns[3], 0, -1) == 0:
            awards[0] += 1
    bonus = {line.player: 0 if line.absent_all_night else award for line, award in zip(ranked, awards, strict=True)}
    week_tlp = {line.player: line.game_points + bonus[line.player] for line in ranked}
    return MatchResult(tuple(line.player for line in ranked), bonus, week_tlp)


def _beats(points: int, others: int, tns: Fraction, others_tns: Fraction, side: int, other_side: int) -> int:
    """Who gets a "more than combined" point: strictly more wins; an exact tie goes to TNS (LADDER-AMB-31)."""
    if points > others or (points == others and tns > others_tns):
        return side
    return other_side


def _three_player_point(pts: Sequence[int], tns: Sequence[Fraction], options: LadderOptions) -> int:
    """LADDER-BONUS-3 "Case 2": W = 2nd + 3rd goes to TNS; failing that, to the higher TNS of 2nd/3rd."""
    if pts[0] > pts[1] + pts[2]:
        return 0
    if pts[0] < pts[1] + pts[2]:
        return 2
    if tns[0] > tns[1] + tns[2]:
        return 0
    if options.case2 == "case2_to_third":
        return 2
    return 1 if tns[1] >= tns[2] else 2
