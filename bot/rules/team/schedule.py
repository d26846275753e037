"""Season schedule for the team format (TEAM-SCHED-1, TEAM-CFG-1).

Each league week every team plays at most one match, against one opponent, at the HOME team's bar. Pairings
come from the circle method (a full round robin every n-1 weeks, n-1 rounds for odd n with one bye a week),
repeated for as many weeks as the season has. Teams meet within their conference unless asked otherwise.

HOME/AWAY: repeat meetings of a pair alternate, so each pair's meetings cancel out two by two; the one
meeting left over by pairs that meet an odd number of times is oriented along closed walks of an Euler
circuit, which leaves every team with home and away counts that differ by at most 1.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from bot.rules.refusals import RuleViolation
from bot.rules.team.model import TeamId

VenueId = int


@dataclass(frozen=True)
class ScheduleTeam:
    team: TeamId
    home_venue: VenueId
    match_night: int  # weekday of the team's match evening, Monday = 0 (TEAM-CFG-1)
    conference: str | None = None


@dataclass(frozen=True)
class ScheduledMatch:
    week: int  # 1-based league week (COMMON-SEASON-1)
    date: date
    home: TeamId
    away: TeamId
    venue: VenueId  # the HOME team's bar


@dataclass(frozen=True)
class ScheduledBye:
    week: int
    team: TeamId


@dataclass(frozen=True)
class Season:
    matches: tuple[ScheduledMatch, ...]
    byes: tuple[ScheduledBye, ...]


def generate_season(
    teams: Sequence[ScheduleTeam], week_starts: Sequence[date], *, intra_conference: bool = True
) -> Season:
    """TEAM-SCHED-1: a season of `len(week_starts)` weeks.

    `week_starts` holds the first day of each league week, skipped weeks already left out (COMMON-SEASON-1).
    A match falls on the HOME team's match night within its week. With `intra_conference`, teams meet only
    teams of their own conference; teams without a conference form one pool.
    """
    by_team = {t.team: t for t in teams}
    weekly_pairs: list[list[tuple[TeamId, TeamId]]] = [[] for _ in week_starts]
    byes: list[ScheduledBye] = []
    for pool in _pools(teams, intra_conference):
        rounds = _circle_rounds([t.team for t in pool])
        for week_index, pairs in enumerate(weekly_pairs):
            this_round = rounds[week_index % len(rounds)]
            pairs.extend(this_round.pairs)
            if this_round.bye is not None:
                byes.append(ScheduledBye(week_index + 1, this_round.bye))
    matches = [
        _scheduled(week_index, week_starts[week_index], by_team[home], away)
        for week_index, home, away in _orient(weekly_pairs)
    ]
    return Season(
        tuple(sorted(matches, key=lambda m: (m.week, m.date, m.home))),
        tuple(sorted(byes, key=lambda b: (b.week, b.team))),
    )


def check_schedule(matches: Iterable[ScheduledMatch], team_names: Mapping[TeamId, str]) -> None:
    """TEAM-SCHED-1: refuse a schedule that gives a team two matches in the same week."""
    appearances = Counter((m.week, team) for m in matches for team in (m.home, m.away))
    for (week, team), count in sorted(appearances.items()):
        if count > 1:
            raise RuleViolation("TEAM-SCHED-1", f"{team_names[team]} has two matches in week {week}.")


def check_move_venue(venue: str, *, regular: bool, justification: str | None, regular_venues: Sequence[str]) -> None:
    """TEAM-VENUE-2: HOME moves the match to a regular league venue, or to another only with a recorded
    justification of why no regular league venue could host it."""
    if not regular and justification is None:
        raise RuleViolation(
            "TEAM-VENUE-2",
            f"{venue} is not a regular league venue. HOME chooses a regular league venue "
            f"({', '.join(regular_venues) or 'none yet'}) unless none can host the match; if so, say why with "
            "`justification:`.",
        )


def league_week(week_one: date, day: date) -> int:
    """The league week `day` falls in: weeks are 7 days long, counted from the first day of week 1."""
    return (day - week_one).days // 7 + 1


def week_for_match(
    day: date,
    teams: Collection[TeamId],
    others: Iterable[ScheduledMatch],
    *,
    week_one: date,
    team_names: Mapping[TeamId, str],
) -> int:
    """TEAM-SCHED-1: the week a match of `teams` would have on `day`, refusing a day in the week of another
    match of either team (`others`: their other matches, whatever their kind)."""
    week = league_week(week_one, day)
    if week < 1:
        raise RuleViolation(
            "TEAM-SCHED-1", f"{day:%a %Y-%m-%d} is before week 1 of the season, which starts {week_one:%a %Y-%m-%d}."
        )
    clashes = []
    for other in sorted(others, key=lambda m: (m.date, m.home)):
        for team in (other.home, other.away):
            if team in teams and league_week(week_one, other.date) == week:
                opponent = other.away if team == other.home else other.home
                clashes.append(f"{team_names[team]} already plays {team_names[opponent]} on {other.date:%a %Y-%m-%d}")
    if clashes:
        first_day = week_one + timedelta(weeks=week - 1)
        raise RuleViolation(
            "TEAM-SCHED-1",
            f"{' and '.join(clashes)}, in week {week} ({first_day:%a %m-%d} to "
            f"{first_day + timedelta(days=6):%a %m-%d}); a team plays one match a week. Pick a day in another week.",
        )
    return week


def _pools(teams: Sequence[ScheduleTeam], intra_conference: bool) -> list[list[ScheduleTeam]]:
    pools: dict[str | None, list[ScheduleTeam]] = defaultdict(list)
    for team in teams:
        pools[team.conference if intra_conference else None].append(team)
    for conference, pool in pools.items():
        if len(pool) < 2:
            where = f"Conference {conference}" if conference is not None else "The league"
            raise RuleViolation("TEAM-SCHED-1", f"{where} needs at least 2 teams to make a schedule.")
    return list(pools.values())


@dataclass(frozen=True)
class _Round:
    pairs: list[tuple[TeamId, TeamId]]
    bye: TeamId | None


def _circle_rounds(teams: list[TeamId]) -> list[_Round]:
    """Circle method: the first slot stays put and the others rotate one place a round. An odd count gets an
    empty slot, and whoever faces it has the bye."""
    slots: list[TeamId | None] = [*teams, None] if len(teams) % 2 else list(teams)
    fixed, ring = slots[0], slots[1:]
    rounds = []
    for shift in range(len(ring)):
        line = [fixed, *ring[shift:], *ring[:shift]]
        rounds.append(_split_bye([(line[i], line[-1 - i]) for i in range(len(line) // 2)]))
    return rounds


def _split_bye(slot_pairs: list[tuple[TeamId | None, TeamId | None]]) -> _Round:
    pairs, bye = [], None
    for a, b in slot_pairs:
        if a is None or b is None:
            bye = b if a is None else a
        else:
            pairs.append((a, b))
    return _Round(pairs, bye)


def _orient(weekly_pairs: list[list[tuple[TeamId, TeamId]]]) -> list[tuple[int, TeamId, TeamId]]:
    """(week index, home, away) for every pairing, with each team's home and away counts within 1."""
    meetings: dict[tuple[TeamId, TeamId], list[int]] = defaultdict(list)
    for week_index, pairs in enumerate(weekly_pairs):
        for a, b in pairs:
            meetings[min(a, b), max(a, b)].append(week_index)
    first_home = _euler_orientation([pair for pair, weeks in meetings.items() if len(weeks) % 2])
    oriented = []
    for (a, b), weeks in meetings.items():
        first_host = first_home.get((a, b), a)
        first_guest = b if first_host == a else a
        for n, week_index in enumerate(weeks):
            oriented.append((week_index, *((first_host, first_guest) if n % 2 == 0 else (first_guest, first_host))))
    return oriented


def _euler_orientation(edges: list[tuple[TeamId, TeamId]]) -> dict[tuple[TeamId, TeamId], TeamId]:
    """The HOME team for each edge so that every team hosts within one of the games it visits.

    Odd-degree teams are joined to a virtual node, making every degree even; a walk from any node along unused
    edges can then only get stuck where it started, so each closed walk enters every node as often as it
    leaves it. Orienting edges along those walks balances every node, up to its one virtual edge.
    """
    virtual = None
    adjacency: dict[TeamId | None, list[tuple[int, TeamId | None]]] = defaultdict(list)
    all_edges: list[tuple[TeamId | None, TeamId | None]] = list(edges)
    degree = Counter(team for edge in edges for team in edge)
    all_edges += [(team, virtual) for team in sorted(degree) if degree[team] % 2]
    for index, (a, b) in enumerate(all_edges):
        adjacency[a].append((index, b))
        adjacency[b].append((index, a))
    used = [False] * len(all_edges)
    next_edge: dict[TeamId | None, int] = defaultdict(int)
    home: dict[tuple[TeamId, TeamId], TeamId] = {}
    for start in list(adjacency):
        node = start
        while (step := _next_unused(adjacency[node], used, next_edge, node)) is not None:
            index, other = step
            used[index] = True
            if node is not None and other is not None:
                home[min(node, other), max(node, other)] = node
            node = other
    return home


def _next_unused(
    incident: list[tuple[int, TeamId | None]],
    used: list[bool],
    next_edge: dict[TeamId | None, int],
    node: TeamId | None,
) -> tuple[int, TeamId | None] | None:
    while next_edge[node] < len(incident):
        index, other = incident[next_edge[node]]
        next_edge[node] += 1
        if not used[index]:
            return index, other
    return None


def _scheduled(week_index: int, week_start: date, home: ScheduleTeam, away: TeamId) -> ScheduledMatch:
    night = week_start + timedelta(days=(home.match_night - week_start.weekday()) % 7)
    return ScheduledMatch(week_index + 1, night, home.team, away, home.home_venue)
