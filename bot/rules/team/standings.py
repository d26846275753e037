"""Team standings (TEAM-STAND-1..3, TEAM-AMB-10/11/19) and when a tie-breaker match is due and played
(TEAM-STAND-2).

Facts in, standings out: the finalized match results of the season are ranked per conference (TEAM-CFG-1) by
  1 record (win %), 2 cumulative match points, 3 head-to-head results, 4 head-to-head match points,
  5 away winning %, 6 the tie-breaker match.
Forfeits count with their awarded points (0/9/12); tie-breaker games inside a match add nothing, so the
results carry the match points as awarded. A tie of 3+ teams is broken on a mini-table of the tied teams, and
as soon as one team separates the rest start again from step 2 (TEAM-AMB-10); a step without data for every
tied team is skipped (TEAM-AMB-10/11).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from enum import StrEnum
from fractions import Fraction
from itertools import groupby

from bot.rules.common import competition_ranks
from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team.model import MatchId, Side, TeamId


class MatchKind(StrEnum):
    REGULAR = "regular"
    TIEBREAKER_MATCH = "tiebreaker_match"  # decides step 6 only, never the record (TEAM-AMB-19)
    PLAYOFF = "playoff"


class TieStep(StrEnum):
    """The TEAM-STAND-1 step that placed a team below or above the teams it was level with."""

    RECORD = "record"
    MATCH_POINTS = "match_points"
    HEAD_TO_HEAD = "head_to_head"
    HEAD_TO_HEAD_POINTS = "head_to_head_points"
    AWAY_PCT = "away_pct"
    TIEBREAKER_MATCH = "tiebreaker_match"


@dataclass(frozen=True)
class MatchResult:
    """A finalized match. `winner` None is a double loss (TEAM-AMB-8/9)."""

    match_id: MatchId
    date: date
    home: TeamId
    away: TeamId
    home_points: int
    away_points: int
    winner: Side | None
    kind: MatchKind = MatchKind.REGULAR


@dataclass(frozen=True)
class HeadToHead:
    """One team's results against one opponent (TEAM-STAND-3)."""

    played: int = 0
    wins: int = 0
    match_points: int = 0


@dataclass(frozen=True)
class StandingRow:
    team: TeamId
    rank: int  # teams still level after every step share a rank
    played: int
    wins: int
    losses: int
    win_pct: Fraction
    match_points: int
    away_played: int
    away_wins: int
    last_regular_match: date | None
    tied_with: frozenset[TeamId]  # still level after every step: a tie-breaker match may be due
    decided_by: TieStep | None  # None while tied


@dataclass
class _Totals:
    played: int = 0
    wins: int = 0
    match_points: int = 0
    away_played: int = 0
    away_wins: int = 0
    last_played: date | None = None


@dataclass(frozen=True)
class _Season:
    totals: Mapping[TeamId, _Totals]
    head_to_head: Mapping[tuple[TeamId, TeamId], HeadToHead]
    tiebreakers: Mapping[tuple[TeamId, TeamId], HeadToHead]


def head_to_head(results: Iterable[MatchResult]) -> dict[tuple[TeamId, TeamId], HeadToHead]:
    """TEAM-STAND-3: W/L and match points of every team against every opponent, regular-season matches only.

    Key (a, b) holds a's results against b.
    """
    return _pairwise(r for r in results if r.kind is MatchKind.REGULAR)


def standings(teams: Collection[TeamId], results: Iterable[MatchResult]) -> list[StandingRow]:
    """TEAM-STAND-1: one conference's table (TEAM-CFG-1), best first.

    Every regular-season result involving one of `teams` counts for that team; tie-breaker matches only
    decide step 6 and playoff matches are ignored. Teams level after step 6 share a rank and are listed by id.
    """
    season = _season(set(teams), results)
    steps = _steps(season)
    ordered = sorted(season.totals, key=lambda t: (_win_pct(season.totals[t]), -t), reverse=True)
    rows: list[StandingRow] = []
    for _, same_record in groupby(ordered, key=lambda t: _win_pct(season.totals[t])):
        group = list(same_record)
        placed = _break_tie(group, steps) if len(group) > 1 else [(group, TieStep.RECORD)]
        rows.extend(_row(team, season.totals[team], block, step) for block, step in placed for team in sorted(block))
    return _with_ranks(rows)


def ties_needing_tiebreaker_match(rows: Sequence[StandingRow], *, playoff_teams: int) -> list[frozenset[TeamId]]:
    """TEAM-STAND-2: the ties still level after step 5 that touch the playoffs, so a tie-breaker match is due.

    A tie matters when it reaches into the top `playoff_teams` places: it then decides qualification, seeding
    or who is HOME (the higher seed, TEAM-PO-1). A tie wholly below the cut is left as it is.
    """
    due: list[frozenset[TeamId]] = []
    for row in rows:
        group = row.tied_with | {row.team}
        if row.tied_with and row.rank <= playoff_teams and group not in due:
            due.append(group)
    return due


def tiebreaker_match_date(
    tied: Iterable[StandingRow], *, regular_season_end: date, match_night: int, bye_week_before_playoffs: bool
) -> date:
    """TEAM-STAND-2, TEAM-TV-11 (a) and (b): when the tie-breaker match is played.

    With a bye week before the playoffs: on the regular match night (`match_night`, Monday = 0) of the week
    after the regular season ends. Without one: two nights after the later of the tied teams' last regular
    match.
    """
    if bye_week_before_playoffs:
        return regular_season_end + timedelta(days=(match_night - regular_season_end.weekday() - 1) % 7 + 1)
    last_matches = [row.last_regular_match for row in tied if row.last_regular_match is not None]
    if not last_matches:
        raise ValueError("the tied teams have played no regular-season match")
    return max(last_matches) + timedelta(days=2)


@dataclass(frozen=True)
class TiebreakerMatchPlan:
    """TEAM-AMB-19: a full regular match under normal rules at a neutral venue; the coin toss's winner is HOME."""

    play_on: date
    home: TeamId
    away: TeamId


def plan_tiebreaker_match(
    rows: Sequence[StandingRow],
    pair: tuple[TeamId, TeamId],
    *,
    names: Mapping[TeamId, str],
    playoff_teams: int,
    unfinished_regular_matches: int,
    regular_season_end: date,
    match_night: int,
    bye_week_before_playoffs: bool,
    venue_name: str,
    venue_home_of: Collection[TeamId],
    toss_winner: TeamId,
) -> TiebreakerMatchPlan:
    """TEAM-STAND-2, TEAM-AMB-19, TEAM-TV-11: the tie-breaker match between two teams of one conference's table.

    Only once every regular-season match is final, and only for two teams still level after step 5 whose tie
    touches the top `playoff_teams` places: a tie wholly below the playoff line decides nothing (TEAM-TV-11 (c)).
    It is played on `tiebreaker_match_date` (TEAM-TV-11 (a) and (b)) at a venue that is neither team's home
    (`venue_home_of`: the teams whose home it is), and the team that won the recorded coin toss is HOME.
    """
    first, second = pair
    if first == second:
        raise InvalidInput("`team_b`: name the other team of the tie, not the same team twice.")
    if unfinished_regular_matches:
        raise RuleViolation(
            "TEAM-STAND-2",
            f"The regular season still has {unfinished_regular_matches} match(es) without a final result; a "
            "tie-breaker match is scheduled once every result is final and the tie still stands.",
        )
    by_team = {row.team: row for row in rows}
    if absent := [names[team] for team in pair if team not in by_team]:
        raise RuleViolation(
            "TEAM-STAND-2",
            f"{' and '.join(absent)} {'has' if len(absent) == 1 else 'have'} no result in this conference's table; "
            "a tie-breaker match is between two teams of one table. See `/standings`.",
        )
    row = by_team[first]
    if second not in row.tied_with:
        raise RuleViolation(
            "TEAM-STAND-2",
            f"{names[first]} and {names[second]} are not level after the tie-break steps "
            f"({names[first]} is {_place(row.rank)}, {names[second]} {_place(by_team[second].rank)}); "
            "a tie-breaker match is only for teams still level after step 5. See `/standings`.",
        )
    group = row.tied_with | {first}
    if group not in ties_needing_tiebreaker_match(rows, playoff_teams=playoff_teams):
        last = row.rank + len(group) - 1
        raise RuleViolation(
            "TEAM-STAND-2",
            f"{names[first]} and {names[second]} are level for {_place(row.rank)}–{_place(last)} place, below the "
            f"{playoff_teams} playoff places: the tie changes no qualification, seeding or home status, so no "
            "tie-breaker match is scheduled.",
        )
    if hosts := [team for team in pair if team in venue_home_of]:
        raise RuleViolation(
            "TEAM-AMB-19",
            f"{venue_name} is {names[hosts[0]]}'s home venue; a tie-breaker match is played at a neutral venue. "
            "Pick a venue that is neither team's home.",
        )
    if toss_winner not in pair:
        raise ValueError("the coin toss is won by one of the two teams")
    played_on = tiebreaker_match_date(
        [by_team[first], by_team[second]],
        regular_season_end=regular_season_end,
        match_night=match_night,
        bye_week_before_playoffs=bye_week_before_playoffs,
    )
    return TiebreakerMatchPlan(played_on, toss_winner, second if toss_winner == first else first)


def _place(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


_Step = Callable[[Sequence[TeamId]], dict[TeamId, Fraction] | None]


def _steps(season: _Season) -> list[tuple[TieStep, _Step]]:
    """Steps 2-6 of TEAM-STAND-1. Each maps a tied group to a key per team (higher is better), or None when
    the step has no data for some team in the group and is skipped."""
    totals = season.totals
    return [
        (TieStep.MATCH_POINTS, lambda group: {t: Fraction(totals[t].match_points) for t in group}),
        (TieStep.HEAD_TO_HEAD, lambda group: _mini_table(season.head_to_head, group, _h2h_win_pct)),
        (TieStep.HEAD_TO_HEAD_POINTS, lambda group: _mini_table(season.head_to_head, group, _h2h_points)),
        (TieStep.AWAY_PCT, lambda group: _away_pct(totals, group)),
        (TieStep.TIEBREAKER_MATCH, lambda group: _mini_table(season.tiebreakers, group, _h2h_win_pct)),
    ]


def _break_tie(
    group: Sequence[TeamId], steps: list[tuple[TieStep, _Step]]
) -> list[tuple[list[TeamId], TieStep | None]]:
    """TEAM-AMB-10: apply steps 2-6 in order; once a step splits the group, each part still level starts
    again from step 2. Returns the group's teams best first, in blocks of (still level, deciding step)."""
    for step, key_of in steps:
        keys = key_of(group)
        if keys is None:
            continue
        ordered = sorted(group, key=lambda t: keys[t], reverse=True)
        parts = [list(part) for _, part in groupby(ordered, key=lambda t: keys[t])]
        if len(parts) == 1:
            continue
        return [block for part in parts for block in (_break_tie(part, steps) if len(part) > 1 else [(part, step)])]
    return [(list(group), None)]


def _mini_table(
    pairs: Mapping[tuple[TeamId, TeamId], HeadToHead],
    group: Sequence[TeamId],
    key: Callable[[HeadToHead], Fraction],
) -> dict[TeamId, Fraction] | None:
    """Each team's combined results against the other tied teams; None if one of them never met any."""
    tables = {}
    for team in group:
        played = wins = points = 0
        for other in group:
            record = pairs.get((team, other))
            if record is not None:
                played, wins, points = played + record.played, wins + record.wins, points + record.match_points
        if played == 0:
            return None
        tables[team] = key(HeadToHead(played, wins, points))
    return tables


def _h2h_win_pct(record: HeadToHead) -> Fraction:
    return Fraction(record.wins, record.played)


def _h2h_points(record: HeadToHead) -> Fraction:
    return Fraction(record.match_points)


def _away_pct(totals: Mapping[TeamId, _Totals], group: Sequence[TeamId]) -> dict[TeamId, Fraction] | None:
    """Step 5 (TEAM-STAND-3): away wins / away matches, forfeits included; skipped if a team has no away
    match (TEAM-AMB-11)."""
    if any(totals[t].away_played == 0 for t in group):
        return None
    return {t: Fraction(totals[t].away_wins, totals[t].away_played) for t in group}


def _season(teams: set[TeamId], results: Iterable[MatchResult]) -> _Season:
    totals = {team: _Totals() for team in teams}
    among: dict[MatchKind, list[MatchResult]] = {MatchKind.REGULAR: [], MatchKind.TIEBREAKER_MATCH: []}
    for result in results:
        if result.kind is MatchKind.PLAYOFF:
            continue
        if result.kind is MatchKind.REGULAR:
            for team, _, points, won, away in _perspectives(result):
                if team in totals:
                    _count(totals[team], points, won, away, result.date)
        if result.home in totals and result.away in totals:
            among[result.kind].append(result)
    return _Season(totals, _pairwise(among[MatchKind.REGULAR]), _pairwise(among[MatchKind.TIEBREAKER_MATCH]))


def _perspectives(result: MatchResult) -> tuple[tuple[TeamId, TeamId, int, bool, bool], ...]:
    """(team, opponent, its match points, won, away) for each side of a match."""
    return (
        (result.home, result.away, result.home_points, result.winner is Side.HOME, False),
        (result.away, result.home, result.away_points, result.winner is Side.AWAY, True),
    )


def _count(totals: _Totals, points: int, won: bool, away: bool, played_on: date) -> None:
    totals.played += 1
    totals.wins += won
    totals.match_points += points
    if away:
        totals.away_played += 1
        totals.away_wins += won
    if totals.last_played is None or played_on > totals.last_played:
        totals.last_played = played_on


def _pairwise(results: Iterable[MatchResult]) -> dict[tuple[TeamId, TeamId], HeadToHead]:
    counts: dict[tuple[TeamId, TeamId], list[int]] = defaultdict(lambda: [0, 0, 0])
    for result in results:
        for team, opponent, points, won, _ in _perspectives(result):
            cell = counts[team, opponent]
            cell[0] += 1
            cell[1] += won
            cell[2] += points
    return {pair: HeadToHead(*cell) for pair, cell in counts.items()}


def _win_pct(totals: _Totals) -> Fraction:
    return Fraction(totals.wins, totals.played) if totals.played else Fraction(0)


def _row(team: TeamId, totals: _Totals, block: list[TeamId], step: TieStep | None) -> StandingRow:
    return StandingRow(
        team=team,
        rank=0,
        played=totals.played,
        wins=totals.wins,
        losses=totals.played - totals.wins,
        win_pct=_win_pct(totals),
        match_points=totals.match_points,
        away_played=totals.away_played,
        away_wins=totals.away_wins,
        last_regular_match=totals.last_played,
        tied_with=frozenset(block) - {team} if step is None else frozenset(),
        decided_by=step,
    )


def _with_ranks(rows: list[StandingRow]) -> list[StandingRow]:
    """Teams still level after the tie-breaking steps share a rank."""
    ranks = competition_ranks(rows, level=lambda ahead, row: row.team in ahead.tied_with)
    return [replace(row, rank=rank) for row, rank in zip(rows, ranks, strict=True)]
