"""Stored final results (storage/results.py): every write to a match's facts makes its stored copy unused, a
copy stands in for scoring only while the facts, options and machines it was computed from are unchanged, and
standings read from copies equal the ones computed from the facts, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from sqlmodel import SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import ManualClock
from bot.rules.team.model import ScoreStatus, Side
from bot.rules.team.scoring import Offence, Walkout
from bot.services.actor import Actor
from bot.services.team.schedule import ScheduledLine, season_matches
from bot.services.team.standings import StandingsService
from storage.db import Database
from storage.matches import (
    GamePenalty,
    GameScore,
    Match,
    MatchChallenge,
    MatchConfirmation,
    MatchLineup,
    MatchVisit,
    MatchWalkout,
    TiebreakerGame,
)
from storage.models import League, Machine, Season
from storage.results import MATCH_COLUMNS_NOT_IN_RESULTS, RESULT_TABLES, MatchFinalResult, UntrackedResultWrite
from tests.storage import helpers as make
from tests.storage.helpers import add, count

NEW_YORK = ZoneInfo("America/New_York")
FIRST_DAY = date(2026, 3, 3)
LATER = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)  # every match's start window long settled
ROUNDS = [[[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0], [1], [2], [3]], [[0], [1], [2], [3]]]
# Tables with a match_id that results are not computed from, and why: a new one must be put here or in
# RESULT_TABLES (and then read by `match_facts.results`).
NOT_RESULT_INPUTS = {
    "match_machine_out": "the lineup rules check it; a result is scored on the machines the games were played on",
    "match_challenge": "an open dispute is shown beside the result, not in it",
    "tiebreaker_setup": "format, machine and players of the tie-breaker; only its score (tiebreaker_game) counts",
    "alternative_result": "TEAM-DISP-3's result B; the ruling that picks it writes game scores",
    "match_agreement": "terms captains agreed; the facts they lead to are written on their own",
    "discipline_entry": "warnings and suspensions, about players",
    "machine_issue": "the venue operators' log",
    "roll_call_reply": "who says they will come; check-ins (match_visit) are what counts",
    "match_game_start": "which games are in progress (TEAM-MACH-2); scores decide, not when a game began",
    "extra_ball_opt_out": "extra balls are played on the machine; the scores entered already include them",
    "game_photo": "a photo of the display shown beside a game's scores; the scores (game_score) count",
    "forfeit_evening_score": "games of a forfeit evening count for high scores, never for points (TEAM-FORF-2)",
}


@dataclass
class League_:
    league: League
    season: Season
    machine: Machine
    players: dict[int, list[int]]  # team id → its four players
    matches: list[Match]  # played and signed, won by HOME, won by AWAY, a venue forfeit, played but unsigned


async def seed(db: Database) -> League_:
    async with db.writing() as session:
        league = await add(session, make.league(timezone="America/New_York"))
        season = await add(session, make.season(league.id))
        venue = await add(session, make.venue(league.id))
        machine = await add(session, make.machine(league.id, venue.id, max_players=4))
        teams = [await add(session, make.team(league.id, name)) for name in ("Home Team", "Away Team")]
        players = {
            team.id: [(await add(session, make.player(league.id, 1000 * n + i))).id for i in range(4)]
            for n, team in enumerate(teams, start=1)
        }
        matches = []
        for week, how in enumerate(("H" * 12, "A" * 12, "forfeit", "HHHHHAAAAAAA"), start=1):
            match = await add(
                session,
                Match(league_id=league.id, season_id=season.id, week=week, play_on=FIRST_DAY + timedelta(weeks=week),
                      home_team_id=teams[0].id, away_team_id=teams[1].id, venue_id=venue.id),
            )  # fmt: skip
            if how == "forfeit":
                match.venue_forfeit = Side.AWAY
            else:
                played(session, match, how, players, machine.id or 0, signed=week != 4)
            matches.append(match)
    return League_(league, season, machine, players, matches)


def played(
    session: AsyncSession, match: Match, winners: str, players: dict[int, list[int]], machine: int, *, signed: bool
) -> None:
    """Four players a side from 19:50, every game on `machine`, `winners` the winning side of each game."""

    def at(moment: time) -> datetime:
        return datetime.combine(match.play_on, moment, tzinfo=NEW_YORK)

    games = iter(winners)
    for index, round_games in enumerate(ROUNDS, start=1):
        won = [next(games) for _ in round_games]
        for side in Side:
            team = players[match.home_team_id if side is Side.HOME else match.away_team_id]
            entries = [[team[i] for i in game] for game in round_games]
            session.add(MatchLineup(match_id=match.id or 0, round_index=index, side=side, declared_at=at(time(20)),
                                    games=[{"players": entry, "machine": machine} for entry in entries]))  # fmt: skip
            for number, (entry, winner) in enumerate(zip(entries, won, strict=True), start=1):
                for player in entry:
                    session.add(GameScore(match_id=match.id or 0, round_index=index, game_number=number, side=side,
                                          player_id=player, score=100 if winner == side.value[0].upper() else 50,
                                          entered_by=1, entered_at=at(time(22))))  # fmt: skip
    for side in Side:
        team = players[match.home_team_id if side is Side.HOME else match.away_team_id]
        for player in team:
            session.add(MatchVisit(match_id=match.id or 0, side=side, player_id=player, arrived_at=at(time(19, 50))))
        if signed:
            session.add(MatchConfirmation(match_id=match.id or 0, side=side, confirmed_by=1, confirmed_at=at(time(23))))


ACTOR = Actor(guild_id=111, user_id=1, display_name="fan", role_ids=frozenset(), is_admin=False, command="/standings")


async def standings(db: Database, now: datetime) -> list[str]:
    """/standings as a new process would compute it (no results kept in memory): each team's row."""
    view = await StandingsService(db, ManualClock(now)).table(ACTOR, None, conference=None)
    return [f"{row.team} {row.wins}-{row.losses} {row.match_points}" for table in view.tables for row in table.rows]


async def lines(db: Database, seeded: League_, now: datetime) -> list[ScheduledLine]:
    async with db.reading() as session:
        league = await session.get(League, seeded.league.id)
        season = await session.get(Season, seeded.season.id)
        assert league is not None and season is not None
        return await season_matches(session, league, season, now=now)


async def recomputed(db: Database, seeded: League_, now: datetime) -> list[Any]:
    """Every match's result computed from its facts alone: the stored copies are moved aside and put back."""
    async with db.writing() as session:
        kept = [dict(row._mapping) for row in (await session.exec(sa.select(MatchFinalResult.__table__))).all()]  # type: ignore[call-overload]
        await session.exec(sa.delete(MatchFinalResult))  # type: ignore[call-overload]
    found = [line.result for line in await lines(db, seeded, now)]
    if kept:
        async with db.writing() as session:
            await session.exec(sa.insert(MatchFinalResult), params=kept)  # type: ignore[call-overload]
    return found


@contextmanager
def facts_read(db: Database) -> Iterator[list[str]]:
    """The statements that read game scores while the block runs: none when every result came from a copy."""
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "FROM game_score" in statement:
            statements.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", seen)
    try:
        yield statements
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", seen)


async def stored(db: Database) -> dict[int, MatchFinalResult]:
    async with db.reading() as session:
        return {row.match_id: row for row in (await session.exec(select(MatchFinalResult))).all()}


async def versions(db: Database) -> dict[int, int]:
    async with db.reading() as session:
        return {m.id or 0: m.facts_version for m in (await session.exec(select(Match))).all()}


# --- coverage ------------------------------------------------------------------------------------------


def test_every_table_of_a_matchs_rows_is_a_result_input_or_said_not_to_be() -> None:
    """A new table holding a match's rows must say whether results are computed from it: if so, the flush
    listener bumps the match's `facts_version` when it changes and `match_facts.results` reads it."""
    with_match = {table.name for table in SQLModel.metadata.sorted_tables if "match_id" in table.columns}
    inputs = {model.__tablename__ for model in RESULT_TABLES}  # type: ignore[attr-defined]
    assert with_match - {"match_final_result"} == inputs | set(NOT_RESULT_INPUTS), (
        "classify the new table in storage/results.py RESULT_TABLES or NOT_RESULT_INPUTS here"
    )
    assert not inputs & set(NOT_RESULT_INPUTS)
    ignored = MATCH_COLUMNS_NOT_IN_RESULTS - {"facts_version"}
    assert ignored == {"scoreboard_channel_id", "scoreboard_message_id"}, "a result may depend on any other column"


# --- invalidation -----------------------------------------------------------------------------------------


async def test_every_write_to_a_matchs_facts_bumps_its_version(db: Database) -> None:
    seeded = await seed(db)
    match = seeded.matches[3]
    start = (await versions(db))[match.id or 0]
    player = seeded.players[match.home_team_id][0]

    async def bumped(change: Callable[[AsyncSession], Awaitable[None]]) -> int:
        before = await versions(db)
        async with db.writing() as session:
            await change(session)
        after = await versions(db)
        assert {k: v for k, v in after.items() if k != match.id} == {k: v for k, v in before.items() if k != match.id}
        return after[match.id or 0] - before[match.id or 0]

    async def first_score(session: AsyncSession) -> GameScore:
        return (await session.exec(select(GameScore).where(GameScore.match_id == match.id))).first()  # type: ignore[return-value]

    async def add_penalty(session: AsyncSession) -> None:
        session.add(GamePenalty(match_id=match.id or 0, round_index=1, game_number=1, offence=Offence.SLAM_TILT,
                                player_id=player, recorded_by=1, recorded_at=LATER))  # fmt: skip

    async def correct_score(session: AsyncSession) -> None:
        score = await first_score(session)
        score.score = 5
        session.add(score)

    async def touch_score(session: AsyncSession) -> None:  # set to what it is: nothing changed
        score = await first_score(session)
        score.score = score.score
        session.add(score)

    async def delete_penalty(session: AsyncSession) -> None:
        for row in (await session.exec(select(GamePenalty))).all():
            await session.delete(row)

    async def match_column(name: str, value: Any) -> Callable[[AsyncSession], Awaitable[None]]:
        async def change(session: AsyncSession) -> None:
            row = await session.get(Match, match.id)
            setattr(row, name, value)
            session.add(row)

        return change

    async def challenge(session: AsyncSession) -> None:
        session.add(MatchChallenge(match_id=match.id or 0, side=Side.AWAY, reason="no", raised_by=1, raised_at=LATER))

    assert await bumped(add_penalty) == 1
    assert await bumped(correct_score) == 1
    assert await bumped(touch_score) == 0
    assert await bumped(delete_penalty) == 1
    assert await bumped(await match_column("extension_agreed", True)) == 1
    assert await bumped(await match_column("played_out_evening", True)) == 1
    assert await bumped(await match_column("scoreboard_message_id", 42)) == 0
    assert await bumped(challenge) == 0
    assert (await versions(db))[match.id or 0] == start + 5


async def test_bulk_statements_through_a_session_bump_the_matches_they_touch(db: Database) -> None:
    """The benchmark seeds and resets facts with insert/update/delete statements, not the unit of work: those
    bump the matches they touch too, and one whose matches cannot be told is refused."""
    seeded = await seed(db)
    first, second = seeded.matches[0].id or 0, seeded.matches[1].id or 0
    player = seeded.players[seeded.matches[0].home_team_id][0]
    start = await versions(db)

    async def run(statement: Any, params: Any = None) -> dict[int, int]:
        async with db.writing() as session:
            await session.exec(statement, params=params)
        now = await versions(db)
        return {match: now[match] - start[match] for match in now if now[match] != start[match]}

    penalty = {"match_id": first, "round_index": 1, "game_number": 1, "offence": Offence.SLAM_TILT,
               "player_id": player, "recorded_by": 1, "recorded_at": LATER}  # fmt: skip
    assert await run(sa.insert(GamePenalty), [penalty]) == {first: 1}
    assert await run(sa.delete(GameScore).where(GameScore.match_id == second)) == {first: 1, second: 1}
    assert await run(sa.update(Match).where(Match.id == second).values(scoreboard_message_id=7)) == {
        first: 1, second: 1,
    }  # fmt: skip
    assert await run(sa.update(Match).where(Match.id == first).values(played_out_evening=True)) == {
        first: 2, second: 1,
    }  # fmt: skip
    with pytest.raises(UntrackedResultWrite, match="pass the rows"):
        await run(sa.insert(GamePenalty).values(**{**penalty, "game_number": 2}))


# --- reading copies ---------------------------------------------------------------------------------------


async def test_standings_from_stored_results_equal_the_computed_ones(db: Database) -> None:
    """TEAM-STAND-1: the first standings store the three final results; the next read them and nothing else,
    and every match's result read from a copy equals the one computed from the facts."""
    seeded = await seed(db)
    with facts_read(db) as cold:
        first = await standings(db, LATER)
    assert cold and set(await stored(db)) == {m.id for m in seeded.matches[:3]}  # the unsigned one is not final
    with facts_read(db) as warm:
        again = await standings(db, LATER)
        from_copies = [line.result for line in await lines(db, seeded, LATER)]
    assert again == first
    assert len(warm) == 2  # only the unsigned match is scored, once for each call
    assert from_copies == await recomputed(db, seeded, LATER)
    assert [line.result is not None and line.result.final for line in await lines(db, seeded, LATER)] == [
        True, True, True, False,
    ]  # fmt: skip


def _changes(seeded: League_) -> dict[str, Callable[[AsyncSession], Awaitable[None]]]:
    """Ways a commissioner (or a late entry) changes a final match: TEAM-MATCH-4 results stand until corrected."""
    match = seeded.matches[0]
    home = seeded.players[match.home_team_id]

    async def score_correction(session: AsyncSession) -> None:  # COMMON-SCORE-3 override: HOME loses R3 G1
        score = (await session.exec(select(GameScore).where(GameScore.match_id == match.id, GameScore.round_index == 3,
                                                            GameScore.side == Side.HOME))).first()  # fmt: skip
        assert score is not None
        score.score = 1
        session.add(score)

    async def penalty(session: AsyncSession) -> None:  # TEAM-PEN-5: slam tilt loses HOME the first doubles game
        session.add(GamePenalty(match_id=match.id or 0, round_index=1, game_number=1, offence=Offence.SLAM_TILT,
                                player_id=home[0], recorded_by=1, recorded_at=LATER))  # fmt: skip

    async def replay(session: AsyncSession) -> None:  # TEAM-MACH-6: a replay's score replaces the first
        session.add(GameScore(match_id=match.id or 0, round_index=4, game_number=1, side=Side.HOME, player_id=home[0],
                              score=1, status=ScoreStatus.REPLAY_REPLACES, entered_by=1, entered_at=LATER))  # fmt: skip

    async def walkout(session: AsyncSession) -> None:  # TEAM-FORF-4: HOME left before round 4: its 4 points to AWAY
        for score in (await session.exec(select(GameScore).where(GameScore.match_id == match.id,
                                                                 GameScore.round_index == 4))).all():  # fmt: skip
            await session.delete(score)
        session.add(MatchWalkout(match_id=match.id or 0, side=Side.HOME, kind=Walkout.LEFT, recorded_by=1,
                                 recorded_at=LATER))  # fmt: skip

    async def reopened(session: AsyncSession) -> None:  # TEAM-MATCH-4: the override that removes the signatures
        for row in (await session.exec(select(MatchConfirmation).where(MatchConfirmation.match_id == match.id))).all():
            await session.delete(row)

    async def venue_forfeit(session: AsyncSession) -> None:  # TEAM-VENUE-1 override
        row = await session.get(Match, match.id)
        assert row is not None
        row.venue_forfeit = Side.HOME
        session.add(row)

    async def tiebreaker(session: AsyncSession) -> None:  # level after a correction, then a tie-breaker game
        for score in (await session.exec(select(GameScore).where(GameScore.match_id == match.id,
                                                                 GameScore.round_index > 2))).all():  # fmt: skip
            score.score = 100 if (score.side is Side.HOME) == (score.round_index == 3) else 50
            session.add(score)
        await session.flush()
        session.add(TiebreakerGame(match_id=match.id or 0, home_score=10, away_score=20, entered_by=1,
                                   entered_at=LATER))  # fmt: skip

    return {f.__name__: f for f in (score_correction, penalty, replay, walkout, reopened, venue_forfeit, tiebreaker)}


@pytest.mark.parametrize(
    "change", ["score_correction", "penalty", "replay", "walkout", "reopened", "venue_forfeit", "tiebreaker"]
)
async def test_a_change_to_a_final_match_is_in_the_next_standings(db: Database, change: str) -> None:
    """TEAM-STAND-1: after a correction to a final match its stored copy is not used; the next standings are
    those computed from the new facts, and the new result (if final) is stored under the new version."""
    seeded = await seed(db)
    before = await standings(db, LATER)
    match = seeded.matches[0]
    old = (await stored(db))[match.id or 0]
    async with db.writing() as session:
        await _changes(seeded)[change](session)
    version = (await versions(db))[match.id or 0]
    assert version > old.facts_version
    after = await standings(db, LATER)
    results = [line.result for line in await lines(db, seeded, LATER)]
    assert results == await recomputed(db, seeded, LATER)
    assert results[0] is not None
    if change != "reopened":  # a reopened match has no result until signed again
        assert after != before, change
        assert (await stored(db))[match.id or 0].facts_version == version
    else:
        assert not results[0].final and (await stored(db))[match.id or 0].facts_version < version  # left, unused


async def test_new_options_or_machines_leave_the_copies_unused(db: Database) -> None:
    """TEAM-CFG-2, COMMON-MACH-2: a change of the league's options or of a machine's player count is no match
    row, but the results computed under the old ones are not used."""
    seeded = await seed(db)
    await standings(db, LATER)
    bases = {row.basis for row in (await stored(db)).values()}
    async with db.writing() as session:
        league = await session.get(League, seeded.league.id)
        assert league is not None
        league.options = {"illegal_move_win_pts": 10}  # TEAM-VENUE-1: the forfeit win is worth 10, not 12
        session.add(league)
    with facts_read(db) as reads:
        await standings(db, LATER)
    assert len(reads) == 1  # every match scored again, in one read
    forfeit = (await lines(db, seeded, LATER))[2].result
    assert forfeit is not None and set(forfeit.points.values()) == {0, 10}
    assert [line.result for line in await lines(db, seeded, LATER)] == await recomputed(db, seeded, LATER)
    after_options = {row.basis for row in (await stored(db)).values()}
    assert len(after_options) == 1 and not after_options & bases

    async with db.writing() as session:
        machine = await session.get(Machine, seeded.machine.id)
        assert machine is not None
        machine.max_players = 2
        session.add(machine)
    with facts_read(db) as reads:
        await standings(db, LATER)
    assert len(reads) == 1
    assert [line.result for line in await lines(db, seeded, LATER)] == await recomputed(db, seeded, LATER)
    assert not {row.basis for row in (await stored(db)).values()} & after_options


async def test_nothing_is_stored_while_attendance_could_still_change(db: Database) -> None:
    """TEAM-SCHED-3: a venue forfeit is final at once, but it is stored only from 20:30 on match day, when the
    start window (20:00, 15 minutes' wait, 15 more if agreed) can no longer change any attendance call."""
    seeded = await seed(db)
    forfeit = seeded.matches[2]
    async with db.writing() as session:
        await session.exec(sa.delete(MatchFinalResult))  # type: ignore[call-overload]
    evening = datetime.combine(forfeit.play_on, time(20, 29), tzinfo=NEW_YORK)
    await standings(db, evening)
    assert forfeit.id not in await stored(db)
    line = next(line for line in await lines(db, seeded, evening) if line.match.id == forfeit.id)
    assert line.result is not None and line.result.final
    await standings(db, evening + timedelta(minutes=1))
    assert forfeit.id in await stored(db)
    assert await count(db, MatchFinalResult) == 3  # the two played before, and the forfeit


async def test_a_failed_write_back_still_answers(db: Database, caplog: pytest.LogCaptureFixture) -> None:
    """Stored results are derived data: when they cannot be written, /standings answers and logs it."""
    await seed(db)
    service = StandingsService(db, ManualClock(LATER))

    def refuse(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO MATCH_FINAL_RESULT"):
            raise RuntimeError("disk full")

    event.listen(db.engine.sync_engine, "before_cursor_execute", refuse)
    try:
        view = await service.table(ACTOR, None, conference=None)
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", refuse)
    assert view.final_matches == 3 and await count(db, MatchFinalResult) == 0
    assert "storing 3 final match results failed" in caplog.text
