"""Team playoffs: seeding and bracket, playoff rosters, neutral venues and excluded machines (TEAM-PO-1..5).

One single-elimination bracket per conference (TEAM-CFG-1), seeded from the final standings; byes go to the
top seeds, the bracket is fixed (no reseeding) and the higher seed is HOME (TEAM-PO-1, TEAM-AMB-14).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from bot.rules.brackets import Bracket, BracketState, MatchState, resolve, single_elimination
from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team.model import MachineId, PlayerId, TeamId
from bot.rules.team.options import TeamOptions
from bot.rules.team.standings import MatchKind, StandingRow, ties_needing_tiebreaker_match

VenueId = int


# --- Seeding and bracket (TEAM-PO-1, TEAM-AMB-14) ---------------------------------------------------------


@dataclass(frozen=True)
class PlayoffBracket:
    seeds: tuple[TeamId, ...]  # seeds[0] is seed 1
    bracket: Bracket


@dataclass(frozen=True)
class PlayoffFixture:
    match_id: str
    round: int
    home: TeamId  # the higher seed
    away: TeamId


@dataclass(frozen=True)
class PlayoffProgress:
    state: BracketState  # seed numbers, for drawing the bracket
    ready: tuple[PlayoffFixture, ...]
    champion: TeamId | None


def seed_bracket(rows: Sequence[StandingRow], options: TeamOptions, team_names: Mapping[TeamId, str]) -> PlayoffBracket:
    """TEAM-PO-1: seed the top `playoff_teams` of one conference's final standings (TEAM-AMB-14: default 4).

    Refuses while a tie that touches the playoffs is still level after step 5 (TEAM-STAND-2).
    """
    size = min(options.playoff_teams, len(rows))
    if size < 2:
        raise RuleViolation("TEAM-PO-1", "A playoff needs at least 2 teams in the conference.")
    if due := ties_needing_tiebreaker_match(rows, playoff_teams=size):
        names = _and_list(sorted(team_names[team] for team in due[0]))
        raise RuleViolation(
            "TEAM-STAND-2",
            f"{names} are still level after every tie-breaker; play the tie-breaker match before seeding.",
        )
    return PlayoffBracket(tuple(row.team for row in rows[:size]), single_elimination(size))


def playoff_progress(playoff: PlayoffBracket, winners: Mapping[str, TeamId]) -> PlayoffProgress:
    """Who plays next, from the winners entered so far (by bracket match id); HOME is the higher seed."""
    seed_of = {team: seed for seed, team in enumerate(playoff.seeds, start=1)}
    if strangers := [team for team in winners.values() if team not in seed_of]:
        raise InvalidInput(f"Team {strangers[0]} is not in these playoffs.")
    state = resolve(playoff.bracket, {match: seed_of[team] for match, team in winners.items()})
    ready = tuple(_fixture(match, playoff.seeds) for match in state.ready())
    champion = state.champion
    return PlayoffProgress(state, ready, playoff.seeds[champion - 1] if champion is not None else None)


def round_finished(progress: PlayoffProgress, round_number: int) -> bool:
    """TEAM-PO-4: neutral venues for the next round are chosen once the last match of this round is final."""
    return all(s.winner is not None for s in progress.state.matches if s.match.round == round_number)


def _fixture(match: MatchState, seeds: tuple[TeamId, ...]) -> PlayoffFixture:
    assert isinstance(match.top, int) and isinstance(match.bottom, int)  # a ready match has two seeds
    higher, lower = sorted((match.top, match.bottom))
    return PlayoffFixture(match.match.id, match.match.round, seeds[higher - 1], seeds[lower - 1])


# --- Playoff rosters (TEAM-PO-2, TEAM-PO-3, TEAM-AMB-15) --------------------------------------------------


@dataclass(frozen=True)
class RosterSpell:
    """A player's time on a team: on the roster from `start` up to, not including, `end`."""

    player: PlayerId
    team: TeamId
    start: date
    end: date | None = None


@dataclass(frozen=True)
class GamePlayed:
    """A player took part in a game of a match (tie-breaker games included) for `team`."""

    player: PlayerId
    team: TeamId
    kind: MatchKind


def playoff_roster(team: TeamId, spells: Iterable[RosterSpell], *, regular_season_end: date) -> frozenset[PlayerId]:
    """TEAM-PO-2: the roster in force in the last regular-season week (frozen after it, TEAM-ROSTER-10)."""
    return frozenset(
        s.player
        for s in spells
        if s.team == team and s.start <= regular_season_end and (s.end is None or s.end > regular_season_end)
    )


def check_playoff_player(
    player: PlayerId,
    player_name: str,
    team: TeamId,
    spells: Iterable[RosterSpell],
    games: Iterable[GamePlayed],
    *,
    regular_season_end: date,
) -> None:
    """TEAM-PO-2/PO-3: a playoff lineup may only name a player of the playoff roster who played a
    regular-season match game for this team (TEAM-AMB-15; tie-breaker games and matches count)."""
    if player not in playoff_roster(team, spells, regular_season_end=regular_season_end):
        raise RuleViolation("TEAM-PO-2", f"{player_name} is not on the playoff roster (last regular-season week).")
    if not any(g.player == player and g.team == team and g.kind is not MatchKind.PLAYOFF for g in games):
        raise RuleViolation("TEAM-PO-3", f"{player_name} did not play in the regular season")


def playoff_eligible(
    team: TeamId, spells: Iterable[RosterSpell], games: Iterable[GamePlayed], *, regular_season_end: date
) -> frozenset[PlayerId]:
    """TEAM-PO-2/PO-3: the players a playoff lineup may name, e.g. to offer in a select menu."""
    played = {g.player for g in games if g.team == team and g.kind is not MatchKind.PLAYOFF}
    return playoff_roster(team, spells, regular_season_end=regular_season_end) & played


# --- Neutral venues and excluded machines (TEAM-PO-4, TEAM-PO-5, TEAM-AMB-17, TEAM-AMB-24) ----------------


@dataclass(frozen=True)
class MachineSpell:
    """A machine's stay at a venue (COMMON-VENUE-1): there from `installed` up to, not including, `removed`."""

    venue: VenueId
    model_family: str
    installed: date
    removed: date | None = None


@dataclass(frozen=True)
class VenueMachine:
    machine: MachineId
    name: str
    model_family: str


@dataclass(frozen=True)
class CandidateVenue:
    venue: VenueId
    name: str
    machines: tuple[VenueMachine, ...]


@dataclass(frozen=True)
class PlayoffSide:
    """A playoff team as the venue rules see it."""

    team: TeamId
    name: str
    home_venue: VenueId
    home_families: frozenset[str]  # at its home venue at any time this season (home_families)
    playoff_venues: frozenset[VenueId] = frozenset()  # where it has played in these playoffs
    playoff_families: frozenset[str] = frozenset()  # model families it played in earlier playoff rounds


@dataclass(frozen=True)
class ExcludedMachine:
    machine: VenueMachine
    home_team: TeamId
    home_team_name: str


@dataclass(frozen=True)
class VenueRanking:
    venue: CandidateVenue
    rank: int  # venues meeting the same criteria share a rank
    c1_neither_home: bool
    c2_not_played_in_playoffs: bool
    c3_no_home_models: bool
    c4_no_played_models: bool
    excluded: tuple[ExcludedMachine, ...]  # what TEAM-PO-5 would take out of play there


def home_families(
    history: Iterable[MachineSpell], venue: VenueId, *, season_start: date, season_end: date
) -> frozenset[str]:
    """TEAM-PO-4 c3: model families found at `venue` at any point of the season, read from the venue's dated
    machine history (COMMON-VENUE-1): one removed mid-season counts, one gone before week one does not."""
    return frozenset(
        s.model_family
        for s in history
        if s.venue == venue and s.installed <= season_end and (s.removed is None or s.removed > season_start)
    )


def rank_neutral_venues(
    candidates: Iterable[CandidateVenue], first: PlayoffSide, second: PlayoffSide, options: TeamOptions
) -> list[VenueRanking]:
    """TEAM-PO-4: candidates ranked by c1, then c2, c3, c4, for the commissioner to choose from.

    c1 neither team's home; c2 neither team has played there in these playoffs; c3 no model family that was
    at either home this season (`c3_strict`), or that was at only one of them (`c3_allow_common`,
    TEAM-AMB-24); c4 no model family either team played in earlier playoff rounds (TEAM-AMB-17).
    """
    fails_c3 = first.home_families | second.home_families
    if options.neutral_venue_c3 == "c3_allow_common":
        fails_c3 = first.home_families ^ second.home_families
    fails_c4 = first.playoff_families | second.playoff_families
    rankings = []
    for venue in candidates:
        families = {m.model_family for m in venue.machines}
        criteria = (
            venue.venue not in (first.home_venue, second.home_venue),
            venue.venue not in first.playoff_venues | second.playoff_venues,
            not families & fails_c3,
            not families & fails_c4,
        )
        rankings.append((criteria, venue))
    rankings.sort(key=lambda ranked: ([not met for met in ranked[0]], ranked[1].name, ranked[1].venue))
    result: list[VenueRanking] = []
    for position, (criteria, venue) in enumerate(rankings, start=1):
        shares_rank = result and _criteria(result[-1]) == criteria
        rank = result[-1].rank if shares_rank else position
        result.append(VenueRanking(venue, rank, *criteria, excluded_machines(venue.machines, first, second)))
    return result


def excluded_machines(
    machines: Iterable[VenueMachine], first: PlayoffSide, second: PlayoffSide
) -> tuple[ExcludedMachine, ...]:
    """TEAM-PO-5: machines whose model family was at only one team's home this season; families found at both
    homes count as neutral and stay in play."""
    excluded = []
    for machine in machines:
        at_first = machine.model_family in first.home_families
        if at_first != (machine.model_family in second.home_families):
            owner = first if at_first else second
            excluded.append(ExcludedMachine(machine, owner.team, owner.name))
    return tuple(excluded)


def check_machine_pick(machine: MachineId, excluded: Collection[ExcludedMachine]) -> None:
    """TEAM-PO-5: refuse a pick of an excluded machine at the chosen neutral venue."""
    for exclusion in excluded:
        if exclusion.machine.machine == machine:
            raise RuleViolation(
                "TEAM-PO-5", f"{exclusion.machine.name} excluded: home-venue model of {exclusion.home_team_name}"
            )


def _criteria(ranking: VenueRanking) -> tuple[bool, bool, bool, bool]:
    return (
        ranking.c1_neither_home,
        ranking.c2_not_played_in_playoffs,
        ranking.c3_no_home_models,
        ranking.c4_no_played_models,
    )


def _and_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
