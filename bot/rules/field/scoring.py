"""Machine points and meet results: every machine ranks the whole field (FIELD-SCORE-*).

Lafayette (defaults): points 25, 24 … 0 by rank, +5 for the top score; an exact tie stays provisional until
the one-ball playoff order is entered (FIELD-SCORE-3), or shares the best tied rank when the playoff cannot
be played (FIELD-AMB-17). UKPL (`UKPL_OPTIONS`): N…1 where N is the players ranked on that machine, ties
share the higher points, +1 to a sole first place at least double the second, position points by place.
Its earlier eras (bot/rules/field/ukpl_eras.py) also need ties on the lower points, unrecorded scores without
points, a top-half floor for position points and positions ranked by position points.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from bot.rules.common import competition_ranks
from bot.rules.field.options import FieldOptions

PlayerId = int | str
MachineId = int | str


class ScoreStatus(StrEnum):
    """The COMMON-SCORE-2 statuses a field meet uses."""

    NORMAL = "normal"
    ZEROED = "zeroed"  # machine score 0 that still ranks, last (FIELD-PEN-2 2nd offence, FIELD-PEN-9)
    FORFEITED = "forfeited"  # interference forfeit: 0 points and no rank (FIELD-PEN-3, FIELD-SCORE-6)
    VOID = "void"  # replaced by a replay or voided slot (FIELD-MALF-2/4, FIELD-AMB-12)


@dataclass(frozen=True)
class MachineScore:
    player: PlayerId
    score: int | None  # None: a score the league never recorded (UKPL legacy NULL), ranked last
    status: ScoreStatus = ScoreStatus.NORMAL
    guest: bool = False


@dataclass(frozen=True)
class MachinePoints:
    player: PlayerId
    rank: int | None  # None: forfeited, no rank
    points: int
    bonus: int
    provisional: bool = False  # FIELD-SCORE-3: tied, playoff result not entered yet

    @property
    def total(self) -> int:
        return self.points + self.bonus


@dataclass(frozen=True)
class TieToBreak:
    """FIELD-SCORE-3: players with exactly equal scores on one machine, who play a one-ball playoff."""

    players: frozenset[PlayerId]
    score: int


@dataclass(frozen=True)
class MachineResult:
    points: Mapping[PlayerId, MachinePoints]
    open_ties: tuple[TieToBreak, ...]  # playoffs still to be entered
    unplayed_ties: tuple[TieToBreak, ...] = ()  # FIELD-AMB-17: shared ranks, flagged for the SLO


TieOutcome = tuple[PlayerId, ...] | None
"""A playoff's finishing order, or None when it cannot be played (FIELD-AMB-17)."""


def rank_machine(
    scores: Iterable[MachineScore],
    options: FieldOptions,
    playoffs: Mapping[frozenset[PlayerId], TieOutcome] | None = None,
) -> MachineResult:
    """Rank one machine's scores for the whole field and give each player their points (FIELD-SCORE-2/6).
    FIELD-TV-1: six players, two tied until their playoff is entered → 30, 24, 23, 22, 21, 20."""
    playoffs = playoffs or {}
    # FIELD-TV-13: a guest's top score ranks like anyone's (30), so the members below get 24, 23, …
    counted = [s for s in scores if s.status is not ScoreStatus.VOID and (options.guests_ranked or not s.guest)]
    # FIELD-TV-12: a death-save zero ranks last (16 in a field of 10) unless `zero_no_rank_all` (0, no rank)
    no_rank = {ScoreStatus.FORFEITED} | ({ScoreStatus.ZEROED} if options.zero_no_rank_all else set())

    def unranked(s: MachineScore) -> bool:
        """0 points and no rank: a forfeit, or an unrecorded score unless the league ranks those last."""
        return s.status in no_rank or (s.score is None and options.unrecorded_scores != "rank_last")

    ranked = [s for s in counted if not unranked(s)]
    result = {s.player: MachinePoints(s.player, None, 0, 0) for s in counted if unranked(s)}
    unrecorded = sum(1 for s in counted if s.score is None and s.status not in no_rank)

    in_order = sorted(ranked, key=_rank_key)
    ranks = dict(zip((s.player for s in in_order), competition_ranks([_rank_key(s) for s in in_order]), strict=True))
    provisional: set[PlayerId] = set()
    open_ties, unplayed = [], []
    for tie in _ties(ranked) if options.machine_ties == "playoff" else ():
        if tie.players not in playoffs:
            provisional |= tie.players
            open_ties.append(tie)
        elif (order := playoffs[tie.players]) is None:
            unplayed.append(tie)
        else:
            base = ranks[next(iter(tie.players))]
            for offset, player in enumerate(order):
                ranks[player] = base + offset

    size = len(ranked) + (unrecorded if options.unrecorded_scores == "no_points_counted" else 0)
    firsts = [s for s in ranked if ranks[s.player] == 1]
    seconds = [s for s in ranked if ranks[s.player] == 2]
    sharing = Counter(ranks[s.player] for s in ranked)
    for s in ranked:
        rank = ranks[s.player]
        # share_lower: the tied players all take the last of the places they cover
        scored_rank = rank + sharing[rank] - 1 if options.machine_ties == "share_lower" else rank
        points = (  # FIELD-TV-2: in a field of 28, rank 25 → 1 and ranks 26, 27, 28 → 0
            max(0, options.top_points + 1 - scored_rank) if options.points_scale == "fixed" else size - scored_rank + 1
        )
        bonus = options.top_bonus if rank == 1 and _earns_bonus(firsts, seconds, options) else 0
        result[s.player] = MachinePoints(s.player, rank, points, bonus, s.player in provisional)
    return MachineResult(result, tuple(open_ties), tuple(unplayed))


def _rank_key(score: MachineScore) -> tuple[int, int]:
    """Sort key, best first: real scores by value; then penalty zeros and unrecorded scores, sharing the
    first rank after the last real score, with no playoff (FIELD-SCORE-6, FIELD-AMB-3)."""
    if score.status is ScoreStatus.ZEROED or score.score is None:
        return (1, 0)
    return (0, -score.score)


def _ties(ranked: Sequence[MachineScore]) -> list[TieToBreak]:
    by_score: dict[int, set[PlayerId]] = defaultdict(set)
    for s in ranked:
        if s.status is ScoreStatus.NORMAL and s.score is not None:
            by_score[s.score].add(s.player)
    return [TieToBreak(frozenset(players), score) for score, players in sorted(by_score.items()) if len(players) > 1]


def _earns_bonus(firsts: Sequence[MachineScore], seconds: Sequence[MachineScore], options: FieldOptions) -> bool:
    if options.bonus_rule == "top_score":
        return True  # shared when the first place is tied and the playoff was not played (FIELD-AMB-17)
    if len(firsts) != 1 or not seconds or firsts[0].score is None:
        return False  # UKPL: no bonus for a tied first place or without a recorded second score
    second = seconds[0].score
    return second is not None and firsts[0].score >= 2 * second


@dataclass(frozen=True)
class MeetRow:
    player: PlayerId
    machine_points: int  # FIELD-SCORE-5: the weekly score
    position: int
    position_points: Fraction
    provisional: bool
    guest: bool


def meet_results(
    machines: Mapping[MachineId, MachineResult], options: FieldOptions, guests: Iterable[PlayerId] = ()
) -> list[MeetRow]:
    """The meet's table: each player's sum of machine points, position by that total (1, 2, 2, 4) and the
    position points of that place, shared places averaged (UKPL league points)."""
    totals: dict[PlayerId, int] = defaultdict(int)
    provisional: set[PlayerId] = set()
    for result in machines.values():
        for row in result.points.values():
            totals[row.player] += row.total
            if row.provisional:
                provisional.add(row.player)
    guest_set = set(guests)
    ordered = sorted(totals, key=lambda p: (-totals[p], str(p)))
    sharing = Counter(totals.values())
    places = dict(zip(ordered, competition_ranks([totals[p] for p in ordered]), strict=True))
    earned = {p: position_points(places[p], sharing[totals[p]], options, field=len(ordered)) for p in ordered}
    if options.position_by == "position_points":  # UKPL seasons 1-14: everyone on 0 shares one position
        places = dict(zip(ordered, competition_ranks([earned[p] for p in ordered]), strict=True))
    return [
        MeetRow(player, totals[player], places[player], earned[player], player in provisional, player in guest_set)
        for player in ordered
    ]


def position_points(position: int, shared: int, options: FieldOptions, *, field: int = 0) -> Fraction:
    """Place k earns max(0, first + 1 − k), or `top_half_points` if more while k ≤ field // 2; k players
    sharing a place get the mean of the places they cover."""
    first, top_half = options.position_points_first, field // 2

    def earns(place: int) -> int:
        return max(first + 1 - place, options.top_half_points if place <= top_half else 0)

    return Fraction(sum(earns(place) for place in range(position, position + shared)), shared)


def weekly_score(ranks: Sequence[int], options: FieldOptions) -> int:
    """FIELD-SCORE-5 / FIELD-TV-3: the week's points from the player's rank on each machine (no ties)."""
    return sum(max(0, options.top_points + 1 - r) + (options.top_bonus if r == 1 else 0) for r in ranks)
