"""Reading a match's stored facts into the plain inputs of the team rules (`MatchNight`, `MatchFacts`).

Nothing here decides anything: it gathers rows and hands them to `bot.rules.team`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession
from sqlmodel.sql.expression import SelectOfScalar

import bot.rules.team
from bot.rules.team import attendance, lineup, scoring, scouting
from bot.rules.team.model import RosterRole as Role
from bot.rules.team.model import ScoreStatus, Side
from bot.rules.team.options import TeamOptions
from bot.services.league_options import options_on
from storage.matches import (
    GamePenalty,
    GameScore,
    LineupReplacement,
    Match,
    MatchConfirmation,
    MatchGameStart,
    MatchLineup,
    MatchMachineOut,
    MatchVisit,
    MatchWalkout,
    TiebreakerGame,
)
from storage.models import League, Machine, Player, RosterEntry, Team, roster_entry_applies
from storage.prepared import param, params_in, prepared
from storage.results import BASIS_LENGTH, RESULT_TABLES, MatchFinalResult

M = TypeVar("M", bound=SQLModel)
YIELD_EVERY = 10  # matches scored between two turns of the event loop
YIELD_EVERY_STORED = 500  # stored results rebuilt between two turns of the event loop
BATCH = 1_000  # match ids per IN (...) list: well inside SQLite's and asyncpg's parameter limits


@dataclass(frozen=True)
class MatchContext:
    """A match with its league, teams and options: what every match-night service starts from."""

    league: League
    match: Match
    teams: dict[Side, Team]
    options: TeamOptions

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.league.timezone)

    def side_of_team(self, team_id: int) -> Side | None:
        return next((side for side, team in self.teams.items() if team.id == team_id), None)

    @property
    def label(self) -> str:
        return f"{self.teams[Side.AWAY].name} at {self.teams[Side.HOME].name}"


async def rosters(session: AsyncSession, context: MatchContext) -> dict[Side, tuple[attendance.RosterEntry, ...]]:
    """Each side's roster in force on the match date (TEAM-ROSTER-4). Plain columns, not model instances: every
    match-night command reads two teams' rosters, and building their objects cost more than the query."""
    teams = [team.id for team in context.teams.values()]
    day = context.match.play_on
    by_side: dict[Side, list[attendance.RosterEntry]] = {Side.HOME: [], Side.AWAY: []}
    found = await session.exec(_rosters_query(), params={"teams": teams, "season": context.match.season_id})  # type: ignore[call-overload]
    for row in found.all():
        side = context.side_of_team(row.team_id)
        if side is not None and roster_entry_applies(row.starts_on, row.ends_on, day):
            entry = attendance.RosterEntry(row.player_id, row.display_name, Role(row.role), row.discord_user_id)
            by_side[side].append(entry)
    return {side: tuple(entries) for side, entries in by_side.items()}


def _rosters_query() -> sa.Select[Any]:
    def build() -> sa.Select[Any]:
        entry, player = RosterEntry.__table__.c, Player.__table__.c  # type: ignore[attr-defined]
        return (
            sa.select(
                entry.team_id,
                entry.player_id,
                entry.role,
                entry.starts_on,
                entry.ends_on,
                player.display_name,
                player.discord_user_id,
            )
            .join_from(RosterEntry, Player, player.id == entry.player_id)
            .where(entry.team_id.in_(params_in("teams")), entry.season_id == param("season"))
        )

    return prepared("team rosters", build)


def of_match(model: type[M], *, ordered: bool = False) -> SelectOfScalar[M]:
    """All of `model`'s rows of one match (`params={"match_id": …}`), in the order written if `ordered`."""

    def build() -> SelectOfScalar[M]:
        table = model.__table__.c  # type: ignore[attr-defined]
        query = select(model).where(table.match_id == param("match_id"))
        return query.order_by(table.id) if ordered else query

    return prepared((model, ordered), build)


def match_params(match_id: int | None) -> dict[str, Any]:
    return {"match_id": match_id}


async def visits(session: AsyncSession, match: Match) -> tuple[attendance.Visit, ...]:
    return _visits((await session.exec(of_match(MatchVisit, ordered=True), params=match_params(match.id))).all())


def _visits(rows: Iterable[MatchVisit]) -> tuple[attendance.Visit, ...]:
    return tuple(attendance.Visit(row.side, row.player_id, row.arrived_at, row.left_at) for row in rows)


async def machines(session: AsyncSession, match: Match) -> tuple[lineup.Machine, ...]:
    """The venue's machines in service (COMMON-MACH-2)."""
    query = prepared(
        "venue machines",
        lambda: select(Machine).where(Machine.venue_id == param("venue"), col(Machine.removed_at).is_(None)),
    )
    return _machines((await session.exec(query, params={"venue": match.venue_id})).all())


def _machines(rows: Iterable[Machine]) -> tuple[lineup.Machine, ...]:
    return tuple(
        lineup.Machine(row.id or 0, row.title, row.max_players, row.balls_per_game)
        for row in rows
        if row.status.in_service
    )


async def machines_out(session: AsyncSession, match: Match) -> frozenset[int]:
    """Machines removed or eliminated during the match (TEAM-MACH-3/4)."""
    return frozenset(
        row.machine_id for row in (await session.exec(of_match(MatchMachineOut), params=match_params(match.id))).all()
    )


async def declarations(session: AsyncSession, match: Match) -> tuple[lineup.DeclaredLineup, ...]:
    return _declarations((await session.exec(of_match(MatchLineup, ordered=True), params=match_params(match.id))).all())


def _declarations(rows: Iterable[MatchLineup]) -> tuple[lineup.DeclaredLineup, ...]:
    return tuple(
        lineup.DeclaredLineup(
            side=row.side,
            round_index=row.round_index,
            lineup=lineup.Lineup(
                games=tuple(lineup.GameEntry(tuple(g["players"]), g.get("machine")) for g in row.games),
                write_in=row.write_in,
            ),
            declared_at=row.declared_at,
            declared_by=lineup.Declarant(row.declared_by, official=row.by_official),
        )
        for row in rows
    )


async def facts_version(session: AsyncSession, match_id: int) -> int:
    """The match's version: any write to what its result is read from changes it (storage/results.py)."""
    query = prepared("facts version", lambda: select(Match.facts_version).where(Match.id == param("match_id")))
    return (await session.exec(query, params=match_params(match_id))).one()


# Tables of a match's night that stay empty on most nights: one probe instead of a read of each.
RARE_NIGHT_TABLES: tuple[type[SQLModel], ...] = (MatchMachineOut, LineupReplacement, MatchGameStart)


async def night(
    session: AsyncSession,
    context: MatchContext,
    match_rosters: dict[Side, tuple[attendance.RosterEntry, ...]] | None = None,
) -> lineup.MatchNight:
    """The state the lineup rules check a declaration against; `match_rosters` if the caller read them."""
    match = context.match
    rare = await tables_with_rows(session, match.id or 0, RARE_NIGHT_TABLES)
    return lineup.MatchNight(
        team_names={side: team.name for side, team in context.teams.items()},
        rosters=match_rosters or await rosters(session, context),
        visits=await visits(session, match),
        machines=await machines(session, match),
        removed=await machines_out(session, match) if MatchMachineOut in rare else frozenset(),
        declarations=await declarations(session, match),
        replacements=await replacements(session, match) if LineupReplacement in rare else (),
        progress=await progress(session, match) if MatchGameStart in rare else (),
    )


async def progress(session: AsyncSession, match: Match) -> tuple[lineup.GameProgress, ...]:
    """TEAM-MACH-2: the games started with `/match start`. A started game is in progress until its scores are
    entered, and done once they are all confirmed; entered but unconfirmed, it is pending again (its machine may
    still fail it, TEAM-MACH-5) and keeps its start time (TEAM-SHORT-4)."""
    starts = (await session.exec(of_match(MatchGameStart), params=match_params(match.id))).all()
    if not starts:
        return ()
    rows = (
        await session.exec(
            select(GameScore.round_index, GameScore.game_number, GameScore.confirmed_at).where(
                GameScore.match_id == match.id, GameScore.status != ScoreStatus.VOID
            )
        )
    ).all()
    confirmed: dict[tuple[int, int], bool] = {}
    for round_index, game_number, confirmed_at in rows:
        key = (round_index, game_number)
        confirmed[key] = confirmed.get(key, True) and confirmed_at is not None
    return tuple(
        lineup.GameProgress(
            start.round_index,
            start.game_number,
            lineup.GameStatus.IN_PROGRESS
            if (key := (start.round_index, start.game_number)) not in confirmed
            else lineup.GameStatus.DONE
            if confirmed[key]
            else lineup.GameStatus.PENDING,
            started_at=start.started_at,
        )
        for start in starts
    )


async def replacements(session: AsyncSession, match: Match) -> tuple[lineup.Replacement, ...]:
    """Entries changed after a machine failed mid-game (TEAM-MACH-5), in the order they were made."""
    return _replacements(
        (await session.exec(of_match(LineupReplacement, ordered=True), params=match_params(match.id))).all()
    )


def _replacements(rows: Iterable[LineupReplacement]) -> tuple[lineup.Replacement, ...]:
    return tuple(
        lineup.Replacement(
            side=row.side,
            round_index=row.round_index,
            game_number=row.game_number,
            entry=lineup.GameEntry(tuple(row.players), row.machine_id),
            declared_at=row.declared_at,
            declared_by=lineup.Declarant(row.declared_by, official=row.by_official),
        )
        for row in rows
    )


def effective_lineups(night: lineup.MatchNight, round_index: int) -> dict[Side, lineup.Lineup]:
    """Each side's lineup for a round as played: the declaration with any TEAM-MACH-5 replacements applied.
    A replacement without a machine keeps the game's machine."""
    return _effective_lineups(night.declarations, night.replacements, round_index)


def _effective_lineups(
    declarations: tuple[lineup.DeclaredLineup, ...], replacements: tuple[lineup.Replacement, ...], round_index: int
) -> dict[Side, lineup.Lineup]:
    lineups = {d.side: d.lineup for d in declarations if d.round_index == round_index}
    for change in replacements:
        if change.round_index != round_index or change.side not in lineups:
            continue
        games = list(lineups[change.side].games)
        kept = games[change.game_number - 1].machine
        games[change.game_number - 1] = lineup.GameEntry(change.entry.players, change.entry.machine or kept)
        lineups[change.side] = lineup.Lineup(tuple(games), lineups[change.side].write_in)
    return lineups


def attendance_call(
    context: MatchContext, match_visits: tuple[attendance.Visit, ...], now: datetime
) -> attendance.AttendanceCall:
    return attendance.classify_attendance(
        match_visits,
        match_day=context.match.play_on,
        zone=context.zone,
        now=now,
        extension_agreed=context.match.extension_agreed,
        options=context.options,
    )


@dataclass(frozen=True)
class StoredFacts:
    """One match's rows from every table that bears on its result."""

    visits: tuple[attendance.Visit, ...]
    machines: tuple[lineup.Machine, ...]
    declarations: tuple[lineup.DeclaredLineup, ...]
    replacements: tuple[lineup.Replacement, ...]
    scores: Sequence[GameScore]
    penalties: Sequence[GamePenalty]
    confirmed: Sequence[Side]
    walkouts: Sequence[MatchWalkout]
    tiebreak: TiebreakerGame | None


# Tables of a match's facts that stay empty on most nights (see `tables_with_rows`).
RARE_FACT_TABLES: tuple[type[SQLModel], ...] = (GamePenalty, MatchConfirmation, MatchWalkout, TiebreakerGame)


async def tables_with_rows(
    session: AsyncSession, match_id: int, tables: Sequence[type[SQLModel]]
) -> frozenset[type[SQLModel]]:
    """Which of these tables (each with a `match_id`) hold rows of the match, asked in one statement: reading
    each table that turns out empty would cost a round trip for nothing."""
    probe = prepared(("rows of match in", tuple(tables)), lambda: _probe(tables))
    found = (await session.exec(probe, params=match_params(match_id))).one()  # type: ignore[call-overload]
    return frozenset(table for table, has_rows in zip(tables, found, strict=True) if has_rows)


def _probe(tables: Sequence[type[SQLModel]]) -> sa.Select[Any]:
    match_id = param("match_id")
    return sa.select(*(sa.exists().where(table.match_id == match_id) for table in tables))  # type: ignore[attr-defined,return-value]


async def facts(
    session: AsyncSession,
    context: MatchContext,
    now: datetime,
    *,
    known: lineup.MatchNight | None = None,
    scores: Sequence[GameScore] | None = None,
    with_rows: frozenset[type[SQLModel]] | None = None,
) -> scoring.MatchFacts:
    """Everything recorded about the match that bears on its result (TEAM-MATCH-*). `known`: the match's
    night if the caller read it already; `scores`: all its GameScore rows (VOID ones included), likewise;
    `with_rows`: which of RARE_FACT_TABLES hold the match's rows (`tables_with_rows`), the others not read."""
    match = context.match

    async def read(table: type[SQLModel]) -> Sequence[Any]:  # a table known to be empty is not read
        if with_rows is not None and table not in with_rows:
            return ()
        return (await session.exec(of_match(table), params=match_params(match.id))).all()

    if known is None:
        match_visits, match_machines = await visits(session, match), await machines(session, match)
        lineups, changes = await declarations(session, match), await replacements(session, match)
    else:
        match_visits, match_machines = known.visits, known.machines
        lineups, changes = known.declarations, known.replacements
    stored = StoredFacts(
        visits=match_visits,
        machines=match_machines,
        declarations=lineups,
        replacements=changes,
        scores=scores
        if scores is not None
        else (await session.exec(of_match(GameScore), params=match_params(match.id))).all(),
        penalties=await read(GamePenalty),
        confirmed=[Side(row.side) for row in await read(MatchConfirmation)],
        walkouts=await read(MatchWalkout),
        tiebreak=next(iter(await read(TiebreakerGame)), None),
    )
    return _facts(context, stored, now)


async def results(
    session: AsyncSession,
    league: League,
    matches: Sequence[Match],
    teams: Mapping[int | None, Team],
    now: datetime,
    *,
    to_store: list[dict[str, Any]] | None = None,
) -> dict[int, scoring.MatchResult]:
    """`result` for many matches at once: one query per table for all of them (a season's standings would
    otherwise cost ten queries per match). `teams` must hold both teams of every match.

    A stored final result (`storage.results`) stands in for a match while its `facts_version` and basis are
    the match's now; the others are computed. The matches' `facts_version` was read with the match rows,
    before any fact, so a write racing this read leaves a copy that no longer matches, never a wrong one.
    Computed results that may be stored (final, nothing missing, attendance settled) are appended to
    `to_store` as MatchFinalResult rows for the caller to write after its read."""
    if not matches:
        return {}
    options_on = _dated_options(league)  # COMMON-LEAGUE-2: each match under the version of its day
    venue_ids = {match.venue_id for match in matches}
    venue_machines: dict[int | None, list[Machine]] = defaultdict(list)
    machine_query = select(Machine).where(col(Machine.venue_id).in_(venue_ids), col(Machine.removed_at).is_(None))
    for machine in (await session.exec(machine_query)).all():
        venue_machines[machine.venue_id].append(machine)
    in_service = {venue: _machines(rows) for venue, rows in venue_machines.items()}
    bases = {
        (venue, day): result_basis(options_on(day), league.timezone, in_service.get(venue, ()))
        for venue, day in {(match.venue_id, match.play_on) for match in matches}
    }
    found: dict[int, scoring.MatchResult] = {}
    stored = await _stored_results(session, [match.id or 0 for match in matches])
    to_compute = []
    for index, match in enumerate(matches):
        if index % YIELD_EVERY_STORED == YIELD_EVERY_STORED - 1:
            await asyncio.sleep(0)
        copy = stored.get(match.id or 0)
        if (
            copy is not None
            and copy.facts_version == match.facts_version
            and copy.basis == bases[match.venue_id, match.play_on]
        ):
            found[match.id or 0] = _rebuilt(copy)
        else:
            to_compute.append(match)
    if not to_compute:
        return found
    by_match: dict[type[SQLModel], dict[int, list[Any]]] = {}
    ids = [match.id or 0 for match in to_compute]
    for table in RESULT_TABLES:
        # Plain rows, not model instances: building thousands of SQLModel objects costs more than the query.
        columns = table.__table__.c  # type: ignore[attr-defined]
        grouped: dict[int, list[Any]] = defaultdict(list)
        for start in range(0, len(ids), BATCH):
            query = sa.select(*columns).where(columns.match_id.in_(ids[start : start + BATCH]))
            for row in (await session.exec(query.order_by(columns.id))).all():  # type: ignore[call-overload]
                grouped[row.match_id].append(row)
        by_match[table] = grouped
    zone = ZoneInfo(league.timezone)
    for index, match in enumerate(to_compute):
        if index % YIELD_EVERY == YIELD_EVERY - 1:
            await asyncio.sleep(0)  # a season is CPU work: let other members' commands (autocomplete) in between
        context = MatchContext(
            league,
            match,
            {Side.HOME: teams[match.home_team_id], Side.AWAY: teams[match.away_team_id]},
            options_on(match.play_on),
        )
        rows = {table: grouped.get(match.id or 0, []) for table, grouped in by_match.items()}
        facts_rows = StoredFacts(
            visits=_visits(rows[MatchVisit]),
            machines=in_service.get(match.venue_id, ()),
            declarations=_declarations(rows[MatchLineup]),
            replacements=_replacements(rows[LineupReplacement]),
            scores=rows[GameScore],
            penalties=rows[GamePenalty],
            confirmed=[Side(row.side) for row in rows[MatchConfirmation]],
            walkouts=rows[MatchWalkout],
            tiebreak=next(iter(rows[TiebreakerGame]), None),
        )
        computed = scoring.match_result(_facts(context, facts_rows, now), context.options)
        found[match.id or 0] = computed
        if (
            to_store is not None
            and computed.final
            and not computed.missing
            and now >= attendance.window_settled_at(match.play_on, zone=zone, options=context.options)
        ):
            to_store.append(_storable(match, bases[match.venue_id, match.play_on], computed))
    return found


def _rules_digest() -> bytes:
    """The team rules' and this module's source: a release that changes how results are computed must not
    reuse results stored by the one before."""
    files = [*sorted(Path(bot.rules.team.__file__).parent.glob("*.py")), Path(__file__)]
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.read_bytes())
    return digest.digest()


RULES_DIGEST = _rules_digest()


def match_options(league: League, match: Match) -> TeamOptions:
    """COMMON-LEAGUE-2: the options a match is played and scored under, those in effect on its day."""
    return TeamOptions.model_validate(options_on(league, match.play_on))


def _dated_options(league: League) -> Callable[[date], TeamOptions]:
    """`match_options` for many matches: each version validated once."""
    return cache(lambda day: TeamOptions.model_validate(options_on(league, day)))


def result_basis(options: TeamOptions, timezone: str, machines: Iterable[lineup.Machine]) -> str:
    """What a stored result was computed under besides the match's own rows: the rules, the league's options
    (defaults included) and time zone, and the venue's machines in service with their player counts."""
    inputs = {
        "options": options.model_dump(mode="json"),
        "timezone": timezone,
        "machines": sorted([machine.machine_id, machine.max_players] for machine in machines),
    }
    digest = hashlib.sha256(RULES_DIGEST)
    digest.update(json.dumps(inputs, sort_keys=True, separators=(",", ":")).encode())
    return digest.hexdigest()[:BASIS_LENGTH]


async def _stored_results(session: AsyncSession, ids: Sequence[int]) -> dict[int, Any]:
    columns = MatchFinalResult.__table__.c  # type: ignore[attr-defined]
    found = {}
    for start in range(0, len(ids), BATCH):
        query = sa.select(*columns).where(columns.match_id.in_(ids[start : start + BATCH]))
        for row in (await session.exec(query)).all():  # type: ignore[call-overload]
            found[row.match_id] = row
    return found


def _storable(match: Match, basis: str, result: scoring.MatchResult) -> dict[str, Any]:
    outcome = result.outcome or {}
    return {
        "match_id": match.id,
        "facts_version": match.facts_version,
        "basis": basis,
        "home_points": result.points[Side.HOME],
        "away_points": result.points[Side.AWAY],
        "home_outcome": outcome.get(Side.HOME),
        "away_outcome": outcome.get(Side.AWAY),
        "available_points": result.available_points,
        "needs_tiebreaker": result.needs_tiebreaker,
        "flags": ",".join(result.flags),
    }


def _rebuilt(row: Any) -> scoring.MatchResult:
    """The MatchResult a stored row was made from (`_storable`): final, nothing missing. The outcomes come back
    as MatchOutcome already (the column type converts them)."""
    outcome = None
    if row.home_outcome is not None and row.away_outcome is not None:
        outcome = {Side.HOME: row.home_outcome, Side.AWAY: row.away_outcome}
    return scoring.MatchResult(
        points={Side.HOME: row.home_points, Side.AWAY: row.away_points},
        outcome=outcome,
        available_points=row.available_points,
        final=True,
        needs_tiebreaker=row.needs_tiebreaker,
        flags=tuple(scoring.Flag(flag) for flag in row.flags.split(",")) if row.flags else (),
    )


@dataclass(frozen=True)
class RoundGame:
    """One game of a declared round: its machine, picked by the round's first declarer (TEAM-LINEUP-3)."""

    plan: lineup.RoundPlan
    machine: int | None
    scores: scoring.GameScores


def _rounds(options: TeamOptions, stored: StoredFacts) -> list[list[RoundGame]]:
    """The declared rounds' games in order, each with its machine and its entered (not void) scores."""
    max_players = {m.machine_id: m.max_players for m in stored.machines}
    by_game: dict[tuple[int, int], dict[Side, list[scoring.PlayerScore]]] = defaultdict(
        lambda: {Side.HOME: [], Side.AWAY: []}
    )
    for row in stored.scores:
        if row.status is not ScoreStatus.VOID:  # a replayed game's first scores do not make it entered
            by_game[(row.round_index, row.game_number)][row.side].append(
                scoring.PlayerScore(row.player_id, row.score, row.status)
            )
    penalties_by_game: dict[tuple[int, int], list[scoring.Penalty]] = defaultdict(list)
    for penalty in stored.penalties:
        penalties_by_game[(penalty.round_index, penalty.game_number)].append(
            scoring.Penalty(penalty.offence, penalty.player_id)
        )
    rounds: list[list[RoundGame]] = []
    for plan in lineup.round_plan(options):
        lineups = _effective_lineups(stored.declarations, stored.replacements, plan.index)
        if len(lineups) < 2:
            break  # rounds are played in order; an undeclared round has no games yet
        games = []
        for number in range(1, len(lineups[plan.first_declarer].games) + 1):
            entries = {side: lineups[side].games[number - 1] for side in Side}
            machine = entries[plan.first_declarer].machine
            entered = by_game[(plan.index, number)]
            scores = scoring.GameScores(
                kind=plan.kind,
                home=tuple(entered[Side.HOME]),
                away=tuple(entered[Side.AWAY]),
                machine_players=max_players.get(machine or 0, 4),
                forfeited_by=frozenset(side for side in Side if not entries[side].players),
                penalties=tuple(penalties_by_game[(plan.index, number)]),
            )
            games.append(RoundGame(plan, machine, scores))
        rounds.append(games)
    return rounds


def _facts(context: MatchContext, stored: StoredFacts, now: datetime) -> scoring.MatchFacts:
    match = context.match
    call = attendance_call(context, stored.visits, now)
    status = dict(call.status) if call.status else dict.fromkeys(Side, attendance.AttendanceStatus.NORMAL)
    rounds = tuple(tuple(game.scores for game in played) for played in _rounds(context.options, stored))
    tiebreak = stored.tiebreak
    return scoring.MatchFacts(
        attendance=status,
        rounds=rounds,
        tiebreaker=scoring.TiebreakerScores(tiebreak.home_score, tiebreak.away_score) if tiebreak else None,
        confirmed_by=frozenset(stored.confirmed),
        walkouts={row.side: row.kind for row in stored.walkouts},
        played_out_evening=match.played_out_evening,
        venue_forfeit=match.venue_forfeit,
    )


async def machine_games(session: AsyncSession, league: League, matches: Sequence[Match]) -> list[scouting.MachineGame]:
    """Every game of these matches whose scores were all confirmed (COMMON-SCORE-3), with its machine, the team
    that picked it (TEAM-LINEUP-3) and the winner: one query per table for all of them."""
    options = TeamOptions.model_validate(league.options)
    ids = [match.id or 0 for match in matches]
    rows: dict[type[SQLModel], dict[int, list[Any]]] = {}
    for table in (MatchLineup, LineupReplacement, GameScore, GamePenalty):
        grouped: dict[int, list[Any]] = defaultdict(list)
        for start in range(0, len(ids), BATCH):
            query = select(table).where(col(table.match_id).in_(ids[start : start + BATCH]))
            for row in (await session.exec(query.order_by(col(table.id)))).all():
                grouped[row.match_id].append(row)  # type: ignore[attr-defined]
        rows[table] = grouped
    venues = {match.venue_id for match in matches if match.venue_id is not None}
    venue_machines: dict[int | None, list[Machine]] = defaultdict(list)
    titles: dict[int, str] = {}
    for machine in (await session.exec(select(Machine).where(col(Machine.venue_id).in_(venues)))).all():
        venue_machines[machine.venue_id].append(machine)
        titles[machine.id or 0] = machine.title
    games = []
    for match in matches:
        match_id = match.id or 0
        scores = rows[GameScore][match_id]
        unconfirmed = {(s.round_index, s.game_number) for s in scores if s.confirmed_at is None}
        stored = StoredFacts(
            visits=(),
            machines=_machines(venue_machines[match.venue_id]),
            declarations=_declarations(rows[MatchLineup][match_id]),
            replacements=_replacements(rows[LineupReplacement][match_id]),
            scores=[s for s in scores if (s.round_index, s.game_number) not in unconfirmed],
            penalties=rows[GamePenalty][match_id],
            confirmed=(),
            walkouts=(),
            tiebreak=None,
        )
        team_of = {Side.HOME: match.home_team_id, Side.AWAY: match.away_team_id}
        for played in _rounds(options, stored):
            for game in played:
                if game.machine not in titles or not (game.scores.home or game.scores.away):
                    continue
                winner = scoring.game_result(game.scores, options).winner
                games.append(
                    scouting.MachineGame(
                        machine=titles[game.machine],
                        teams=frozenset(team_of.values()),
                        picked_by=team_of[game.plan.first_declarer],
                        winner=team_of[winner] if winner is not None else None,
                    )
                )
    return games


async def result(session: AsyncSession, context: MatchContext, now: datetime) -> scoring.MatchResult:
    return scoring.match_result(await facts(session, context, now), context.options)


async def context_for(session: AsyncSession, league: League, match: Match) -> MatchContext:
    teams = {
        Side.HOME: await session.get(Team, match.home_team_id),
        Side.AWAY: await session.get(Team, match.away_team_id),
    }
    assert teams[Side.HOME] is not None and teams[Side.AWAY] is not None
    return MatchContext(league, match, teams, match_options(league, match))  # type: ignore[arg-type]
