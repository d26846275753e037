"""A team league with a season of history, for the exchange tests: set up through Discord, played with the
match facts the match-night commands record, and one of every other kind of fact written straight into storage
(a replacement game with VOID scores, a penalty, a machine out, a challenge and its ruling, a tie-breaker, a
walkout)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import col, select

from bot.rules.team.model import ScoreStatus, Side
from bot.rules.team.scoring import Offence, Walkout
from storage.matches import (
    GamePenalty,
    GameScore,
    LineupReplacement,
    MachineOut,
    MatchChallenge,
    MatchMachineOut,
    MatchWalkout,
    TiebreakerGame,
    TiebreakerSetup,
)
from storage.models import Machine
from tests.e2e.harness import RunningBot
from tests.e2e.season import Facts, set_up_season_league, stored_matches

MACHINES = [("Ace Arcade", "Godzilla", "Premium"), ("Ace Arcade", "Medieval Madness", None),
            ("Barcade", "Twilight Zone", None), ("Silver Ball", "Attack from Mars", None)]  # fmt: skip
RULED_AT = datetime(2027, 3, 3, 3, 0, 0, 654321, tzinfo=UTC)


async def build_history(league: RunningBot) -> None:
    await set_up_season_league(league)
    for venue, model, variant in MACHINES:
        extra = f" variant:{variant}" if variant else ""
        await league.run(f'/machine add venue:"{venue}" model:"{model}"{extra}', as_member="alice")
    generated = await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
    assert not generated.ephemeral, generated.content
    await play_week_one(league)


async def play_week_one(league: RunningBot) -> None:
    matches = await stored_matches(league)
    facts = await Facts.load(league)
    async with league.db.reading() as session:
        godzilla = (await session.exec(select(Machine).order_by(col(Machine.id)))).first()
    assert godzilla is not None and godzilla.id is not None
    played, level = [match for match in matches if match.week == 1][:2]
    await facts.played(played, "HAHAHHAAHHAA", machine=godzilla.id)
    await facts.played(level, "HAHAHAHAHAHA", machine=godzilla.id)
    home = facts.players[played.home_team_id]
    away = facts.players[played.away_team_id]
    async with league.db.writing() as session:
        session.add(
            GameScore(match_id=played.id or 0, round_index=3, game_number=1, side=Side.HOME, player_id=home[0],
                      score=12_345, status=ScoreStatus.VOID, entered_by=1, entered_at=RULED_AT)
        )  # fmt: skip
        session.add(
            LineupReplacement(match_id=played.id or 0, round_index=3, game_number=1, side=Side.HOME,
                              players=[home[0]], machine_id=godzilla.id, declared_at=RULED_AT, by_official=True)
        )  # fmt: skip
        session.add(
            GamePenalty(match_id=played.id or 0, round_index=4, game_number=2, offence=Offence.SLAM_TILT,
                        player_id=away[1], recorded_by=7, recorded_at=RULED_AT)
        )  # fmt: skip
        session.add(
            MatchMachineOut(match_id=played.id or 0, machine_id=godzilla.id, kind=MachineOut.REMOVED,
                            reason="flipper, both captains agreed", recorded_by=7, recorded_at=RULED_AT)
        )  # fmt: skip
        session.add(
            MatchChallenge(match_id=played.id or 0, side=Side.AWAY, games=[[4, 2]], reason="tilt, \"really\"?\nsee",
                           raised_by=8, raised_at=RULED_AT, ruling="stands", ruled_by=9, ruled_at=RULED_AT)
        )  # fmt: skip
        session.add(
            TiebreakerSetup(match_id=level.id or 0, game_format="singles", format_by=Side.HOME,
                            machine_id=godzilla.id, machine_by=Side.AWAY,
                            home_players=facts.players[level.home_team_id][:1],
                            away_players=facts.players[level.away_team_id][:1])
        )  # fmt: skip
        session.add(
            TiebreakerGame(match_id=level.id or 0, home_score=1_000_000, away_score=2_000_000, entered_by=1,
                           entered_at=RULED_AT)
        )  # fmt: skip
        session.add(MatchWalkout(match_id=level.id or 0, side=Side.AWAY, kind=Walkout.REFUSED, recorded_by=9,
                                 recorded_at=RULED_AT))  # fmt: skip
